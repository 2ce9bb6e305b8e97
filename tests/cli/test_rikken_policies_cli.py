"""Policies per side and per seat on the command line, and ``rikken compare`` of two runs on the same deals."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

Z95 = 1.959963984540054


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def _bids(out, *policy_args, json_out=True):
    args = ["rikken", "bids", "--deals", "40", "--workers", "1", "--chunk-size", "20", "--seed", "3",
            "--out", str(out), *policy_args]
    result = run_cli(*args, *(["--json"] if json_out else []))
    assert result.returncode == 0, result.stderr
    return result


def test_bids_per_side_recorded_and_compared_pair_by_pair(tmp_path):
    base, mixed = tmp_path / "rr", tmp_path / "hr"
    _bids(base, "--policy", "random")
    shown = _bids(mixed, "--declarer-policy", "heuristic", "--defender-policy", "random", json_out=False).stdout
    assert "declarers heuristic, defenders random" in " ".join(shown.split())
    manifest = json.loads((mixed / "manifest.json").read_text())
    assert manifest["params"] == {"policy": "mixed", "declarer_policy": "heuristic", "defender_policy": "random",
                                  "dealing": "random", "contracts": list(range(16))}

    result = run_cli("rikken", "compare", str(base), str(mixed), "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["a"]["policies"] == "policy random"
    assert payload["b"]["policies"] == "declarers heuristic, defenders random"
    rows = {row["contract"]: row for row in payload["contracts"]}
    a = pd.read_parquet(base / "hands").sort_values(["deal", "seat"])
    b = pd.read_parquet(mixed / "hands").sort_values(["deal", "seat"])
    for name in ("rik", "misery", "troela"):
        playable = a[f"tricks_{name}"].to_numpy() >= 0
        d = (b[f"made_{name}"].to_numpy().astype(float) - a[f"made_{name}"].to_numpy())[playable]
        half = Z95 * d.std(ddof=1) / np.sqrt(d.size)
        assert rows[name]["n"] == d.size
        assert rows[name]["made_diff"] == pytest.approx(d.mean())
        assert rows[name]["made_lo"] == pytest.approx(d.mean() - half)
        assert rows[name]["made_hi"] == pytest.approx(d.mean() + half)
    assert rows["rik"]["n"] == 160 and rows["troela"]["n"] < 160

    other_seed = tmp_path / "seed4"
    assert run_cli("rikken", "bids", "--deals", "40", "--workers", "1", "--chunk-size", "20", "--seed", "4",
                   "--out", str(other_seed)).returncode == 0
    refused = run_cli("rikken", "compare", str(base), str(other_seed))
    assert refused.returncode == 2 and "seed" in refused.stderr


def test_play_per_seat_and_its_comparison(tmp_path):
    seats, same = tmp_path / "seats", tmp_path / "same"
    result = run_cli("rikken", "play", "--rounds", "60", "--workers", "1", "--seed", "5", "--seat-policies",
                     "heuristic,random,heuristic,random", "--out", str(seats))
    assert result.returncode == 0, result.stderr
    assert "N heuristic, E random, S heuristic, W random" in " ".join(result.stdout.split())
    assert json.loads((seats / "manifest.json").read_text())["params"] == {
        "policy": "mixed", "seat_policies": ["heuristic", "random", "heuristic", "random"], "dealing": "random"}
    assert run_cli("rikken", "play", "--rounds", "60", "--workers", "1", "--seed", "5", "--out",
                   str(same)).returncode == 0
    compared = run_cli("rikken", "compare", str(same), str(seats), "--json")
    assert compared.returncode == 0, compared.stderr
    payload = json.loads(compared.stdout)
    a, b = (pd.read_parquet(run / "rounds").sort_values("round") for run in (same, seats))
    # Same deals, same auctions: every declaration is one pair.
    declared = (a[[f"contract_{s}" for s in range(4)]].to_numpy() >= 0).sum()
    assert sum(row["n"] for row in payload["contracts"]) == declared
    north = next(row for row in payload["seats"] if row["mode"] == "money" and row["seat"] == "N")
    assert north["score_diff"] == pytest.approx((b["money_0"] - a["money_0"]).mean())


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--rounds", "5", "--seat-policies", "heuristic,random,heuristic,random", "--declarer-policy",
      "random"], "--seat-policies names every seat's policy"),
    (["play", "--rounds", "5", "--seat-policies", "heuristic,random,heuristic,random", "--policy", "random"],
     "--seat-policies names every seat's policy"),
    (["play", "--rounds", "5", "--seat-policies", "heuristic,random,heuristic"], "needs four of"),
    (["play", "--rounds", "5", "--seat-policies", "heuristic,random,psychic,random"], "needs four of"),
    (["bids", "--deals", "5", "--declarer-policy", "dd", "--dealing", "packets"], "--dealing packets"),
    (["bids", "--deals", "5", "--defender-policy", "psychic"], "--defender-policy"),
])
def test_contradictory_policies_are_one_line_errors(tmp_path, args, message):
    result = run_cli("rikken", *args, "--out", str(tmp_path / "run"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")
    assert message in result.stderr
    assert not (tmp_path / "run").exists()


def test_compare_refuses_runs_it_cannot_pair(tmp_path):
    packets = tmp_path / "packets"
    assert run_cli("rikken", "play", "--rounds", "8", "--workers", "1", "--dealing", "packets", "--out",
                   str(packets)).returncode == 0
    result = run_cli("rikken", "compare", str(packets), str(packets))
    assert result.returncode == 2 and "packets" in result.stderr
    missing = run_cli("rikken", "compare", str(packets), str(tmp_path / "nothing"))
    assert missing.returncode == 2 and missing.stderr.startswith("error: ")


def test_paired_differences_of_bounded_values_reach_from_low_to_high_ends():
    from statistics import mean, stdev

    from analyzer.games.rikken.compare import _paired
    from analyzer.reports.stats import Z95

    a = np.array([1, 2, 4])
    b_low, b_high = np.array([0, 0, 3]), np.array([4, 4, 3])
    exact = _paired(a, b_low, "m")
    d = [0 - 1, 0 - 2, 3 - 4]
    assert (exact["m_diff"], exact["m_lo"], exact["m_hi"]) == pytest.approx(
        (mean(d), mean(d) - Z95 * stdev(d) / 3 ** 0.5, mean(d) + Z95 * stdev(d) / 3 ** 0.5))
    bounded = _paired(a, b_low, "m", b_high=b_high)
    up = [4 - 1, 4 - 2, 3 - 4]
    assert bounded["m_diff"] == pytest.approx(mean(d)) and bounded["m_lo"] == pytest.approx(exact["m_lo"])
    assert bounded["m_hi"] == pytest.approx(mean(up) + Z95 * stdev(up) / 3 ** 0.5)


def test_compare_pairs_a_sampling_bot_run_and_refuses_unknown_policies_in_one_line(tmp_path):
    heuristic = tmp_path / "heuristic"
    assert run_cli("rikken", "play", "--rounds", "8", "--workers", "1", "--seed", "5", "--out",
                   str(heuristic)).returncode == 0
    manifest = json.loads((heuristic / "manifest.json").read_text())

    def copy_with(name, params):
        copy = tmp_path / name
        shutil.copytree(heuristic, copy)
        (copy / "manifest.json").write_text(json.dumps({**manifest, "params": params}))
        return copy

    # A sampling bot's run records its worlds per decision: the card play, not the deals.
    sampled = copy_with("sampled", {**manifest["params"], "policy": "mixed", "defender_policy": "sampled-dd",
                                    "worlds": 8})
    compared = run_cli("rikken", "compare", str(heuristic), str(sampled))
    assert compared.returncode == 0, compared.stderr
    for params in ({**manifest["params"], "defender_policy": "nonesuch"}, "heuristic",
                   {**manifest["params"], "seat_policies": 7}):
        doctored = copy_with("doctored", params)
        refused = run_cli("rikken", "compare", str(heuristic), str(doctored))
        assert refused.returncode == 2 and refused.stderr.startswith("error: "), refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        shutil.rmtree(doctored)


def test_the_shared_deals_sentence_quotes_paths_for_the_shell(tmp_path):
    from analyzer.games.rikken.pairing import shared_deals_note

    manifest = {"experiment": "rikken-bids", "status": "complete", "seed": 3, "chunk_size": 20, "hands": 160,
                "params": {"dealing": "random", "policy": "heuristic"}}
    runs = [tmp_path / "run a", tmp_path / "run's b"]
    for run in runs:
        run.mkdir()
        (run / "manifest.json").write_text(json.dumps(manifest))
    note = shared_deals_note(*runs)
    assert f"`analyzer rikken compare '{runs[0]}' '{tmp_path}/run'\"'\"'s b'`" in note
