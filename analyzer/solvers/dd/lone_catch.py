"""A lone no-trump declarer who may take no more tricks, caught by one suit led again and again.

Misery, or a 1 Alone that has its trick: the declarer must duck every trick left, the defenders want him
to take one.  :func:`misery_bounds._lone_ducks` catches him when a defender on lead has a suit where his
lowest card beats every defender's lowest (one trick), or reaches such a lead through an entry (two
tricks).  Here the defender on lead keeps the lead in one suit for several rounds, leading his top cards
of it while every other defender follows below them, until the declarer runs out of cards low enough to
duck with.  Holdings are 13-bit masks (bit r = rank r).
"""

import numpy as np
from numba import njit

from analyzer.solvers.dd.tables import COUNT, HIGHEST, SUIT_BITS


@njit(cache=True, inline="always")
def _ducks_each(mine, ceilings):
    """Whether distinct cards of ``mine`` can be placed below each card of ``ceilings`` (``mine`` holds at
    least as many cards): Hall's condition for thresholds, the ``j``-th lowest of ``mine`` below the
    ``j``-th lowest ceiling for every ``j``."""
    while ceilings:
        if (mine & -mine) > (ceilings & -ceilings):
            return False
        mine &= mine - 1
        ceilings &= ceilings - 1
    return True


@njit(cache=True)
def _repeated_lead_catch(hands, leader, declarer):
    """The cards that show a defender on lead makes the declarer take a trick in one suit, or 0.

    The line, in a suit ``s`` that the leader ``x`` and the declarer both hold: in rounds ``1 .. r - 1``
    ``x`` leads his highest cards of ``s`` (the ``i``-th highest in round ``i``), in round ``r`` his
    lowest; every other defender follows with his lowest card of ``s`` each round (his ``i``-th lowest
    in round ``i``) or discards when void.  None of these cards depends on the declarer's, who must
    follow (he holds ``s`` for ``r`` rounds: ``r`` is at most his count).  In a round ``i < r`` where
    ``x``'s card beats the other defenders' cards, the trick is the declarer's or ``x``'s, so either he
    is caught or ``x`` leads again.  To duck every one of the ``r`` rounds he needs a distinct card of
    ``s`` below each round's best defender card: ``x``'s card in rounds ``i < r``, the highest of
    ``x``'s lowest and the others' ``r``-th lowest in round ``r``.  When no such set of cards exists
    (Hall's condition on the sorted cards, :func:`_ducks_each`), whatever he plays he takes one of the
    ``r`` tricks.  ``r = 1`` is the one-trick catch with ``x`` alone choosing the card led.

    Every card of ``s`` decides it (the caller's table entry then fixes all their owners).
    """
    if leader == declarer:
        return np.int64(0)
    present = hands[0] | hands[1] | hands[2] | hands[3]
    for suit in range(4):
        mine = (hands[declarer] >> (13 * suit)) & SUIT_BITS
        led = (hands[leader] >> (13 * suit)) & SUIT_BITS
        if mine == 0 or led == 0:
            continue
        # The other two defenders' cards of s not yet played in the line.
        first = np.int64(0)
        second = np.int64(0)
        seats = 0
        for other in range(4):
            if other != declarer and other != leader:
                if seats == 0:
                    first = (hands[other] >> (13 * suit)) & SUIT_BITS
                else:
                    second = (hands[other] >> (13 * suit)) & SUIT_BITS
                seats += 1
        ceilings = np.int64(0)  # x's cards that won the rounds before
        tops = led
        for _ in range(min(COUNT[mine], COUNT[led])):
            # Round r: x leads his lowest card; the others their lowest left.
            best = led & -led
            best = max(best, first & -first, second & -second)
            if not _ducks_each(mine, ceilings | best):
                return ((present >> (13 * suit)) & SUIT_BITS) << (13 * suit)
            # Round r won by x with his highest card left, the others following below it.
            top = np.int64(1) << HIGHEST[tops]
            if (first & -first) > top or (second & -second) > top:
                break
            ceilings |= top
            tops ^= top
            first &= first - 1
            second &= second - 1
    return np.int64(0)
