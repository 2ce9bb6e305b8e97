"""Dealing: Fisher-Yates twins draw for draw, independent deals, exact suit-pattern probabilities, constraints."""

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb

import numpy as np
import pytest
from reference_rng import MASK32, Xoshiro256StarStar, lemire

from analyzer.cards.dealing import (
    SeatConstraint,
    deal_constrained,
    deal_packets_kernel,
    deal_random,
    deal_random_kernel,
    hcp_of,
    shuffle_into_hands,
)
from analyzer.cards.deck import FULL_DECK, SUIT_MASKS
from analyzer.cards.masks import cards_of, popcounts
from analyzer.cards.pbn import parse_hand
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError


def exact_pattern_probabilities() -> dict[tuple, float]:
    """P(pattern) = (#suit assignments) * prod C(13, l) / C(52, 13), pattern sorted longest first."""
    probabilities = {}
    for a in range(14):
        for b in range(a + 1):
            for c in range(b + 1):
                d = 13 - a - b - c
                if 0 <= d <= c:
                    assignments = len(set(permutations((a, b, c, d))))
                    ways = comb(13, a) * comb(13, b) * comb(13, c) * comb(13, d)
                    probabilities[(a, b, c, d)] = assignments * ways / comb(52, 13)
    return probabilities


def chi2_critical(df: int, z: float = 3.09) -> float:
    """Upper quantile of chi-square (Wilson-Hilferty); z = 3.09 is the 99.9% normal quantile."""
    return df * (1 - 2 / (9 * df) + z * np.sqrt(2 / (9 * df))) ** 3


def test_known_pattern_probability():
    # 4-4-3-2 is 21.55% (standard bridge tables).
    assert exact_pattern_probabilities()[(4, 4, 3, 2)] == pytest.approx(0.2155, abs=5e-5)


def test_suit_patterns_match_exact_probabilities():
    deals = deal_random(40_000, seed=2026)
    lengths = popcounts(deals[:, :, None] & SUIT_MASKS[None, None, :]).reshape(-1, 4)
    observed = Counter(tuple(sorted(row, reverse=True)) for row in lengths.tolist())
    expected = exact_pattern_probabilities()
    n = lengths.shape[0]
    big = [p for p, q in expected.items() if q * n >= 5]
    rest_expected = n * (1 - sum(expected[p] for p in big))
    rest_observed = n - sum(observed[p] for p in big)
    chi2 = sum((observed[p] - n * expected[p]) ** 2 / (n * expected[p]) for p in big)
    chi2 += (rest_observed - rest_expected) ** 2 / rest_expected
    assert chi2 < chi2_critical(len(big))


def test_every_deal_is_a_partition_of_the_deck():
    deals = deal_random(2_000, seed=7)
    assert (popcounts(deals) == 13).all()
    union = np.bitwise_or.reduce(deals, axis=1)
    assert (union == FULL_DECK).all()
    assert (deals[:, 0] & deals[:, 1] & deals[:, 2] & deals[:, 3] == 0).all()
    pairwise = [(deals[:, i] & deals[:, j]) for i in range(4) for j in range(i + 1, 4)]
    assert all((p == 0).all() for p in pairwise)


def test_each_card_lands_in_each_seat_uniformly():
    deals = deal_random(8_000, seed=11)
    holds = np.array([[(deals[:, seat] >> card) & 1 for card in range(52)] for seat in range(4)]).sum(axis=2)
    # Each count is Binomial(8000, 1/4): mean 2000, sd ~38.7; 5 sd covers all 208 counts.
    assert np.abs(holds - 2000).max() < 5 * np.sqrt(8000 * 0.25 * 0.75)


def test_same_seed_same_deals_and_different_seed_differs():
    assert (deal_random(50, seed=3) == deal_random(50, seed=3)).all()
    assert not (deal_random(50, seed=3) == deal_random(50, seed=4)).all()


def test_constraints_are_honoured():
    north = parse_hand("AKQ2.T93..J8765")  # 12 cards: the 13th is dealt at random
    seats = [SeatConstraint(fixed=north), SeatConstraint(hcp=(15, 20)), SeatConstraint(aces=(2, 4)),
             SeatConstraint(suit_lengths=[(0, 13), (5, 13), (0, 13), (0, 13)])]
    deals = deal_constrained(300, seed=5, seats=seats)
    assert (deals[:, 0] & north == north).all()
    assert all(15 <= hcp_of(h) <= 20 for h in deals[:, 1])
    aces = [sum(1 for c in cards_of(h) if c % 13 == 12) for h in deals[:, 2]]
    assert min(aces) >= 2
    diamonds = popcounts(deals[:, 3] & SUIT_MASKS[1])
    assert (diamonds >= 5).all()
    assert (popcounts(deals) == 13).all()
    assert (np.bitwise_or.reduce(deals, axis=1) == FULL_DECK).all()


def test_hcp_counts_honours():
    assert hcp_of(parse_hand("AKQJ.AKQ.AKQ.AKQ")) == 16 + 12 + 8 + 1
    assert hcp_of(parse_hand("T98.T98.T987.T98")) == 0


