"""Numba kernels for Sloppy Seconds: legal cards, trump emergence, trick settlement, deal scoring.

A deal in progress is five arrays, so that policies can copy it cheaply for play-outs:

* ``hands`` int64[n]: hand masks by seat;
* ``taken`` int64[n, 4]: card points taken by seat and suit;
* ``voids`` int64[n]: per seat, bit ``s`` set once the seat failed to follow suit ``s``;
* ``trick`` int64[n]: cards of the current trick in play order (entries from ``pos`` on are stale);
* ``meta`` int64[META_SIZE]: the scalars of the deal (``M_*`` below), then the standings table.

The standings table (``M_STANDINGS``, ``4 * seat + suit``) tells each seat, per suit, how the *other* seats
stand: the top three distinct totals among them and how many of them hold the first two, packed by
``pack_view``. It changes only when a trick is settled, so instead of a pass over the table for every suit a
heuristic decision evaluates (about a third of the heuristic's time), a settled trick marks its suits stale
(``settle_standings``, bit mask ``M_STALE``) and the first look-up of a stale suit recomputes it for every seat
(``current_standings``). ``apply_action`` always marks; the play loops do so only when a heuristic or sampling
seat is at the table (random play never reads the table).

Play loops do not work on ``meta`` card by card: they load its scalars once into a tuple
(``load_scalars``), advance the tuple with ``apply_card`` (inlined, so the scalars stay in registers) and
store it back at the end (``store_scalars``). Read through memory, every card cost several dependent
loads and stores of ``meta`` and a rescan of the trick; with the tuple a lowest-card play-out loop runs
about 2.8 times faster (4 players). The scalar tuple holds, in this order (``M_*`` index both the tuple and ``meta``):

``leader, pos, led, best, best_seat, trump, broken, trump_trick, trick_no, in_hands, trick_points``

leader of the current trick, cards played to it, suit led (-1 before the lead), card winning it so far
and its seat, trump suit (-1 none yet), first broken suit (``original`` variant, -1 none), trick index at
which trump appeared, trick index, mask of the cards still in hands, and the card points in the trick
packed 16 bits per suit (suit ``s`` in bits ``16 s .. 16 s + 15``; a trick holds at most 91 per suit).

The rule readings these kernels implement are documented in ``rules.py``; ``state.py`` is the
plain-Python twin the tests compare against.
"""

import numpy as np
from numba import carray, njit, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

from analyzer.cards.tricks import beats
from analyzer.games.seconds.rules import (
    MINIMUM_PER_SUIT,
    MINIMUM_SCORE,
    N_SUITS,
    TRUMP_SEED,
)
from analyzer.games.trick import low_bit

M_LEADER = 0
M_POS = 1
M_LED = 2
M_BEST = 3
M_BEST_SEAT = 4
M_TRUMP = 5
M_BROKEN = 6
M_TRUMP_TRICK = 7
M_TRICK = 8
M_IN_HANDS = 9
M_TRICK_POINTS = 10
M_STALE = 11
M_STANDINGS = 12
META_SIZE = M_STANDINGS + 8 * N_SUITS

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


@intrinsic
def _data_pointer(typingctx, arr):
    """Pointer to the first element of a C-contiguous array (other layouts do not compile)."""
    if not isinstance(arr, types.Array) or arr.layout != "C":
        raise TypingError(f"unmanaged needs a C-contiguous array, got {arr}")

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data
    return types.CPointer(arr.dtype)(arr), codegen


@njit(cache=True, inline="always")
def unmanaged(arr):
    """A view of the C-contiguous ``arr`` that carries no reference count.

    Numba increments and decrements (atomically) the reference count of every array a function body
    touches, inlined bodies included; in the play loops that cost more than the play itself. Views made
    here skip it. ``arr`` must outlive the view: play loops take views of their own arguments only.
    """
    return carray(_data_pointer(arr), arr.shape)


