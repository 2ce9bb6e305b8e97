"""``count_bounds``: the bounds one side's trick count proves about another's, checked against the exact
solver's counts on random endings (with and without calls, blind calls included), never against
the module itself."""

import numpy as np

from analyzer.games.rikken.count_bounds import KnownCounts, Side
from analyzer.games.rikken.dd import contract_bounds
from analyzer.games.rikken import rules
from analyzer.solvers.dd import solve

TRICKS = int(rules.Kind.TRICKS)


def _ending(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    return np.array([sum(1 << c for c in cards[s * size:(s + 1) * size]) for s in range(4)], dtype=np.int64)


def _random_side(rng, hands):
    """A lone seat, or a pair with a call on a card the partner holds (blind one time in three); now and
    then a call on a card of another seat (no Rikken call, but the solver's rule binds that seat)."""
    bidder = int(rng.integers(4))
    if rng.random() < 0.4:
        return Side(1 << bidder)
    partner = int((bidder + rng.integers(1, 4)) % 4)
    if rng.random() < 0.15:
        cards = [c for c in range(52) if int(hands[partner] | hands[bidder]) >> c & 1 ^ 1 and _held(hands, c)]
        return Side(1 << bidder | 1 << partner, int(rng.choice(cards)))
    cards = [c for c in range(52) if int(hands[partner]) >> c & 1]
    called = int(rng.choice(cards)) if rng.random() < 0.8 else -1
    return Side(1 << bidder | 1 << partner, called, called >= 0 and rng.random() < 0.35)


def _held(hands, card):
    return any(int(h) >> card & 1 for h in hands)


def _count(hands, trump, leader, side):
    return solve(hands, trump, leader, side.team, called_card=side.called_card, blind_call=side.blind)


def _random_deal_sides(rng, size, count):
    """An ending, its trump and leader, a few sides and their exact counts."""
    hands = _ending(rng, size)
    trump, leader = int(rng.integers(5)), int(rng.integers(4))
    sides = list(dict.fromkeys(_random_side(rng, hands) for _ in range(count)))
    return hands, trump, {side: _count(hands, trump, leader, side) for side in sides}


def _bounds_from_the_others(hands, trump, recorded, side):
    """What the other sides' recorded ``(low, high)`` imply on ``side``'s count."""
    known = KnownCounts(hands)
    for other, (low, high) in recorded.items():
        if other != side:
            known.add(trump, other, low, high)
    return known.bounds(trump, side)


def test_implied_bounds_hold_on_random_endings():
    """Each side's exact count lies in the bounds the others' exact counts imply, and the bounds bite."""
    rng = np.random.default_rng(36401)
    tight = 0
    for i in range(150):
        hands, trump, exact = _random_deal_sides(rng, 3 + i % 3, 5)
        for side, count in exact.items():
            low, high = _bounds_from_the_others(hands, trump, {s: (c, c) for s, c in exact.items()}, side)
            assert low <= count <= high, (i, hands.tolist(), trump, side, exact)
            tight += (low, high) != (0, 3 + i % 3) and count in (low, high)
    assert tight > 50, "the bounds must pin some counts, or the test checks nothing"


def test_bounds_from_intervals_hold():
    """Recorded intervals (as a budget leaves them) imply bounds as exact counts do."""
    rng = np.random.default_rng(36402)
    for i in range(60):
        hands, trump, exact = _random_deal_sides(rng, 4, 4)
        recorded = {s: (max(c - int(rng.integers(2)), 0), min(c + int(rng.integers(2)), 4)) for s, c in exact.items()}
        for side, count in exact.items():
            low, high = _bounds_from_the_others(hands, trump, recorded, side)
            assert low <= count <= high, (i, side, exact)


def test_other_trumps_imply_nothing():
    hands = _ending(np.random.default_rng(36403), 4)
    known = KnownCounts(hands)
    known.add(0, Side(0b0101), 4, 4)
    assert known.bounds(1, Side(0b1010)) == (0, 4)
    assert known.bounds(0, Side(0b1010)) == (0, 0)


def test_contract_bounds_keep_every_count_with_the_bounds():
    """A deal's contracts solved together (pairs and lone hands, some under one trump) against single solves."""
    rng = np.random.default_rng(36404)
    for i in range(12):
        hands = _ending(rng, 5)
        trump, leader = i % 5, int(rng.integers(4))
        sides = list(dict.fromkeys(_random_side(rng, hands) for _ in range(6)))
        contracts = [(trump, s.team, TRICKS, s.called_card, s.blind) for s in sides]
        exact = [_count(hands, trump, leader, s) for s in sides]
        assert contract_bounds(hands, leader, contracts, 0) == [(e, e) for e in exact]
