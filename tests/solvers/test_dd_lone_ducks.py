"""The lone declarer's ducking bound (``_lone_ducks``) against the brute-force minimax.

On random no-trump endings, whichever seat leads, the bound's claims are checked against the
reference's answer to "can the declarer take no more tricks": a claimed duck of every trick must be
possible, a claimed forced trick impossible.  Each kind of claim must come up often, so a bound
that claims too much where one card's rank decides it is caught.
"""

from functools import lru_cache

import numpy as np
import pytest

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.later_tricks import _lone_ducks

from .reference_minimax import Rules, can_force

NO_TRUMP = 4


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


@lru_cache(maxsize=None)
def _cases(size):
    """(hands, declarer, leader, verdict, whether the declarer can take no trick) on random endings.

    The cards come from two or three suits, so that suits are often shared and voids are common;
    the declarer is often dealt mostly low or mostly high cards.
    """
    rng = np.random.default_rng(size)
    cases = []
    for _ in range(300):
        suits = rng.permutation(4)[: int(rng.integers(2, 4))]
        pool = [int(13 * s + r) for s in suits for r in range(13)]
        cards = [pool[i] for i in rng.permutation(len(pool))[: 4 * size]]
        declarer = int(rng.integers(4))
        slant = int(rng.integers(3))
        if slant:
            # A third of the time each, the declarer is dealt mostly low cards (he can often duck
            # everything) or mostly high ones (he often takes the trick he leads).
            cards.sort(key=lambda c: (c % 13 if slant == 1 else -(c % 13)) + 7 * int(rng.integers(2)))
        hands = [[] for _ in range(4)]
        hands[declarer] = sorted(cards[:size])
        rest = cards[size:]
        for seat in (s for s in range(4) if s != declarer):
            hands[seat], rest = sorted(rest[:size]), rest[size:]
        leader = int(rng.integers(4))
        verdict, _ = _lone_ducks(_masks(hands), leader, declarer)
        ducks = can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0)
        cases.append((hands, declarer, leader, int(verdict), ducks))
    return cases


@pytest.mark.parametrize("size", [3, 4])
def test_claims_hold_against_the_reference(size):
    cases = _cases(size)
    for hands, declarer, leader, verdict, ducks in cases:
        if verdict >= 0:
            assert ducks == (verdict == 1), (hands, declarer, leader, verdict)
    claims = [verdict for _, _, _, verdict, _ in cases]
    # Every kind of claim is exercised: ducking everything, taking a trick on lead, being made to take one.
    assert claims.count(1) >= 15
    assert sum(v == 0 and leader == declarer for _, declarer, leader, v, _ in cases) >= 10
    assert sum(v == 0 and leader != declarer for _, declarer, leader, v, _ in cases) >= 20


@pytest.mark.parametrize("size", [3, 4])
def test_misery_and_one_alone_answers_match_the_reference(size):
    for hands, declarer, leader, _, ducks in _cases(size)[:120]:
        team = 1 << declarer
        assert solve(_masks(hands), NO_TRUMP, leader, team, goal="le", k=0) == ducks
        rules = Rules(NO_TRUMP, [declarer])
        assert solve(_masks(hands), NO_TRUMP, leader, team, goal="eq", k=1) == can_force(rules, hands, leader, 1, 1)
