"""Enhanced transposition cut-off at a trick's last card: probe the table for each card's next trick start.

A yes/no search's proof needs one proven move where the side to move succeeds.  Before the fourth
hand searches its cards one by one, each candidate card's resulting trick start is looked up in the
table (and the window checked for being decided already); when one of them already holds the fourth
hand's answer, that card proves the node and nothing below it is searched (Plaat, Schaeffer, Pijls
and de Bruin's enhanced transposition cut-off, 1996).

Soundness: the probe builds the child exactly as the search's move loop does (the card leaves the
hand, the trick's winner by the one trick rule, the team's count, the next leader, the cards still
in hands), and asks the two things the child itself would ask first: whether the window is already
decided, and whether a stored entry matches and decides the window (``_tt_lookup``, the same key and
comparison as the child's own probe).  A stored entry is an answer a finished search proved for
every position that agrees with it on the pattern, the window and the owners of its relevant cards,
so the child's answer is the entry's whatever cut-offs the child would have tried before its
probe.  The node's relevant cards are the child's (the entry's cards, the called card while out)
plus the trick's winning card when its rank decided the trick, as after a searched last card.  The
candidates are the move generator's (one card per run of touching cards): a proof needs one card,
so leaving out a card equivalent to one probed loses nothing.
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import beats as _beats
from analyzer.solvers.dd.layout import M_TRICK
from analyzer.solvers.dd.moves import _candidates
from analyzer.solvers.dd.rules import _rank_winner
from analyzer.solvers.dd.transposition import _cards_of_tops, _pattern, _position, _tt_lookup, _window_code

__all__ = ["PROBE_FROM"]

# Probed only when the next trick starts with more than this many cards a hand: below it the subtree a
# probe could save is small and the probes cost more than they save.
PROBE_FROM = 0


@njit(cache=True)
def _probe_last_cards(mem, hands, seat, led_suit, present, win_seat, win_card, won, lo, hi, trump, team, mode,
                      called, bidder):
    """Whether some card of the fourth hand ``seat`` reaches a trick start the table already decides his way.

    ``hands``: the hands now (the trick's first three cards gone, face up, in the trick slots); ``present``:
    the cards in hands at the trick's start.  Returns (card or -1, the node's relevant cards).
    """
    maximiser = (team >> seat) & 1 == 1
    if popcount(hands[seat]) - 1 <= PROBE_FROM:
        return -1, np.int64(0)
    reps, _ = _candidates(hands, seat, 3, led_suit, present, called)
    if reps & (reps - 1) == 0:
        # One candidate: its child probes the same entry when it is searched.
        return -1, np.int64(0)
    trick_cards = np.int64(0)
    for j in range(3):
        trick_cards |= np.int64(1) << mem[M_TRICK + j]
    while reps:
        card = popcount((reps & -reps) - 1)
        reps &= reps - 1
        bit = np.int64(1) << card
        after = (hands[0] & ~bit if seat == 0 else hands[0], hands[1] & ~bit if seat == 1 else hands[1],
                 hands[2] & ~bit if seat == 2 else hands[2], hands[3] & ~bit if seat == 3 else hands[3])
        taker = win_seat
        taken_with = win_card
        if _beats(card, win_card, win_seat, led_suit, trump):
            taker = seat
            taken_with = card
        next_won = won + ((team >> taker) & 1)
        rank_card = _rank_winner(trick_cards | bit, taken_with)
        rank_bit = np.int64(1) << rank_card if rank_card >= 0 else np.int64(0)
        left = popcount(after[taker])
        if next_won >= lo and next_won + left <= hi:
            if maximiser:
                return card, rank_bit
            continue
        if next_won > hi or next_won + left < lo:
            if not maximiser:
                return card, rank_bit
            continue
        if left <= 1:
            continue
        next_present = after[0] | after[1] | after[2] | after[3]
        pattern, extra = _pattern(after, taker, _window_code(next_won, lo, hi, mode), called, bidder)
        word0, word1, sizes = _position(after, next_present)
        verdict, tops, _ = _tt_lookup(mem, pattern, extra, word0, word1, sizes, next_won, lo, hi, mode)
        if verdict >= 0 and (verdict == 1) == maximiser:
            relevant = _cards_of_tops(tops, next_present) | rank_bit
            if called >= 0 and (next_present >> called) & 1:
                relevant |= np.int64(1) << called
            return card, relevant
    return -1, np.int64(0)
