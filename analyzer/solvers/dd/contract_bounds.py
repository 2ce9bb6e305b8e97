"""Trick-start cut-offs for a lone declarer playing to keep his count low or exact (Misery, 1 Alone).

Both hold at no trump with no called card, for a team of one seat ``D`` against the three others:

- *Ducks everything* (whatever anyone plays, ``D`` takes no more tricks): ``D`` is not on lead and
  in every suit each of his cards ranks below each card the others hold there.  The trick's led
  card is then an opponent's, above any card ``D`` can follow with; so ``D`` loses the trick, does
  not lead the next one, and playing cards keeps the condition true.
- *Forced winner* (the others can make ``D`` take this trick): ``D`` on lead, and in every suit he
  holds, each other seat holding that suit holds a card below ``D``'s lowest there: whatever he
  leads, the others can all play under it (or discard).  Or another seat on lead holds a suit that
  ``D`` holds, where ``D``'s lowest card ranks above every other seat's lowest card of the suit:
  the leader leads his lowest, the others theirs, and any card ``D`` follows with wins.

A window search uses the first to settle its count (``won`` exactly) and the second as a lower
bound of one more trick.  What decides either is, per suit looked at, who holds the cards at or
above one card (partition search keeps the owners of those; every hand's suit lengths are part of
every table key, so each hand's number of cards below it is fixed too): the others' lowest card
for "ducks everything", the declarer's lowest for a forced winner (whether each other hand holds a
card below it is fixed by its number of cards at or above it).
"""

import numpy as np
from numba import njit

from analyzer.solvers.dd.tables import HIGHEST, SUIT_BITS


@njit(cache=True, inline="always")
def _lowest(held):
    """Rank of the lowest card of a 13-bit holding (held != 0)."""
    return HIGHEST[held & -held]


@njit(cache=True)
def ducks_everything(hands, seat, declarer):
    """Whether ``declarer`` surely takes no more tricks, ``seat`` leading (see the module notes).

    Returns (yes, the cards that decide it)."""
    if seat == declarer:
        return False, np.int64(0)
    relevant = np.int64(0)
    for suit in range(4):
        mine = (hands[declarer] >> (13 * suit)) & SUIT_BITS
        if mine == 0:
            continue
        others = np.int64(0)
        for other in range(4):
            if other != declarer:
                others |= (hands[other] >> (13 * suit)) & SUIT_BITS
        if others:
            if _lowest(others) < HIGHEST[mine]:
                return False, np.int64(0)
            relevant |= np.int64(1) << (13 * suit + _lowest(others))
    return True, relevant


@njit(cache=True)
def forced_winner(hands, seat, declarer):
    """Whether the others can make ``declarer`` take the trick ``seat`` now leads (see the module notes).

    Returns (yes, the cards that decide it)."""
    relevant = np.int64(0)
    for suit in range(4):
        mine = (hands[declarer] >> (13 * suit)) & SUIT_BITS
        if mine == 0:
            continue
        floor = _lowest(mine)
        # The highest of the others' lowest cards in the suit, -1 when none of them holds it.
        top_low = -1
        for other in range(4):
            held = (hands[other] >> (13 * suit)) & SUIT_BITS
            if other != declarer and held:
                top_low = max(top_low, _lowest(held))
        if seat == declarer:
            if top_low > floor:
                return False, np.int64(0)
            relevant |= np.int64(1) << (13 * suit + floor)
        elif (hands[seat] >> (13 * suit)) & SUIT_BITS and top_low < floor:
            return True, np.int64(1) << (13 * suit + floor)
    if seat == declarer:
        return True, relevant
    return False, np.int64(0)


@njit(cache=True)
def lone_window_cutoff(hands, seat, team, won, lo, hi):
    """Verdict of a lone declarer's low or exact window at a trick start: 1 yes, 0 no, -1 open.

    ``team`` is a single seat, play at no trump without a called card; returns (verdict, the
    cards that decide it).
    """
    declarer = HIGHEST[team]
    yes, relevant = ducks_everything(hands, seat, declarer)
    if yes:
        return (1 if lo <= won <= hi else 0), relevant
    if won + 1 > hi:
        forced, relevant = forced_winner(hands, seat, declarer)
        if forced:
            return 0, relevant
    return -1, np.int64(0)
