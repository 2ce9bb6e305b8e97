"""The repeated-lead catch (``lone_catch``) against the brute-force minimax.

On random no-trump endings with a defender on lead, every claim that the declarer is made to take a
trick must hold in the reference ("can he take no more tricks?" is no), and claims must come up often,
also where the misère bounds' own catches (one trick, or an entry) do not show it.
"""

import numpy as np
import pytest

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.lone_catch import _repeated_lead_catch
from analyzer.solvers.dd.misery_bounds import _lone_ducks

from .reference_minimax import Rules, can_force

NO_TRUMP = 4
SPADES = 3


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _deal(rng, size):
    """Hands of ``size`` cards from two or three suits and a lone declarer, who a third of the time each
    holds mostly high or mostly low cards; a defender on lead."""
    suits = rng.permutation(4)[: int(rng.integers(2, 4))]
    pool = [int(13 * s + r) for s in suits for r in range(13)]
    cards = [pool[i] for i in rng.permutation(len(pool))[: 4 * size]]
    slant = int(rng.integers(3))
    if slant:
        cards.sort(key=lambda c: (c % 13 if slant == 1 else -(c % 13)) + 7 * int(rng.integers(2)))
    declarer = int(rng.integers(4))
    hands = [[] for _ in range(4)]
    hands[declarer] = sorted(cards[:size])
    rest = cards[size:]
    for seat in (s for s in range(4) if s != declarer):
        hands[seat], rest = sorted(rest[:size]), rest[size:]
    return hands, declarer, int((declarer + rng.integers(1, 4)) % 4)


def test_hand_worked_case():
    # East leads the spade king (South follows low with the 4, West and North follow below the king),
    # then the spade 2: West must follow with the 8 or the ten, North with the 5, so South's ace wins.
    spade = lambda rank: 13 * SPADES + rank - 2  # noqa: E731
    hands = [[spade(3), spade(5)], [spade(13), spade(12), spade(2)], [spade(14), spade(4)],
             [spade(10), spade(8), spade(7)]]
    assert _repeated_lead_catch(_masks(hands), 1, 2) != 0
    # East with the 6 and 2 only: West's lowest spade (8) beats the 6, so East cannot keep the lead, and on
    # the first round South ducks the 4 under West's card.  (West on lead next catches him: not this line.)
    hands[1] = [spade(6), spade(2)]
    hands[3] = [spade(10), spade(8), spade(9)]
    assert _repeated_lead_catch(_masks(hands), 1, 2) == 0

@pytest.mark.parametrize("size,deals", [(3, 1000), pytest.param(4, 300, marks=pytest.mark.slow)])
def test_claims_hold_against_the_reference(size, deals):
    rng = np.random.default_rng(900 + size)
    claims = beyond = 0
    for _ in range(deals):
        hands, declarer, leader = _deal(rng, size)
        masks = _masks(hands)
        if _repeated_lead_catch(masks, leader, declarer) == 0:
            continue
        claims += 1
        beyond += _lone_ducks(masks, leader, declarer)[0] != 0
        assert not can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0), (hands, declarer, leader)
    assert claims >= deals // 4 and beyond >= deals // 100, (claims, beyond)


@pytest.mark.parametrize("size,deals", [(3, 150), pytest.param(4, 150, marks=pytest.mark.slow)])
def test_solver_misere_answers_where_it_fires(size, deals):
    """The solver's Misery ("no trick") and 1 Alone ("exactly one") answers on endings where the catch
    fires at the root, against the brute force (the catch's cards fix the table entries below it)."""
    rng = np.random.default_rng(950 + size)
    asked = 0
    for _ in range(deals):
        hands, declarer, leader = _deal(rng, size)
        masks = _masks(hands)
        if _repeated_lead_catch(masks, leader, declarer) == 0 and rng.random() < 0.7:
            continue
        asked += 1
        rules = Rules(NO_TRUMP, [declarer])
        assert solve(masks, NO_TRUMP, leader, 1 << declarer, "le", 0) == can_force(rules, hands, leader, 0, 0)
        assert solve(masks, NO_TRUMP, leader, 1 << declarer, "eq", 1) == can_force(rules, hands, leader, 1, 1)
    assert asked >= deals // 3, asked
