"""A lone declarer's low and exact windows (Misery, 1 Alone) and ``contract_counts`` (a deal's
contracts solved together, each distinct question once) against the brute-force reference.

Endings are drawn at random, biased towards the declarer holding low (or high) cards, so that both
"he takes no trick" and "he cannot avoid one" come up often.
"""

import numpy as np
import pytest

from analyzer.games.rikken import rules
from analyzer.games.rikken.dd import FAILED_MISERY, FAILED_ONE_ALONE, contract_counts
from analyzer.solvers.dd import solve

from .reference_minimax import Rules, can_force, max_tricks

NO_TRUMP = 4


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _biased_ending(rng, size, declarer, low):
    """Hands of ``size`` cards from a few suits; the declarer draws from the low (or high) ranks of them."""
    suits = rng.choice(4, int(rng.integers(2, 5)), replace=False)
    deck = [13 * int(s) + r for s in suits for r in range(13)]
    ranked = sorted(deck, key=lambda c: (c % 13, c))
    half = len(ranked) // 2
    pool = ranked[:half] if low else ranked[half:]
    mine = [int(c) for c in rng.choice(pool, size, replace=False)]
    rest = [c for c in deck if c not in mine]
    others = [int(c) for c in rng.choice(rest, 3 * size, replace=False)]
    hands = [None] * 4
    hands[declarer] = mine
    seats = [s for s in range(4) if s != declarer]
    for i, seat in enumerate(seats):
        hands[seat] = others[i * size:(i + 1) * size]
    return hands


def _cases(seed, count, low):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        size = int(rng.integers(2, 5))
        declarer = int(rng.integers(4))
        leader = int(rng.integers(4))
        yield _biased_ending(rng, size, declarer, low), declarer, leader


@pytest.mark.parametrize("low", [True, False])
def test_misery_and_one_alone_windows_match_reference(low):
    """Misery and 1 Alone windows on endings where the declarer often must, or never can, win a trick."""
    for hands, declarer, leader in _cases(33000 + low, 30, low):
        masks = _masks(hands)
        ref = Rules(NO_TRUMP, [declarer])
        team = 1 << declarer
        for lo, hi, goal, k in ((-99, 0, "le", 0), (-99, 1, "le", 1), (1, 1, "eq", 1), (0, 0, "eq", 0)):
            assert solve(masks, NO_TRUMP, leader, team, goal, k) == can_force(ref, hands, leader, lo, hi), \
                (hands, declarer, leader, goal, k)


def test_contract_counts_match_reference_on_random_endings():
    rng = np.random.default_rng(34000)
    for i in range(6):
        size = 3 + i % 2
        cards = [int(c) for c in rng.permutation(52)[:4 * size]]
        hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
        leader = int(rng.integers(4))
        contracts = [(NO_TRUMP, 1 << d, kind, -1, False) for d in range(4) for kind in (rules.Kind.MISERY, rules.Kind.ONE)]
        contracts += [(1, 0b0101, rules.Kind.TRICKS, -1, False), (NO_TRUMP, 0b0010, rules.Kind.TRICKS, -1, False)]
        got = contract_counts(_masks(hands), leader, contracts)
        for (trump, team, kind, _, _), count in zip(contracts, got):
            ref = Rules(trump, [s for s in range(4) if team >> s & 1])
            if kind == rules.Kind.MISERY:
                assert count == (0 if can_force(ref, hands, leader, -99, 0) else FAILED_MISERY)
            elif kind == rules.Kind.ONE:
                assert count == (1 if can_force(ref, hands, leader, 1, 1) else FAILED_ONE_ALONE)
            else:
                assert count == max_tricks(ref, hands, leader)
