"""CLI behaviour: outputs written, JSON parses, bad input is an InputError, results independent of workers."""

import json
import subprocess
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

from analyzer.cli.schnapsen import app
from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.advice import perfect_outcomes
from analyzer.games.schnapsen.state import SchnapsenState

runner = CliRunner()
FRESH = "hand0=HJ SA SK SQ CJ; hand1=DA DT DK DQ DJ; stock=CQ CK CT CA HQ HK HT ST SJ HA; leader=0"


def invoke(args):
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout  # stderr may hold the first run's compile notice


def test_match_outputs_and_worker_independence(tmp_path):
    base = ["match", "--bots", "heuristic", "random", "--matches", "4", "--chunk-size", "2", "--seed", "3", "--json"]
    one = json.loads(invoke(base + ["--workers", "1", "--out", str(tmp_path / "a")]))
    two = json.loads(invoke(base + ["--workers", "2", "--out", str(tmp_path / "b")]))
    assert one["overall"] == two["overall"] and one["paired"] == two["paired"]
    rows = pd.read_parquet(tmp_path / "a" / "matches")
    assert len(rows) == 8 and set(rows["a_seat"]) == {0, 1}
    assert (rows[["gp_a", "gp_b"]].max(axis=1) >= 7).all()  # every match ends with a winner at 0
    assert (tmp_path / "a" / "manifest.json").exists()
    assert one["per_bot"] == two["per_bot"]
    by_bot = {row["bot"]: row for row in one["per_bot"]}
    assert by_bot["A"]["wins"] + by_bot["B"]["wins"] == 8
    assert by_bot["A"]["closes"] == (rows["closes_a"]).sum() and by_bot["B"]["closes"] == rows["closes_b"].sum()
    assert (rows["close_wins_a"] <= rows["closes_a"]).all()
    for stem in ("match_win_rate", "match_game_points", "match_closing"):
        assert (tmp_path / "a" / f"{stem}.png").exists()


def test_closing_writes_tables_and_charts(tmp_path):
    out = json.loads(invoke(["closing", "--deals", "3", "--bot", "heuristic", "--samples", "4", "--workers", "1",
                             "--out", str(tmp_path), "--json"]))
    assert out["positions"] > 0
    rows = pd.read_parquet(tmp_path / "closing_positions")
    assert len(rows) == out["positions"]
    assert ((rows["close_win"] >= 0) & (rows["close_win"] <= 1)).all()
    assert (rows["stock_size"] >= 2).all()
    # Each row's position, in state notation, holds every card and is the position its features describe.
    for row in rows.itertuples():
        position = SchnapsenState.from_text(row.position)
        assert not position.hidden_filled and position.to_move == row.player
        assert len(position.stock) == row.stock_size
        assert position.points[row.player] == row.own_points and position.points[1 - row.player] == row.opp_points
        assert (position.hands[row.player] & int(R.SUIT_MASKS[position.trump])).bit_count() == row.trumps_held
    for stem in ("closing_success", "closing_gain", "close_when"):
        assert (tmp_path / f"{stem}.png").exists()


def test_advise_lists_every_legal_action(tmp_path):
    out = json.loads(invoke(["advise", FRESH, "--bot", "perfect", "--json", "--out", str(tmp_path)]))
    names = {row["action"] for row in out["actions"]}
    # five cards, both marriage leads in spades, the exchange (HJ) and closing
    assert names == {"HJ", "SA", "SK", "SQ", "CJ", "SK+marriage", "SQ+marriage", "exchange", "close"}
    assert all(row["win_probability"] in (0.0, 1.0) for row in out["actions"])  # one known world
    solved, actions = perfect_outcomes(SchnapsenState.from_text(FRESH))  # each action keeps its own value
    assert {row["action"]: row["expected_gp"] for row in out["actions"]} == {
        R.action_name(a): float(v) for a, v in zip(actions, solved[0])}


@pytest.mark.parametrize("args", [
    ["advise", "hand0=SA; hand1=SK"],
    ["advise", FRESH, "--bot", "oracle"],
    ["match", "--bots", "heuristic", "pimc:x", "--matches", "1", "--workers", "1"],
    ["closing", "--bot", "perfect", "--deals", "1", "--workers", "1"],
])
def test_bad_input_is_an_input_error(args):
    with pytest.raises(InputError):
        invoke(args)


# Player 1 led DA after winning CQ/CJ and has shown HK. Player 0 cannot see the 10 cards
# CK CT CA DQ DK DT HQ HT SJ ST (three in player 1's hand, seven face down in the stock).
FULL = ("hand0=HJ SA SK SQ DJ; hand1=HK CK CT CA; stock=DQ DK DT HQ HT SJ ST HA; leader=1; trick=DA; "
        "history=CQ CJ; shown=|HK; points=0,5; tricks=0,1")
HIDDEN = ("hand0=HJ SA SK SQ DJ; hand1=?; stock=? ? ? ? ? ? ? HA; leader=1; trick=DA; history=CQ CJ; "
          "shown=|HK; points=0,5; tricks=0,1")


def test_hidden_cards_notation_gives_the_same_pimc_advice(tmp_path):
    # PIMC only uses what player 0 sees, so naming the hidden cards or writing '?' must not matter.
    one = json.loads(invoke(["advise", FULL, "--samples", "6", "--json", "--out", str(tmp_path / "a")]))
    two = json.loads(invoke(["advise", HIDDEN, "--samples", "6", "--json", "--out", str(tmp_path / "b")]))
    assert one["actions"] == two["actions"]
    assert {row["action"] for row in one["actions"]} == {"HJ", "SA", "SK", "SQ", "DJ"}  # free play
    with pytest.raises(InputError):
        invoke(["advise", HIDDEN, "--bot", "perfect"])
    with pytest.raises(InputError):  # the cards played must be listed when some are hidden
        invoke(["advise", HIDDEN.replace("history=CQ CJ; ", "")])


def test_bots_help_shows_two_names_and_a_comma_gets_a_hint():
    help_text = runner.invoke(app, ["match", "--help"], env={"COLUMNS": "120"}).output
    assert "A B" in help_text and "<str,str>" not in help_text.lower()
    result = runner.invoke(app, ["match", "--bots", "heuristic,random", "--matches", "2", "--workers", "1"])
    assert result.exit_code == 2 and "--bots heuristic random" in result.output
    # As the last option, click counts one bot of two before our check runs: the same hint, one line, exit 2.
    for last in (["--bots", "heuristic,random"], ["--bots=heuristic,random"]):
        ended = subprocess.run([sys.executable, "-m", "analyzer", "schnapsen", "match", *last], capture_output=True,
                               text=True)
        assert ended.returncode == 2
        assert ended.stderr == "error: --bots takes two bots separated by a space, not a comma: --bots heuristic random\n"
