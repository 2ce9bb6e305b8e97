"""Sure-trick bounds for one hand against three (a lone declarer, Rikken's Alone contracts and 1 Alone).

The ceiling here is an upper bound on the tricks a lone declarer can still take: the defenders' cover
cards in his side suits (the Skat solvers' "losers" count of one declarer against two, with a third
defender to cover a third suit).
"""

import numpy as np
from numba import njit

from analyzer.cards.tricks import NO_TRUMP
from analyzer.solvers.dd.tables import COUNT, HIGHEST, SUIT_BITS


@njit(cache=True)
def _lone_ceiling(hands, declarer, trump, present):
    """Most tricks the lone ``declarer`` can still take from this trick start, and the cards that decide it.

    In each side suit ``s`` the declarer holds (every suit at no trump) a defender's *cover cards* are
    his cards of ``s`` above the declarer's highest card of ``s``.  Give the side suits distinct
    defenders (a defender covers at most one suit), and let ``a_s`` be the cover cards of the one
    given suit ``s``.  Then the declarer takes at most

        ``n_trump + sum over his side suits s of (n_s - min(n_s, a_s))``

    more tricks (``n_s``: his cards of ``s``; a suit given nobody has ``a_s = 0``), whoever is on
    lead; this returns the least such count over all assignments.

    Proof: the defenders play so that ``P = n_trump + sum_s max(0, n_s - a_s)`` never grows and falls
    with every trick the declarer takes.  Say suit ``t`` is led.  If the declarer holds ``t`` (he leads
    it or must follow), ``t``'s defender, if it has one, holds ``t`` cards and must follow: he plays
    a cover card while he has one, and the declarer's card of ``t`` loses to it (a trump played on
    the trick only beats both); ``n_t`` and ``a_t`` each fall by one, and ``t``'s term stays.  With no
    cover card left (``a_t = 0``) the declarer may win, but then ``n_t`` falls while ``a_t`` stays
    0: the term falls by one.  If the declarer does not hold ``t`` he wins only by ruffing, which
    costs a trump and lowers ``n_trump``.  Every other suit's defender plays a card of ``t`` if he
    holds one (his cover cards stay), else a card that is not a cover card if he holds one; failing
    both, all his cards are cover cards of his suit ``s``, so ``a_s`` equals the cards each hand
    holds, at least ``n_s``, and after the trick ``a_s - 1`` still equals the cards left in each
    hand, at least the declarer's ``n_s``: the term stays 0.  The declarer's plays only lower
    ``n_s`` or his highest card of a suit (which adds cover cards).  The defenders' roles never
    clash: each plays one card a trick, and only the led suit's defender has to play a cover card.
    A called card could force its holder to play it instead of a cover card, so the caller leaves
    calls out.

    The count depends on the suit lengths (part of the table key) and, per side suit the declarer
    holds, on the owners of the cards still out at or above his highest card of it: those are the
    relevant cards returned.
    """
    mine = hands[declarer]
    tricks = 0
    if trump != NO_TRUMP:
        tricks = COUNT[(mine >> (13 * trump)) & SUIT_BITS]
    relevant = np.int64(0)
    # Per side suit held (up to four at no trump): its length and each defender's cover (at most the length).
    n_suits = 0
    lengths = np.zeros(4, dtype=np.int64)
    covers = np.zeros((4, 3), dtype=np.int64)
    for suit in range(4):
        held = (mine >> (13 * suit)) & SUIT_BITS
        if suit == trump or held == 0:
            continue
        top = HIGHEST[held]
        above = ~((1 << (top + 1)) - 1) & SUIT_BITS
        length = COUNT[held]
        lengths[n_suits] = length
        for k in range(3):
            other = (declarer + 1 + k) & 3
            covers[n_suits, k] = min(length, COUNT[(hands[other] >> (13 * suit)) & above])
        relevant |= np.int64((present >> (13 * suit)) & SUIT_BITS & ~((1 << top) - 1)) << (13 * suit)
        tricks += length
        n_suits += 1
    # The best assignment of distinct defenders: defender k covers suit perm[k]; a fourth suit goes uncovered.
    best = 0
    for first in range(4):
        for second in range(4):
            if second == first:
                continue
            for third in range(4):
                if third == first or third == second:
                    continue
                covered = 0
                if first < n_suits:
                    covered += covers[first, 0]
                if second < n_suits:
                    covered += covers[second, 1]
                if third < n_suits:
                    covered += covers[third, 2]
                best = max(best, covered)
    return tricks - best, relevant
