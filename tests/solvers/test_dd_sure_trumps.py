"""Sure trump tricks (``_sure_trumps``) against the brute-force minimax, for both sides.

Endings of 3 or 4 cards per hand from three suits, the first trumps, for partners opposite and
adjacent, one against three and three against one, every seat on lead.  Half are dealt so that two
seats of one side hold the top two trumps, one each: with three trumps or more between them the
side is counted two sure tricks, and the brute force must agree that it takes two whoever leads
and whatever the others do; with two trumps between them (each top card bare) it must not be
counted, since leading trumps can make the two fall together.
"""

from functools import lru_cache

import numpy as np

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.quick_tricks import _sure_trumps

from .reference_minimax import Rules, max_tricks

TEAMS = ((0, 2), (0, 1), (0,), (1, 2, 3))


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


@lru_cache(maxsize=None)
def _endings():
    """(hands, trump, team, leader, claims (team, others), true counts (team, others), split tops, their two
    seats' trumps, 0 when the split side is the team else 1)."""
    rng = np.random.default_rng(3640)
    cases = []
    for i in range(360):
        size = 3 + i % 2
        team = TEAMS[(i // 2) % len(TEAMS)]
        suits = [int(s) for s in rng.permutation(4)[:3]]
        trump = suits[0]
        hands = [[] for _ in range(4)]
        if i % 4 < 2:
            side = team if len(team) >= 2 and (len(team) == 4 or rng.integers(2)) else tuple(
                s for s in range(4) if s not in team)
            first, second = (int(s) for s in rng.permutation(side)[:2])
            hands[first].append(13 * trump + 12)
            hands[second].append(13 * trump + 11)
        dealt = {c for h in hands for c in h}
        rest = [int(c) for c in rng.permutation([13 * s + r for s in suits for r in range(13)]) if c not in dealt]
        for seat in range(4):
            while len(hands[seat]) < size:
                hands[seat].append(rest.pop())
        hands = tuple(tuple(sorted(h)) for h in hands)
        others = tuple(s for s in range(4) if s not in team)
        leader = int(rng.integers(4))
        ours, theirs, _ = _sure_trumps(_masks(hands), trump, sum(1 << s for s in team), -1, True)
        true_team = max_tricks(Rules(trump, team), hands, leader)
        true_others = max_tricks(Rules(trump, others), hands, leader)
        trumps = sorted((c for h in hands for c in h if c // 13 == trump), reverse=True)
        holders = [next(s for s in range(4) if c in hands[s]) for c in trumps[:2]]
        split = len(trumps) >= 2 and holders[0] != holders[1] and (holders[0] in team) == (holders[1] in team)
        pair = sum(1 for s in set(holders) for c in hands[s] if c // 13 == trump) if split else 0
        # The split side's claim and true count (team first, others second).
        which = 0 if split and holders[0] in team else 1
        cases.append((hands, trump, team, leader, (int(ours), int(theirs)), (true_team, true_others), split, pair,
                      which))
    return cases


def test_sure_trumps_never_exceed_either_sides_count():
    for hands, trump, team, leader, claims, trues, *_ in _endings():
        assert claims[0] <= trues[0] and claims[1] <= trues[1], (hands, trump, team, leader)


def test_split_top_trumps_with_a_third_trump_count_two():
    fired = [claims[which] for *_, claims, _, split, pair, which in _endings() if split and pair >= 3]
    assert len(fired) >= 60
    assert all(claim >= 2 for claim in fired)


def test_bare_split_top_trumps_can_fall_together():
    # Each top trump bare: some of these sides take fewer than two tricks, so a rule without the third
    # trump fails the first test.
    bare = [trues[which] for *_, trues, split, pair, which in _endings() if split and pair == 2]
    assert len(bare) >= 10
    assert sum(true < 2 for true in bare) >= 3


def test_solver_counts_match_reference_on_these_endings():
    for hands, trump, team, leader, _, trues, *_ in _endings():
        assert solve(_masks(hands), trump, leader, sum(1 << s for s in team)) == trues[0]
