"""`analyzer rikken play --policy dd` end to end: small chunks by default, packets dealing, bad input."""

import json
import subprocess
import sys

import pandas as pd


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def test_dd_play_writes_rounds_in_small_chunks(tmp_path):
    out = tmp_path / "dd"
    result = run_cli("rikken", "play", "--rounds", "2", "--policy", "dd", "--dealing", "packets", "--workers", "1",
                     "--seed", "2", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["seats"]) == 8
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["chunk_size"] == 2 and manifest["params"] == {"policy": "dd", "declarer_policy": "dd",
                                                                  "defender_policy": "dd", "dealing": "packets"}
    rounds = pd.read_parquet(out / "rounds")
    played = ~rounds["passed_out"]
    assert len(rounds) == 2
    assert (rounds.loc[played, [f"tricks_{s}" for s in range(4)]].sum(axis=1) == 13).all()


def test_dd_play_bad_input_is_a_one_line_error():
    result = run_cli("rikken", "play", "--rounds", "2", "--policy", "dd", "--chunk-size", "0")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")
