"""The lone declarer's cut-offs (analyzer/solvers/dd/contract_bounds.py) against the brute-force reference.

Each cut-off claims something a plain search can check on small endings: "ducks everything" that
the declarer takes no trick even when all four seats play to give him one, "forced winner" that the
others can make him take the trick being led whatever he plays to it.  Endings are drawn at random, biased towards the declarer holding low
(or high) cards so that both cut-offs fire often; each test also counts how often its cut-off fired.
"""

import numpy as np
import pytest

from analyzer.games.rikken import rules
from analyzer.games.rikken.dd import FAILED_MISERY, FAILED_ONE_ALONE, contract_counts
from analyzer.solvers.dd import solve
from analyzer.solvers.dd.contract_bounds import ducks_everything, forced_winner

from .reference_minimax import Rules, can_force, max_tricks

NO_TRUMP = 4


def _most_for(rules, hands, leader, declarer):
    """Most tricks ``declarer`` takes when all four seats play to give him tricks (plain search)."""
    if not any(hands):
        return 0
    best = 0

    def finish(hands, trick):
        taker = rules.winner(trick)
        return (taker == declarer) + _most_for(rules, hands, taker, declarer)

    def go(hands, seat, trick):
        nonlocal best
        results = []
        for card, down in rules.plays(hands, seat, trick):
            rest = list(hands)
            rest[seat] = tuple(c for c in hands[seat] if c != card)
            step = trick + ((seat, card, down),)
            results.append(finish(tuple(rest), step) if len(step) == 4 else go(tuple(rest), (seat + 1) % 4, step))
        return max(results)

    return go(tuple(tuple(h) for h in hands), leader, ())


def _can_dodge_trick(rules, hands, leader, declarer):
    """Whether ``declarer`` can avoid winning the trick ``leader`` leads, the others playing to make him win it."""

    def go(hands, seat, trick):
        if len(trick) == 4:
            return rules.winner(trick) != declarer
        outcomes = []
        for card, down in rules.plays(hands, seat, trick):
            rest = list(hands)
            rest[seat] = tuple(c for c in hands[seat] if c != card)
            outcomes.append(go(tuple(rest), (seat + 1) % 4, trick + ((seat, card, down),)))
        return any(outcomes) if seat == declarer else all(outcomes)

    return go(tuple(tuple(h) for h in hands), leader, ())


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


def test_ducks_everything_means_no_trick_even_when_trying():
    fired = 0
    for hands, declarer, leader in _cases(31000, 150, low=True):
        yes, _ = ducks_everything(tuple(int(m) for m in _masks(hands)), leader, declarer)
        if yes:
            fired += 1
            assert _most_for(Rules(NO_TRUMP, [declarer]), hands, leader, declarer) == 0, (hands, declarer, leader)
    assert fired >= 20


def test_forced_winner_means_the_others_can_give_him_the_trick():
    fired = 0
    for hands, declarer, leader in _cases(32000, 150, low=False):
        yes, _ = forced_winner(tuple(int(m) for m in _masks(hands)), leader, declarer)
        if yes:
            fired += 1
            assert not _can_dodge_trick(Rules(NO_TRUMP, [declarer]), hands, leader, declarer), (hands, declarer, leader)
    assert fired >= 20


@pytest.mark.parametrize("low", [True, False])
def test_misery_and_one_alone_windows_match_reference(low):
    """The solver with the cut-offs against the reference, on endings where they fire often."""
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
