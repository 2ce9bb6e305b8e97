"""Rikken rows under a double-dummy search budget: made or not made stays exact, the count is the
interval the probes proved, and the money and points columns span the scores of every count in it."""

import numpy as np

from analyzer.games.rikken import rules
from analyzer.games.rikken.dd import contract_bounds, made_targets
from analyzer.games.rikken.experiments import build_setups, result_columns
from analyzer.games.rikken.rules import Contract as K
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
