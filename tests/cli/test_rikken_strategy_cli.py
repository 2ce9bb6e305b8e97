"""``analyzer rikken strategy fit`` and ``rikken play --bidding learned:FILE`` end to end on a tiny run."""

import json
import re
import subprocess
import sys

import pandas as pd
import pytest

from analyzer.cards.dealing import ACE_MASK
from analyzer.cards.masks import popcounts
from analyzer.cli.app import main
from analyzer.games.rikken import rules
from analyzer.games.rikken.auction import run_auction


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], check=False, capture_output=True, text=True)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    """A 150-deal bids run and a strategy fitted on it (5 boosting iterations)."""
    root = tmp_path_factory.mktemp("strategy")
    run = root / "bids"
    result = run_cli("rikken", "bids", "--deals", "150", "--workers", "1", "--seed", "2", "--out", str(run), "--json")
    assert result.returncode == 0, result.stderr
    path = root / "fit" / "s.zip"
    path.parent.mkdir()
    result = run_cli("rikken", "strategy", "fit", str(run), "--out", str(path), "--max-iter", "5", "--json")
    assert result.returncode == 0, result.stderr
    return run, path, json.loads(result.stdout)


def test_fit_writes_the_strategy_calibration_and_card(fitted):
    run, path, payload = fitted
    names = {p.name for p in path.parent.iterdir()}
    assert {"s.zip", "s.calibration.csv", "s.calibration.png", "s.card.png", "s.card.svg", "s.card.csv"} <= names
    source = payload["source"]
    assert source["hands_fitted"] + source["hands_held_out"] == 600
    assert source["hands_held_out"] == 4 * 30  # 20% of 150 deals, four hands each
    calibration = pd.read_csv(path.parent / "s.calibration.csv")
    assert calibration.groupby("contract")["n"].sum()["rik"] == 120
    hands = pd.read_parquet(run / "hands")
    three_aces = popcounts(hands[["cards_n", "cards_e", "cards_s", "cards_w"]].to_numpy()[
        range(len(hands)), hands["seat"].to_numpy()] & ACE_MASK) == 3
    troela = calibration.groupby("contract")["n"].sum().get("troela", 0)
    assert troela <= three_aces.sum()
    card = pd.read_csv(path.parent / "s.card_bids.csv")
    assert card["hands"].sum() == 120 and card["share"].sum() == pytest.approx(1.0)


def test_play_with_a_learned_seat_records_it(fitted, tmp_path):
    _, path, _ = fitted
    out = tmp_path / "play"
    result = run_cli("rikken", "play", "--rounds", "40", "--workers", "1", "--seed", "1", "--out", str(out),
                     "--seat-bidding", f"learned:{path},rules,rules,rules", "--bidding-margin", "0.5", "--json")
    assert result.returncode == 0, result.stderr
    params = json.loads((out / "manifest.json").read_text())["params"]
    assert params["bidding"] == [f"learned:{path.resolve()}", "rules", "rules", "rules"]
    assert params["bidding_margin"] == 0.5 and str(path.resolve()) in params["bidding_files"]
    assert len(pd.read_parquet(out / "rounds")) == 40


