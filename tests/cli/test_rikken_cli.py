"""`analyzer rikken bids` and `analyzer rikken play` end to end on small runs."""

import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=cwd)


def test_bids_writes_tables_charts_and_manifest(tmp_path):
    out = tmp_path / "bids"
    result = run_cli("rikken", "bids", "--deals", "60", "--workers", "1", "--chunk-size", "30", "--out", str(out),
                     "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert {row["contract"] for row in payload["contracts"]} >= {"rik", "misery", "13-alone"}
    hands = pd.read_parquet(out / "hands")
    assert len(hands) == 240
    # Every row carries its deal: four disjoint 13-card masks, the row's own seat holding the hand scored.
    deal = hands[["cards_n", "cards_e", "cards_s", "cards_w"]].to_numpy()
    assert (np.bitwise_or.reduce(deal, axis=1) == (1 << 52) - 1).all()
    assert (np.bitwise_count(deal) == 13).all()
    own = deal[np.arange(len(hands)), hands["seat"].to_numpy()]
    hcp = sum(points * np.bitwise_count(own & (0x1 << rank) * 0x0008004002001) for rank, points in
              ((12, 4), (11, 3), (10, 2), (9, 1)))
    assert (hcp == hands["hcp"].to_numpy()).all()
    for name in ("summary.csv", "bidding_chart.csv", "manifest.json", "bidding_chart.png", "bidding_chart.svg",
                 "success_by_trumps_hcp.png", "misery_one_alone_by_low_cards.svg"):
        assert (out / name).is_file(), name
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 0
    assert manifest["params"] == {"policy": "heuristic", "declarer_policy": "heuristic", "defender_policy": "heuristic",
                                  "dealing": "random", "contracts": list(range(16))}


def test_bids_on_chosen_contracts_only(tmp_path):
    out = tmp_path / "some"
    result = run_cli("rikken", "bids", "--deals", "40", "--workers", "1", "--contracts", "misery,11-alone",
                     "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    assert [row["contract"] for row in json.loads(result.stdout)["contracts"]] == ["misery", "11-alone"]
    columns = pd.read_parquet(out / "hands").columns
    assert "made_11-alone" in columns and "made_rik" not in columns


def test_bids_prints_rates_as_percentages_with_their_interval(tmp_path):
    # A relative --out: the closing line's path is the user's, not the table's width to keep.
    result = run_cli("rikken", "bids", "--deals", "40", "--workers", "1", "--contracts", "rik,misery",
                     "--out", "bids", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    payload = json.loads(run_cli("query", str(tmp_path / "bids"), "--contract", "rik", "--json").stdout)["rows"][0]
    [rik] = [line for line in result.stdout.splitlines() if line.split()[:1] == ["rik"]]
    rate = re.search(r" (\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\] ", rik)
    assert rate is not None, rik
    assert float(rate.group(1)) == pytest.approx(100 * payload["made_rate"], abs=0.05)
    assert max(len(line) for line in result.stdout.splitlines()[1:]) <= 80


def test_play_reports_contracts_and_seats(tmp_path):
    result = run_cli("rikken", "play", "--rounds", "40", "--workers", "1", "--dealing", "packets",
                     "--out", str(tmp_path / "play"), "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert len(payload["seats"]) == 8
    assert sum(r["declared"] for r in payload["contracts"] if r["contract"] == "passed-out") <= 40


@pytest.mark.parametrize("args", [
    ["rikken", "bids", "--deals", "-5"],
    ["rikken", "bids", "--deals", "10", "--policy", "psychic"],
    ["rikken", "play", "--rounds", "10", "--dealing", "shuffled"],
    ["rikken", "bids"],
    ["rikken", "bids", "--deals", "10", "--contracts", "rik,12-alone,grand-slam"],
])
def test_bad_experiment_input_exits_2_with_one_line(args):
    result = run_cli(*args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")


def test_double_dummy_where_it_cannot_run_is_a_one_line_error():
    result = run_cli("rikken", "bids", "--deals", "3", "--policy", "dd", "--dealing", "packets")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")