@pytest.mark.parametrize("seats, message", [
    ([SeatConstraint(hcp=(38, 40))] + [SeatConstraint()] * 3, "HCP"),
    ([SeatConstraint(suit_lengths=[(5, 13)] * 4)] + [SeatConstraint()] * 3, "suit-length"),
    ([SeatConstraint(fixed=parse_hand("A...")), SeatConstraint(fixed=parse_hand("A..."))] + [SeatConstraint()] * 2,
     "two seats"),
])
def test_impossible_constraints_fail_fast(seats, message):
    with pytest.raises(InputError, match=message):
        deal_constrained(1, seed=0, seats=seats)


def test_too_rare_constraint_gives_error_not_hang():
    # Each seat's HCP range is feasible alone, but all four at 17+ need 68 of the deck's 40 points.
    seats = [SeatConstraint(hcp=(17, 37)) for _ in range(4)]
    with pytest.raises(InputError, match="too restrictive"):
        deal_constrained(1, seed=0, seats=seats)


def test_packets_deal_six_then_seven_from_the_cut():
    pack = np.arange(52, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    deal_packets_kernel(pack, 10, 1, out)
    # After cutting 10 cards, the pack reads 10..51, 0..9: seat 1 gets the first 6 (10..15),
    # seat 2 the next 6, then seats 3, 0; the second round gives packets of 7 in the same order.
    expected = {1: list(range(10, 16)) + list(range(34, 41)), 2: list(range(16, 22)) + list(range(41, 48)),
                3: list(range(22, 28)) + [48, 49, 50, 51, 0, 1, 2], 0: list(range(28, 34)) + list(range(3, 10))}
    for seat, cards in expected.items():
        assert cards_of(out[seat]) == sorted(cards)


# ---------------------------------------------------------------- Fisher-Yates twins

def fisher_yates(items: list, draw32, redraw32) -> None:
    """Durstenfeld's shuffle in place: for i = n-1 down to 1, swap items[i] with items[j], j uniform in [0, i].

    ``j`` is Lemire's bounded map of the 32-bit value ``draw32()``; a rejected value is replaced by ``redraw32()``.
    """
    for i in range(len(items) - 1, 0, -1):
        j = lemire(i + 1, draw32(), redraw32)
        items[i], items[j] = items[j], items[i]


def halves(generator: Xoshiro256StarStar):
    """32-bit draws two per 64-bit output, high half first, for one shuffle (the last low half may go unused)."""
    pending = []

    def draw() -> int:
        if not pending:
            word = generator.next()
            pending.extend([word >> 32, word & MASK32])
        return pending.pop(0)
    return draw


def blocks(cards: list[int], n_players: int) -> list[int]:
    """Seat ``p`` takes the ``p``-th block of ``len(cards) // n_players`` cards; the rest stay undealt."""
    size = len(cards) // n_players
    return [sum(1 << c for c in cards[p * size:(p + 1) * size]) for p in range(n_players)]


def twin_deal_random(generator: Xoshiro256StarStar, n_deals: int, n_players: int, deck: int) -> list[list[int]]:
    """``deal_random`` in plain Python: one deck, reshuffled for each deal (not reset) and dealt in blocks."""
    cards = cards_of(deck)
    deals = []
    for _ in range(n_deals):
        fisher_yates(cards, halves(generator), generator.next32)
        deals.append(blocks(cards, n_players))
    return deals


SCHNAPSEN_DECK = sum(1 << (s * 13 + r) for s in range(4) for r in range(8, 13))  # T J Q K A


@pytest.mark.parametrize(("n_deals", "seed", "n_players", "deck"), [
    (300, 0, 4, FULL_DECK), (60, 2026, 3, FULL_DECK), (60, 7, 5, FULL_DECK), (20, 9, 1, FULL_DECK),
    (100, 11, 2, SCHNAPSEN_DECK), (60, 13, 2, FULL_DECK & ~1),  # 51 cards: an even number of swaps
])
def test_deal_random_equals_the_python_fisher_yates(n_deals, seed, n_players, deck):
    twin = twin_deal_random(Xoshiro256StarStar(state_from_seed(seed)), n_deals, n_players, deck)
    assert deal_random(n_deals, seed, n_players, deck).tolist() == twin


def test_rejected_draws_are_redrawn_like_the_twin():
    # s1 = 0 and s2 = s0 make the first two outputs 0. x = 0 is rejected by Lemire for every bound that
    # does not divide 2**32: the first swap (j in [0, 51]) rejects output 1's high half and output 2's,
    # the second swap (j in [0, 50]) rejects output 1's low half.
    words = [0x9E3779B97F4A7C15, 0, 0x9E3779B97F4A7C15, 0x123456789]
    probe = Xoshiro256StarStar(words)
    assert [probe.next(), probe.next()] == [0, 0] and probe.next() != 0
    out = np.zeros((3, 4), dtype=np.int64)
    deal_random_kernel(np.array(words, dtype=np.uint64), np.arange(52, dtype=np.int64), 4, out)
    assert out.tolist() == twin_deal_random(Xoshiro256StarStar(words), 3, 4, FULL_DECK)


def test_shuffle_into_hands_shuffles_its_array_like_the_twin():
    state = state_from_seed(31)
    generator = Xoshiro256StarStar(state)
    cards = np.arange(52, dtype=np.int64)
    twin_cards = list(range(52))
    row = np.zeros(3, dtype=np.int64)
    for _ in range(50):
        shuffle_into_hands(state, cards, 3, row)
        fisher_yates(twin_cards, halves(generator), generator.next32)
        assert cards.tolist() == twin_cards and row.tolist() == blocks(twin_cards, 3)
    assert [int(x) for x in state] == generator.s


def twin_deal_fixed(n_deals: int, seed: int, seats: list[SeatConstraint]) -> list[list[int]]:
    """``deal_constrained`` with fixed cards only, in plain Python: the free cards (lowest first, then kept
    in their shuffled order) get a partial Fisher-Yates shuffle over all but the last seat's share, two
    draws per 64-bit output; each seat then takes its fixed cards and the next block."""
    generator = Xoshiro256StarStar(state_from_seed(seed))
    free = cards_of(FULL_DECK & ~sum(seat.fixed for seat in seats))
    need = [13 - len(cards_of(seat.fixed)) for seat in seats]
    deals = []
    for _ in range(n_deals):
        draw = halves(generator)
        for i in range(len(free) - need[3]):
            j = i + lemire(len(free) - i, draw(), generator.next32)
            free[i], free[j] = free[j], free[i]
        hands, start = [], 0
        for seat, count in zip(seats, need):
            hands.append(seat.fixed | sum(1 << c for c in free[start:start + count]))
            start += count
        deals.append(hands)
    return deals


@pytest.mark.parametrize(("n_deals", "seed", "seats"), [
    (100, 3, [SeatConstraint()] * 4),
    (50, 5, [SeatConstraint(fixed=parse_hand("AKQ2.T93..J8765")), SeatConstraint(), SeatConstraint(),
             SeatConstraint(fixed=parse_hand("J..AK.2"))]),
    # West's share is empty: the shuffle covers every free card.
    (50, 8, [SeatConstraint(fixed=parse_hand("T9..32.")), SeatConstraint(), SeatConstraint(),
             SeatConstraint(fixed=parse_hand("AKQJ.AKQJ.AKQJ.A"))]),
])
def test_deal_constrained_with_fixed_cards_equals_the_python_twin(n_deals, seed, seats):
    assert deal_constrained(n_deals, seed, seats).tolist() == twin_deal_fixed(n_deals, seed, seats)


# ---------------------------------------------------------------- independence of consecutive deals

def same_seat_moments(n: int = 52, size: int = 13) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of the number of cards keeping their seat under a uniform permutation.

    Seats hold blocks of ``size`` of the ``n`` positions. One card stays in its block with probability
    size / n; two cards of one block both stay with (size / n) (size - 1) / (n - 1), two cards of
    different blocks with (size / n) size / (n - 1).
    """
    mean = n * Fraction(size, n)
    pairs = (n * (size - 1) * Fraction(size, n) * Fraction(size - 1, n - 1)
             + n * (n - size) * Fraction(size, n) * Fraction(size, n - 1))
    return mean, mean + pairs - mean ** 2


def test_same_seat_moments_by_hand():
    # 52 cards, seats of 13: mean 13; variance 13 + 13 * 144 / 51 + 169 * 39 / 51 - 169 = 507 / 51.
    assert same_seat_moments() == (13, Fraction(507, 51))


@pytest.mark.parametrize("deal", [
    lambda n: deal_random(n, seed=404),
    lambda n: deal_constrained(n, seed=404, seats=[SeatConstraint()] * 4),  # every try is kept
], ids=["random", "constrained"])
def test_a_card_keeps_its_seat_in_the_next_deal_a_quarter_of_the_time(deal):
    # Each deal reshuffles the previous one; with a uniform shuffle the pairs of consecutive deals are
    # independent and a card stays in its seat with probability 13/52. Sattolo's variant (j in [0, i))
    # moves every card, giving 12/51: 15 standard deviations lower over 4,000 pairs.
    pairs = 4_000
    deals = deal(pairs + 1)
    kept = int(popcounts(deals[1:] & deals[:-1]).sum())
    mean, variance = same_seat_moments()
    assert abs(kept - pairs * mean) < 4 * np.sqrt(pairs * float(variance))


def test_a_card_keeps_its_position_once_per_shuffle_on_average():
    # The number of fixed points of a uniform permutation has mean 1 and variance 1 (n >= 2), and each
    # shuffle permutes the previous order independently. Sattolo's variant has no fixed point at all.
    state = state_from_seed(77)
    cards = np.arange(52, dtype=np.int64)
    row = np.zeros(4, dtype=np.int64)
    shuffles, fixed = 3_000, 0
    for _ in range(shuffles):
        before = cards.copy()
        shuffle_into_hands(state, cards, 4, row)
        fixed += int((cards == before).sum())
    assert abs(fixed - shuffles) < 4 * np.sqrt(shuffles)
