"""Exact agreement with DDS (through the ``endplay`` package) on random deals and endings.

DDS answers "tricks for the side on lead" for partnerships North-South vs East-West; we ask our
solver the same question with the team set to the leader's side, and the complementary question
(the other side's tricks = cards per hand minus DDS's count) with the team set to the other side.
Endings use DDS's single-board solve, which is exact for any number of cards (its table call is not).
"""

import numpy as np
import pytest

endplay_types = pytest.importorskip("endplay.types")
endplay_dds = pytest.importorskip("endplay.dds")

from analyzer.cards.pbn import format_deal, parse_deal  # noqa: E402
from analyzer.solvers.dd import solve, solve_batch  # noqa: E402

NS = 0b0101
EW = 0b1010
# endplay denominations by our trump ids C D H S NT.
DENOMS = [
    endplay_types.Denom.clubs,
    endplay_types.Denom.diamonds,
    endplay_types.Denom.hearts,
    endplay_types.Denom.spades,
    endplay_types.Denom.nt,
]


def _random_hands(rng, size):
    cards = rng.permutation(52)[: 4 * size]
    hands = np.zeros(4, dtype=np.int64)
    for seat in range(4):
        for card in cards[seat * size:(seat + 1) * size]:
            hands[seat] |= np.int64(1) << int(card)
    return hands


def dds_tricks(hands, trump, leader):
    """Tricks DDS gives the side on lead (best card of the leader)."""
    deal = endplay_types.Deal.from_pbn(format_deal(hands))
    deal.first = endplay_types.Player(leader)
    deal.trump = DENOMS[trump]
    solved = endplay_dds.solve_board(deal, endplay_dds.solve.SolveMode.OptimalOne)
    return max(score for _, score in solved)


def _check(hands, trump, leader, size):
    expected = dds_tricks(hands, trump, leader)
    side = NS if leader % 2 == 0 else EW
    assert solve(hands, trump, leader, side) == expected
    assert solve(hands, trump, leader, side ^ 0b1111) == size - expected
    assert solve(hands, trump, leader, side, goal="ge", k=expected)
    assert not solve(hands, trump, leader, side, goal="ge", k=expected + 1)


@pytest.mark.parametrize("chunk", range(5))
def test_endings_match_dds(chunk):
    """300 seeded 5-7 card endings over every strain and leader (60 per chunk)."""
    rng = np.random.default_rng(7000 + chunk)
    for i in range(60):
        size = 5 + i % 3
        hands = _random_hands(rng, size)
        _check(hands, i % 5, (i // 5) % 4, size)


def test_full_deals_match_dds():
    """A few full deals in the normal suite (full 13-card solves are the slow part)."""
    rng = np.random.default_rng(8000)
    for i in range(2):
        hands = _random_hands(rng, 13)
        expected = dds_tricks(hands, i % 5, i % 4)
        side = NS if i % 2 == 0 else EW
        assert solve(hands, i % 5, i % 4, side) == expected


def test_batch_matches_dds_on_endings():
    rng = np.random.default_rng(9000)
    deals = np.array([_random_hands(rng, 6) for _ in range(20)])
    got = solve_batch(deals, 3, 1, EW)
    assert list(got) == [dds_tricks(h, 3, 1) for h in deals]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_full_deals_match_dds_slow(chunk):
    """2,000 full deals: every strain and leader, 100 per chunk."""
    rng = np.random.default_rng(10000 + chunk)
    for i in range(100):
        hands = _random_hands(rng, 13)
        trump = i % 5
        leader = (i // 5) % 4
        side = NS if leader % 2 == 0 else EW
        assert solve(hands, trump, leader, side) == dds_tricks(hands, trump, leader)


def test_long_suit_past_partner_keeps_its_top_cards_relevant():
    """North's diamonds AQ953 count in full past South's K42 only while North's top diamonds stay the
    top ones for the rounds East-West still follow; a table entry that fixed just the cards down to
    the last one compared with South's let a later position reuse the count (10 tricks instead of
    DDS's 9, found by the 2,000-deal test, chunk 2)."""
    hands = parse_deal("N:AQ95.AQ3.AQ953.5 KT84.J85.6.AKJ86 J32.T4.K42.QT972 76.K9762.JT87.43")
    assert solve(hands, 4, 0, NS) == dds_tricks(hands, 4, 0) == 9
