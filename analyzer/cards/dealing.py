"""Seeded, batched dealing: uniform random deals, constrained deals, and traditional packet dealing.

Every function takes a seed (int or ``SeedSequence``) or a kernel PRNG state; nothing uses global
random state. Batches are ``int64[n_deals, n_players]`` card masks.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from analyzer.cards.deck import FULL_DECK, N_CARDS, N_RANKS, N_SUITS, SUIT_MASKS
from analyzer.cards.masks import cards_of, popcount
from analyzer.cards.rng import LOW32_MASK, bounded, bounded_from, next_u64, state_from_seed
from analyzer.errors import InputError

# Milton Work point count, ace..jack, as weights by rank 0..12 (2..A).
HCP_BY_RANK = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], dtype=np.int64)
ACE_MASK = np.int64(sum(1 << (s * N_RANKS + 12) for s in range(N_SUITS)))
KING_MASK = np.int64(sum(1 << (s * N_RANKS + 11) for s in range(N_SUITS)))
QUEEN_MASK = np.int64(sum(1 << (s * N_RANKS + 10) for s in range(N_SUITS)))
JACK_MASK = np.int64(sum(1 << (s * N_RANKS + 9) for s in range(N_SUITS)))


@njit(cache=True)
def hcp_of(mask):
    """High-card points of a hand: A=4, K=3, Q=2, J=1."""
    return (4 * popcount(mask & ACE_MASK) + 3 * popcount(mask & KING_MASK)
            + 2 * popcount(mask & QUEEN_MASK) + popcount(mask & JACK_MASK))


@njit(cache=True)
def shuffle_into_hands(state, cards, n_players, out_row):
    """Shuffle ``cards`` in place (Fisher-Yates) and deal them round the table into ``out_row``.

    Hand sizes are ``len(cards) // n_players``; the leftover cards (if any) stay undealt.
    """
    n = cards.shape[0]
    i = n - 1
    while i > 0:
        # One 64-bit output feeds two swaps.
        word = next_u64(state)
        j = bounded_from(word >> np.uint64(32), i + 1, state)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        i -= 1
        if i > 0:
            j = bounded_from(word & LOW32_MASK, i + 1, state)
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
            i -= 1
    per_hand = n // n_players
    for p in range(n_players):
        mask = np.int64(0)
        for i in range(p * per_hand, (p + 1) * per_hand):
            mask |= np.int64(1) << cards[i]
        out_row[p] = mask


@njit(cache=True)
def deal_random_kernel(state, deck_cards, n_players, out):
    """Fill ``out[n_deals, n_players]`` with uniform random deals of ``deck_cards``."""
    cards = deck_cards.copy()
    for d in range(out.shape[0]):
        shuffle_into_hands(state, cards, n_players, out[d])


def deal_random(n_deals: int, seed, n_players: int = 4, deck: int = FULL_DECK) -> np.ndarray:
    """Deal ``n_deals`` uniform random deals.

    Parameters
    ----------
    n_deals : int
        Number of deals (>= 0).
    seed : int or numpy.random.SeedSequence
        Seed; the same seed gives the same deals.
    n_players : int
        Players; each gets ``popcount(deck) // n_players`` cards.
    deck : int
        Mask of the cards in play (default: all 52).

    Returns
    -------
    numpy.ndarray
        ``int64[n_deals, n_players]`` hand masks.
    """
    if n_deals < 0:
        raise InputError(f"number of deals must be >= 0, got {n_deals}")
    if not 1 <= n_players <= 8:
        raise InputError(f"players must be 1..8, got {n_players}")
    out = np.zeros((n_deals, n_players), dtype=np.int64)
    deal_random_kernel(state_from_seed(seed), np.array(cards_of(deck), dtype=np.int64), n_players, out)
    return out


@dataclass
class SeatConstraint:
    """What one seat's hand must satisfy. Bounds are inclusive."""

    fixed: int = 0
    hcp: tuple[int, int] = (0, 37)
    aces: tuple[int, int] = (0, 4)
    suit_lengths: list[tuple[int, int]] = field(default_factory=lambda: [(0, 13)] * 4)

    def is_trivial(self) -> bool:
        """True when the seat constrains nothing beyond its fixed cards."""
        return self.hcp == (0, 37) and self.aces == (0, 4) and all(b == (0, 13) for b in self.suit_lengths)


@njit(cache=True)
def _hand_ok(mask, hcp_lo, hcp_hi, aces_lo, aces_hi, len_lo, len_hi):
    hcp = hcp_of(mask)
    if hcp < hcp_lo or hcp > hcp_hi:
        return False
    aces = popcount(mask & ACE_MASK)
    if aces < aces_lo or aces > aces_hi:
        return False
    for s in range(4):
        length = popcount(mask & SUIT_MASKS[s])
        if length < len_lo[s] or length > len_hi[s]:
            return False
    return True


