"""``judge_moves`` on a subset of the mover's moves (``moves``, ``until_fail``): the verdicts of the moves searched
are those of brute force (small endings) and of the full call (full deals), the others are left out (issue 39).
"""

import numpy as np

from analyzer.solvers.dd.api import judge_moves

from .reference_minimax import Rules
from .test_dd_judge_moves import GOALS, _deal, _reference_keeps


def _subset(rng, hand):
    """A random non-empty part of ``hand`` (a card list) and its mask."""
    chosen = [c for c in hand if rng.random() < 0.5] or [hand[0]]
    return chosen, sum(1 << c for c in chosen)


def test_the_moves_searched_get_the_brute_force_verdicts_and_no_other_is_searched():
    rng = np.random.default_rng(39017)
    left_out = 0
    for case in range(60):
        size = 3 if case % 2 else 4
        hands, masks = _deal(rng, size)
        seats = [int(s) for s in rng.choice(4, int(rng.integers(1, 3)), replace=False)]
        team = sum(1 << s for s in seats)
        trump, leader = int(rng.integers(5)), int(rng.integers(4))
        goal = GOALS[case % 4]
        k = int(rng.integers(size + 1))
        keeps = _reference_keeps(Rules(trump, seats), hands, leader, team, goal, k)
        _, mask = _subset(rng, hands[leader])
        got = judge_moves(masks, trump, leader, team, goal, k, moves=(mask, 0))
        assert got.complete
        decided = got.keep_up | got.fail_up
        assert decided & mask == mask, case
        for card, keep in keeps.items():
            if got.keep_up >> card & 1:
                assert keep, (case, card)
            if got.fail_up >> card & 1:
                assert not keep, (case, card)
        # Cards left undecided (a card outside the subset is decided only in the run of one inside).
        left_out += bin(int(masks[leader]) & ~decided).count("1")
    assert left_out > 30, "the subsets must leave moves out, or the test checks nothing"


def test_until_fail_tells_whether_some_move_asked_fails():
    rng = np.random.default_rng(39018)
    told = {True: 0, False: 0}
    for case in range(60):
        size = 3 if case % 2 else 4
        hands, masks = _deal(rng, size)
        seats = [int(s) for s in rng.choice(4, int(rng.integers(1, 3)), replace=False)]
        team = sum(1 << s for s in seats)
        trump, leader = int(rng.integers(5)), int(rng.integers(4))
        goal = GOALS[case % 4]
        k = int(rng.integers(size + 1))
        keeps = _reference_keeps(Rules(trump, seats), hands, leader, team, goal, k)
        chosen, mask = _subset(rng, hands[leader])
        got = judge_moves(masks, trump, leader, team, goal, k, moves=(mask, 0), until_fail=True)
        some_fail = not all(keeps[c] for c in chosen)
        assert got.complete
        assert bool(got.fail_up) == some_fail, case
        assert got.fail_up & ~int(masks[leader]) == 0
        for card in range(52):
            if got.fail_up >> card & 1:
                assert not keeps[card], (case, card)
        told[some_fail] += 1
    assert min(told.values()) > 10


def test_a_subset_of_a_full_deal_answers_as_the_full_call():
    rng = np.random.default_rng(39019)
    for case in range(6):
        _, masks = _deal(rng, 13)
        team = [0b0101, 0b0001, 0b0010][case % 3]
        trump, leader = int(rng.integers(5)), int(rng.integers(4))
        goal, k = [("max", 0), ("ge", 7), ("le", 0)][case % 3]
        full = judge_moves(masks, trump, leader, team, goal, k)
        hand = [c for c in range(52) if int(masks[leader]) >> c & 1]
        _, mask = _subset(rng, hand)
        got = judge_moves(masks, trump, leader, team, goal, k, moves=(mask, 0))
        assert got.complete
        decided = got.keep_up | got.fail_up
        assert decided & mask == mask
        assert got.keep_up == full.keep_up & decided, case
        assert got.fail_up == full.fail_up & decided, case
