"""Deal constraints and --seat on `analyzer rikken bids` and `analyzer rikken play`."""

import json

import numpy as np
import pandas as pd
import pytest

from analyzer.cli.app import main

ACES = sum(1 << (13 * suit + 12) for suit in range(4))
SPADES = 0x1FFF << 39
HCP_MASKS = [(points, sum(1 << (13 * suit + rank) for suit in range(4))) for rank, points in
             ((12, 4), (11, 3), (10, 2), (9, 1))]
DEAL = ["cards_n", "cards_e", "cards_s", "cards_w"]


def run(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    captured = capsys.readouterr()
    return stop.value.code, captured.out, captured.err


def hcp(masks: np.ndarray) -> np.ndarray:
    return sum(points * np.bitwise_count(masks & mask) for points, mask in HCP_MASKS)


def bids(tmp_path, capsys, name, *args):
    out = tmp_path / name
    code, _, err = run(["rikken", "bids", "--deals", "60", "--workers", "1", "--chunk-size", "30",
                        "--contracts", "rik,misery", "--seed", "3", "--out", str(out), "--json", *args], capsys)
    assert code == 0, err
    return pd.read_parquet(out / "hands"), json.loads((out / "manifest.json").read_text())


def test_constrained_bids_rows_all_meet_the_constraints(tmp_path, capsys):
    hands, manifest = bids(tmp_path, capsys, "constrained", "--aces", "N=2", "--length", "N:S=6-13",
                           "--hcp", "S=12-15", "--cards", "E=HA")
    deal = hands[DEAL].to_numpy()
    assert len(hands) == 240
    assert (np.bitwise_count(deal[:, 0] & ACES) == 2).all()
    assert (np.bitwise_count(deal[:, 0] & SPADES) >= 6).all()
    assert ((hcp(deal[:, 2]) >= 12) & (hcp(deal[:, 2]) <= 15)).all()
    assert (deal[:, 1] & (1 << (13 * 2 + 12)) != 0).all()
    assert (np.bitwise_or.reduce(deal, axis=1) == (1 << 52) - 1).all() and (np.bitwise_count(deal) == 13).all()
    assert manifest["params"]["constraints"] == {"cards": ["E=HA"], "hcp": ["S=12-15"], "aces": ["N=2"],
                                                 "length": ["N:S=6-13"]}
    assert hands["deal"].nunique() == 60


def test_seat_option_keeps_only_those_seats_hands_on_the_same_deals(tmp_path, capsys):
    everyone, _ = bids(tmp_path, capsys, "all", "--aces", "N=2")
    north, manifest = bids(tmp_path, capsys, "north", "--aces", "N=2", "--seat", "N")
    assert len(north) == 60 and (north["seat"] == 0).all()
    assert manifest["params"]["seats"] == ["N"] and manifest["hands"] == 60
    # The deals depend on the seed only: North's rows carry the deals of the run over every seat.
    same = everyone[everyone["seat"] == 0].reset_index(drop=True)
    assert (north[["deal", *DEAL]] == same[["deal", *DEAL]]).all().all()
    both, manifest = bids(tmp_path, capsys, "pair", "--seat", "S", "--seat", "w,N")
    assert sorted(both["seat"].unique()) == [0, 2, 3] and len(both) == 180
    assert manifest["params"]["seats"] == ["N", "S", "W"]
    summary = pd.read_csv(tmp_path / "north" / "summary.csv")
    assert (summary[(summary["feature"] == "all")]["n"] == 60).all()


def test_constrained_play_deals_every_round_under_the_constraints(tmp_path, capsys):
    out = tmp_path / "play"
    code, _, err = run(["rikken", "play", "--rounds", "24", "--workers", "1", "--chunk-size", "8",
                        "--hcp", "W=16-37", "--length", "E:H=0-1", "--out", str(out), "--json"], capsys)
    assert code == 0, err
    rounds = pd.read_parquet(out / "rounds")
    deal = rounds[DEAL].to_numpy()
    assert len(rounds) == 24 and sorted(rounds["dealer"].unique()) == [0, 1, 2, 3]
    assert (hcp(deal[:, 3]) >= 16).all()
    assert (np.bitwise_count(deal[:, 1] & (0x1FFF << 26)) <= 1).all()
    assert json.loads((out / "manifest.json").read_text())["params"]["constraints"] == {
        "hcp": ["W=16-37"], "length": ["E:H=0-1"]}


@pytest.mark.parametrize("args", [
    ["bids", "--deals", "10", "--aces", "N=4", "--aces", "S=1-4"],
    ["bids", "--deals", "10", "--length", "N:S=13", "--cards", "E=S2"],
    ["bids", "--deals", "10", "--hcp", "N12"],
    ["bids", "--deals", "10", "--aces", "N=5"],
    ["bids", "--deals", "10", "--seat", "X"],
    ["bids", "--deals", "10", "--seat", "N,"],
    ["bids", "--deals", "10", "--dealing", "packets", "--aces", "N=2"],
    ["play", "--rounds", "10", "--dealing", "packets", "--hand", "N=AKQJ.AKQJ.AKQJ.A"],
    ["play", "--rounds", "10", "--hcp", "N=17-37", "--hcp", "E=17-37", "--hcp", "S=17-37", "--hcp", "W=17-37"],
])
def test_bad_constraint_is_one_error_line_exit_2_and_no_run(args, tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = run(["rikken", *args, "--workers", "1", "--out", str(out)], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert not out.exists()