@pytest.mark.parametrize("args", [
    ("rikken", "play", "--rounds", "5", "--bidding", "learned:{bad}"),
    ("rikken", "play", "--rounds", "5", "--bidding", "learned:{missing}"),
    ("rikken", "play", "--rounds", "5", "--bidding", "clever"),
    ("rikken", "play", "--rounds", "5", "--seat-bidding", "rules,rules"),
    ("rikken", "play", "--rounds", "5", "--bidding", "rules", "--seat-bidding", "rules,rules,rules,rules"),
    ("rikken", "play", "--rounds", "5", "--bidding-margin", "1.5"),
    ("rikken", "strategy", "fit", "{missing}"),
    ("rikken", "strategy", "fit", "{tmp}"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args):
    bad = tmp_path / "bad.zip"
    bad.write_text("not a strategy")
    out = tmp_path / "out"
    filled = [a.format(bad=bad, missing=tmp_path / "missing", tmp=tmp_path) for a in args]
    with pytest.raises(SystemExit) as exited:  # in-process, as tests/cli/test_bad_input.py runs its cases
        main([*filled, *(["--out", str(out)] if filled[1] == "play" else [])])
    stderr = capsys.readouterr().err
    assert exited.value.code == 2
    assert stderr.startswith("error: ") and stderr.count("\n") == 1
    assert not out.exists()


def test_the_runs_report_shows_a_strategy_fitted_into_it(fitted, tmp_path):
    run, _, _ = fitted
    result = run_cli("rikken", "strategy", "fit", str(run), "--max-iter", "5")  # default: RUN_DIR/strategy.zip
    assert result.returncode == 0, result.stderr
    # rates in %, as every table prints them: the predicted make rate beside the observed one, errors in points
    bids_table = result.stdout.split("Opening bids of the held-out hands:")[1]
    assert "predicted rate" in bids_table and not re.search(r" 0\.\d{3}\b", bids_table)
    assert "by decile, pp" in result.stdout
    report = tmp_path / "report.html"
    result = run_cli("report", str(run), "--out", str(report))
    assert result.returncode == 0, result.stderr
    text = report.read_text()
    assert 'alt="strategy.card"' in text and "The learned bidding strategy as a player reads it" in text
    bids = pd.read_csv(run / "strategy.card_bids.csv")
    passes = bids.loc[bids["bid"] == "pass", "share"].sum()
    top = bids[bids["bid"] != "pass"].sort_values("share", ascending=False).iloc[0]
    assert "The bidding strategy learned from this run" in text
    assert f"opens {top['bid']} with {100 * top['share']:.3g}% of the hands" in text
    assert f"it passes {100 * passes:.3g}% of the held-out hands" in text


def test_replay_bids_as_the_runs_learned_seat_did(fitted, tmp_path):
    """A round whose auction the learned seat changed: replayed with the run's bidding options, it is the
    stored round (contracts, tricks, scores); the hand-written auction would have bid it otherwise."""
    _, path, _ = fitted
    options = ["--seed", "3", "--seat-bidding", f"learned:{path},rules,rules,rules", "--bidding-margin", "0.5"]
    out = tmp_path / "play"
    result = run_cli("rikken", "play", "--rounds", "40", "--workers", "1", "--chunk-size", "16", "--out", str(out),
                     *options)
    assert result.returncode == 0, result.stderr
    rounds = pd.read_parquet(out / "rounds").set_index("round").sort_index()
    hands = rounds[["cards_n", "cards_e", "cards_s", "cards_w"]].to_numpy()
    contracts = rounds[[f"contract_{s}" for s in range(4)]].to_numpy()
    changed = [i for i in range(len(rounds))
               if list(run_auction(hands[i], int(rounds["dealer"].iloc[i])).contract_of) != list(contracts[i])]
    assert changed, "the learned seat bid like the rules in every round"
    index = changed[-1]
    result = run_cli("rikken", "replay", "--index", str(index), "--chunk-size", "16", "--json", *options)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    row = rounds.iloc[index]
    assert {c["seat"]: c["contract"] for c in payload["contracts"]} == {
        "NESW"[s]: rules.CONTRACT_NAMES[int(row[f"contract_{s}"])] for s in range(4) if row[f"contract_{s}"] >= 0}
    assert [payload["scores"][seat]["tricks"] for seat in "NESW"] == [int(row[f"tricks_{s}"]) for s in range(4)]
    assert [payload["scores"][seat]["money"] for seat in "NESW"] == [int(row[f"money_{s}"]) for s in range(4)]
    assert payload["source"]["bidding"] == "bidding N learned (margin 0.5), E S W rules"
