"""``solve_bounds``: a trick count searched within a budget of completed tricks.

The bounds must always contain the exact count (brute force on small endings, the unbudgeted solver
on full deals), equal it without a budget, depend only on the question (not on the process's
earlier solves), and an aborted search must leave nothing false in the table.
"""

import subprocess
import sys

import numpy as np
import pytest

from analyzer.errors import InputError
from analyzer.solvers.dd import solve, solve_bounds
from analyzer.solvers.dd.api import MAX_BUDGET, check_budget, last_tricks

from .reference_minimax import Rules, max_tricks

BUDGETS = (1, 3, 10, 40, 200)


def _deal(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
    return hands, np.array([sum(1 << c for c in hand) for hand in hands], dtype=np.int64)


def _team(rng):
    """A lone declarer, a pair or three seats."""
    seats = rng.choice(4, int(rng.integers(1, 4)), replace=False)
    return [int(s) for s in seats], int(sum(1 << int(s) for s in seats))


def test_bounds_contain_the_brute_force_count_on_small_endings():
    rng = np.random.default_rng(36001)
    bounded = 0
    for _ in range(80):
        size = int(rng.integers(3, 5))
        hands, masks = _deal(rng, size)
        seats, team = _team(rng)
        trump, leader = int(rng.integers(5)), int(rng.integers(4))
        exact = max_tricks(Rules(trump, seats), hands, leader)
        assert solve_bounds(masks, trump, leader, team) == (exact, exact)
        for budget in BUDGETS:
            low, high = solve_bounds(masks, trump, leader, team, budget)
            assert low <= exact <= high, (hands, trump, leader, team, budget, low, high, exact)
            bounded += low < high
    assert bounded > 20, "the budgets must stop some searches, or the test checks nothing"


def test_bounds_contain_the_exact_count_on_full_deals():
    rng = np.random.default_rng(36002)
    bounded = 0
    for i in range(12):
        _, masks = _deal(rng, 13)
        team = 1 << (i % 4) if i % 2 else 0b0101
        trump, leader = i % 5, (i * 3) % 4
        exact = solve(masks, trump, leader, team)
        assert solve_bounds(masks, trump, leader, team, 0) == (exact, exact)
        for budget in (1, 100, 3000):
            low, high = solve_bounds(masks, trump, leader, team, budget)
            assert low <= exact <= high
            bounded += low < high
        # Known bounds are kept: the refining probes start inside them.
        assert solve_bounds(masks, trump, leader, team, 0, exact, exact) == (exact, exact)
        low, high = solve_bounds(masks, trump, leader, team, 1, max(exact - 1, 0), min(exact + 1, 13))
        assert max(exact - 1, 0) <= low <= exact <= high <= min(exact + 1, 13)
    assert bounded > 5


def test_the_budget_counts_completed_tricks():
    rng = np.random.default_rng(36003)
    _, masks = _deal(rng, 13)
    exact = solve(masks, 3, 0, 0b0010)
    full = last_tricks()
    # The probes may search three quarters of the budget before the tightening quarter.
    assert solve_bounds(masks, 3, 0, 0b0010, full * 4 // 3 + 4) == (exact, exact)
    budget = full // 2
    low, high = solve_bounds(masks, 3, 0, 0b0010, budget)
    # Three quarters for the probes, the rest once one ran out; the paths under way at the (at most two)
    # aborts unwind within one deal each.
    assert budget * 3 // 4 <= last_tricks() <= budget + 2 * 13
    assert low <= exact <= high


def test_an_aborted_search_stores_nothing_false():
    """An aborted solve and then an unbudgeted one in the same table generation: the exact answer."""
    rng = np.random.default_rng(36004)
    for i in range(40):
        size = 13 if i % 4 == 0 else int(rng.integers(5, 9))
        _, masks = _deal(rng, size)
        team = [0b0001, 0b0101, 0b1110][i % 3]
        trump, leader = i % 5, i % 4
        exact = solve(masks, trump, leader, team)
        generations = {}
        for budget in (2, 7, 30, 150):
            solve_bounds(masks, trump, leader, team, budget, generations=generations)
        assert solve(masks, trump, leader, team, generations=generations) == exact
        assert solve_bounds(masks, trump, leader, team, 0, generations=generations) == (exact, exact)


def _answers(seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(6):
        _, masks = _deal(rng, 13)
        team = 1 << (i % 4)
        out.append((solve_bounds(masks, i % 5, (i + 1) % 4, team, 500), last_tricks()))
    return out


def test_bounds_do_not_depend_on_earlier_solves_or_the_process():
    first = _answers(36005)
    rng = np.random.default_rng(7)
    for _ in range(3):
        _, masks = _deal(rng, 13)
        solve(masks, 1, 2, 0b0101)
        solve_bounds(masks, 2, 1, 0b1000, 40)
    assert _answers(36005) == first
    code = "from tests.solvers.test_dd_budget import _answers; print(_answers(36005))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert other.strip() == str(first)


@pytest.mark.parametrize("bad", [-1, MAX_BUDGET + 1, 2.5, "100", True, None])
def test_bad_budgets_are_refused(bad):
    with pytest.raises(InputError):
        check_budget(bad)


def test_good_budgets_pass_and_bad_bounds_are_refused():
    assert check_budget(0) == 0
    assert check_budget(np.int64(MAX_BUDGET)) == MAX_BUDGET
    masks = _deal(np.random.default_rng(1), 3)[1]
    with pytest.raises(InputError):
        solve_bounds(masks, 0, 0, 1, 10, 2, 1)
    with pytest.raises(InputError):
        solve_bounds(masks, 0, 0, 1, 10, 0, 4)


def test_a_stopped_lone_count_is_pinned_to_two_values():
    """W alone in hearts (Q8432 against the other eight trumps): "makes 1" is the costly proof (26.9 M
    completed tricks, issue 36) while "makes 2" is refused at once. Once the probe from the guess runs
    out, the probes from both ends leave the count one of two values, not the whole range below 8."""
    deal = np.array([0x9a440400c8a08, 0x2022a81b20480, 0x190422405071, 0x440911c012106], dtype=np.int64)
    hearts, west = 2, 0b1000
    assert not solve(deal, hearts, 0, west, "ge", 2)
    low, high = solve_bounds(deal, hearts, 0, west, 100_000, 0, 7)
    assert (low, high) == (0, 1)
