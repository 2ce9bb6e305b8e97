"""Exact counting and uniform drawing of one seat's hands under a constraint.

A seat's constraint (fixed cards, an HCP range, an aces range, a length range per suit) sees a hand
only through how many cards it takes from each *class* of the free cards. A class is a suit group
(each suit with a length bound on its own, the other suits together) crossed with a rank group (A,
K, Q, J, the rest when HCP are bounded; A and the rest when only aces are; one group otherwise).
A *profile* is a count per class; the number of hands with it is the product of ``C(class size,
count)``. For each suit group, ``build_profile`` lists its profiles by *summary* (cards, aces, HCP
taken from the group), then counts, by dynamic programming over the groups, the hands that meet the
constraint, keeping per state only what the constraint can still see (cards taken so far, aces and
HCP, each capped where the constraint stops caring), with the running sums of every option.

From those sums ``draw_hand`` draws the summaries group by group, each with exactly the share of the
valid hands it leads to, then the class counts within them and the cards of each class by a partial
Fisher-Yates shuffle: an exactly uniform hand among those meeting the constraint, with no rejection,
however rare the constraint. Counts stay below ``C(52, 13) < 2**40``, exact in int64.

Counters (aces, HCP) are tracked through a spec ``(dim, low, saturating)`` over the value *taken from
the free cards* (the fixed cards' share is folded in by ``counter_spec``):

- ``saturating``: no upper limit; values are capped at ``low = dim - 1`` (a hand is accepted once it
  gets there). An unconstrained counter is ``(1, 0, 1)``: one state, tracking nothing.
- otherwise the accepted values are ``low .. dim - 1`` and a state above ``dim - 1`` is dropped.
"""

from math import comb

import numpy as np
from numba import njit

from analyzer.cards.deck import N_CARDS, N_RANKS, N_SUITS, SUIT_MASKS
from analyzer.cards.masks import lowest_bit_index, popcount
from analyzer.cards.rng import bounded, bounded_wide

# Binomial coefficients C(n, k), n <= 52, k <= 13: enough for any hand drawn from one deck.
COMB = np.array([[comb(n, k) for k in range(14)] for n in range(53)], dtype=np.int64)
# Rank groups when HCP are tracked: A K Q J and the rest, with their aces and HCP per card.
HCP_OF_GROUP = np.array([4, 3, 2, 1, 0], dtype=np.int64)
MAX_RANK_GROUPS = 5
# A summary is (cards 0..13, aces 0..4, HCP 0..37), as one index.
N_SUMMARY_ACES = 5
N_SUMMARY_HCP = 38
# Columns of an option (one summary of one suit group).
OPT_CARDS, OPT_ACES, OPT_HCP, OPT_WAYS, OPT_FIRST, OPT_END = range(6)


def counter_spec(low: int, high: int, fixed_value: int, top: int) -> tuple[int, int, int]:
    """``(dim, low, saturating)`` of a counter whose hand total must lie in ``[low, high]``.

    Parameters
    ----------
    low, high : int
        Inclusive bounds on the hand's total (fixed cards included); ``high >= top`` means no upper limit.
    fixed_value : int
        What the seat's fixed cards already contribute (at most ``high``).
    top : int
        The largest total a hand can have (4 aces, 37 HCP).

    Returns
    -------
    tuple of int
        The counter spec over the value taken from the free cards (see the module notes).
    """
    taken_low = max(0, low - fixed_value)
    if high >= top:
        return taken_low + 1, taken_low, 1
    return high - fixed_value + 1, taken_low, 0


@njit(cache=True, inline="always")
def _step(value, add, dim, saturating):
    """The counter after adding ``add``; -1 when it leaves a non-saturating range."""
    value += add
    if value >= dim:
        return dim - 1 if saturating else -1
    return value


@njit(cache=True, inline="always")
def _rank_group(rank, n_ranks):
    if n_ranks == 1:
        return 0
    if rank == N_RANKS - 1:
        return 0
    if n_ranks == 2:
        return 1
    return min(N_RANKS - 1 - rank, 4)


