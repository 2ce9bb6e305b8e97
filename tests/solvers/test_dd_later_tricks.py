"""The later-tricks cut-off (``_tops_fall_short``) against the brute-force minimax.

Endings without trumps in play, for partners opposite, adjacent partners, one against three and
three against one, any seat on lead.  Whenever the cut-off says the side on lead cannot take every
trick left, the brute force must agree; the cut-off must fire often, and endings where the suits the
side tops hold exactly the tricks left (where it must stay silent) must include some the side does
take all of, so that a cut-off firing one trick early would be caught.
"""

from functools import lru_cache

import numpy as np
from analyzer.solvers.dd import solve
from analyzer.solvers.dd.search import _tops_fall_short

from .reference_minimax import Rules, max_tricks

SIZE = 3
TEAMS = ((0, 2), (0, 1), (0,), (1, 2, 3))


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _supply(hands, side):
    """The side's tricks from the suits it tops: per suit it tops, its longest holding (the claim's count)."""
    total = 0
    for suit in range(4):
        out = [c for h in hands for c in h if c // 13 == suit]
        if out and any(max(out) in hands[s] for s in side):
            total += max(sum(1 for c in hands[s] if c // 13 == suit) for s in side)
    return total


@lru_cache(maxsize=None)
def _endings():
    """(hands, trump, team seats, leader, the side on lead, the cut-off's verdict, the side's true count)."""
    rng = np.random.default_rng(2026)
    cases = []
    for i in range(300):
        # Three suits make long holdings, and so ties between the supply and the tricks left, common.
        suits = [int(s) for s in rng.permutation(4)[:3]]
        pool = [13 * s + r for s in suits for r in range(13)]
        cards = [int(c) for c in rng.permutation(pool)[:4 * SIZE]]
        hands = [sorted(cards[SIZE * s:SIZE * (s + 1)]) for s in range(4)]
        # No trump, or a trump suit nobody holds any more: both play as no trump.
        trump = 4 if i % 2 else next(s for s in range(4) if s not in suits)
        team = TEAMS[i % len(TEAMS)]
        leader = int(rng.integers(4))
        side = team if leader in team else tuple(s for s in range(4) if s not in team)
        team_mask = sum(1 << s for s in team)
        masks = _masks(hands)
        present = masks[0] | masks[1] | masks[2] | masks[3]
        verdict = int(_tops_fall_short(masks, leader, present, team_mask))
        true = max_tricks(Rules(trump, side), hands, leader)
        cases.append((hands, trump, team, leader, side, verdict, true))
    return cases


def test_cut_off_only_claims_what_the_brute_force_confirms():
    claims = [true for _, _, _, _, _, verdict, true in _endings() if verdict >= 0]
    assert all(true < SIZE for true in claims)
    assert len(claims) >= 80


def test_cut_off_stays_silent_where_the_supply_covers_the_tricks_left():
    ties = [(verdict, true) for hands, _, _, _, side, verdict, true in _endings() if _supply(hands, side) == SIZE]
    assert all(verdict < 0 for verdict, _ in ties)
    # Some of these the side on lead does take in full: a cut-off that fired here would be wrong.
    assert sum(true == SIZE for _, true in ties) >= 20


def test_solver_counts_match_reference_on_these_endings():
    for hands, trump, team, leader, side, _, true in _endings():
        team_true = true if side == team else SIZE - true
        assert solve(_masks(hands), trump, leader, sum(1 << s for s in team)) == team_true
