"""The misère cover's counted ``j``-th rule (``misery_cover._covered``) against a brute force.

After ``t`` tricks of a failing suit the defenders hold at most ``max(0, c - t)`` cards of it each, so the
cover checks the ``j``-th rule only that far.  Random deals played down to 5-6 cards a hand by tricks the
lone declarer (the seat with the lowest cards) ducks, a defender on lead (failing suits and voids are
common, as in the stuck Misery trees; slow).  Every claim of ``_lone_ducks`` that he ducks every trick
left is checked against a plain misère minimax (itself checked against ``reference_minimax`` on 3-card
endings).
"""

import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from analyzer.solvers.dd.misery_bounds import _lone_ducks

from .reference_minimax import Rules, can_force
from .test_dd_lone_ducks import _deal, _failing_suits, _masks

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from dd_misery_reach import misere_ducks  # noqa: E402  (the screen's plain minimax, checked here)

NO_TRUMP = 4


def _played_down(rng, size):
    """A random deal played down to ``size`` cards a hand by random tricks the declarer (the seat with the
    lowest ranks) ducks with his highest card below the trick's best when he can; a defender leads."""
    while True:
        cards = [int(c) for c in rng.permutation(52)]
        hands = [sum(1 << c for c in cards[13 * i: 13 * i + 13]) for i in range(4)]
        declarer = min(range(4), key=lambda s: sum(c % 13 for c in range(52) if hands[s] >> c & 1))
        leader = int((declarer + rng.integers(1, 4)) % 4)
        for _ in range(13 - size):
            led, win_seat, win_card = -1, -1, -1
            for pos in range(4):
                seat = (leader + pos) % 4
                held = [c for c in range(52) if hands[seat] >> c & 1]
                follow = [c for c in held if c // 13 == led]
                card = int(rng.choice(follow or held))
                under = [c for c in follow if c < win_card]
                if seat == declarer and under:
                    card = max(under)
                hands[seat] ^= 1 << card
                led = card // 13 if pos == 0 else led
                if card // 13 == led and card > win_card:
                    win_seat, win_card = seat, card
            if win_seat == declarer:
                break
            leader = win_seat
        else:
            return np.array(hands, dtype=np.int64), declarer, leader


@lru_cache(maxsize=None)
def _claims(size, deals, seed):
    rng = np.random.default_rng(seed)
    claims = 0
    wrong = []
    for _ in range(deals):
        masks, declarer, leader = _played_down(rng, size)
        failing = _failing_suits(masks, declarer)
        if not failing or _lone_ducks(masks, leader, declarer)[0] != 1:
            continue
        claims += 1
        if not misere_ducks(masks, leader, declarer):
            wrong.append(([hex(h) for h in masks], declarer, leader))
    return claims, wrong


def test_the_minimax_agrees_with_the_reference():
    rng = np.random.default_rng(71)
    for _ in range(300):
        hands, declarer = _deal(rng, 3)
        leader = int(rng.integers(4))
        expected = can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0)
        assert misere_ducks(_masks(hands), leader, declarer) == expected, (hands, declarer, leader)


@pytest.mark.slow
@pytest.mark.parametrize("size,deals", [(5, 2000), (6, 1000)])
def test_cover_claims_hold_on_played_down_deals(size, deals):
    claims, wrong = _claims(size, deals, 730 + size)
    assert not wrong, wrong[:3]
    assert claims >= deals // 30, claims


def test_the_defenders_cards_are_counted_after_each_trick_of_the_suit():
    """A 5-card ending of the stuck deal 30 (seed 961411519), S alone at no trump, N on lead:
    N S753 H9 C9, E SQ9 DQ CT7, S H4 CK854, W SAJ2 CA6.  Clubs fail the j-th rule at his CK against the
    CT, but at most two tricks of clubs are left: after the first (he plays the C8 under N's C9) the
    defenders hold two clubs at most, and his C4 C5 stay below their two lowest."""
    cards = {"S": 3, "H": 2, "D": 1, "C": 0}
    ranks = "23456789TJQKA"

    def hand(text):
        return [13 * cards[c[0]] + ranks.index(c[1]) for c in text.split()]

    hands = [hand("S7 S5 S3 H9 C9"), hand("SQ S9 DQ CT C7"), hand("H4 CK C8 C5 C4"), hand("SA SJ S2 CA C6")]
    assert misere_ducks(_masks(hands), 0, 2)
    assert _lone_ducks(_masks(hands), 0, 2)[0] == 1