@njit(cache=True)
def _classes(avail, fixed, need, len_lo, len_hi, n_ranks):
    """Split ``avail`` into classes: ``(n_groups, classes[g, r, :], sizes[g, r], group_lo[g], group_hi[g])``.

    Suits with a length bound that can bind come first, one group each, with the bound on the cards
    taken from them; the other suits form the last group, unbounded.
    """
    group_of_suit = np.full(N_SUITS, -1, dtype=np.int64)
    group_lo = np.zeros(N_SUITS, dtype=np.int64)
    group_hi = np.zeros(N_SUITS, dtype=np.int64)
    n_groups = 0
    for s in range(N_SUITS):
        in_suit = popcount(avail & SUIT_MASKS[s])
        held = popcount(fixed & SUIT_MASKS[s])
        lo = max(0, len_lo[s] - held)
        hi = min(len_hi[s] - held, in_suit)
        if lo > 0 or hi < in_suit:
            group_of_suit[s] = n_groups
            group_lo[n_groups] = lo
            group_hi[n_groups] = hi
            n_groups += 1
    merged = -1
    for s in range(N_SUITS):
        if group_of_suit[s] < 0:
            if merged < 0:
                merged = n_groups
                group_hi[merged] = need
                n_groups += 1
            group_of_suit[s] = merged
    classes = np.zeros((n_groups, n_ranks, N_CARDS), dtype=np.int64)
    sizes = np.zeros((n_groups, n_ranks), dtype=np.int64)
    rest = avail
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        g = group_of_suit[card // N_RANKS]
        r = _rank_group(card % N_RANKS, n_ranks)
        classes[g, r, sizes[g, r]] = card
        sizes[g, r] += 1
    return n_groups, classes, sizes, group_lo, group_hi


@njit(cache=True)
def build_profile(avail, fixed, need, len_lo, len_hi, spec):
    """Count the hands of ``need`` cards from ``avail`` that, with ``fixed``, meet a seat's constraint.

    Parameters
    ----------
    avail : int64
        Mask of the cards the seat may take.
    fixed : int64
        The seat's fixed cards (not in ``avail``).
    need : int
        Cards to take.
    len_lo, len_hi : int64[4]
        Suit-length bounds of the whole hand, fixed cards included.
    spec : int64[6]
        Aces and HCP counter specs (``counter_spec``), each ``(dim, low, saturating)``.

    Returns
    -------
    tuple
        ``(count, profile)``: the number of valid hands and the tables ``draw_hand`` reads, ``(head,
        classes, sizes, opts, n_opts, combos, cum)``. ``head`` holds the number of suit groups,
        of rank groups and ``spec``; ``opts[g, k]`` a summary (cards, aces, HCP, hands, first and end
        row of its class counts in ``combos[g]``, whose last column is the running number of hands
        within the summary); ``cum[g, state, k]`` the hands completing ``state`` (cards, aces, HCP
        taken from the groups before ``g``, index ``(c * A + a) * H + h``) through options ``0..k``
        of group ``g``.
    """
    a_dim, a_low, a_sat, h_dim, h_low, h_sat = spec[0], spec[1], spec[2], spec[3], spec[4], spec[5]
    n_ranks = MAX_RANK_GROUPS if h_dim > 1 else (2 if a_dim > 1 else 1)
    n_groups, classes, sizes, group_lo, group_hi = _classes(avail, fixed, need, len_lo, len_hi, n_ranks)
    capacity = 1
    for g in range(n_groups):
        product = 1
        for r in range(n_ranks):
            product *= sizes[g, r] + 1
        capacity = max(capacity, product)
    combos = np.zeros((n_groups, capacity, n_ranks + 1), dtype=np.int64)
    opts = np.zeros((n_groups, capacity, 6), dtype=np.int64)
    n_opts = np.zeros(n_groups, dtype=np.int64)
    keys = np.empty(capacity, dtype=np.int64)
    rows = np.empty((capacity, n_ranks + 1), dtype=np.int64)
    counts = np.zeros(n_ranks, dtype=np.int64)
    for g in range(n_groups):
        # Every count per class (an odometer), kept when its summary can still lead to a valid hand.
        n_rows = 0
        counts[:] = 0
        while True:
            cards = 0
            aces = 0
            hcp = 0
            hands = 1
            for r in range(n_ranks):
                cards += counts[r]
                if n_ranks > 1 and r == 0:
                    aces += counts[r]
                if n_ranks == MAX_RANK_GROUPS:
                    hcp += HCP_OF_GROUP[r] * counts[r]
                hands *= COMB[sizes[g, r], counts[r]]
            if (group_lo[g] <= cards <= min(group_hi[g], need) and (a_sat or aces < a_dim)
                    and (h_sat or hcp < h_dim)):
                keys[n_rows] = (cards * N_SUMMARY_ACES + aces) * N_SUMMARY_HCP + hcp
                rows[n_rows, :n_ranks] = counts
                rows[n_rows, n_ranks] = hands
                n_rows += 1
            r = 0
            while r < n_ranks and counts[r] == sizes[g, r]:
                counts[r] = 0
                r += 1
            if r == n_ranks:
                break
            counts[r] += 1
        order = np.argsort(keys[:n_rows], kind="mergesort")
        k = -1
        previous = -1
        for i in range(n_rows):
            row = order[i]
            if keys[row] != previous:
                previous = keys[row]
                k += 1
                opts[g, k, OPT_CARDS] = keys[row] // (N_SUMMARY_ACES * N_SUMMARY_HCP)
                opts[g, k, OPT_ACES] = keys[row] // N_SUMMARY_HCP % N_SUMMARY_ACES
                opts[g, k, OPT_HCP] = keys[row] % N_SUMMARY_HCP
                opts[g, k, OPT_FIRST] = i
            combos[g, i, :n_ranks] = rows[row, :n_ranks]
            opts[g, k, OPT_WAYS] += rows[row, n_ranks]
            combos[g, i, n_ranks] = opts[g, k, OPT_WAYS]
            opts[g, k, OPT_END] = i + 1
        n_opts[g] = k + 1
    n_states = (need + 1) * a_dim * h_dim
    ways = np.zeros((n_groups + 1, n_states), dtype=np.int64)
    cum = np.zeros((n_groups, n_states, max(1, n_opts.max())), dtype=np.int64)
    for a in range(a_low, a_dim):
        for h in range(h_low, h_dim):
            ways[n_groups, (need * a_dim + a) * h_dim + h] = 1
    for g in range(n_groups - 1, -1, -1):
        # The first group starts from the empty hand only.
        for state in range(n_states if g > 0 else 1):
            c = state // (a_dim * h_dim)
            a = state // h_dim % a_dim
            h = state % h_dim
            total = 0
            for k in range(n_opts[g]):
                nc = c + opts[g, k, OPT_CARDS]
                na = _step(a, opts[g, k, OPT_ACES], a_dim, a_sat)
                nh = _step(h, opts[g, k, OPT_HCP], h_dim, h_sat)
                if nc <= need and na >= 0 and nh >= 0:
                    total += opts[g, k, OPT_WAYS] * ways[g + 1, (nc * a_dim + na) * h_dim + nh]
                cum[g, state, k] = total
            ways[g, state] = total
    head = np.empty(8, dtype=np.int64)
    head[0] = n_groups
    head[1] = n_ranks
    head[2:] = spec
    return ways[0, 0], (head, classes, sizes, opts, n_opts, combos, cum)


# Inlined: a call would take a reference to each array it unpacks from ``profile``, about a quarter
# of the draw's time.
@njit(cache=True, inline="always")
def draw_hand(state, profile):
    """Draw a hand uniformly among those a ``build_profile`` counted (its count must be positive).

    Group by group, a uniform draw below the current state's number of completions picks the summary
    whose slice of the running sums holds it, that is with probability (its hands) x (completions of
    the state it leads to) / (completions of this state): the product over the groups is the
    summary's share of all valid hands. A second draw picks the class counts within the summary in
    proportion to their hands (when it has several), and each class's cards come from a partial
    Fisher-Yates shuffle of the class (kept in ``profile``, so consecutive draws continue from its order).
    """
    head, classes, sizes, opts, n_opts, combos, cum = profile
    n_groups, n_ranks, a_dim, a_sat, h_dim, h_sat = head[0], head[1], head[2], head[4], head[5], head[7]
    hand = np.int64(0)
    c = 0
    a = 0
    h = 0
    for g in range(n_groups):
        # Binary searches written out on the tables: slicing views would cost more than the search.
        st = (c * a_dim + a) * h_dim + h
        r = bounded_wide(state, cum[g, st, n_opts[g] - 1])
        lo = 0
        hi = n_opts[g] - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[g, st, mid] > r:
                hi = mid
            else:
                lo = mid + 1
        k = lo
        lo = opts[g, k, OPT_FIRST]
        hi = opts[g, k, OPT_END] - 1
        if lo < hi:
            r = bounded_wide(state, opts[g, k, OPT_WAYS])
            while lo < hi:
                mid = (lo + hi) // 2
                if combos[g, mid, n_ranks] > r:
                    hi = mid
                else:
                    lo = mid + 1
        for rg in range(n_ranks):
            size = sizes[g, rg]
            for t in range(combos[g, lo, rg]):
                j = t + bounded(state, size - t)
                tmp = classes[g, rg, t]
                classes[g, rg, t] = classes[g, rg, j]
                classes[g, rg, j] = tmp
                hand |= np.int64(1) << classes[g, rg, t]
        c += opts[g, k, OPT_CARDS]
        a = _step(a, opts[g, k, OPT_ACES], a_dim, a_sat)
        h = _step(h, opts[g, k, OPT_HCP], h_dim, h_sat)
    return hand
