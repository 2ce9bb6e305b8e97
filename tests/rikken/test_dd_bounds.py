"""Rikken rows under a double-dummy search budget: made or not made stays exact, the count is the
interval the probes proved, and the money and points columns span the scores of every count in it."""

from statistics import NormalDist, stdev

import numpy as np
import pandas as pd
import pytest

from analyzer.games.rikken import rules
from analyzer.games.rikken.advice import Option, advice_moments, advice_table
from analyzer.games.rikken.dd import contract_bounds, made_targets
from analyzer.games.rikken.experiments import build_setups, result_columns
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.summary import bids_moments, bounded_note, summarize_bids
from analyzer.solvers.dd import solve

TRICKS = int(rules.Kind.TRICKS)


def _ending(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    return np.array([sum(1 << c for c in cards[s * size:(s + 1) * size]) for s in range(4)], dtype=np.int64)


def test_made_targets_are_the_trick_targets_of_each_side():
    assert made_targets(0b0100) == [8, 9, 10, 11, 12, 13]
    assert made_targets(0b0101) == [8]


def test_made_is_exact_and_the_count_lies_in_its_bounds():
    """On 9- and 10-card endings (targets 8 and up within reach), against the unbudgeted count."""
    rng = np.random.default_rng(36101)
    bounded = 0
    for i in range(16):
        hands = _ending(rng, 9 + i % 2)
        leader, trump = i % 4, i % 5
        contracts = [(trump, 1 << (i % 4), TRICKS, -1, False), (trump, 1 << (i % 4) | 1 << ((i + 1) % 4), TRICKS, -1,
                                                                  False)]
        exact = [solve(hands, trump, leader, c[1]) for c in contracts]
        assert contract_bounds(hands, leader, contracts, 0) == [(e, e) for e in exact]
        for budget in (1, 30):
            for (low, high), count, c in zip(contract_bounds(hands, leader, contracts, budget), exact, contracts):
                assert low <= count <= high
                bounded += low < high
                for target in made_targets(c[1]):
                    made = count >= target
                    assert (low >= target) == made and (high >= target) == made, (i, c, target, low, high, count)
    assert bounded > 5, "the budgets must leave some counts bounded, or the test checks nothing"


def _rows(contracts, counts):
    """Setups of seat N declaring each of ``contracts`` on one deal, and tricks per seat at ``counts``."""
    deal = np.array([[(1 << 13) - 1 << 13 * suit for suit in (3, 2, 1, 0)]], dtype=np.int64)
    setups = build_setups(deal, np.array([1], dtype=np.int64), contracts, seats=[0])
    tricks = np.zeros((setups["hand"].size, 4), dtype=np.int64)
    for row, contract in enumerate(setups["contract"]):
        defender = next(s for s in range(1, 4) if s != setups["partner"][row])
        tricks[row, 0] = counts[int(contract)]
        tricks[row, defender] = 13 - counts[int(contract)]
    return setups, tricks


def test_scores_of_a_bounded_count_are_worked_by_hand():
    """8 Alone (and 9 Alone, sharing its play) failed with 1 or 2 tricks, Rik made with 9 or 10.

    docs/rules.md: a failed trick contract is worth P + undertricks (P = 1), a lone declarer settles
    with each of three defenders; made, P + overtricks, and a pair's declarer settles with one."""
    contracts = [K.RIK, K.ALONE_8, K.ALONE_9]
    setups, low = _rows(contracts, {K.RIK: 9, K.ALONE_8: 1})
    _, high = _rows(contracts, {K.RIK: 10, K.ALONE_8: 2})
    columns = result_columns(setups, low, 4, contracts, high_tricks=high)
    north = 0
    assert not columns["exact_8-alone"][north] and not columns["exact_rik"][north]
    assert (columns["tricks_8-alone"][north], columns["tricks_high_8-alone"][north]) == (1, 2)
    assert not columns["made_8-alone"][north] and not columns["made_9-alone"][north]
    assert (columns["money_8-alone"][north], columns["money_high_8-alone"][north]) == (-3 * 8, -3 * 7)
    assert (columns["money_9-alone"][north], columns["money_high_9-alone"][north]) == (-3 * 9, -3 * 8)
    assert (columns["points_8-alone"][north], columns["points_high_8-alone"][north]) == (0, 0)
    assert columns["made_rik"][north]
    assert (columns["money_rik"][north], columns["money_high_rik"][north]) == (2, 3)
    assert (columns["points_rik"][north], columns["points_high_rik"][north]) == (2, 3)


def test_exact_rows_have_equal_ends():
    contracts = [K.RIK, K.ALONE_8]
    setups, tricks = _rows(contracts, {K.RIK: 8, K.ALONE_8: 9})
    columns = result_columns(setups, tricks, 4, contracts, high_tricks=tricks)
    assert columns["exact_rik"][0] and columns["exact_8-alone"][0]
    for name in ("rik", "8-alone"):
        for key in ("tricks", "money", "points"):
            assert columns[f"{key}_{name}"][0] == columns[f"{key}_high_{name}"][0]


def test_summary_widens_by_the_bounded_rows_as_worked_by_hand():
    """Four 8 Alone hands, two bounded: money low ends -24 3 -27 6, high ends -21 3 -27 9."""
    low, high = [-24, 3, -27, 6], [-21, 3, -27, 9]
    table = pd.DataFrame({"hcp": [3, 12, 2, 15], "aces": 0, "longest": 5, "low_cards": 4, "voids": 0, "trumps": 5,
                          "hearts": 2, "tricks_8-alone": [1, 8, 0, 8], "tricks_high_8-alone": [2, 8, 0, 9],
                          "made_8-alone": [False, True, False, True], "exact_8-alone": [False, True, True, False],
                          "money_8-alone": low, "money_high_8-alone": high, "points_8-alone": [0, 1, 0, 2],
                          "points_high_8-alone": [0, 1, 0, 3]})
    summary = summarize_bids(bids_moments(table))
    row = summary[(summary["contract"] == "8-alone") & (summary["feature"] == "all")].iloc[0]
    assert row["n"] == 4 and row["bounded"] == 2 and row["made"] == 2
    z = NormalDist().inv_cdf(0.975)
    assert row["mean_score"] == pytest.approx(-10.5) and row["mean_score_high"] == pytest.approx(-9.0)
    assert row["score_lo"] == pytest.approx(-10.5 - z * stdev(low) / 2)
    assert row["score_hi"] == pytest.approx(-9.0 + z * stdev(high) / 2)
    assert row["mean_points"] == pytest.approx(0.75) and row["mean_points_high"] == pytest.approx(1.0)
    assert bounded_note(bids_moments(table)) == "; 2 of 4 rows bounded"


def test_advice_widens_by_the_bounded_rows_as_worked_by_hand():
    """Two options on three deals; option 1 has one bounded deal (money -24 to -21)."""
    rows = pd.DataFrame({"option": [0, 0, 0, 1, 1, 1], "made": [True, False, True, False, False, True],
                         "tricks": [8, 7, 9, 1, 0, 8], "exact": [True, True, True, False, True, True],
                         "money": [3, -6, 6, -24, -27, 3], "money_high": [3, -6, 6, -21, -27, 3],
                         "points": [1, 0, 2, 0, 0, 1], "points_high": [1, 0, 2, 0, 0, 1]})
    options = [Option(K.RIK, 0, 12), Option(K.ALONE_8, 0)]
    table = advice_table(advice_moments(rows, 2), options).set_index("option")
    z = NormalDist().inv_cdf(0.975)
    alone = table.loc[options[1].name]
    assert alone["bounded"] == 1 and table.loc[options[0].name, "bounded"] == 0
    assert alone["mean_money"] == pytest.approx(-16.0) and alone["mean_money_high"] == pytest.approx(-15.0)
    assert alone["money_lo"] == pytest.approx(-16.0 - z * stdev([-24, -27, 3]) / 3 ** 0.5)
    assert alone["money_hi"] == pytest.approx(-15.0 + z * stdev([-21, -27, 3]) / 3 ** 0.5)
    # Against the best (Rik, exact): low ends less the best's, deal by deal; the high ends likewise.
    assert alone["vs_best_lo"] == pytest.approx(-17.0 - z * stdev([-27, -21, -3]) / 3 ** 0.5)
    assert alone["vs_best_hi"] == pytest.approx(-16.0 + z * stdev([-24, -21, -3]) / 3 ** 0.5)
    # p_tricks counts exact rows only: the bounded deal is in none.
    assert sum(alone[f"p_tricks_{k}"] for k in range(14)) == pytest.approx(2 / 3)
