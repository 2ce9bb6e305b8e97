"""Numba kernels for Sloppy Seconds: legal cards, trump emergence, trick settlement, deal scoring.

A deal in progress is five arrays, so that policies can copy it cheaply for play-outs:

* ``hands`` int64[n]: hand masks by seat;
* ``taken`` int64[n, 4]: card points taken by seat and suit;
* ``voids`` int64[n]: per seat, bit ``s`` set once the seat failed to follow suit ``s``;
* ``trick`` int64[n]: cards of the current trick in play order;
* ``meta`` int64[META_SIZE]: leader, cards in the trick, trick index, trump, first broken suit,
  trick at which trump appeared, mask of played cards, cards left in hands, mask of cards still in hands.

The rule readings these kernels implement are documented in ``rules.py``; ``reference.py`` is the
plain-Python twin the tests compare against.
"""

import numpy as np
from numba import njit

from analyzer.games.seconds.rules import MINIMUM_PER_SUIT, MINIMUM_SCORE, N_SUITS, TRUMP_SEED
from analyzer.games.trick import low_bit, pop

M_LEADER = 0
M_POS = 1
M_TRICK = 2
M_TRUMP = 3
M_BROKEN = 4
M_TRUMP_TRICK = 5
M_PLAYED = 6
M_LEFT = 7
M_IN_HANDS = 8
META_SIZE = 9

_SUIT_BITS = np.int64(0x1FFF)


@njit(cache=True, inline="always")
def suit_mask(suit):
    """Mask of the 13 cards of ``suit``."""
    return _SUIT_BITS << (13 * suit)


@njit(cache=True)
def new_state_arrays(n_players):
    """Allocate the five arrays of a deal state for ``n_players``."""
    return (np.zeros(n_players, np.int64), np.zeros((n_players, N_SUITS), np.int64),
            np.zeros(n_players, np.int64), np.full(n_players, -1, np.int64), np.zeros(META_SIZE, np.int64))


@njit(cache=True)
def start_deal(dealt, leader, hands, taken, voids, trick, meta):
    """Reset a deal state to the start of play of the hands ``dealt`` with ``leader`` to lead."""
    n = dealt.shape[0]
    left = 0
    in_hands = np.int64(0)
    for p in range(n):
        hands[p] = dealt[p]
        voids[p] = 0
        trick[p] = -1
        left += pop(dealt[p])
        in_hands |= dealt[p]
        for s in range(N_SUITS):
            taken[p, s] = 0
    meta[M_LEADER] = leader
    meta[M_POS] = 0
    meta[M_TRICK] = 0
    meta[M_TRUMP] = -1
    meta[M_BROKEN] = -1
    meta[M_TRUMP_TRICK] = -1
    meta[M_PLAYED] = 0
    meta[M_LEFT] = left
    meta[M_IN_HANDS] = in_hands


@njit(cache=True)
def copy_state(hands, taken, voids, trick, meta, hands2, taken2, voids2, trick2, meta2):
    """Copy one deal state into another of the same player count."""
    hands2[:] = hands
    taken2[:, :] = taken
    voids2[:] = voids
    trick2[:] = trick
    meta2[:] = meta


@njit(cache=True, inline="always")
def seat_after(seat, steps, n_players):
    """Seat ``steps`` places clockwise from ``seat`` (``0 <= steps < n_players``), without a division."""
    seat += steps
    return seat - n_players if seat >= n_players else seat


@njit(cache=True)
def to_play(meta, n_players):
    """Seat whose turn it is."""
    return seat_after(meta[M_LEADER], meta[M_POS], n_players)


@njit(cache=True, inline="always")
def legal_mask(hand, trick, pos):
    """Legal cards of ``hand``: the led suit if it holds any, else the whole hand."""
    if pos == 0:
        return hand
    follow = hand & suit_mask(trick[0] // 13)
    return follow if follow != 0 else hand


@njit(cache=True, inline="always")
def trump_after(card_suit, led_suit, pos, meta, variant):
    """Trump suit after a card of ``card_suit`` is played at position ``pos`` (rules.py readings)."""
    trump = meta[M_TRUMP]
    if trump >= 0 or pos == 0 or card_suit == led_suit:
        return trump
    if variant == TRUMP_SEED:
        return card_suit if meta[M_TRICK] >= 1 else -1
    broken = meta[M_BROKEN]
    return card_suit if broken >= 0 and card_suit != broken else -1


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """True if ``card`` beats ``best``, the card currently winning the trick."""
    card_suit = card // 13
    if card_suit == best // 13:
        return card > best
    return card_suit == trump


@njit(cache=True, inline="always")
def winning_position(trick, count, trump):
    """Position (0 = lead) of the card winning the first ``count`` cards of ``trick``."""
    best = 0
    for i in range(1, count):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


@njit(cache=True, inline="always")
def play_card(hands, taken, voids, trick, meta, card, variant, values):
    """Play ``card`` for the seat to play, update trump and voids, settle a complete trick."""
    n = hands.shape[0]
    pos = meta[M_POS]
    seat = seat_after(meta[M_LEADER], pos, n)
    suit = card // 13
    if pos > 0:
        led = trick[0] // 13
        if suit != led:
            voids[seat] |= np.int64(1) << led
            if meta[M_TRUMP] < 0:
                trump = trump_after(suit, led, pos, meta, variant)
                if trump >= 0:
                    meta[M_TRUMP] = trump
                    meta[M_TRUMP_TRICK] = meta[M_TRICK]
                elif variant != TRUMP_SEED and meta[M_BROKEN] < 0:
                    meta[M_BROKEN] = suit
    bit = np.int64(1) << card
    hands[seat] &= ~bit
    meta[M_PLAYED] |= bit
    meta[M_IN_HANDS] &= ~bit
    meta[M_LEFT] -= 1
    trick[pos] = card
    pos += 1
    if pos == n:
        winner = seat_after(meta[M_LEADER], winning_position(trick, n, meta[M_TRUMP]), n)
        for i in range(n):
            taken[winner, trick[i] // 13] += values[trick[i]]
            trick[i] = -1
        meta[M_LEADER] = winner
        meta[M_TRICK] += 1
        pos = 0
    meta[M_POS] = pos


@njit(cache=True)
def nth_card(mask, k):
    """The ``k``-th lowest card (0-based) of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return low_bit(mask)


@njit(cache=True)
def suit_second(taken, suit):
    """(top, second) distinct totals in ``suit``; second is -1 when all players are level."""
    top = -1
    for p in range(taken.shape[0]):
        if taken[p, suit] > top:
            top = taken[p, suit]
    second = -1
    for p in range(taken.shape[0]):
        v = taken[p, suit]
        if second < v < top:
            second = v
    return top, second


@njit(cache=True)
def score_deal(taken, minimum, out):
    """Fill ``out[n]`` with the deal scores of ``taken[n, 4]`` under minimum variant ``minimum``."""
    n = taken.shape[0]
    for p in range(n):
        out[p] = 0
    for s in range(N_SUITS):
        _, second = suit_second(taken, s)
        for p in range(n):
            v = taken[p, s]
            if minimum == MINIMUM_PER_SUIT and v < MINIMUM_SCORE:
                out[p] += MINIMUM_SCORE
            elif v == second:
                out[p] += v
    if minimum != MINIMUM_PER_SUIT:
        for p in range(n):
            if out[p] < MINIMUM_SCORE:
                out[p] = MINIMUM_SCORE
