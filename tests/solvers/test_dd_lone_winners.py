"""The lone declarer's winners bound (``_lone_winners``) against the brute-force minimax.

Endings are dealt so that the bound applies: either no defender holds a trump (any leader), or the
declarer is on lead with a top run of trumps at least as long as every defender's trumps.  The
bound must never exceed the declarer's true count, and it must equal it on enough endings that a
bound one trick too high would be caught.
"""

from functools import lru_cache

import numpy as np
import pytest

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.quick_tricks import _lone_winners

from .reference_minimax import Rules, max_tricks

SIZE = 4


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _ending(rng, trump, declarer, draw):
    """Hands of ``SIZE`` cards; the declarer holds trumps, and with ``draw`` the defenders some below its top ones."""
    trumps = [13 * trump + r for r in range(13)]
    side = [int(c) for c in rng.permutation([c for c in range(52) if c // 13 != trump])]
    own = int(rng.integers(1, SIZE + 1))
    if draw:
        ranks = sorted(int(r) for r in rng.permutation(13)[: own + int(rng.integers(1, 4))])
        declarer_trumps = [trumps[r] for r in ranks[-own:]]
        defender_trumps = [trumps[r] for r in ranks[:-own]]
    else:
        declarer_trumps = [trumps[int(r)] for r in rng.permutation(13)[:own]]
        defender_trumps = []
    hands = [[] for _ in range(4)]
    hands[declarer] = declarer_trumps + side[: SIZE - own]
    pool = defender_trumps + side[SIZE - own:]
    pool = [pool[int(i)] for i in rng.permutation(len(pool))]
    for seat in range(4):
        if seat != declarer:
            hands[seat] = pool[:SIZE]
            pool = pool[SIZE:]
    return hands


@lru_cache(maxsize=None)
def _cases(draw):
    """Endings where the bound applies, with its value and the declarer's true count."""
    rng = np.random.default_rng(17 if draw else 71)
    cases = []
    while len(cases) < 40:
        trump = int(rng.integers(4))
        declarer = int(rng.integers(4))
        leader = declarer if draw else int(rng.integers(4))
        hands = _ending(rng, trump, declarer, draw)
        masks = _masks(hands)
        present = masks[0] | masks[1] | masks[2] | masks[3]
        bound, _ = _lone_winners(masks, declarer, leader == declarer, trump, present)
        if bound == 0:
            continue
        true = max_tricks(Rules(trump, [declarer]), hands, leader)
        cases.append((hands, trump, declarer, leader, int(bound), true))
    return cases


@pytest.mark.parametrize("draw", [False, True])
def test_bound_never_exceeds_the_true_count_and_is_often_exact(draw):
    cases = _cases(draw)
    assert all(bound <= true for _, _, _, _, bound, true in cases)
    # Exact on at least a third of them: a bound one trick higher fails the line above.
    assert sum(bound == true for _, _, _, _, bound, true in cases) >= len(cases) // 3


@pytest.mark.parametrize("draw", [False, True])
def test_lone_declarer_counts_match_reference(draw):
    for hands, trump, declarer, leader, _, true in _cases(draw):
        assert solve(_masks(hands), trump, leader, 1 << declarer) == true
        assert solve(_masks(hands), trump, leader, 1 << declarer, goal="ge", k=true)
        if true < SIZE:
            assert not solve(_masks(hands), trump, leader, 1 << declarer, goal="ge", k=true + 1)