@njit(cache=True)
def init_round(dealt, leader, hands, taken, voids, trick, meta):
    """Reset a deal state to the start of play of the hands ``dealt`` with ``leader`` to lead."""
    n = dealt.shape[0]
    in_hands = np.int64(0)
    for p in range(n):
        hands[p] = dealt[p]
        voids[p] = 0
        trick[p] = -1
        in_hands |= dealt[p]
        for s in range(N_SUITS):
            taken[p, s] = 0
    store_scalars(meta, (np.int64(leader), np.int64(0), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1),
                         np.int64(-1), np.int64(-1), np.int64(0), in_hands, np.int64(0)))
    # Every suit's standings are worked out when first looked up (a store here per entry cost random play
    # about 10% of its time).
    meta[M_STALE] = (1 << N_SUITS) - 1


@njit(cache=True, inline="always")
def load_scalars(meta):
    """The scalar tuple of a deal state (module docstring), read from ``meta``."""
    return (meta[M_LEADER], meta[M_POS], meta[M_LED], meta[M_BEST], meta[M_BEST_SEAT], meta[M_TRUMP],
            meta[M_BROKEN], meta[M_TRUMP_TRICK], meta[M_TRICK], meta[M_IN_HANDS], meta[M_TRICK_POINTS])


@njit(cache=True, inline="always")
def store_scalars(meta, scalars):
    """Write the scalar tuple ``scalars`` back into ``meta``."""
    leader, pos, led, best, best_seat, trump, broken, trump_trick, trick_no, in_hands, points = scalars
    meta[M_LEADER] = leader
    meta[M_POS] = pos
    meta[M_LED] = led
    meta[M_BEST] = best
    meta[M_BEST_SEAT] = best_seat
    meta[M_TRUMP] = trump
    meta[M_BROKEN] = broken
    meta[M_TRUMP_TRICK] = trump_trick
    meta[M_TRICK] = trick_no
    meta[M_IN_HANDS] = in_hands
    meta[M_TRICK_POINTS] = points


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


@njit(cache=True, inline="always")
def legal_actions(hand, led):
    """Legal cards of ``hand`` with ``led`` the suit led (-1 on lead): the led suit if it holds any, else all."""
    if led < 0:
        return hand
    follow = hand & suit_mask(led)
    return follow if follow != 0 else hand


@njit(cache=True, inline="always")
def trump_after(card_suit, led, trump, broken, trick_no, variant):
    """Trump suit once a card of ``card_suit`` is played to a trick led in ``led`` (-1: on lead).

    ``trump``, ``broken`` and ``trick_no`` are the scalars of the state before the card (rules.py readings).
    """
    if trump >= 0 or led < 0 or card_suit == led:
        return trump
    if variant == TRUMP_SEED:
        return card_suit if trick_no >= 1 else -1
    return card_suit if broken >= 0 and card_suit != broken else -1


@njit(cache=True, inline="always")
def apply_card(hands, taken, voids, trick, values, variant, card, scalars):
    """Play ``card`` for the seat to play; return the new scalar tuple (module docstring).

    Updates trump, the broken suit, voids and the trick's winner as the card lands (a card that makes
    trump is the only trump of its trick, so judging it against the winner so far with the new trump is
    the same as judging the whole trick at the end), and settles a complete trick from the packed points.
    """
    leader, pos, led, best, best_seat, trump, broken, trump_trick, trick_no, in_hands, points = scalars
    n = hands.shape[0]
    seat = seat_after(leader, pos, n)
    suit = card // 13
    bit = np.int64(1) << card
    hands[seat] &= ~bit
    in_hands &= ~bit
    points += values[card] << (16 * suit)
    trick[pos] = card
    if pos == 0:
        led = suit
        best = card
        best_seat = seat
    else:
        if suit != led:
            voids[seat] |= np.int64(1) << led
            if trump < 0:
                new_trump = trump_after(suit, led, trump, broken, trick_no, variant)
                if new_trump >= 0:
                    trump = new_trump
                    trump_trick = trick_no
                elif variant != TRUMP_SEED and broken < 0:
                    broken = suit
        if beats(card, best, best_seat, led, trump):
            best = card
            best_seat = seat
    pos += 1
    if pos == n:
        for s in range(N_SUITS):
            taken[best_seat, s] += (points >> (16 * s)) & 0xFFFF
        leader = best_seat
        trick_no += 1
        pos = 0
        led = -1
        points = 0
    return leader, pos, led, best, best_seat, trump, broken, trump_trick, trick_no, in_hands, points


