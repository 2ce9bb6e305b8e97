"""The rules of play inside the search kernels: legal cards (the called card's obligation, blind
leads), who takes a trick, and whether a card now winning a trick stays the winner."""

import numpy as np
from numba import njit

from analyzer.cards.called_card import legal_face_up as _legal  # noqa: F401 (moves.py: the engine's rule too)
from analyzer.cards.called_card import void_in_called_suit
from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.cards.tricks import beats as _beats  # the one trick rule
from analyzer.solvers.dd.tables import HIGHEST, SUIT_BITS


@njit(cache=True)
def _blind_allowed(hands, seat, called, bidder):
    """A blind lead needs the bidder on lead, void in the called suit, with the called card still out."""
    if seat != bidder or called < 0:
        return False
    out = hands[0] | hands[1] | hands[2] | hands[3]
    if not (out >> called) & 1:
        return False
    return void_in_called_suit(hands[seat], called)


@njit(cache=True)
def _holds(card, seat, pos, hands, led_suit, trump, team):
    """Whether a card now winning the trick stays the winner: no later opponent of ``seat`` can beat it."""
    mine = (team >> seat) & 1
    suit = card // 13
    rank = card % 13
    for step in range(1, 4 - pos):
        other = (seat + step) & 3
        if (team >> other) & 1 == mine:
            continue
        follow = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        trumps = (hands[other] >> (13 * trump)) & SUIT_BITS if trump != NO_TRUMP else 0
        if follow:
            if suit == led_suit and HIGHEST[follow] > rank:
                return False
        elif trumps and (suit != trump or HIGHEST[trumps] > rank):
            return False
    return True


@njit(cache=True, inline="always")
def _called_under_own(hands, called):
    """Whether the called card's holder also holds a higher card of its suit.

    Quick tricks and second hand's sure trick assume a hand plays its highest card of a suit;
    the holder of the called card must play (and lead) the called card in its suit instead, which
    only differs when it is not the holder's highest there (never for a called ace, nor for a king
    called while the bidder holds the ace).
    """
    if called < 0:
        return False
    above = (np.int64(SUIT_BITS) << (13 * (called // 13))) & ~((np.int64(2) << called) - 1)
    for seat in range(4):
        if (hands[seat] >> called) & 1:
            return hands[seat] & above != 0
    return False


@njit(cache=True)
def _last_trick(hands, leader, trump):
    """Winner seat of the final trick when nobody has a choice, and the card if it won by rank (else -1)."""
    lead = popcount(hands[leader] - 1)
    win_seat = leader
    win_card = lead
    for step in range(1, 4):
        seat = (leader + step) & 3
        card = popcount(hands[seat] - 1)
        if _beats(card, win_card, win_seat, lead // 13, trump):
            win_seat = seat
            win_card = card
    return win_seat, _rank_winner(hands[0] | hands[1] | hands[2] | hands[3], win_card)


@njit(cache=True, inline="always")
def _rank_winner(trick_cards, win_card):
    """The winning card when it beat another card of its suit (so its rank mattered), else -1."""
    suit_cards = (trick_cards >> (13 * (win_card // 13))) & SUIT_BITS
    if suit_cards & (suit_cards - 1):
        return win_card
    return -1


@njit(cache=True)
def future_tricks(hands):
    """Tricks still to be played, counting the one in progress."""
    best = 0
    for seat in range(4):
        best = max(best, popcount(hands[seat]))
    return best


@njit(cache=True)
def start_winner(trick, leader, pos, blind, trump, called):
    """Current winner (seat, card) of a trick in progress; (-1, -1) before any card can win."""
    led_suit = called // 13 if blind else trick[0] // 13
    win_seat = -1
    win_card = -1
    for i in range(pos):
        if blind and i == 0:
            continue
        card = trick[i]
        if _beats(card, win_card, win_seat, led_suit, trump):
            win_seat = (leader + i) & 3
            win_card = card
    return win_seat, win_card
