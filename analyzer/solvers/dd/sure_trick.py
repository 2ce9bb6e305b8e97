"""Sure tricks inside a trick: whether second, third or fourth hand's side surely takes the trick
in progress, and the tricks second hand's side then cashes at no trump."""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.cards.tricks import beats as _beats  # the one trick rule
from analyzer.solvers.dd.rules import _holds
from analyzer.solvers.dd.tables import COUNT, HIGHEST, SUIT_BITS


@njit(cache=True)
def _sure_trick(hands, seat, pos, led_suit, win_seat, win_card, trump, team):
    """A card that wins the trick in progress for ``seat``'s side whatever anyone plays and its holder, or (-1, -1).

    Either the side's current winner holds, or ``seat`` can play a card that takes the lead and
    holds, or a later partner follows with a card above every card the opponents still to play
    hold in the led suit while none of them can ruff.  The cards of its suit at or above it decide.
    """
    mine = (team >> seat) & 1
    if win_seat >= 0 and (team >> win_seat) & 1 == mine and _holds(win_card, seat, pos, hands, led_suit, trump, team):
        return win_card, win_seat
    hand = hands[seat]
    follow = (hand >> (13 * led_suit)) & SUIT_BITS
    if follow:
        card = 13 * led_suit + HIGHEST[follow]
    elif trump != NO_TRUMP and (hand >> (13 * trump)) & SUIT_BITS:
        card = 13 * trump + HIGHEST[(hand >> (13 * trump)) & SUIT_BITS]
    else:
        card = -1
    if card >= 0 and _beats(card, win_card, win_seat, led_suit, trump) and _holds(card, seat, pos, hands, led_suit,
                                                                                  trump, team):
        return card, seat
    if win_seat >= 0 and win_card // 13 != led_suit:
        return -1, -1
    opp_top = win_card % 13 if win_seat >= 0 and (team >> win_seat) & 1 != mine else -1
    friend_top = -1
    holder = -1
    for step in range(4 - pos):
        other = (seat + step) & 3
        held = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        if (team >> other) & 1 == mine:
            if step > 0 and HIGHEST[held] > friend_top:
                friend_top = HIGHEST[held]
                holder = other
        elif held:
            opp_top = max(opp_top, HIGHEST[held])
        elif trump != NO_TRUMP and led_suit != trump and (hands[other] >> (13 * trump)) & SUIT_BITS:
            return -1, -1
    if friend_top > opp_top and (win_seat < 0 or friend_top > win_card % 13 or (team >> win_seat) & 1 == mine):
        return 13 * led_suit + friend_top, holder
    return -1, -1


@njit(cache=True, inline="always")
def _at_or_above(card, present):
    """The cards still out (``present``) of ``card``'s suit ranking at or above it."""
    suit = card // 13
    return np.int64((present >> (13 * suit)) & SUIT_BITS & ~((1 << (card % 13)) - 1)) << (13 * suit)


@njit(cache=True)
def _sure_trick_cards(hands, seat, pos, led_suit, win_seat, win_card, present, trump, team):
    """:func:`_sure_trick`'s card for third or fourth hand (-1 for none) and the cards that decide it.

    The later opponents' cards of its suit that could beat it rank above it, and who can ruff is in
    the suit lengths: so only the cards still out at or above it decide (``present`` includes the
    trick's cards).
    """
    sure, _ = _sure_trick(hands, seat, pos, led_suit, win_seat, win_card, trump, team)
    if sure < 0:
        return np.int64(-1), np.int64(0)
    return sure, _at_or_above(sure, present)


@njit(cache=True, inline="always")
def _leads_next(hands, seat, holder, led_suit, sure, team):
    """Whether ``holder``, winning the trick with ``sure``, also leads next: no partner of ``seat`` who
    plays after it holds only higher cards of the led suit (those must overtake)."""
    leader = (seat + 3) & 3
    for later in range(((holder - leader) & 3) + 1, 4):
        other = (leader + later) & 3
        follow = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        if (team >> other) & 1 == (team >> seat) & 1 and follow and popcount((follow & -follow) - 1) > sure % 13:
            return False
    return True


@njit(cache=True)
def _second_hand_tricks(hands, seat, led_suit, win_seat, win_card, present, trump, team, need):
    """Tricks second hand's side is sure of from this trick on, counted until ``need``, and the cards that decide it.

    The trick in progress if some card of the side surely wins it (:func:`_sure_trick`); in no trump,
    also one more per other suit whose top card the winner of the trick holds, every card of another
    suit only it holds, and one more when it holds the top two of the led suit, since it leads next
    and cashes them (the same count DDS makes in second hand), unless a partner playing after it must
    overtake.
    """
    sure, holder = _sure_trick(hands, seat, np.int64(1), led_suit, win_seat, win_card, trump, team)
    if sure < 0:
        return 0, np.int64(0)
    relevant = _at_or_above(sure, present)
    tricks = 1
    if trump != NO_TRUMP or not _leads_next(hands, seat, holder, led_suit, sure, team):
        return tricks, relevant
    for other in range(4):
        out = (present >> (13 * other)) & SUIT_BITS
        held = (hands[holder] >> (13 * other)) & SUIT_BITS
        if tricks >= need or out == 0:
            continue
        if other == led_suit:
            # Holding the top two cards of the led suit, the winner keeps the other for the next trick.
            second = HIGHEST[out ^ (1 << HIGHEST[out])]
            holds_top = ((held | (1 << (sure % 13))) >> HIGHEST[out]) & 1
            if second >= 0 and second != sure % 13 and holds_top and (held >> second) & 1:
                tricks += 1
                relevant |= np.int64(out >> second << second) << (13 * other)
        elif held == out:
            # Nobody else holds the suit: every card of it wins (the suit lengths say so).
            tricks += COUNT[held]
        elif (held >> HIGHEST[out]) & 1:
            tricks += 1
            relevant |= np.int64(1) << (13 * other + HIGHEST[out])
    return tricks, relevant
