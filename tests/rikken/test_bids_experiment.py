"""The bid-success experiment: setups follow the rules, shared play-outs are exact, tables add up."""

import numpy as np
import pandas as pd
import pytest

from analyzer.cards.dealing import ACE_MASK, deal_random
from analyzer.cards.masks import popcounts
from analyzer.cards.rng import state_from_seed
from analyzer.experiments.runner import run_chunks
from analyzer.games.rikken import rules
from analyzer.games.rikken.experiments import SHARED_PLAY, Policies, bids_chunk, build_setups, play_chunk, play_setups
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.summary import (
    best_contracts,
    bids_moments,
    contract_rows,
    merge_bids_moments,
    summarize_bids,
)
from analyzer.reports.stats import wilson_interval

PARAMS = {"policy": "heuristic", "dealing": "random", "contracts": list(range(16))}


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return bids_chunk(PARAMS, 0, 300, np.random.SeedSequence(17))


def test_setups_follow_the_rules():
    deals = deal_random(200, seed=3)
    setups = build_setups(deals, np.zeros(200, dtype=np.int64))
    hands = setups["hands"][np.arange(setups["hand"].size), setups["hand"] % 4]
    troela = setups["contract"] == K.TROELA
    assert (popcounts(hands[troela] & ACE_MASK) == 3).all()
    three_aces = (popcounts(deals.reshape(-1) & ACE_MASK) == 3).sum()
    assert troela.sum() == three_aces
    called = setups["called_card"] >= 0
    # The called card is never the bidder's own and its holder is the partner.
    assert ((hands[called] >> setups["called_card"][called]) & 1 == 0).all()
    partner_hands = setups["hands"][called, setups["partner"][called]]
    assert ((partner_hands >> setups["called_card"][called]) & 1 == 1).all()
    assert (setups["trump"][setups["contract"] == K.RIK_BETER] == 2).all()
    no_trump = np.isin(setups["contract"], [K.MISERY, K.ONE_ALONE, K.OPEN_MISERY, K.OPEN_MISERY_ALL])
    assert (setups["trump"][no_trump] == rules.NO_TRUMP).all()


def test_setups_of_some_seats_are_those_seats_rows_of_the_full_setups():
    deals = deal_random(120, seed=5)
    leader = np.arange(120, dtype=np.int64) % 4
    full = build_setups(deals, leader)
    part = build_setups(deals, leader, seats=[1, 3])
    keep = np.isin(full["hand"] % 4, [1, 3])
    assert set(part) == set(full) and keep.sum() == part["hand"].size
    for key, value in full.items():
        assert (value[keep] == part[key]).all(), key


def test_bids_chunk_for_one_seat_has_that_seats_rows_and_deals():
    north = bids_chunk({**PARAMS, "contracts": [int(K.RIK), int(K.TROELA)], "seats": ["N"]}, 40, 50,
                       np.random.SeedSequence(4))
    everyone = bids_chunk({**PARAMS, "contracts": [int(K.RIK), int(K.TROELA)]}, 40, 50, np.random.SeedSequence(4))
    assert len(north) == 50 and (north["seat"] == 0).all() and (north.index == np.arange(50)).all()
    same = everyone[everyone["seat"] == 0].reset_index(drop=True)
    # Same deals and features; the play-outs draw from a stream shared by fewer hands, so only the
    # columns no draw decides are compared.
    assert north[["deal", "cards_n", "cards_e", "cards_s", "cards_w", "hcp"]].equals(
        same[["deal", "cards_n", "cards_e", "cards_s", "cards_w", "hcp"]])


def test_shared_play_outs_equal_separate_play_outs():
    # 9..13 Alone copy the 8 Alone play-out; playing 9 Alone itself must give the same tricks.
    deals = deal_random(150, seed=8)
    setups = build_setups(deals, np.ones(150, dtype=np.int64))
    eight = setups["contract"] == K.ALONE_8
    separate = {key: value[eight].copy() for key, value in setups.items()}
    separate["contract_of"][separate["contract_of"] == K.ALONE_8] = K.ALONE_12
    heuristic = Policies.everywhere("heuristic")
    shared, _ = play_setups({k: v[eight] for k, v in setups.items()}, heuristic, state_from_seed(1))
    played, _ = play_setups(separate, heuristic, state_from_seed(1))
    assert (shared == played).all()
    assert set(SHARED_PLAY.values()) == {K.ALONE_8}


def test_made_money_and_points_follow_the_table(table):
    for contract in K:
        name = rules.CONTRACT_CLI_NAMES[contract]
        rows = table[table[f"tricks_{name}"] >= 0]
        for tricks, made, money, points in zip(rows[f"tricks_{name}"], rows[f"made_{name}"], rows[f"money_{name}"],
                                               rows[f"points_{name}"]):
            expect_made, value = rules.contract_value(contract, int(tricks))
            assert made == expect_made
            assert points == (value if made else 0)
            if rules.SIDE[contract] == rules.Side.ALONE:
                assert money == (3 * value if made else -3 * value)
            else:
                assert abs(money) in (value, 3 * value)  # 3V when no card could be called


