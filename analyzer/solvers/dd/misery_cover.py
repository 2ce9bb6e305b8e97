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
# The ordered check (several failing suits) also tries discards of other suits: 2**steps paths.
MAX_STEPS = 9
# A discard count above every defender's ``B``: the loss ``min(D, B)`` is then ``B`` (his discards free).
FREE = 15


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
def _reaches(hands, declarer, suit, both):
    """Each defender's reach in ``suit``: 8 bits a seat, ``c - A`` (low 4 bits) and ``B`` (high 4; 0 unless
    ``both``); 0 for the declarer and defenders void in it.

    A defender ``g`` holding ``c`` cards of ``suit`` loses one other than by following to it only by
    discarding, in a trick of a suit ``u`` he is void in.  Over the other suits ``u`` (``d_u``, ``g_u`` the
    declarer's and ``g``'s counts, ``l_u`` the longest defender's count, a bound on the tricks of ``u``
    left: each takes a card from him),

        A = sum max(0, min(d_u, l_u) - g_u)      B = sum max(0, l_u - max(d_u, g_u))

    and ``g`` surely holds ``suit`` at a trick of it when ``c - A - min(D, B) - t >= 1``, ``t`` the tricks
    of ``suit`` and ``D`` the declarer's discards (of any suit) played from now: his discards of ``suit``
    number at most ``A + B`` and at most ``A + D``.

    ``A + B``: ``Phi = (his discards of suit) + sum over u of max(0, l_u - g_u)`` never rises (and ``l_u -
    g_u = (min(d_u, l_u) - g_u) + (l_u - max(d_u, g_u))`` where positive).  A trick of ``u`` lowers ``l_u``
    by one at least; ``g`` follows and loses a card of ``u``, or discards one card while his term of ``u``
    falls by one: a card of ``suit`` (counted) or of ``v``, whose term rises by one at most.

    ``A + D``: ``Psi = (his discards of suit) + A (as it stands) - (the declarer's discards)`` never rises.
    A trick of ``u`` the declarer follows lowers ``min(d_u, l_u)`` by one at least: ``g`` follows (his
    term does not rise) or, void, his term falls by one while his discard adds one at most (to the count
    or to another term).  In a trick of a suit the declarer is void in, he discards (``-1``) and ``g``
    loses one card at most (``+1`` at most); the declarer's discard only lowers his own counts.  Other
    defenders' discards only lower ``l_u``.  With ``D`` free (``B`` alone) this is the reach without
    credit; with one failing suit, every discard his (``A + D``), the credited reach of session 8.
    """
    reaches = np.int64(0)
    for g in range(4):
        held = _held(hands, g, suit)
        if g == declarer or held == 0:
            continue
        left = COUNT[held]
        free = 0
        for other in range(4):
            if other == suit:
                continue
            ours = COUNT[_held(hands, declarer, other)]
            longest = _longest(hands, declarer, other)
            theirs = COUNT[_held(hands, g, other)]
            left -= max(0, min(ours, longest) - theirs)
            free += max(0, longest - max(ours, theirs))
        if not both:
            free = FREE
        reaches |= np.int64(min(max(left, 0), 15) | min(free, 15) << 4) << (8 * g)
    return reaches


