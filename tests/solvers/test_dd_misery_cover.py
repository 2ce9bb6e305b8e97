"""The misère cover (``misery_cover``) against the brute-force minimax.

On random no-trump endings where the ``j``-th rule fails in some suit the lone declarer holds, every
claim of ``_lone_ducks`` that he ducks every trick left is checked against the reference's answer to
"can he take no more tricks".  Half the endings give him a long suit of random ranks (the defenders
then hold it two or three at a time, where the cover is needed); claims are counted by the check
that made them: one failing suit with his discards credited, several without, the declarer on lead.
"""

from functools import lru_cache

import numpy as np
import pytest

from analyzer.solvers.dd.misery_bounds import _guarded, _lone_ducks

from .reference_minimax import Rules, can_force
from .test_dd_lone_ducks import _deal, _failing_suits, _masks

NO_TRUMP = 4


def _long_suit_deal(rng, size):
    """A declarer holding ``size`` or ``size - 1`` cards of one suit at random ranks, the rest of two
    or three suits dealt at random."""
    suits = rng.permutation(4)[: int(rng.integers(2, 4))]
    mine = [13 * int(suits[0]) + int(r) for r in rng.permutation(13)[: size - int(rng.integers(0, 2))]]
    pool = [int(13 * s + r) for s in suits for r in range(13) if 13 * s + r not in mine]
    pool = [pool[i] for i in rng.permutation(len(pool))]
    extra = size - len(mine)
    mine, pool = mine + pool[:extra], pool[extra:]
    declarer = int(rng.integers(4))
    hands = [[] for _ in range(4)]
    hands[declarer] = sorted(mine)
    for seat in (s for s in range(4) if s != declarer):
        hands[seat], pool = sorted(pool[:size]), pool[size:]
    return hands, declarer


def _kind(masks, hands, declarer, leader, failing):
    """Which check the claim needed: "credited", "several", "on lead", or None (the older rules)."""
    if leader != declarer:
        if len(failing) == 1:
            return None if _guarded(masks, declarer, failing[0]) else "credited"
        return "several"
    # On lead, the older rules cover at most one guarded failing suit besides the suit he leads.
    unguarded = [s for s in failing if not _guarded(masks, declarer, s)]
    if len(failing) >= 2 and (unguarded or len(failing) >= 3):
        return "on lead"
    if len(unguarded) == 1:
        # Then the older rules needed a safe lead in that suit: one card below some holder's lowest.
        s = unguarded[0]
        low = min(c for c in hands[declarer] if c // 13 == s)
        covers = [min(c for c in hand if c // 13 == s) for seat, hand in enumerate(hands)
                  if seat != declarer and any(c // 13 == s for c in hand)]
        return None if any(low < c for c in covers) else "on lead"
    return None


@lru_cache(maxsize=None)
def _claims(size, deals, seed):
    """Counts of the claims by kind, and the claims the reference refutes."""
    rng = np.random.default_rng(seed)
    counts = {"credited": 0, "several": 0, "on lead": 0}
    wrong = []
    for i in range(deals):
        hands, declarer = (_long_suit_deal if i % 2 else _deal)(rng, size)
        leader = int(rng.integers(4))
        masks = _masks(hands)
        failing = _failing_suits(masks, declarer)
        if not failing or _lone_ducks(masks, leader, declarer)[0] != 1:
            continue
        kind = _kind(masks, hands, declarer, leader, failing)
        if kind is not None:
            counts[kind] += 1
        if not can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0):
            wrong.append((hands, declarer, leader, kind))
    return counts, wrong


@pytest.mark.parametrize("size,deals", [(3, 1500), pytest.param(4, 2500, marks=pytest.mark.slow),
                                        pytest.param(5, 1500, marks=pytest.mark.slow)])
def test_cover_claims_hold_against_the_reference(size, deals):
    counts, wrong = _claims(size, deals, 900 + size)
    assert not wrong, wrong[:3]
    # Each check makes claims the older rules do not (a floor on how often, not a count: 5-card endings give
    # about 6 claims on lead in 1,500, fewer than the smaller endings).
    assert counts["credited"] >= deals // 100, counts
    assert counts["several"] >= deals // 500 and counts["on lead"] >= deals // 300, counts


def test_a_defender_counts_only_for_the_tricks_he_can_still_follow():
    """Hand-worked 2-card ending, S on lead, N alone at no trump: N S8 H2, E C5 S9, S H9 S2, W D3 D4.
    S leads H9 (N ducks with H2), E throws S9, and S's S2 then forces N's S8: N takes a trick.  E's
    reach in spades is 0 (he may throw it on the heart), so his S9 must not floor the spade trick."""
    hands = ((45, 26), (3, 46), (33, 39), (14, 15))
    assert not can_force(Rules(NO_TRUMP, [0]), hands, 2, 0, 0)
    assert _lone_ducks(_masks(hands), 2, 0)[0] != 1
