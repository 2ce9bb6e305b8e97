"""The later-tricks cut-offs (``_tops_fall_short``, ``_guarded_trump_trick``) against the brute-force minimax.

Endings for partners opposite, adjacent partners, one against three and three against one, any seat
on lead.  Whenever a cut-off says the side on lead cannot take every trick left, the brute force must
agree, and each cut-off must fire often.  Without trumps in play, endings where the suits the side
tops hold exactly the tricks left (where the cut-off must stay silent) must include some the side
does take all of, so that a cut-off firing one trick early would be caught.  With trumps, the
endings give the other side the second-best trump, guarded or not, behind the top trump or not.
"""

from functools import lru_cache

import numpy as np

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.later_tricks import _guarded_trump_trick, _tops_fall_short

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


@lru_cache(maxsize=None)
def _trump_endings():
    """Endings with trumps where the side on lead holds the top one: as :func:`_endings`."""
    rng = np.random.default_rng(4202)
    cases = []
    while len(cases) < 240:
        trump, other = (int(s) for s in rng.permutation(4)[:2])
        trumps = [13 * trump + 12, 13 * trump + 11, 13 * trump + 10]
        trumps += [13 * trump + int(r) for r in rng.permutation(10)[:int(rng.integers(2, 6))]]
        pool = trumps + [13 * other + r for r in range(13)]
        cards = [int(c) for c in rng.permutation(pool)[:4 * SIZE]]
        hands = [sorted(cards[SIZE * s:SIZE * (s + 1)]) for s in range(4)]
        team = TEAMS[len(cases) % len(TEAMS)]
        leader = int(rng.integers(4))
        side = team if leader in team else tuple(s for s in range(4) if s not in team)
        if not any(13 * trump + 12 in hands[s] for s in side):
            continue
        masks = _masks(hands)
        present = masks[0] | masks[1] | masks[2] | masks[3]
        verdict = int(_guarded_trump_trick(masks, leader, present, trump, sum(1 << s for s in team)))
        true = max_tricks(Rules(trump, side), hands, leader)
        cases.append((hands, trump, team, leader, side, verdict, true))
    return cases


def test_trump_cut_off_only_claims_what_the_brute_force_confirms():
    cases = _trump_endings()
    claims = [true for _, _, _, _, _, verdict, true in cases if verdict >= 0]
    assert all(true < SIZE for true in claims)
    assert len(claims) >= 25
    # The side on lead takes every trick in some of the other endings: a looser cut-off is caught.
    assert sum(true == SIZE for _, _, _, _, _, verdict, true in cases if verdict < 0) >= 10


def test_solver_counts_match_reference_on_these_endings():
    for hands, trump, team, leader, side, _, true in _endings() + _trump_endings():
        team_true = true if side == team else SIZE - true
        assert solve(_masks(hands), trump, leader, sum(1 << s for s in team)) == team_true