def test_summary_rates_match_direct_counts(table):
    summary = summarize_bids(bids_moments(table))
    row = summary[(summary["contract"] == "rik") & (summary["feature"] == "all")].iloc[0]
    made = int(table["made_rik"].sum())
    assert row["n"] == len(table) and row["made"] == made
    low, high = wilson_interval(made, len(table))
    assert (row["rate_lo"], row["rate_hi"]) == pytest.approx((low, high))
    assert row["mean_score"] == pytest.approx(table["money_rik"].mean())
    by_aces = summary[(summary["contract"] == "8-alone") & (summary["feature"] == "aces")]
    assert by_aces["n"].sum() == len(table)
    direct = table.groupby("aces")["made_8-alone"].mean()
    for _, r in by_aces.iterrows():
        assert r["rate"] == pytest.approx(direct.loc[int(r["bin"])])


def test_best_contract_is_highest_level_made_half_the_time():
    # A synthetic table: in one cell Rik makes 60%, 9 Alone 50%, 10 Alone 40%.
    n = 100
    base = {"hcp": np.full(n, 15), "aces": 1, "longest": 6, "low_cards": 3, "voids": 0, "trumps": 6, "hearts": 3,
            "troela_trumps": 0}
    table = pd.DataFrame(base)
    for contract in K:
        name = rules.CONTRACT_CLI_NAMES[contract]
        rate = {K.RIK: 0.6, K.ALONE_9: 0.5, K.ALONE_10: 0.4}.get(contract, 0.0)
        made = np.arange(n) < rate * n
        table[f"tricks_{name}"] = np.where(made, 13, 0) if contract != K.TROELA else -1
        table[f"made_{name}"] = made & (contract != K.TROELA)
        table[f"money_{name}"] = np.where(made, 3, -3)
        table[f"points_{name}"] = 0
    best = best_contracts(bids_moments(table))
    assert len(best) == 1
    assert best.iloc[0]["highest_safe"] == "9-alone"
    # Rik: 0.6*3 - 0.4*3 = +0.6 beats 9 Alone's 0 and 10 Alone's negative mean.
    assert best.iloc[0]["best_ev"] == "rik"
    assert contract_rows(table, K.TROELA).empty


def test_chunk_summaries_add_up_to_the_summary_of_the_whole_table(table):
    """Merged per-chunk moments give exactly the summary of the concatenated rows."""
    halves = [table.iloc[: len(table) // 3], table.iloc[len(table) // 3:]]
    merged = merge_bids_moments([bids_moments(half) for half in halves])
    pd.testing.assert_frame_equal(summarize_bids(merged), summarize_bids(bids_moments(table)))
    pd.testing.assert_frame_equal(best_contracts(merged), best_contracts(bids_moments(table)))


def test_one_and_two_workers_give_identical_tables():
    kwargs = dict(seed=9, chunk_size=40, description="test")
    one = pd.concat(run_chunks(bids_chunk, PARAMS, 100, workers=1, **kwargs), ignore_index=True)
    two = pd.concat(run_chunks(bids_chunk, PARAMS, 100, workers=2, **kwargs), ignore_index=True)
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize("dealing", ["random", "packets"])
def test_rounds_are_scored_consistently(dealing):
    rounds = play_chunk({"policy": "heuristic", "dealing": dealing}, 0, 120, np.random.SeedSequence(5))
    money = rounds[[f"money_{s}" for s in range(4)]].to_numpy()
    assert (money.sum(axis=1) == 0).all()
    tricks = rounds[[f"tricks_{s}" for s in range(4)]].to_numpy()
    assert ((tricks.sum(axis=1) == 13) | rounds["passed_out"]).all()
    assert (rounds["dealer"].to_numpy() == np.arange(120) % 4).all()


def test_packet_chain_deals_the_previous_rounds_tricks():
    from analyzer.cards.dealing import deal_packets_kernel
    from analyzer.cards.rng import state_from_seed as fresh_state
    from analyzer.games.rikken.experiments import simulate_rounds
    from analyzer.games.rikken.heuristic import default_params
    from analyzer.games.rikken.kernels import playout_one

    deals, arrays = simulate_rounds(6, 0, np.random.SeedSequence(21), Policies.everywhere("heuristic"), "packets")
    for i in range(5):
        if arrays["passed_out"][i]:
            continue
        # The heuristic is deterministic, so replaying the round reproduces its play order.
        _, trace = playout_one(deals[i], arrays["leader"][i], arrays["contract_of"][i], arrays["partner"][i],
                               arrays["trump"][i], arrays["called_card"][i], arrays["blind"][i],
                               np.ones(4, dtype=np.int64), default_params(), fresh_state(0))
        pack = trace[:, 1] % 52
        first_seat = (i + 1 + 1) % 4  # round i+1 is dealt by seat (i+1) % 4, from its left
        out = np.zeros(4, dtype=np.int64)
        matches = []
        for cut in range(1, 52):
            deal_packets_kernel(pack, cut, first_seat, out)
            matches.append((out == deals[i + 1]).all())
        assert any(matches)


def test_double_dummy_outcomes_fill_the_same_columns():
    from analyzer.games.rikken.dd import play_setups_dd
    from analyzer.games.rikken.experiments import result_columns

    # Each seat holds one whole suit, so whoever declares alone with his suit as trumps ruffs the
    # opening lead (or leads trumps) and takes all 13 tricks under perfect play.
    deals = np.array([[(1 << 13) - 1 << 13 * suit for suit in (3, 2, 1, 0)]], dtype=np.int64)
    contracts = [K.ALONE_8, K.ALONE_13]
    setups = build_setups(deals, np.array([1], dtype=np.int64), contracts)
    columns = result_columns(setups, play_setups_dd(setups)[0], 4, contracts)
    assert (columns["tricks_8-alone"] == 13).all()
    assert columns["made_13-alone"].all()
    assert (columns["money_13-alone"] == 3 * 15).all()
