"""Seeded, batched dealing: uniform random deals, constrained deals, and traditional packet dealing.

Every function takes a seed (int or ``SeedSequence``) or a kernel PRNG state; nothing uses global
random state. Batches are ``int64[n_deals, n_players]`` card masks.
"""

from dataclasses import dataclass, field
from math import ceil, comb

import numpy as np
from numba import njit

from analyzer.cards.deck import FULL_DECK, N_CARDS, N_RANKS, N_SUITS, SUIT_MASKS, format_card_list
from analyzer.cards.masks import cards_of, lowest_bit_index, popcount
from analyzer.cards.profiles import COMB, build_profile, counter_spec, draw_hand
from analyzer.cards.rng import LOW32_MASK, bounded_from, next_u64, state_from_seed
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

    def describe(self) -> str:
        """The constraint in words, e.g. ``fixed SA SK, HCP 12-15, 2 aces, 6-13 spades``."""
        parts = [f"fixed {format_card_list(cards_of(self.fixed))}"] if self.fixed else []
        if self.hcp != (0, 37):
            parts.append(f"HCP {_span(self.hcp)}")
        if self.aces != (0, 4):
            parts.append(f"{_span(self.aces)} aces")
        parts += [f"{_span(bounds)} {SUIT_NAMES[s]}" for s, bounds in reversed(list(enumerate(self.suit_lengths)))
                  if bounds != (0, 13)]
        return ", ".join(parts) or "no constraint"


SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _span(bounds: tuple[int, int]) -> str:
    return str(bounds[0]) if bounds[0] == bounds[1] else f"{bounds[0]}-{bounds[1]}"


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
def _cards_into(cards, mask):
    """Write the card ids of ``mask`` into ``cards``, lowest first; return how many."""
    n = 0
    while mask:
        cards[n] = lowest_bit_index(mask)
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True)
def _deal_others(state, cards, n_cards, exact, fixed, need, row):
    """Deal ``cards[:n_cards]`` uniformly to every seat but ``exact``: seat ``p`` gets ``fixed[p]`` and
    ``need[p]`` of them (the needs add up to ``n_cards``), written to ``row[p]``.

    A partial Fisher-Yates shuffle draws the cards of all those seats but the last, in seat order (one
    64-bit output feeds two swaps); the last seat takes what is left.
    """
    last = 2 if exact == 3 else 3
    limit = n_cards - need[last]
    i = 0
    while i < limit:
        word = next_u64(state)
        j = i + bounded_from(word >> np.uint64(32), n_cards - i, state)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        i += 1
        if i < limit:
            j = i + bounded_from(word & LOW32_MASK, n_cards - i, state)
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
            i += 1
    start = 0
    for p in range(4):
        if p == exact:
            continue
        mask = fixed[p]
        for t in range(start, start + need[p]):
            mask |= np.int64(1) << cards[t]
        start += need[p]
        row[p] = mask


@njit(cache=True)
def deal_constrained_kernel(state, exact, profile, fixed, need, free, checked, bounds, len_bounds, max_tries, out):
    """Fill ``out[n_deals, 4]`` with deals meeting every seat's constraint; return ``(rows filled, tries)``.

    Each try draws seat ``exact``'s hand exactly (``draw_hand`` of its ``profile``; ``exact = -1``: no
    such seat), deals the other free cards uniformly, and is kept if every seat with ``checked[p]``
    meets ``bounds[p] = (hcp lo, hcp hi, aces lo, aces hi)`` and ``len_bounds[p, 0|1, suit]``. A
    rejected try is redrawn whole, the exact seat's hand included. Stops early when ``max_tries`` run out.
    """
    cards = np.empty(N_CARDS, dtype=np.int64)
    n_cards = _cards_into(cards, free)
    filled = 0
    tries = 0
    while filled < out.shape[0] and tries < max_tries:
        tries += 1
        row = out[filled]
        if exact >= 0:
            hand = draw_hand(state, profile)
            row[exact] = fixed[exact] | hand
            n_cards = _cards_into(cards, free & ~hand)
        _deal_others(state, cards, n_cards, exact, fixed, need, row)
        ok = True
        for p in range(4):
            if checked[p] and not _hand_ok(row[p], bounds[p, 0], bounds[p, 1], bounds[p, 2], bounds[p, 3],
                                           len_bounds[p, 0], len_bounds[p, 1]):
                ok = False
                break
        if ok:
            filled += 1
    return filled, tries


@njit(cache=True)
def acceptance_kernel(state, profile, fixed, need, free, order, specs, len_bounds, n_samples):
    """Estimate the acceptance of ``deal_constrained_kernel``: the chance that the seats in ``order`` all
    meet their constraints once the exact seat's hand is drawn from ``profile``. Returns the sum of the
    weights of ``n_samples`` draws.

    Sequential importance sampling: draw the exact seat's hand; for each seat ``q`` in ``order``, the
    weight gains the exact chance that a uniform hand for ``q`` from the cards left meets ``q``'s
    constraint (a ``build_profile`` count), and ``q`` takes a hand drawn exactly among those that do.
    The mean weight is an unbiased estimate of the acceptance; every weight is zero when no draw of
    the earlier seats leaves the later ones a valid hand.
    """
    total = 0.0
    for _ in range(n_samples):
        taken = draw_hand(state, profile)
        weight = 1.0
        for i in range(order.shape[0]):
            q = order[i]
            avail = free & ~taken
            count, seat_profile = build_profile(avail, fixed[q], need[q], len_bounds[q, 0], len_bounds[q, 1],
                                                specs[q])
            weight *= count / COMB[popcount(avail), need[q]]
            if count == 0:
                break
            if i + 1 < order.shape[0]:
                taken |= draw_hand(state, seat_profile)
        total += weight
    return total


