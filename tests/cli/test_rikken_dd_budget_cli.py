"""``rikken bids --policy dd --dd-budget N``: bounded rows are written, counted and reproduced."""

import json
import subprocess
import sys
import time

import pandas as pd
import pytest

from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES

ARGS = ["rikken", "bids", "--deals", "2", "--policy", "dd", "--seed", "3", "--chunk-size", "1"]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def test_a_budget_leaves_counted_bounded_rows_that_any_worker_count_reproduces(tmp_path):
    one, two, exact = tmp_path / "one", tmp_path / "two", tmp_path / "exact"
    for out, workers, budget in ((one, "1", "20"), (two, "2", "20"), (exact, "1", "0")):
        result = run_cli(*ARGS, "--workers", workers, "--dd-budget", budget, "--out", str(out), "--json")
        assert result.returncode == 0, result.stderr
    manifest = json.loads((one / "manifest.json").read_text())
    assert manifest["params"]["dd_budget"] == 20
    hands = pd.read_parquet(one / "hands")
    pd.testing.assert_frame_equal(hands, pd.read_parquet(two / "hands"))
    truth = pd.read_parquet(exact / "hands")
    bounded = 0
    for name in CONTRACT_CLI_NAMES:
        playable = hands[f"tricks_{name}"] != -1
        low, high = hands[f"tricks_{name}"][playable], hands[f"tricks_high_{name}"][playable]
        assert (low <= truth[f"tricks_{name}"][playable]).all() and (truth[f"tricks_{name}"][playable] <= high).all()
        assert truth[f"exact_{name}"].all()
        assert (hands[f"exact_{name}"] == (hands[f"tricks_{name}"] == hands[f"tricks_high_{name}"])).all()
        assert (hands[f"made_{name}"] == truth[f"made_{name}"]).all()
        assert (hands[f"money_{name}"] <= truth[f"money_{name}"]).all()
        assert (truth[f"money_{name}"] <= hands[f"money_high_{name}"]).all()
        bounded += int((~hands[f"exact_{name}"][playable]).sum())
    assert bounded > 0, "a budget of 20 completed tricks must leave some count bounded"
    summary = pd.read_csv(one / "summary.csv")
    overall = summary[summary["feature"] == "all"]
    assert int(overall["bounded"].sum()) == bounded
    assert (overall["score_lo"] <= overall["mean_score"]).all()
    assert (overall["mean_score"] <= overall["mean_score_high"]).all()
    assert int(pd.read_csv(exact / "summary.csv")["bounded"].sum()) == 0


@pytest.mark.slow
def test_a_killed_budgeted_run_resumes_to_the_uninterrupted_result(tmp_path):
    args = ["rikken", "bids", "--deals", "4", "--policy", "dd", "--seed", "3", "--chunk-size", "1", "--workers", "1",
            "--dd-budget", "2000"]
    reference = tmp_path / "reference"
    assert run_cli(*args, "--out", str(reference)).returncode == 0
    run_dir = tmp_path / "run"
    stage = run_dir / "chunks" / "stage-00"
    process = subprocess.Popen([sys.executable, "-m", "analyzer", *args, "--out", str(run_dir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while len(list(stage.glob("chunk-*.npz")) if stage.is_dir() else []) < 1 and time.time() < deadline:
        time.sleep(0.02)
    process.kill()
    process.wait()
    assert 1 <= len(list(stage.glob("chunk-*.npz"))) < 4
    assert run_cli("resume", str(run_dir)).returncode == 0
    pd.testing.assert_frame_equal(pd.read_parquet(run_dir / "hands"), pd.read_parquet(reference / "hands"))
    pd.testing.assert_frame_equal(pd.read_csv(run_dir / "summary.csv"), pd.read_csv(reference / "summary.csv"))
