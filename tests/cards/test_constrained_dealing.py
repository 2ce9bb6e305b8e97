"""Constrained dealing against exact combinatorics: hand counts, conditional distributions, uniformity
over every valid deal of a small case, the acceptance estimate, and the errors."""

from collections import Counter
from itertools import combinations
from math import comb

import numpy as np
import pytest

from analyzer.cards import dealing
from analyzer.cards.dealing import ACE_MASK, SeatConstraint, acceptance_kernel, deal_constrained, hcp_of
from analyzer.cards.deck import FULL_DECK, SUIT_MASKS, parse_card_list
from analyzer.cards.masks import cards_of, mask_of, popcounts
from analyzer.cards.profiles import build_profile, counter_spec, draw_hand
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError

SPADES, HEARTS, DIAMONDS, CLUBS = 3, 2, 1, 0
FREE = [(0, 13)] * 4


def lengths(**bounds) -> list[tuple[int, int]]:
    """Suit-length bounds from keywords ``S``, ``H``, ``D``, ``C``."""
    out = list(FREE)
    for letter, span in bounds.items():
        out["CDHS".index(letter)] = span
    return out


def chi2_critical(df: int, z: float = 3.09) -> float:
    """Upper 99.9% quantile of chi-square (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * np.sqrt(2 / (9 * df))) ** 3


def chi2(observed: Counter, expected: dict, n: int) -> tuple[float, int]:
    """Pearson's statistic of ``observed`` counts against probabilities ``expected`` (bins with an expected
    count under 5 pooled into one), and its degrees of freedom."""
    big = [key for key, p in expected.items() if p * n >= 5]
    stat = sum((observed[key] - n * expected[key]) ** 2 / (n * expected[key]) for key in big)
    rest = 1 - sum(expected[key] for key in big)
    if rest * n >= 1:
        rest_observed = n - sum(observed[key] for key in big)
        stat += (rest_observed - n * rest) ** 2 / (n * rest)
        return stat, len(big)
    assert sum(observed[key] for key in observed if key not in expected) == 0
    return stat, len(big) - 1


def assert_matches(observed: Counter, expected: dict, n: int) -> None:
    stat, df = chi2(observed, expected, n)
    assert stat < chi2_critical(df), (stat, df)


# ---------------------------------------------------------------- an independent count, card by card

def oracle_counts(avail: int, seat: SeatConstraint) -> Counter:
    """Hands of ``13 - |fixed|`` cards from ``avail`` meeting ``seat`` with its fixed cards, by final HCP.

    Card by card, suit by suit: a state is (cards, aces, HCP, length of the current suit); each card is
    taken or left, and a suit's length is checked against its bound when the suit is done.
    """
    fixed = cards_of(seat.fixed)
    need = 13 - len(fixed)
    states = Counter({(0, sum(c % 13 == 12 for c in fixed), sum(max(0, c % 13 - 8) for c in fixed), 0): 1})
    for suit in range(4):
        held = sum(c // 13 == suit for c in fixed)
        started = Counter()
        for (n, a, h, _), w in states.items():
            started[(n, a, h, held)] += w
        states = started
        for card in [c for c in cards_of(avail) if c // 13 == suit]:
            grown = Counter()
            for (n, a, h, length), w in states.items():
                grown[(n, a, h, length)] += w
                if n < need:
                    grown[(n + 1, a + (card % 13 == 12), h + max(0, card % 13 - 8), length + 1)] += w
            states = grown
        low, high = seat.suit_lengths[suit]
        states = Counter({key: w for key, w in states.items() if low <= key[3] <= high})
    by_hcp = Counter()
    for (n, a, h, _), w in states.items():
        if n == need and seat.aces[0] <= a <= seat.aces[1] and seat.hcp[0] <= h <= seat.hcp[1]:
            by_hcp[h] += w
    return by_hcp


def profile_of(avail: int, seat: SeatConstraint):
    fixed = cards_of(seat.fixed)
    aces = sum(c % 13 == 12 for c in fixed)
    hcp = sum(max(0, c % 13 - 8) for c in fixed)
    spec = np.array([*counter_spec(*seat.aces, aces, 4), *counter_spec(*seat.hcp, hcp, 37)], dtype=np.int64)
    bounds = np.array(seat.suit_lengths, dtype=np.int64).T.copy()
    return build_profile(np.int64(avail), np.int64(seat.fixed), 13 - len(fixed), bounds[0], bounds[1], spec)


ELSEWHERE = mask_of(parse_card_list("DA DK C2"))
COUNT_CASES = [
    (FULL_DECK, SeatConstraint(aces=(2, 2), suit_lengths=lengths(S=(6, 13)))),
    (FULL_DECK, SeatConstraint(hcp=(12, 15))),
    (FULL_DECK, SeatConstraint(hcp=(20, 37), aces=(1, 3))),
    (FULL_DECK, SeatConstraint(hcp=(0, 3), aces=(0, 0), suit_lengths=lengths(S=(4, 13), H=(4, 13)))),
    (FULL_DECK, SeatConstraint(hcp=(8, 14), aces=(1, 2), suit_lengths=lengths(S=(3, 5), H=(3, 5), D=(2, 4),
                                                                               C=(2, 4)))),
    (FULL_DECK & ~ELSEWHERE, SeatConstraint(fixed=mask_of(parse_card_list("SA HK")), hcp=(10, 12),
                                            suit_lengths=lengths(H=(2, 4), C=(0, 1)))),
    (FULL_DECK & ~ELSEWHERE, SeatConstraint(aces=(3, 4), suit_lengths=lengths(D=(5, 13)))),
    (FULL_DECK, SeatConstraint(aces=(4, 4), suit_lengths=lengths(C=(0, 0)))),  # the club ace is needed: none
]


@pytest.mark.parametrize(("avail", "seat"), COUNT_CASES)
def test_profile_counts_equal_the_card_by_card_count(avail, seat):
    count, _ = profile_of(avail & ~seat.fixed, seat)
    assert count == sum(oracle_counts(avail & ~seat.fixed, seat).values())


def test_two_aces_six_spades_count_by_hand():
    # Spades L >= 6 holding the spade ace or not; the other aces (2 - that) among the 39 other cards.
    exact = sum(comb(12, L - sa) * comb(3, 2 - sa) * comb(36, 13 - L - (2 - sa)) for L in range(6, 14)
                for sa in (0, 1) if 13 - L - (2 - sa) >= 0)
    count, _ = profile_of(FULL_DECK, COUNT_CASES[0][1])
    assert count == exact == 7_019_965_728


def test_draw_hand_gives_only_valid_hands_of_the_available_cards():
    avail, seat = COUNT_CASES[5]
    avail &= ~seat.fixed
    _, profile = profile_of(avail, seat)
    state = state_from_seed(3)
    for _ in range(2_000):
        hand = int(draw_hand(state, profile))
        assert hand & ~avail == 0 and bin(hand).count("1") == 11
        full = hand | seat.fixed
        lengths_ = [bin(full & int(m)).count("1") for m in SUIT_MASKS]
        assert 10 <= hcp_of(full) <= 12 and 2 <= lengths_[HEARTS] <= 4 and lengths_[CLUBS] <= 1


# ---------------------------------------------------------------- conditional distributions

def suit_counts(hands: np.ndarray, suit: int) -> np.ndarray:
    return popcounts(hands & SUIT_MASKS[suit])


def test_hearts_given_two_aces_and_six_spades():
    # P(k hearts | exactly 2 aces, >= 6 spades): L spades (sa of them the ace), k hearts (ha the ace),
    # the rest from the 26 minor cards holding the remaining 2 - sa - ha aces.
    ways = Counter()
    for L in range(6, 14):
        for k in range(0, 14 - L):
            for sa in (0, 1):
                for ha in (0, 1):
                    minor_aces, minors = 2 - sa - ha, 13 - L - k
                    if 0 <= minor_aces <= minors and k >= ha:
                        ways[k] += (comb(12, L - sa) * comb(12, k - ha) * comb(2, minor_aces)
                                    * comb(24, minors - minor_aces))
    total = sum(ways.values())
    assert total == 7_019_965_728
    n = 100_000
    deals = deal_constrained(n, 2026, [SeatConstraint(aces=(2, 2), suit_lengths=lengths(S=(6, 13)))]
                             + [SeatConstraint()] * 3)
    assert (popcounts(deals[:, 0] & ACE_MASK) == 2).all() and (suit_counts(deals[:, 0], SPADES) >= 6).all()
    assert_matches(Counter(suit_counts(deals[:, 0], HEARTS).tolist()), {k: w / total for k, w in ways.items()}, n)


def test_other_seats_are_uniform_given_the_constrained_hand():
    # Given North's L spades (and its 2 aces), East's 13 cards are a uniform 13 of the other 39, which
    # hold 13 - L spades: P(j | L) is hypergeometric. P(L) comes from the same count as above.
    p_length = {L: sum(comb(12, L - sa) * comb(3, 2 - sa) * comb(36, 13 - L - (2 - sa)) for sa in (0, 1)
                       if 13 - L - (2 - sa) >= 0) / 7_019_965_728 for L in range(6, 14)}
    expected = {(L, j): p_length[L] * comb(13 - L, j) * comb(26 + L, 13 - j) / comb(39, 13)
                for L in range(6, 14) for j in range(0, 14 - L)}
    n = 100_000
    deals = deal_constrained(n, 77, [SeatConstraint(aces=(2, 2), suit_lengths=lengths(S=(6, 13)))]
                             + [SeatConstraint()] * 3)
    observed = Counter(zip(suit_counts(deals[:, 0], SPADES).tolist(), suit_counts(deals[:, 1], SPADES).tolist()))
    assert_matches(observed, expected, n)
    # West, dealt last, gets what is left: its aces are the 2 North lacks, spread hypergeometrically.
    west_aces = Counter(popcounts(deals[:, 3] & ACE_MASK).tolist())
    assert_matches(west_aces, {a: comb(2, a) * comb(37, 13 - a) / comb(39, 13) for a in range(3)}, n)


def test_hcp_range_distribution():
    counts = oracle_counts(FULL_DECK, SeatConstraint(hcp=(12, 15)))
    total = sum(counts.values())
    n = 60_000
    deals = deal_constrained(n, 5, [SeatConstraint(), SeatConstraint(), SeatConstraint(hcp=(12, 15)),
                                    SeatConstraint()])
    observed = Counter(int(hcp_of(h)) for h in deals[:, 2])
    assert_matches(observed, {h: w / total for h, w in counts.items()}, n)


def spades_given_both(north_low: int, south_low: int) -> dict[int, float]:
    """P(North holds L spades | North >= north_low, South >= south_low spades), exactly."""
    def south_ok(L):
        return sum(comb(13 - L, j) * comb(26 + L, 13 - j) for j in range(south_low, 14 - L)) / comb(39, 13)
    weight = {L: comb(13, L) * comb(39, 13 - L) * south_ok(L) for L in range(north_low, 14)}
    total = sum(weight.values())
    return {L: w / total for L, w in weight.items()}


def test_two_constrained_seats_are_exact_not_sequential():
    # North (rarer: >= 6 spades) is drawn exactly, South (>= 4 spades) by rejection. Redrawing only South
    # would leave North at P(L | L >= 6); the whole-deal redraw weights it by P(South >= 4 | L).
    seats = [SeatConstraint(suit_lengths=lengths(S=(6, 13))), SeatConstraint(),
             SeatConstraint(suit_lengths=lengths(S=(4, 13))), SeatConstraint()]
    n = 60_000
    deals = deal_constrained(n, 11, seats)
    assert (suit_counts(deals[:, 2], SPADES) >= 4).all()
    observed = Counter(suit_counts(deals[:, 0], SPADES).tolist())
    assert_matches(observed, spades_given_both(6, 4), n)
    sequential = spades_given_both(6, 0)
    stat, df = chi2(observed, sequential, n)
    assert stat > 10 * chi2_critical(df)


def test_a_fixed_card_counts_toward_the_seat_constraint():
    # North holds SA and exactly 2 aces: the second is each of the other three with chance 1/3.
    seats = [SeatConstraint(fixed=mask_of(parse_card_list("SA")), aces=(2, 2))] + [SeatConstraint()] * 3
    n = 30_000
    deals = deal_constrained(n, 8, seats)
    assert ((deals[:, 0] & seats[0].fixed) == seats[0].fixed).all()
    assert (popcounts(deals[:, 0] & ACE_MASK) == 2).all()
    heart_ace = int(((deals[:, 0] >> (2 * 13 + 12)) & 1).sum())
    assert abs(heart_ace - n / 3) < 4 * np.sqrt(n * (1 / 3) * (2 / 3))


def test_every_valid_deal_of_a_small_case_is_equally_likely():
    # 43 cards fixed: North draws 3 of the 9 free cards, East, South and West 2 each. North must reach
    # 1-2 aces and 4+ HCP (drawn exactly), East must hold a heart (rejection).
    free = mask_of(parse_card_list("SA SK S2 HA HQ H3 DJ D4 C5"))
    rest = cards_of(FULL_DECK & ~free)
    fixed = [mask_of(rest[:10]), mask_of(rest[10:21]), mask_of(rest[21:32]), mask_of(rest[32:])]
    seats = [SeatConstraint(fixed=fixed[0], aces=(1, 2), hcp=(4, 37)),
             SeatConstraint(fixed=fixed[1], suit_lengths=lengths(H=(1, 13))),
             SeatConstraint(fixed=fixed[2]), SeatConstraint(fixed=fixed[3])]
    free_cards = cards_of(free)
    valid = []
    for north in combinations(free_cards, 3):
        left = [c for c in free_cards if c not in north]
        for east in combinations(left, 2):
            after = [c for c in left if c not in east]
            for south in combinations(after, 2):
                west = tuple(c for c in after if c not in south)
                hands = [fixed[0] | mask_of(north), fixed[1] | mask_of(east), fixed[2] | mask_of(south),
                         fixed[3] | mask_of(west)]
                north_aces = bin(hands[0] & int(ACE_MASK)).count("1")
                if 1 <= north_aces <= 2 and hcp_of(hands[0]) >= 4 and hands[1] & int(SUIT_MASKS[HEARTS]):
                    valid.append(tuple(hands))
    assert len(valid) == len(set(valid)) > 500
    n = 40 * len(valid)
    deals = deal_constrained(n, 2024, seats)
    observed = Counter(map(tuple, deals.tolist()))
    assert set(observed) <= set(valid)
    assert_matches(observed, {deal: 1 / len(valid) for deal in valid}, n)


# ---------------------------------------------------------------- the acceptance estimate and errors

def test_acceptance_estimate_is_exact_when_every_draw_weighs_the_same():
    # Any North hand with exactly 2 aces leaves 2 aces among 39 cards: South gets one with chance
    # 1 - C(37, 13) / C(39, 13), whatever North's other cards.
    north = SeatConstraint(aces=(2, 2), suit_lengths=lengths(S=(6, 13)))
    _, profile = profile_of(FULL_DECK, north)
    south_spec = np.array([*counter_spec(1, 4, 0, 4), 1, 0, 1], dtype=np.int64)
    specs = np.array([[1, 0, 1, 1, 0, 1], [1, 0, 1, 1, 0, 1], south_spec, [1, 0, 1, 1, 0, 1]], dtype=np.int64)
    len_bounds = np.array([[[0] * 4, [13] * 4]] * 4, dtype=np.int64)
    weights = acceptance_kernel(state_from_seed(1), profile, np.zeros(4, dtype=np.int64),
                                np.full(4, 13, dtype=np.int64), np.int64(FULL_DECK), np.array([2]), specs,
                                len_bounds, 100)
    assert weights / 100 == pytest.approx(1 - comb(37, 13) / comb(39, 13), rel=1e-12)


def test_acceptance_estimate_is_close_when_draws_differ():
    # North >= 6 spades, South >= 4: the acceptance is P(South >= 4 | North >= 6), a weighted mean of
    # hypergeometric tails.
    weight = {L: comb(13, L) * comb(39, 13 - L) for L in range(6, 14)}
    exact = sum(w * sum(comb(13 - L, j) * comb(26 + L, 13 - j) for j in range(4, 14 - L)) / comb(39, 13)
                for L, w in weight.items()) / sum(weight.values())
    _, profile = profile_of(FULL_DECK, SeatConstraint(suit_lengths=lengths(S=(6, 13))))
    specs = np.array([[1, 0, 1, 1, 0, 1]] * 4, dtype=np.int64)
    len_bounds = np.array([[[0] * 4, [13] * 4]] * 4, dtype=np.int64)
    len_bounds[2, 0, SPADES] = 4
    n = 4_000
    weights = acceptance_kernel(state_from_seed(9), profile, np.zeros(4, dtype=np.int64),
                                np.full(4, 13, dtype=np.int64), np.int64(FULL_DECK), np.array([2]), specs,
                                len_bounds, n)
    # Each weight lies in [0, 1]: the mean is within 4 / (2 sqrt(n)) of its expectation with room to spare.
    assert abs(weights / n - exact) < 2 / np.sqrt(n)


def test_no_hand_meets_the_constraint_names_the_seat_and_constraint():
    seats = [SeatConstraint(), SeatConstraint(aces=(4, 4), suit_lengths=lengths(C=(0, 0))), SeatConstraint(),
             SeatConstraint()]
    with pytest.raises(InputError, match="impossible constraint for seat E: no hand meets 4 aces, 0 clubs$"):
        deal_constrained(1, 0, seats)
    seats = [SeatConstraint(suit_lengths=lengths(S=(13, 13))), SeatConstraint(fixed=mask_of(parse_card_list("S2"))),
             SeatConstraint(), SeatConstraint()]
    with pytest.raises(InputError, match="seat N: no hand meets 13 spades with the cards fixed for other seats"):
        deal_constrained(1, 0, seats)


def test_seats_that_cannot_all_hold_are_refused_upfront():
    seats = [SeatConstraint(aces=(4, 4)), SeatConstraint(), SeatConstraint(aces=(1, 4)), SeatConstraint()]
    with pytest.raises(InputError, match=r"with N 4 aces, the others \(S 1-4 aces\) held in none of 256 trial"):
        deal_constrained(1, 0, seats)


def test_rare_acceptance_is_refused_below_the_threshold():
    # About 0.56 of tries pass (1 - C(37, 13) / C(39, 13)); refused when at least 0.6 is asked for.
    seats = [SeatConstraint(aces=(2, 2)), SeatConstraint(), SeatConstraint(aces=(1, 4)), SeatConstraint()]
    with pytest.raises(InputError, match=r"hold in about 5\.6e-01 of deals \(estimated; below 6e-01 is refused\)"):
        deal_constrained(1, 0, seats, min_acceptance=0.6)
    assert deal_constrained(5, 0, seats, min_acceptance=0.5).shape == (5, 4)


def test_a_run_far_beyond_its_estimate_stops_with_an_error(monkeypatch):
    monkeypatch.setattr(dealing, "TRY_FACTOR", 1e-6)
    seats = [SeatConstraint(aces=(2, 2)), SeatConstraint(), SeatConstraint(aces=(1, 4)), SeatConstraint()]
    with pytest.raises(InputError, match=r"only \d+ of 100 deals matched in 1 tries \(estimated acceptance 5\.6e-01\)"):
        deal_constrained(100, 0, seats)


def test_same_seed_same_constrained_deals():
    seats = [SeatConstraint(hcp=(15, 17)), SeatConstraint(), SeatConstraint(suit_lengths=lengths(H=(5, 13))),
             SeatConstraint()]
    first = deal_constrained(200, 42, seats)
    assert (first == deal_constrained(200, 42, seats)).all()
    assert (first == deal_constrained(200, np.random.SeedSequence(42), seats)).all()
    assert not (first == deal_constrained(200, 43, seats)).all()