@njit(cache=True)
def deal_constrained_kernel(state, fixed, free_cards, need, bounds, len_bounds, max_tries, out):
    """Rejection-sample deals honouring fixed cards and per-seat bounds.

    ``bounds[p] = (hcp_lo, hcp_hi, aces_lo, aces_hi)``, ``len_bounds[p, 0|1, suit]``. Fills rows of
    ``out`` in order and returns ``(rows filled, tries used)``; stops early when ``max_tries`` run out.
    """
    cards = free_cards.copy()
    n_free = cards.shape[0]
    filled = 0
    tries = 0
    while filled < out.shape[0] and tries < max_tries:
        tries += 1
        for i in range(n_free - 1, 0, -1):
            j = bounded(state, i + 1)
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
        start = 0
        ok = True
        for p in range(4):
            mask = fixed[p]
            for i in range(start, start + need[p]):
                mask |= np.int64(1) << cards[i]
            start += need[p]
            out[filled, p] = mask
            if not _hand_ok(mask, bounds[p, 0], bounds[p, 1], bounds[p, 2], bounds[p, 3],
                            len_bounds[p, 0], len_bounds[p, 1]):
                ok = False
                break
        if ok:
            filled += 1
    return filled, tries


def deal_constrained(n_deals: int, seed, seats: list[SeatConstraint], max_tries_per_deal: int = 20_000) -> np.ndarray:
    """Deal 4-hand deals of 13 cards that honour per-seat constraints.

    Parameters
    ----------
    n_deals : int
        Number of deals wanted.
    seed : int or numpy.random.SeedSequence
        Seed.
    seats : list of SeatConstraint
        Four constraints, seats N E S W.
    max_tries_per_deal : int
        Rejection budget per requested deal; when it runs out the constraints are reported as too
        restrictive instead of looping forever.

    Returns
    -------
    numpy.ndarray
        ``int64[n_deals, 4]`` hand masks.

    Raises
    ------
    InputError
        If the constraints contradict each other or almost never hold.
    """
    if n_deals < 0:
        raise InputError(f"number of deals must be >= 0, got {n_deals}")
    if len(seats) != 4:
        raise InputError("constrained dealing needs exactly four seat constraints")
    fixed = np.zeros(4, dtype=np.int64)
    used = 0
    for p, seat in enumerate(seats):
        if used & seat.fixed:
            raise InputError("a fixed card is given to two seats")
        used |= seat.fixed
        fixed[p] = seat.fixed
        _check_feasible(p, seat)
    need = np.array([13 - len(cards_of(m)) for m in fixed], dtype=np.int64)
    bounds = np.array([[*s.hcp, *s.aces] for s in seats], dtype=np.int64)
    len_bounds = np.array([[[b[0] for b in s.suit_lengths], [b[1] for b in s.suit_lengths]] for s in seats],
                          dtype=np.int64)
    free = np.array(cards_of(FULL_DECK & ~used), dtype=np.int64)
    out = np.zeros((n_deals, 4), dtype=np.int64)
    filled, tries = deal_constrained_kernel(state_from_seed(seed), fixed, free, need, bounds, len_bounds,
                                            max(1, n_deals) * max_tries_per_deal, out)
    if filled < n_deals:
        raise InputError(f"constraints too restrictive: only {filled} of {n_deals} deals matched in {tries:,} tries")
    return out


def _check_feasible(seat_index: int, seat: SeatConstraint) -> None:
    """Reject constraints that no hand can meet, before any sampling."""
    from analyzer.cards.pbn import SEAT_LETTERS

    name = SEAT_LETTERS[seat_index]
    fixed_cards = cards_of(seat.fixed)
    if len(fixed_cards) > 13:
        raise InputError(f"seat {name} has {len(fixed_cards)} fixed cards; a hand holds 13")
    lows = [lo for lo, _ in seat.suit_lengths]
    highs = [hi for _, hi in seat.suit_lengths]
    checks = [
        (seat.hcp[0] <= seat.hcp[1] and seat.hcp[0] <= 37 and seat.hcp[1] >= 0, "HCP range is empty"),
        (seat.aces[0] <= seat.aces[1] and seat.aces[0] <= 4 and seat.aces[1] >= 0, "aces range is empty"),
        (all(lo <= hi for lo, hi in seat.suit_lengths), "a suit-length range is empty"),
        (sum(lows) <= 13 <= sum(highs), "suit-length ranges cannot add up to 13 cards"),
    ]
    fixed_lengths = [sum(1 for c in fixed_cards if c // N_RANKS == s) for s in range(N_SUITS)]
    fixed_hcp = sum(int(HCP_BY_RANK[c % N_RANKS]) for c in fixed_cards)
    fixed_aces = sum(1 for c in fixed_cards if c % N_RANKS == 12)
    checks += [
        (all(fl <= hi for fl, hi in zip(fixed_lengths, highs)), "fixed cards exceed a suit-length bound"),
        (fixed_hcp <= seat.hcp[1], "fixed cards exceed the HCP bound"),
        (fixed_aces <= seat.aces[1], "fixed cards exceed the aces bound"),
    ]
    for ok, message in checks:
        if not ok:
            raise InputError(f"impossible constraint for seat {name}: {message}")


@njit(cache=True)
def deal_packets_kernel(pack, cut, first_seat, out_row):
    """Deal a 52-card ``pack`` the traditional way into ``out_row[4]``.

    The pack is cut at ``cut`` (the top ``cut`` cards go to the bottom), then dealt from the top in
    packets of 6 to each seat starting at ``first_seat`` (left of the dealer), then packets of 7.
    """
    for p in range(4):
        out_row[p] = 0
    position = 0
    for packet in (6, 7):
        for offset in range(4):
            seat = (first_seat + offset) % 4
            for _ in range(packet):
                out_row[seat] |= np.int64(1) << pack[(cut + position) % N_CARDS]
                position += 1
