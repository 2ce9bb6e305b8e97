"""Sure losers at a trick's start (the job of DDS's ``LaterTricks.cpp``).

The side on lead that needs every trick left fails when the other side surely takes one (a lone
no-trump declarer who may take no more tricks has his own bounds, ``misery_bounds``).
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.solvers.dd.quick_tricks import _quick_ceiling
from analyzer.solvers.dd.tables import COUNT, HIGHEST, SUIT_BITS


@njit(cache=True)
def _leader_loses_trick(hands, seat, present, trump, team):
    """The cards that let the other side take the trick ``seat`` leads whatever it leads, or -1.

    So when every suit the leader holds is topped by an opponent (who may play that card) and, for
    a side suit, no partner of the leader can ruff it (void there and holding a trump).  Only the
    top cards of the leader's suits decide it: who is void or holds trumps is in the suit lengths.
    """
    mine = (team >> seat) & 1
    relevant = np.int64(0)
    for suit in range(4):
        if (hands[seat] >> (13 * suit)) & SUIT_BITS == 0:
            continue
        top = 13 * suit + HIGHEST[(present >> (13 * suit)) & SUIT_BITS]
        for other in range(4):
            friend = (team >> other) & 1 == mine
            if (hands[other] >> top) & 1:
                if friend:
                    return np.int64(-1)
            elif (friend and trump != NO_TRUMP and suit != trump and (hands[other] >> (13 * suit)) & SUIT_BITS == 0
                    and (hands[other] >> (13 * trump)) & SUIT_BITS != 0):
                return np.int64(-1)
        relevant |= np.int64(1) << top
    return relevant


@njit(cache=True)
def _tops_fall_short(hands, seat, present, team):
    """The cards that show the side on lead cannot take every trick left without trumps, or -1.

    To take them all the side leads every trick, each in a suit where it holds the top card then.
    A suit gives at most as many tricks as the side's longest holding in it (each of its tricks
    takes a card of it from every hand of the side that holds one); a suit the other side tops
    gives none while that top card stays out.  So when the suits the side tops now hold fewer
    tricks than are left, the other side keeps a top card for one of them (DDS's later-tricks
    cut-off, checked against the brute force).  The other side's top cards of suits someone else
    still holds decide it; who holds what length is in the suit lengths.
    """
    # The suits the side tops supply at most their longest holding each: quick tricks' ceiling.
    if _quick_ceiling(hands, seat, present, team) >= popcount(hands[seat]):
        return np.int64(-1)
    mine = (team >> seat) & 1
    relevant = np.int64(0)
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        if out & (out - 1) == 0:
            continue
        top = np.int64(1) << (13 * suit + HIGHEST[out])
        ours = False
        for other in range(4):
            ours = ours or ((team >> other) & 1 == mine and hands[other] & top != 0)
        if not ours:
            relevant |= top
    return relevant


@njit(cache=True)
def _guarded_trump_trick(hands, seat, present, trump, team):
    """The trumps that let the other side of ``seat`` take a trick, or -1 (the side on lead holds the top trump).

    The other side holds the second-best trump guarded (its holder has another trump) and either
    sits right after the top trump, so it always sees that card before it must play, or also holds
    the third best: the top trump can take only one of the two (DDS's later-tricks cut-off with
    trumps, checked against the brute force).  The top three trumps still out decide it.
    """
    mine = (team >> seat) & 1
    out = (present >> (13 * trump)) & SUIT_BITS
    top = HIGHEST[out]
    rest = out ^ (1 << top)
    if rest == 0:
        return np.int64(-1)
    second = HIGHEST[rest]
    third = HIGHEST[rest ^ (1 << second)]
    top_holder = -1
    second_holder = -1
    third_holder = -1
    for other in range(4):
        held = (hands[other] >> (13 * trump)) & SUIT_BITS
        if (held >> top) & 1:
            top_holder = other
        if (held >> second) & 1:
            second_holder = other
        if third >= 0 and (held >> third) & 1:
            third_holder = other
    if ((team >> top_holder) & 1 != mine or (team >> second_holder) & 1 == mine
            or COUNT[(hands[second_holder] >> (13 * trump)) & SUIT_BITS] < 2):
        return np.int64(-1)
    cards = (np.int64(1) << top) | (np.int64(1) << second)
    if top_holder == (second_holder + 3) & 3:
        return cards << (13 * trump)
    if third_holder >= 0 and (team >> third_holder) & 1 != mine:
        return (cards | (np.int64(1) << third)) << (13 * trump)
    return np.int64(-1)
