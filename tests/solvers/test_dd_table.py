"""``solve_table`` (cache kept across the leaders of a strain) against 20 single solves, DDS and brute force.

Full deals are checked against DDS's table call (``calc_dd_table``); endings against DDS's single-board
solve, since its table call miscounts endings, and small endings against the brute-force reference.
"""

import numpy as np
import pytest

endplay_types = pytest.importorskip("endplay.types")
endplay_dds = pytest.importorskip("endplay.dds")

from analyzer.cards.pbn import format_deal  # noqa: E402
from analyzer.solvers.dd import solve, solve_table  # noqa: E402
from analyzer.solvers.dd.api import last_tricks  # noqa: E402

from .reference_minimax import Rules, max_tricks  # noqa: E402
from .test_dd_vs_dds import DENOMS, _random_hands, dds_tricks  # noqa: E402

NS = 0b0101
EW = 0b1010
SUIT = 0x1FFF


def _singles(hands):
    """The table by 20 single solves: declarer ``d``'s side, ``d``'s left-hand opponent on lead."""
    return np.array([[solve(hands, s, (d + 1) % 4, NS if d % 2 == 0 else EW) for d in range(4)] for s in range(5)])


def _dds_table(hands):
    table = endplay_dds.calc_dd_table(endplay_types.Deal.from_pbn(format_deal(hands)))
    return np.array([[table[DENOMS[s], endplay_types.Player(d)] for d in range(4)] for s in range(5)])


def _check_full_deals(seed, n):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        hands = _random_hands(rng, 13)
        table = solve_table(hands)
        assert table.tolist() == _dds_table(hands).tolist()
        assert table.tolist() == _singles(hands).tolist()


def test_table_matches_dds_and_single_solves_on_full_deals():
    _check_full_deals(11000, 2)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(6))
def test_table_matches_dds_and_single_solves_on_full_deals_slow(chunk):
    """300 full deals, 50 per chunk."""
    _check_full_deals(11100 + chunk, 50)


def test_table_matches_dds_on_endings():
    """200 seeded 4-8 card endings: the table against DDS's single-board solve of each entry."""
    rng = np.random.default_rng(12000)
    for i in range(200):
        size = 4 + i % 5
        hands = _random_hands(rng, size)
        table = solve_table(hands)
        # DDS gives the side on lead its tricks; declarer d's side is the side not on lead.
        expected = [[size - dds_tricks(hands, s, (d + 1) % 4) for d in range(4)] for s in range(5)]
        assert table.tolist() == expected
        if i % 10 == 0:
            assert table.tolist() == _singles(hands).tolist()


def test_table_matches_brute_force_on_small_endings():
    """30 seeded 2-4 card endings against the brute-force minimax, every strain and declarer."""
    rng = np.random.default_rng(13000)
    for i in range(30):
        size = 4 if i % 10 == 0 else 2 + i % 2
        cards = [int(c) for c in rng.permutation(52)[:4 * size]]
        hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
        masks = np.array([sum(1 << c for c in hand) for hand in hands], dtype=np.int64)
        table = solve_table(masks)
        for strain in range(5):
            for declarer in range(4):
                rules = Rules(strain, [declarer, (declarer + 2) % 4])
                assert table[strain, declarer] == max_tricks(rules, hands, (declarer + 1) % 4)


def test_no_leader_bounds_the_next_one_suit_per_hand():
    """N holds the spades, E the hearts, S the diamonds, W the clubs (worked by hand).

    At no trump the side on lead takes all 13 tricks, so the count swings by 13 from one leader to
    the next: a table that bounded a leader's search by its neighbour's answer would fail here.  In a
    suit the trumps' holder ruffs every other lead and takes all 13, whoever leads.
    """
    hands = np.array([SUIT << 39, SUIT << 26, SUIT << 13, SUIT], dtype=np.int64)
    ns_trumps, ew_trumps = [13, 0, 13, 0], [0, 13, 0, 13]
    expected = [ew_trumps, ns_trumps, ew_trumps, ns_trumps, [0, 0, 0, 0]]
    assert solve_table(hands).tolist() == expected


def test_last_tricks_counts_all_five_strains_of_the_table():
    """Each strain's first leader searches a fresh table with the fitted first guess, as a single solve
    does, so the table's count is at least the sum of those five single solves' counts."""
    rng = np.random.default_rng(14000)
    for _ in range(3):
        hands = _random_hands(rng, 13)
        first_leaders = 0
        for strain in range(5):
            solve(hands, strain, 0, NS)
            first_leaders += last_tricks()
        solve_table(hands)
        assert last_tricks() >= first_leaders > 0


def test_table_validates_its_input():
    from analyzer.errors import InputError

    with pytest.raises(InputError):
        solve_table([1, 2, 4])
    with pytest.raises(InputError):
        solve_table([1, 2, 4, 8 | 16])
