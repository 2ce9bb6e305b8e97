"""Trick-play helpers shared by the 52-card trick games (numba).

Cards are ``suit * 13 + rank`` and hands are int64 bit masks (see ``analyzer.cards.deck``).
``bare_random_playout`` is the plain random-legal play loop: it knows only "follow suit, highest
trump else highest of the led suit wins", so benchmarks use it as the machine's reference speed.
"""

import numpy as np
from numba import njit

# The play kernels use the bit intrinsics of analyzer.cards.masks under these short names.
from analyzer.cards.masks import highest_bit_index as high_bit  # noqa: F401
from analyzer.cards.masks import lowest_bit_index as low_bit
from analyzer.cards.masks import popcount as pop
from analyzer.cards.rng import bounded
from analyzer.cards.tricks import NO_TRUMP

_SUIT_BITS = np.int64(0x1FFF)


@njit(cache=True, inline="always")
def suit_mask(suit):
    """Mask of the 13 cards of ``suit`` (0..3); 0 for ``suit`` outside 0..3 (no trump, no lead)."""
    if suit < 0 or suit > 3:
        return np.int64(0)
    return _SUIT_BITS << (13 * suit)


@njit(cache=True)
def legal_follow(hand, led_suit):
    """Cards of ``hand`` that may be played to a trick led in ``led_suit``.

    Parameters
    ----------
    hand : int64
        Mask of the player's cards.
    led_suit : int
        Suit led (0..3), or -1 when the player is on lead (every card is legal).

    Returns
    -------
    int64
        The cards of the led suit if the player holds any, else the whole hand.
    """
    follow = hand & suit_mask(led_suit)
    if follow != 0:
        return follow
    return hand


@njit(cache=True)
def trick_winner_led(cards, led_suit, trump):
    """Seat that wins a trick given each seat's card, skipping seats whose card is -1.

    Parameters
    ----------
    cards : int64[:]
        Card played by each seat, -1 for a seat whose card cannot win (not played, or face down).
    led_suit : int
        The suit the trick counts as led in.
    trump : int
        Trump suit 0..3, or 4 for no trump.

    Returns
    -------
    int
        The seat of the highest trump, else of the highest card of ``led_suit``; -1 if neither exists.
    """
    best_seat = -1
    best_key = -1
    for seat in range(cards.shape[0]):
        card = cards[seat]
        if card < 0:
            continue
        suit = card // 13
        # The order of cards.tricks.beats as one key per card (trumps above the led suit, then rank), which
        # keeps the bare loop, the benchmarks' anchor, at its speed (tests/games/test_trick.py checks the two agree).
        if suit == trump:
            key = 100 + card % 13
        elif suit == led_suit:
            key = card % 13
        else:
            continue
        if key > best_key:
            best_key = key
            best_seat = seat
    return best_seat


@njit(cache=True)
def trick_winner(cards, leader, trump):
    """Seat that wins a complete trick; ``cards[seat]`` is the card each seat played, ``leader`` led."""
    return trick_winner_led(cards, cards[leader] // 13, trump)


@njit(cache=True, inline="always")
def nth_card(mask, k):
    """The ``k``-th lowest card (0-based) of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return low_bit(mask)


@njit(cache=True)
def bare_random_playout(hands, leader, rng_state, tricks_out, trump=NO_TRUMP):
    """Play every deal out with uniformly random legal cards and count tricks per seat.

    Parameters
    ----------
    hands : int64[n, 4]
        13-card hands per deal (not modified).
    leader : int64[n]
        Seat leading to trick 1 of each deal.
    rng_state : uint64[4]
        xoshiro256** state (advanced in place).
    tricks_out : int64[n, 4]
        Filled with the tricks each seat took.
    trump : int
        Trump suit 0..3, or 4 (default) for no trump.
    """
    cards = np.empty(4, dtype=np.int64)
    hand = np.empty(4, dtype=np.int64)
    for d in range(hands.shape[0]):
        for s in range(4):
            hand[s] = hands[d, s]
            tricks_out[d, s] = 0
        lead = leader[d]
        for _trick in range(13):
            led_suit = -1
            for i in range(4):
                seat = (lead + i) & 3
                legal = legal_follow(hand[seat], led_suit)
                card = nth_card(legal, bounded(rng_state, pop(legal)))
                if i == 0:
                    led_suit = card // 13
                cards[seat] = card
                hand[seat] &= ~(np.int64(1) << card)
            lead = trick_winner_led(cards, led_suit, trump)
            tricks_out[d, lead] += 1
