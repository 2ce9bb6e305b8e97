"""Dealing: exact suit-pattern probabilities, constraints honoured, impossible constraints rejected."""

from collections import Counter
from itertools import permutations
from math import comb

import numpy as np
import pytest

from analyzer.cards.dealing import SeatConstraint, deal_constrained, deal_packets_kernel, deal_random, hcp_of
from analyzer.cards.deck import FULL_DECK, SUIT_MASKS
from analyzer.cards.masks import cards_of, popcounts
from analyzer.cards.pbn import parse_hand
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
        deal_constrained(1, seed=0, seats=seats, max_tries_per_deal=2_000)


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
