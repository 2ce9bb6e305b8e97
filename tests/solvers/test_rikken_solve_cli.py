"""``rikken solve``, on hand-worked two-card endings."""

import json
import re

import pytest
from typer.testing import CliRunner

from analyzer.cli.rikken import app
from analyzer.errors import InputError
from analyzer.games.rikken.dd_question import calls_for, parse_goal, parse_team

# N: SA SK   E: HA HK   S: S4 S3   W: H4 H3.
DEAL = "N:AK... .AK.. 43... .43.."


def _run(*args):
    result = CliRunner().invoke(app, ["solve", DEAL, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_single_question_max_json():
    # At no trump North (on lead, dealer West) cashes SA and SK: 2 tricks.
    assert json.loads(_run("--trump", "N", "--team", "N", "--json"))["tricks"] == 2
    # With East on lead East cashes HA HK: North-South take nothing.
    assert json.loads(_run("--trump", "N", "--team", "NS", "--leader", "E", "--json"))["tricks"] == 0


def test_single_question_misery_and_one_alone():
    # North cashes two spades; East (void in spades) discards hearts and wins nothing:
    # Misery (at most 0) is made, 1 Alone (exactly 1) is not.
    assert json.loads(_run("--trump", "N", "--team", "E", "--goal", "le:0", "--json"))["makes"] is True
    assert json.loads(_run("--trump", "N", "--team", "E", "--goal", "eq:1", "--json"))["makes"] is False


def test_single_question_with_trumps():
    # Hearts trump: North leads a spade, East ruffs and cashes the other heart: North-South 0.
    assert json.loads(_run("--trump", "H", "--team", "NS", "--json"))["tricks"] == 0


def test_table_json():
    out = json.loads(_run("--json"))
    rows = {(r["declarer"], r["trump"]): r for r in out["contracts"]}
    assert out["leader"] == "N"
    # North alone, clubs trump: nobody can ruff, North cashes both spades.
    assert rows[("N", "C")]["alone"] == 2
    # North holds only spades, so every ace he may call (DA, HA) is a blind call; DA is no longer
    # in a hand in this ending, HA is East's. The pair still takes North's two spades.
    assert rows[("N", "C")]["calls"]["HA"] == {"partner": "E", "blind": True, "tricks": 2}
    misery = {r["declarer"]: r for r in out["misery"]}
    assert misery["N"]["misery"] is False and misery["E"]["misery"] is True


def test_bad_input_raises_input_error():
    with pytest.raises(InputError):
        parse_team("NN")
    with pytest.raises(InputError):
        parse_goal("ge:14")
    result = CliRunner().invoke(app, ["solve", DEAL, "--trump", "X", "--team", "N"])
    assert isinstance(result.exception, InputError)


@pytest.mark.parametrize("args", [
    ["--trump", "N", "--team", "N", "--goal", "ge:14"],
    ["--trump", "X", "--team", "N"],
    ["--trump", "N", "--team", "NN"],
    ["--trump", "N", "--team", "NE", "--called", "HA"],
    ["--trump", "C", "--team", "NE", "--called", "S4"],
    ["--goal", "ge:1"],
])
def test_bad_options_are_rejected_before_the_solver_compiles(args, monkeypatch):
    # The oracle: the compile step is never reached (a cold cache would spend tens of seconds there first).
    def compile_in_parallel(*_args, **_kwargs):
        raise AssertionError("compiled before checking the options")

    monkeypatch.setattr("analyzer.experiments.parallel_compile.compile_in_parallel", compile_in_parallel)
    result = CliRunner().invoke(app, ["solve", DEAL, *args])
    assert isinstance(result.exception, InputError), result.exception


def test_calls_follow_the_calling_rules():
    from analyzer.cards.deck import parse_card
    from analyzer.cards.pbn import parse_hand

    # Holds spades and hearts but no aces: may call SA or HA (not trumps, suits he holds).
    hand = parse_hand("KQ.J2..")
    assert sorted(calls_for(hand, 0)) == sorted([(parse_card("SA"), False), (parse_card("HA"), False)])
    # With spades trump only the heart ace is callable.
    assert calls_for(hand, 3) == [(parse_card("HA"), False)]
    # All four aces: kings are called instead.
    aces = parse_hand("A.A.A.A")
    assert (parse_card("SK"), False) in calls_for(aces, 4)


# A made-up full deal: North strong, a budget of 20 completed tricks cannot settle most counts.
FULL = "N:AKQJ2.AK2.AK2.A2 T98.QJT9.QJT9.KQ 7654.876.876.876 3.543.543.JT9543"


def test_a_budget_bounds_counts_and_keeps_made_exact():
    """With a tiny budget every count is an int or an interval around the exact count (--dd-budget 0)."""
    exact = json.loads(_run_deal(FULL, "--dd-budget", "0", "--json"))
    tight = json.loads(_run_deal(FULL, "--dd-budget", "20", "--json"))
    assert exact["misery"] == tight["misery"]
    bounded = 0
    for row, truth in zip(tight["contracts"], exact["contracts"]):
        pairs = [(row["alone"], truth["alone"])] + [(row["calls"][c]["tricks"], truth["calls"][c]["tricks"])
                                                     for c in truth["calls"]]
        for got, count in pairs:
            assert isinstance(count, int)
            low, high = got if isinstance(got, list) else (got, got)
            assert low <= count <= high and (low < high) == isinstance(got, list)
            assert (low >= 8) == (count >= 8), "made or not made stays exact"
            bounded += low < high
    assert bounded > 0, "a budget of 20 completed tricks must leave some count bounded"
    one = json.loads(_run_deal(FULL, "--trump", "S", "--team", "NS", "--dd-budget", "20", "--json"))
    truth = json.loads(_run_deal(FULL, "--trump", "S", "--team", "NS", "--dd-budget", "0", "--json"))["tricks"]
    low, high = one["tricks"] if isinstance(one["tricks"], list) else (one["tricks"], one["tricks"])
    assert low <= truth <= high


def _run_deal(deal, *args):
    result = CliRunner().invoke(app, ["solve", deal, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_bounded_count_prints_as_tables_print_an_interval():
    """Text output writes a bounded count ``[low, high]`` (the JSON's pair), an exact one as a number."""
    one = json.loads(_run_deal(FULL, "--trump", "S", "--team", "NS", "--dd-budget", "20", "--json"))["tricks"]
    text = _run_deal(FULL, "--trump", "S", "--team", "NS", "--dd-budget", "20")
    shown = f"[{one[0]}, {one[1]}]" if isinstance(one, list) else str(one)
    assert text == f"NS take {shown} trick(s) with best play\n"
    table = _run_deal(FULL, "--dd-budget", "20")
    assert "[a, b]: a count the --dd-budget left between a and b" in table and re.search(r"\[\d+, \d+\]", table)

