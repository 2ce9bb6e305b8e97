"""``judge_moves``: each move's verdict within a budget of completed tricks.

Every verdict the call reports must be true (brute force on small endings, sharing no code with the
solver), a complete answer must decide every legal card, a budget that runs out must leave moves
undecided rather than guessed, and a stopped search must leave nothing false in the table.
"""

import numpy as np
import pytest

from analyzer.errors import InputError
from analyzer.solvers.dd.api import judge_moves

from .reference_minimax import Rules, can_force, max_tricks

BUDGETS = (0, 1, 2, 5, 20, 80)
GOALS = ("max", "ge", "le", "eq")


def _deal(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
    return hands, np.array([sum(1 << c for c in hand) for hand in hands], dtype=np.int64)


def _reference_keeps(rules, hands, leader, team, goal, k):
    """Per card of the leader's hand: does it keep the best result the leader's side can force?"""
    seats = rules.team
    on_team = leader in seats
    total = len(hands[0])
    if goal == "max":
        value = max_tricks(rules, hands, leader)
        window = (value, 99) if on_team else (value + 1, 99)
    else:
        window = {"ge": (k, 99), "le": (-99, k), "eq": (k, k)}[goal]
    out = {}
    for card in hands[leader]:
        after = [list(h) for h in hands]
        after[leader].remove(card)
        reached = can_force(rules, after, (leader + 1) % 4, *window, ((leader, card, False),))
        out[card] = reached == on_team
    assert total == len(hands[leader])
    return out


def test_verdicts_are_true_and_complete_without_a_budget():
    rng = np.random.default_rng(39001)
    undecided = 0
    for case in range(40):
        size = 3 if case % 2 else 4
        hands, masks = _deal(rng, size)
        seats = [int(s) for s in rng.choice(4, int(rng.integers(1, 3)), replace=False)]
        team = sum(1 << s for s in seats)
        trump, leader = int(rng.integers(5)), int(rng.integers(4))
        goal = GOALS[case % 4]
        k = int(rng.integers(size + 1))
        rules = Rules(trump, seats)
        keeps = _reference_keeps(rules, hands, leader, team, goal, k)
        for budget in BUDGETS:
            got = judge_moves(masks, trump, leader, team, goal, k, budget=budget)
            assert got.keep_down == got.fail_down == 0
            for card, keep in keeps.items():
                if got.keep_up >> card & 1:
                    assert keep, (case, budget, card)
                if got.fail_up >> card & 1:
                    assert not keep, (case, budget, card)
            decided = got.keep_up | got.fail_up
            assert decided & ~int(masks[leader]) == 0
            if budget == 0:
                assert got.complete
            if got.complete:
                assert decided == int(masks[leader]), (case, budget)
            else:
                undecided += 1
    assert undecided > 15, "the budgets must stop some searches, or the test checks nothing"


def test_a_stopped_search_leaves_the_table_true():
    """Budgeted calls share the caller's generations with an exact call that follows them."""
    rng = np.random.default_rng(39002)
    for case in range(12):
        hands, masks = _deal(rng, 4)
        seats = [int(rng.integers(4))]
        team = 1 << seats[0]
        trump, leader = int(rng.integers(5)), int(rng.integers(4))
        goal, k = ("le", 0) if case % 2 else ("eq", 1)
        generations = {}
        for budget in (1, 3, 9):
            judge_moves(masks, trump, leader, team, goal, k, generations=generations, budget=budget)
        got = judge_moves(masks, trump, leader, team, goal, k, generations=generations)
        keeps = _reference_keeps(Rules(trump, seats), hands, leader, team, goal, k)
        assert got.complete
        assert got.keep_up == sum(1 << c for c, keep in keeps.items() if keep), case


@pytest.mark.parametrize("budget", [-1, 1.5, True])
def test_bad_budget_is_refused(budget):
    masks = np.array([1, 2, 4, 8], dtype=np.int64)
    with pytest.raises(InputError, match="budget"):
        judge_moves(masks, 4, 0, 1, budget=budget)
