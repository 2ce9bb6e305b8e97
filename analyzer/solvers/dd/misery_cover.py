"""Misère cover: a lone no-trump declarer's failing suit covered by the defenders who must follow in it.

:func:`misery_bounds._lone_ducks` settles a trick start where the ``j``-th rule holds in every suit the
declarer holds.  Where it fails in a suit ``s``, every defender holding ``s`` must still follow to each
trick of it, so the trick's best card is at least the highest of the holders' lowest cards of ``s``:
the declarer, playing his highest card below that (he sees the cards before him; each holder after
him must play at least his lowest), ducks as long as some holder above one of his cards is sure to
hold ``s``.  This module bounds how long each holder surely holds ``s`` and checks, trick by trick of
``s``, that the declarer always has a card to duck with, or that the ``j``-th rule holds again.

Holdings are 13-bit masks (bit r = rank r); a holding's lowest card is compared as its lowest bit.
"""

import numpy as np
from numba import njit

from analyzer.solvers.dd.tables import COUNT, HIGHEST, SUIT_BITS

# The credited check tries every order of the declarer's rounds and discards of the suit: 2**count paths.
MAX_CREDITED = 6


@njit(cache=True, inline="always")
def _held(hands, seat, suit):
    return (hands[seat] >> (13 * suit)) & SUIT_BITS


@njit(cache=True, inline="always")
def _longest(hands, declarer, suit):
    """The most cards of ``suit`` a defender holds: a bound on the tricks of ``suit`` left."""
    longest = 0
    for seat in range(4):
        if seat != declarer:
            longest = max(longest, COUNT[_held(hands, seat, suit)])
    return longest


@njit(cache=True)
def _reaches(hands, declarer, suit, credited):
    """Each defender's reach in ``suit`` (4 bits a seat; 0 for the declarer and defenders void in it).

    A defender ``g`` holding ``c`` cards of ``suit`` can lose one other than by following to it only
    by discarding, in a trick of a suit ``u`` he is void in.  Tricks of ``u`` number at most ``l_u``,
    the longest defender's count of ``u`` (each takes a card from him), and ``g`` follows in the first
    ``g_u`` of them, so

        reach = c - sum over u != suit of max(0, l_u - g_u)

    bounds from below how many tricks of ``suit`` ``g`` surely follows to: Phi = (cards of ``suit``
    ``g`` holds) - (reach - tricks of ``suit`` played) - sum of the terms starts at 0 and never falls
    (a trick of ``u`` lowers ``l_u`` by one at least; ``g`` follows and loses a card of ``u``, or
    discards one card while his term of ``u``, ``l_u`` then, falls by one), so while fewer than
    ``reach`` tricks of ``suit`` are played he holds it.

    ``credited``: the declarer, void in the suit led, discards a card of ``suit`` (the one suit where
    the rule fails).  Then only the tricks of ``u`` he follows to (at most ``min(d_u, l_u)``, ``d_u``
    his count) count, and the reach bounds the declarer's losses of ``suit`` cards (tricks of it and
    his discards) before ``g`` may be void: in a trick of a suit he is void in, ``g`` discards at
    most one card and the declarer one of ``suit``, as in ``misery_bounds._guarded``.
    """
    reaches = np.int64(0)
    for g in range(4):
        held = _held(hands, g, suit)
        if g == declarer or held == 0:
            continue
        reach = COUNT[held]
        for other in range(4):
            if other == suit:
                continue
            ours = COUNT[_held(hands, declarer, other)]
            if credited and ours == 0:
                continue
            longest = _longest(hands, declarer, other)
            tricks = min(ours, longest) if credited else longest
            reach -= max(0, tricks - COUNT[_held(hands, g, other)])
        reaches |= np.int64(min(max(reach, 0), 15)) << (4 * g)
    return reaches


@njit(cache=True, inline="always")
def _floor(hands, declarer, suit, reaches, step):
    """The highest lowest card of ``suit`` among the defenders whose reach exceeds ``step`` (0: none)."""
    floor = np.int64(0)
    for g in range(4):
        held = _held(hands, g, suit)
        if g != declarer and held and (reaches >> (4 * g)) & 15 > step:
            floor = max(floor, held & -held)
    return floor


