"""Shared trick helpers against plain-Python definitions, and the bare play loop against a Python twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from analyzer.cards.dealing import deal_random
from analyzer.cards.masks import cards_of, highest_bit_index, lowest_bit_index, popcount
from analyzer.cards.rng import bounded, state_from_seed
from analyzer.cards.tricks import beats
from analyzer.games.trick import (
    bare_random_playout,
    high_bit,
    legal_follow,
    low_bit,
    nth_card,
    pop,
    trick_winner,
    trick_winner_led,
)

hands = st.integers(min_value=1, max_value=(1 << 52) - 1)


def py_legal(hand: int, led_suit: int) -> set[int]:
    """Follow suit if able, else anything; on lead anything."""
    cards = cards_of(hand)
    follow = [c for c in cards if c // 13 == led_suit]
    return set(follow or cards)


def py_winner(cards: list[int], led_suit: int, trump: int) -> int:
    """Highest trump, else highest card of the led suit (ranks compare within a suit by card id)."""
    trumps = [(c, s) for s, c in enumerate(cards) if c >= 0 and c // 13 == trump]
    if trumps:
        return max(trumps)[1]
    return max((c, s) for s, c in enumerate(cards) if c >= 0 and c // 13 == led_suit)[1]


@settings(deadline=None)  # the first call compiles the kernel
@given(hands, st.integers(min_value=-1, max_value=3))
def test_legal_follow_matches_the_definition(hand, led_suit):
    assert set(cards_of(legal_follow(np.int64(hand), led_suit))) == py_legal(hand, led_suit)


@settings(deadline=None)
@given(st.permutations(range(52)), st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=4))
def test_trick_winner_matches_the_definition(deck, leader, trump):
    cards = np.array(deck[:4], dtype=np.int64)
    assert trick_winner(cards, leader, trump) == py_winner(list(cards), int(cards[leader]) // 13, trump)


@settings(deadline=None)
@given(st.permutations(range(52)), st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=4))
def test_trick_winner_agrees_with_the_shared_rule_card_by_card(deck, leader, trump):
    """The whole-trick winner is cards.tricks.beats applied to the cards in the order they are played."""
    cards = np.array(deck[:4], dtype=np.int64)
    led_suit, win_card, win_seat = int(cards[leader]) // 13, -1, -1
    for i in range(4):
        seat = (leader + i) % 4
        if beats(int(cards[seat]), win_card, win_seat, led_suit, trump):
            win_card, win_seat = int(cards[seat]), seat
    assert trick_winner(cards, leader, trump) == win_seat


def test_trick_winner_hand_examples():
    # Spades trump, hearts led: H2 H9 S2 HK -> the little trump S2 (seat 2) wins.
    assert trick_winner(np.array([26 + 0, 26 + 7, 39 + 0, 26 + 11]), 0, 3) == 2
    # No trump, diamonds led by seat 1: CA is off-suit and loses to D3 ... DJ takes it (seat 3).
    assert trick_winner(np.array([12, 13 + 1, 13 + 4, 13 + 9]), 1, 4) == 3
    # A face-down lead (-1) never wins: the called ace SA (seat 2) takes the trick led "as spades".
    assert trick_winner_led(np.array([-1, 39 + 3, 39 + 12, 13]), 3, 4) == 2


@pytest.mark.parametrize(("last", "winner"), [(39 + 7, 3), (39 + 1, 1)])
def test_trick_winner_overruff(last, winner):
    # Spades trump, seat 0 leads H2, seat 1 ruffs S5, seat 2 follows HA: seat 3's S9 overruffs and wins,
    # his S3 underruffs and seat 1 keeps the trick. No trump: the HA wins, the spades are discards.
    cards = np.array([26 + 0, 39 + 3, 26 + 12, last])
    assert trick_winner(cards, 0, 3) == winner
    assert trick_winner_led(cards, 2, 3) == winner
    assert trick_winner(cards, 0, 4) == 2


@njit(cache=True)
def _bit_counts(x):
    return pop(x), low_bit(x), high_bit(x), popcount(x), lowest_bit_index(x), highest_bit_index(x)


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=(1 << 62)))
def test_bit_intrinsics_match_the_definitions(x):
    cards = cards_of(x)
    assert _bit_counts(np.int64(x)) == (len(cards), cards[0], cards[-1]) * 2


@settings(max_examples=50, deadline=None)
@given(hands, st.data())
def test_nth_card(hand, data):
    cards = cards_of(hand)
    k = data.draw(st.integers(min_value=0, max_value=len(cards) - 1))
    assert nth_card(np.int64(hand), k) == cards[k]


def py_bare_playout(hands, leader, rng_state, trump=4) -> list[int]:
    """Random legal play: uniform index into the sorted legal cards, drawn with ``bounded``."""
    hands = [int(h) for h in hands]
    tricks = [0] * 4
    for _ in range(13):
        cards = [-1] * 4
        led = -1
        for i in range(4):
            seat = (leader + i) % 4
            legal = sorted(py_legal(hands[seat], led))
            card = legal[bounded(rng_state, len(legal))]
            led = card // 13 if i == 0 else led
            cards[seat] = card
            hands[seat] &= ~(1 << card)
        leader = py_winner(cards, led, trump)
        tricks[leader] += 1
    return tricks


def test_bare_random_playout_matches_python_twin():
    deals = deal_random(40, 8)
    leader = np.arange(40, dtype=np.int64) % 4
    for trump in (4, 1):
        out = np.empty((40, 4), dtype=np.int64)
        bare_random_playout(deals, leader, state_from_seed(5), out, trump)
        twin_state = state_from_seed(5)
        for d in range(40):
            assert list(out[d]) == py_bare_playout(deals[d], int(leader[d]), twin_state, trump)
        assert (out.sum(axis=1) == 13).all()