@njit(cache=True, inline="always")
def pack_view(t1, t2, t3, c1, c2):
    """One standings entry: the top three distinct totals ``t1 > t2 > t3`` of the other seats (-1 for none)
    and how many of them hold ``t1`` and ``t2``; totals are stored plus one in 8 bits, counts in 4."""
    return (t1 + 1) | (t2 + 1) << 8 | (t3 + 1) << 16 | c1 << 24 | c2 << 28


@njit(cache=True, inline="always")
def unpack_view(x):
    """``(t1, t2, t3, c1, c2)`` of a standings entry (``pack_view``)."""
    return (x & 0xFF) - 1, ((x >> 8) & 0xFF) - 1, ((x >> 16) & 0xFF) - 1, (x >> 24) & 0xF, (x >> 28) & 0xF


# Compiled on its own, not inline: it runs only when a suit's standings are stale, and inlined at each
# ``current_standings`` it made a first run compile several seconds more.
@njit(cache=True)
def refresh_standings(taken, meta, suit):
    """Recompute the standings entries of ``suit`` for every seat from ``taken``.

    One pass finds the table's top four distinct totals (``u``, descending, -1 for none) with their counts
    (``k``); a seat's view of the others is that list with one count taken off its own total, which
    removes at most one of the four.
    """
    n = taken.shape[0]
    u1 = u2 = u3 = u4 = np.int64(-1)
    k1 = k2 = k3 = k4 = np.int64(0)
    for p in range(n):
        v = taken[p, suit]
        if v == u1:
            k1 += 1
        elif v > u1:
            u4, k4, u3, k3, u2, k2, u1, k1 = u3, k3, u2, k2, u1, k1, v, np.int64(1)
        elif v == u2:
            k2 += 1
        elif v > u2:
            u4, k4, u3, k3, u2, k2 = u3, k3, u2, k2, v, np.int64(1)
        elif v == u3:
            k3 += 1
        elif v > u3:
            u4, k4, u3, k3 = u3, k3, v, np.int64(1)
        elif v == u4:
            k4 += 1
        elif v > u4:
            u4, k4 = v, np.int64(1)
    for p in range(n):
        v = taken[p, suit]
        e1 = k1 - (u1 == v)
        e2 = k2 - (u2 == v)
        e3 = k3 - (u3 == v)
        # A level left empty (the seat was its only holder, or it never existed) drops out of the view.
        d1 = e1 == 0
        d12 = d1 | (e2 == 0)
        d123 = d12 | (e3 == 0)
        meta[M_STANDINGS + N_SUITS * p + suit] = pack_view(u2 if d1 else u1, u3 if d12 else u2, u4 if d123 else u3,
                                                           e2 if d1 else e1, e3 if d12 else e2)


@njit(cache=True, inline="always")
def settle_standings(taken, meta, trick):
    """Mark the standings of the suits of the trick just settled (in ``trick``) out of date.

    ``current_standings`` refreshes a suit when it is next asked for: suits that change again before any
    decision looks at them are not recomputed in between.
    """
    stale = meta[M_STALE]
    for i in range(taken.shape[0]):
        stale |= np.int64(1) << (trick[i] // 13)
    meta[M_STALE] = stale


@njit(cache=True, inline="always")
def current_standings(taken, meta, seat, suit):
    """The standings entry of ``seat`` in ``suit`` (``pack_view``), refreshed first if out of date."""
    if (meta[M_STALE] >> suit) & 1 != 0:
        refresh_standings(taken, meta, suit)
        meta[M_STALE] &= ~(np.int64(1) << suit)
    return meta[M_STANDINGS + N_SUITS * seat + suit]


@njit(cache=True)
def apply_action(hands, taken, voids, trick, meta, card, variant, values):
    """Play ``card`` for the seat to play, update trump and voids, settle a complete trick (standings included)."""
    scalars = apply_card(hands, taken, voids, trick, values, variant, card, load_scalars(meta))
    store_scalars(meta, scalars)
    if scalars[M_POS] == 0:
        settle_standings(taken, meta, trick)


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