@njit(cache=True, inline="always")
def _floor(hands, declarer, suit, reaches, tricks, discards):
    """The highest lowest card of ``suit`` among the defenders who surely hold it at a trick of it with
    ``tricks`` of it and ``discards`` of the declarer's played (0: none)."""
    floor = np.int64(0)
    for g in range(4):
        held = _held(hands, g, suit)
        reach = (reaches >> (8 * g)) & 255
        if g != declarer and held and (reach & 15) - min(discards, reach >> 4) - tricks >= 1:
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
def _covered(hands, declarer, suit, earlier, both):
    """Whether the declarer surely ducks every trick of ``suit`` with a defender on lead, when the
    ``j``-th rule holds in every other suit he holds or each of them is itself covered.

    His play in a trick of ``suit``: his highest card below the trick's floor, the highest of the
    lowest cards held by the defenders holding ``suit`` (those before him played at least theirs,
    those after him must), when he has one, until the ``j``-th rule holds in ``suit``; then the
    rule's play (his highest card below the card led).  Void in the suit led, he discards his highest
    card of the first failing suit of an order he still holds; ``earlier`` is his count of the suits
    before ``suit`` in it (-1: his discards go anywhere; 0 with one failing suit, credited).

    The check plays his cards of ``suit`` against the worst case.  Each trick of ``suit`` has a floor
    at least the highest lowest card (as dealt now) of the defenders who surely hold it
    (:func:`_reaches`), so the check removes his highest card below that; his real play, below a
    floor as high or higher, leaves him cards each at most as high and no more of them (the ``i``-th
    lowest of his real cards at most the check's: removing a card at or above the check's leaves
    that so, and so does a discard of his highest), and such cards duck wherever the check's do and
    keep the ``j``-th rule.  His discards of ``suit`` number at least ``D - earlier`` (the suits
    before it hold ``earlier`` cards), so the check discards there once ``D >= earlier``.  The
    defenders choose the order of tricks and discards: every order is tried, a discard only while
    it moves a floor or takes a card (``D`` below the largest ``B`` or at least ``earlier``).  After
    ``t`` tricks of ``suit`` a defender who held ``c`` holds at most ``max(0, c - t)`` (each takes a
    card from every holder), so the ``j``-th rule is checked against the defenders' cards as now
    (losing cards only raises their ``j``-th lowest) for ``j`` up to that many.  ``both``: whether
    ``B`` counts (it reads the counts of every suit); without it the loss is ``D``.
    """
    mine = _held(hands, declarer, suit)
    others = np.int64(0)
    counts = np.zeros(4, np.int64)
    for seat in range(4):
        if seat != declarer:
            others |= _held(hands, seat, suit)
            counts[seat] = COUNT[_held(hands, seat, suit)]
    count = COUNT[mine]
    reaches = _reaches(hands, declarer, suit, both or earlier < 0)
    widest = 0
    for g in range(4):
        widest = max(widest, (reaches >> (8 * g + 4)) & 15)
    steps = count
    if earlier > 0:
        steps += min(earlier, widest)
    if earlier == 0 and count > MAX_CREDITED or steps > MAX_STEPS:
        return False
    longest = _longest(hands, declarer, suit)
    for path in range(1 << steps if earlier >= 0 else 1):
        held = mine
        tricks = 0
        discards = 0 if earlier >= 0 else FREE
        for step in range(steps):
            rounds = 0
            for seat in range(4):
                rounds += max(0, counts[seat] - tricks)
            if tricks == longest or _below_in_order(held, others, rounds):
                break
            if (path >> step) & 1 and (discards < widest or discards >= earlier):
                if discards >= earlier:
                    held ^= np.int64(1) << HIGHEST[held]
                discards += 1
                continue
            floor = _floor(hands, declarer, suit, reaches, tricks, discards)
            under = held & (floor - 1) if floor else np.int64(0)
            if under == 0:
                return False
            held ^= np.int64(1) << HIGHEST[under]
            tricks += 1
    return True


@njit(cache=True)
def _failing_covered(hands, declarer, failing):
    """Whether every suit of ``failing`` (a 4-bit set of suits where the ``j``-th rule fails) is
    covered: one suit with the declarer's discards credited to it, several under some order of his
    discards (each suit covered with the discards the order gives it, or with his discards free).
    Returns (covered, whether the check used every suit's counts: then every card decides it)."""
    if failing == 0:
        return True, False
    if failing & (failing - 1) == 0:
        suit = HIGHEST[failing]
        if _covered(hands, declarer, suit, 0, False):
            return True, False
        return _covered(hands, declarer, suit, 0, True), True
    suits = np.zeros(4, np.int64)
    free = np.zeros(4, np.bool_)
    k = 0
    for suit in range(4):
        if (failing >> suit) & 1:
            suits[k] = suit
            free[k] = _covered(hands, declarer, suit, -1, True)
            k += 1
    orders = 1
    for i in range(2, k + 1):
        orders *= i
    for order in range(orders):
        # The order-th permutation of the k suits (factorial number system).
        left = np.arange(k)
        code = order
        earlier = 0
        ok = True
        for place in range(k, 0, -1):
            pick = code % place
            code //= place
            index = left[pick]
            left[pick] = left[place - 1]
            suit = suits[index]
            if not free[index] and not _covered(hands, declarer, suit, earlier, True):
                ok = False
                break
            earlier += COUNT[_held(hands, declarer, suit)]
        if ok:
            return True, True
    return False, True
