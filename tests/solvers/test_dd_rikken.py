"""Double-dummy contract outcomes for Rikken setups, against the brute-force reference on endings."""

import numpy as np
import pytest

from analyzer.games.rikken import rules
from analyzer.games.rikken.dd import FAILED_MISERY, FAILED_ONE_ALONE, declarer_count, play_setups_dd

from .reference_minimax import Rules, can_force, max_tricks


def _ending(seed, size=4):
    rng = np.random.default_rng(6000 + seed)
    cards = [int(c) for c in rng.permutation(52)[: 4 * size]]
    hands = [cards[i * size:(i + 1) * size] for i in range(4)]
    masks = np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)
    return hands, masks, int(rng.integers(4)), int(rng.integers(4))


@pytest.mark.parametrize("seed", range(10))
def test_misery_and_one_alone_outcomes(seed):
    hands, masks, leader, declarer = _ending(seed)
    ref = Rules(4, [declarer])
    # Misery: can the lone declarer hold himself to no trick; 1 Alone: to exactly one.
    misery = 0 if can_force(ref, hands, leader, -99, 0) else FAILED_MISERY
    one = 1 if can_force(ref, hands, leader, 1, 1) else FAILED_ONE_ALONE
    assert declarer_count(masks, leader, 4, 1 << declarer, rules.Kind.MISERY) == misery
    assert declarer_count(masks, leader, 4, 1 << declarer, rules.Kind.ONE) == one


@pytest.mark.parametrize("seed", range(6))
def test_trick_contract_count(seed):
    hands, masks, leader, declarer = _ending(seed)
    trump = seed % 5
    assert declarer_count(masks, leader, trump, 1 << declarer, rules.Kind.TRICKS) == max_tricks(
        Rules(trump, [declarer]), hands, leader)


def test_play_setups_credit_the_side_count():
    hands, masks, leader, declarer = _ending(3)
    partner = (declarer + 1) % 4
    contract_of = np.full((2, 4), -1, dtype=np.int64)
    contract_of[0, declarer] = rules.Contract.RIK
    contract_of[1, declarer] = rules.Contract.MISERY
    setups = {"hands": np.array([masks, masks]), "leader": np.array([leader, leader]), "contract_of": contract_of,
              "partner": np.array([partner, -1]), "trump": np.array([2, 4]), "called_card": np.array([-1, -1]),
              "blind": np.array([0, 0])}
    tricks, high = play_setups_dd(setups)
    assert (high == tricks).all()
    pair = Rules(2, [declarer, partner])
    assert tricks[0, declarer] + tricks[0, partner] == max_tricks(pair, hands, leader)
    made = can_force(Rules(4, [declarer]), hands, leader, -99, 0)
    assert tricks[1, declarer] == (0 if made else FAILED_MISERY)
    assert (tricks.sum(axis=1) == 4).all()