# Below this chance per try (each try costs about one free deal) rejection is refused as near-impossible.
MIN_ACCEPTANCE = 1e-7
# Draws of the upfront acceptance estimate, and how far past its expected number of tries a run may go
# before the estimate is taken to have been wrong.
PILOT_SAMPLES = 256
TRY_FACTOR = 10


def _seat_spec(seat: SeatConstraint) -> np.ndarray:
    """The aces and HCP counter specs of ``build_profile`` for a seat, its fixed cards folded in."""
    fixed_cards = cards_of(seat.fixed)
    fixed_aces = sum(1 for c in fixed_cards if c % N_RANKS == 12)
    fixed_hcp = sum(int(HCP_BY_RANK[c % N_RANKS]) for c in fixed_cards)
    return np.array([*counter_spec(*seat.aces, fixed_aces, 4), *counter_spec(*seat.hcp, fixed_hcp, 37)],
                    dtype=np.int64)


def deal_constrained(n_deals: int, seed, seats: list[SeatConstraint],
                     min_acceptance: float = MIN_ACCEPTANCE) -> np.ndarray:
    """Deal 4-hand deals of 13 cards drawn uniformly from those that honour per-seat constraints.

    The deals are exactly uniform over the deals meeting every constraint. Of the seats constraining
    more than their fixed cards, the one whose constraint is rarest (exact count) gets its hand drawn
    exactly: every hand meeting its constraint is counted by suit profile (``analyzer.cards.profiles``)
    and one is picked uniformly by rank, so no constraint of that seat, however rare, costs a retry.
    The remaining free cards go uniformly to the other seats. When further seats are constrained, the
    whole try (the exact seat's hand too) is redrawn until they all hold: each try is then a uniform
    deal among those meeting the exact seat's constraint, so the kept ones are uniform among those
    meeting all. Its acceptance is estimated upfront (``acceptance_kernel``).

    Parameters
    ----------
    n_deals : int
        Number of deals wanted (0 only checks the constraints).
    seed : int or numpy.random.SeedSequence
        Seed; the same seed gives the same deals.
    seats : list of SeatConstraint
        Four constraints, seats N E S W.
    min_acceptance : float
        Smallest estimated chance per try, for seats checked by rejection, that is still attempted.

    Returns
    -------
    numpy.ndarray
        ``int64[n_deals, 4]`` hand masks.

    Raises
    ------
    InputError
        If a seat's constraint can hold for no hand, if the seats' constraints together hold in less
        than ``min_acceptance`` of the tries (estimated), or if a run then takes ``TRY_FACTOR`` times the
        tries that estimate predicts.
    """
    from analyzer.cards.pbn import SEAT_LETTERS

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
    free = np.int64(FULL_DECK & ~used)
    n_free = len(cards_of(int(free)))
    specs = np.array([_seat_spec(s) for s in seats])
    constrained = [p for p, s in enumerate(seats) if not s.is_trivial()]
    profiles, chance = {}, {}
    for p in constrained:
        count, profiles[p] = build_profile(free, fixed[p], need[p], len_bounds[p, 0], len_bounds[p, 1], specs[p])
        if count == 0:
            elsewhere = " with the cards fixed for other seats" if used & ~seats[p].fixed else ""
            raise InputError(f"impossible constraint for seat {SEAT_LETTERS[p]}: no hand meets "
                             f"{seats[p].describe()}{elsewhere}")
        chance[p] = count / comb(n_free, int(need[p]))
    state = state_from_seed(seed)
    exact = min(constrained, key=lambda p: chance[p]) if constrained else -1
    # Without a constrained seat the kernel ignores the profile; any well-typed one will do.
    profile = profiles[exact] if constrained else build_profile(free, fixed[0], need[0], len_bounds[0, 0],
                                                                len_bounds[0, 1], specs[0])[1]
    order = np.array([p for p in constrained if p != exact], dtype=np.int64)
    acceptance = 1.0
    if order.size:
        weights = acceptance_kernel(state, profile, fixed, need, free, order, specs, len_bounds, PILOT_SAMPLES)
        acceptance = weights / PILOT_SAMPLES
        if acceptance <= 0 or acceptance < min_acceptance:
            others = "; ".join(f"{SEAT_LETTERS[q]} {seats[q].describe()}" for q in order)
            how_often = (f"held in none of {PILOT_SAMPLES} trial deals" if acceptance == 0 else
                         f"hold in about {acceptance:.1e} of deals (estimated; below {min_acceptance:.0e} is refused)")
            raise InputError(f"constraints too restrictive: with {SEAT_LETTERS[exact]} {seats[exact].describe()}, "
                             f"the others ({others}) {how_often}")
    checked = np.zeros(4, dtype=np.bool_)
    checked[order] = True
    out = np.zeros((n_deals, 4), dtype=np.int64)
    max_tries = ceil(TRY_FACTOR * (n_deals + 10) / acceptance)
    filled, tries = deal_constrained_kernel(state, exact, profile, fixed, need, free, checked, bounds, len_bounds,
                                            max_tries, out)
    if filled < n_deals:
        raise InputError(f"constraints too restrictive: only {filled} of {n_deals} deals matched in {tries:,} tries "
                         f"(estimated acceptance {acceptance:.1e})")
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
