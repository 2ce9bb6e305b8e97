"""`analyzer rikken play --rounds-per-game K`: game wins per seat from the played rounds."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def test_game_wins_follow_the_rounds_played(tmp_path):
    out = tmp_path / "games"
    result = run_cli("rikken", "play", "--rounds", "24", "--rounds-per-game", "4", "--chunk-size", "8",
                     "--workers", "1", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    games = pd.DataFrame(json.loads(result.stdout)["games"]).set_index("seat")
    pd.testing.assert_frame_equal(pd.read_csv(out / "games.csv").set_index("seat")[["wins", "outright"]],
                                  games[["wins", "outright"]], check_dtype=False)
    # The winners of the six games, worked out from the stored rounds: highest points total, ties shared.
    rounds = pd.read_parquet(out / "rounds").sort_values("round")
    totals = rounds[[f"points_{seat}" for seat in range(4)]].to_numpy().reshape(6, 4, 4).sum(axis=1)
    top = totals == totals.max(axis=1, keepdims=True)
    share = (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
    assert games["wins"].to_numpy() == pytest.approx(share)
    assert (games["games"] == 6).all()
    assert games["outright"].to_numpy().tolist() == (top & (top.sum(axis=1) == 1)[:, None]).sum(axis=0).tolist()
    assert np.isclose(games["win_prob"].sum(), 1.0)


@pytest.mark.parametrize("args", [["--rounds", "10", "--rounds-per-game", "4"],
                                  ["--rounds", "24", "--rounds-per-game", "4", "--chunk-size", "6"]])
def test_games_that_would_straddle_chunks_are_one_line_errors(args, tmp_path):
    result = run_cli("rikken", "play", *args, "--workers", "1", "--out", str(tmp_path / "bad"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")
    assert not (tmp_path / "bad").exists()
