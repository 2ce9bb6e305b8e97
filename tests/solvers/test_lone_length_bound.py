"""The length abstraction of ``scripts/lone_length_bound.py``: a lower bound on a lone declarer's count.

Oracles: the plain-Python brute force (``reference_minimax``) on random three-card endings, and endings
built by hand whose abstract values follow from the rules alone.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from lone_length_bound import abstract_count  # noqa: E402

from tests.solvers.reference_minimax import Rules, max_tricks  # noqa: E402

SPADES = 3


def card(suit, rank):
    return 13 * suit + rank


def test_the_abstraction_never_exceeds_the_brute_force_count():
    rng = random.Random(20261206)
    tight = 0
    for _ in range(40):
        cards = rng.sample(range(52), 12)
        hands = [sorted(cards[3 * s:3 * s + 3]) for s in range(4)]
        trump = rng.randrange(4)
        lone = rng.randrange(4)
        leader = rng.randrange(4)
        count = max_tricks(Rules(trump, [lone]), hands, leader)
        value = abstract_count(hands, trump, lone, leader)
        assert value <= count, (hands, trump, lone, leader)
        tight += value == count
    # A bound that is never tight says nothing: most small endings are.
    assert tight > 20, tight


def test_a_void_defender_overruffs_and_a_following_one_cannot():
    # W alone with the spade 2 and two clubs, void in hearts; S leads hearts, E (after W) holds the spade 3.
    w = [card(SPADES, 0), card(0, 0), card(0, 1)]
    s = [card(2, 12), card(2, 11), card(2, 10)]
    n = [card(1, 0), card(1, 1), card(1, 2)]
    e_void = [card(SPADES, 1), card(1, 3), card(1, 4)]  # void in hearts: overruffs W's ruff
    e_follows = [card(SPADES, 1), card(2, 0), card(2, 1)]  # two hearts: must follow, W's ruff stands
    assert abstract_count([n, e_void, s, w], SPADES, 3, 2) == 0
    assert abstract_count([n, e_follows, s, w], SPADES, 3, 2) == 1
    # The brute force agrees: the abstraction is tight on both.
    assert max_tricks(Rules(SPADES, [3]), [n, e_void, s, w], 2) == 0
    assert max_tricks(Rules(SPADES, [3]), [n, e_follows, s, w], 2) == 1


def test_a_trump_lead_draws_a_trump_from_every_defender_holding_one():
    # N alone with the spade 4 and 3 against three defenders' spade A, K, Q, one each, N on lead.
    n = [card(SPADES, 2), card(SPADES, 1)]
    e = [card(SPADES, 12), card(0, 0)]
    s = [card(SPADES, 11), card(0, 1)]
    w = [card(SPADES, 10), card(0, 2)]
    # His lead draws all three top trumps at once; his last trump then wins (the sure-trump count is 0).
    assert abstract_count([n, e, s, w], SPADES, 0, 0) == 1
    assert max_tricks(Rules(SPADES, [0]), [n, e, s, w], 0) == 1