@njit(cache=True, inline="always")
def _below_in_order(mine, others, rounds):
    """The ``j``-th rule in one suit: ``mine``'s ``j``-th lowest below ``others``' for every ``j`` both
    reach, up to ``rounds``."""
    while mine and others and rounds > 0:
        if (mine & -mine) > (others & -others):
            return False
        mine &= mine - 1
        others &= others - 1
        rounds -= 1
    return True


@njit(cache=True)
def _covered(hands, declarer, suit, credited):
    """Whether the declarer surely ducks every trick of ``suit`` with a defender on lead, when the
    ``j``-th rule holds in every other suit he holds (``credited``) or each other suit he holds is
    itself covered (not ``credited``: his discards then go anywhere).

    His play in a trick of ``suit``: his highest card below the trick's floor, the highest of the
    lowest cards held by the defenders holding ``suit`` (those before him played at least theirs,
    those after him must), when he has one, until the ``j``-th rule holds in ``suit``; then the
    rule's play (his highest card below the card led).  Void in the suit led, he discards his highest
    card of ``suit`` (``credited``) or of any suit.

    The check plays his cards of ``suit`` against the worst case.  Each trick of ``suit`` has a floor
    at least the highest lowest card (as dealt now) of the defenders whose reach (:func:`_reaches`)
    exceeds the tricks of ``suit`` played (``credited``: his cards of ``suit`` lost so far), so the
    check removes his highest card below that; his real play, below a floor as high or higher,
    leaves him cards each at most as high (removing a higher card of a set leaves a set lower card
    by card), and so does a discard of his highest.  Lower cards only help: they duck under any floor
    the higher ones duck under and keep the ``j``-th rule, which is checked against the defenders'
    cards of ``suit`` as now (they only lose cards, which raises their ``j``-th lowest), for ``j`` up
    to the most cards of ``suit`` they can still hold: after ``t`` tricks of it a defender who holds
    ``c`` now holds at most ``max(0, c - t)`` (each trick takes one from every holder; a discard only
    lowers it), and the rule for his cards needs ``j`` only up to theirs.  Tricks of ``suit`` number
    at most the longest defender's count.  Not ``credited``, his discards are free and
    the floors do not depend on them, so the check plays tricks only.  ``credited``, a discard moves
    the floors (they follow his losses), so every order of tricks and discards is tried (at most
    ``MAX_CREDITED`` cards; more: not shown).
    """
    mine = _held(hands, declarer, suit)
    others = np.int64(0)
    counts = np.zeros(4, np.int64)
    for seat in range(4):
        if seat != declarer:
            others |= _held(hands, seat, suit)
            counts[seat] = COUNT[_held(hands, seat, suit)]
    count = COUNT[mine]
    if credited and count > MAX_CREDITED:
        return False
    longest = _longest(hands, declarer, suit)
    reaches = _reaches(hands, declarer, suit, credited)
    for path in range(1 << count if credited else 1):
        held = mine
        tricks = 0
        for lost in range(count):
            rounds = 0
            for seat in range(4):
                rounds += max(0, counts[seat] - tricks)
            if tricks == longest or _below_in_order(held, others, rounds):
                break
            if credited and not (path >> lost) & 1:
                held ^= np.int64(1) << HIGHEST[held]
                continue
            floor = _floor(hands, declarer, suit, reaches, lost if credited else tricks)
            under = held & (floor - 1) if floor else np.int64(0)
            if under == 0:
                return False
            held ^= np.int64(1) << HIGHEST[under]
            tricks += 1
    return True


@njit(cache=True)
def _failing_covered(hands, declarer, failing):
    """Whether every suit of ``failing`` (a 4-bit set of suits where the ``j``-th rule fails) is
    covered: one suit with the declarer's discards credited to it, several each without.  Returns
    (covered, whether the check used every suit's counts: then every card decides it)."""
    if failing == 0:
        return True, False
    if failing & (failing - 1) == 0:
        return _covered(hands, declarer, HIGHEST[failing], np.bool_(True)), False
    for suit in range(4):
        if (failing >> suit) & 1 and not _covered(hands, declarer, suit, np.bool_(False)):
            return False, True
    return True, True
