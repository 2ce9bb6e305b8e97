"""Calling a partner's card: ace, blind ace, king, no callable card, and the documented preference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.cards.deck import parse_card
from analyzer.cards.pbn import parse_hand
from analyzer.games.rikken.calling import choose_call, choose_call_batch

C, D, H, S = 0, 1, 2, 3


@pytest.mark.parametrize(("hand", "trump", "prefer_long", "expected"), [
    # Only SA held; H (K2), D (Q43), C (32) are open. Longest is diamonds -> DA, not blind.
    ("AKQ432.K2.Q43.32", S, True, ("DA", False)),
    # Shortest: H and C both have two cards; H holds the king (3 points) -> HA.
    ("AKQ432.K2.Q43.32", S, False, ("HA", False)),
    # Trump hearts: the HA is never called even though it is missing; D is the longest open suit.
    ("A432.Q5432.K43.2", H, True, ("DA", False)),
    # S, H, D aces held, clubs void: only a blind call of the CA remains.
    ("AKQJT9.AK32.AQ2.", S, True, ("CA", True)),
    # The only missing ace is the trump ace and there is no void: nothing to call.
    ("AK32.KQJ32.A32.A", H, True, None),
    # All four aces: call a king. Open kings S, D, C (HK held), three cards each with the ace (4 points
    # each): the lowest suit id wins the tie -> clubs.
    ("A32.AKQ2.A32.A32", H, True, ("CK", False)),
    # All four aces and all four kings: nothing to call.
    ("AK2.AK32.AK2.AK2", S, True, None),
    # Void in the trump suit does not make a blind call of the trump ace.
    ("AKQJT9..AKQ2.A32", H, True, None),
    # Same hand with spade trumps: the hearts void gives a blind HA.
    ("AKQJT9..AKQ2.A32", S, True, ("HA", True)),
])
def test_call_examples(hand, trump, prefer_long, expected):
    card, blind = choose_call(parse_hand(hand), trump, prefer_long)
    if expected is None:
        assert (card, blind) == (-1, False)
    else:
        assert (card, blind) == (parse_card(expected[0]), expected[1])


def legal_calls(hand: int, trump: int) -> tuple[set[int], set[int]]:
    """Brute-force the callable cards straight from the rule text: (calls in held suits, blind calls)."""
    all_aces = all(hand >> (s * 13 + 12) & 1 for s in range(4))
    rank = 11 if all_aces else 12
    held, blind = set(), set()
    for suit in range(4):
        card = suit * 13 + rank
        if suit == trump or hand >> card & 1:
            continue
        holds_suit = any(hand >> (suit * 13 + r) & 1 for r in range(13))
        (held if holds_suit else blind).add(card)
    return held, blind


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 3), st.booleans())
def test_call_obeys_the_rules(perm, trump, prefer_long):
    hand = sum(1 << c for c in perm[:13])
    card, blind = choose_call(hand, trump, prefer_long)
    held, blind_calls = legal_calls(hand, trump)
    if held:
        assert card in held and not blind
    elif blind_calls:
        assert card in blind_calls and blind
    else:
        assert (card, blind) == (-1, False)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(52)), st.integers(0, 4)), min_size=1, max_size=30), st.booleans())
def test_batch_call_equals_single(rows, prefer_long):
    hands = np.array([sum(1 << c for c in perm[:13]) for perm, _t in rows], dtype=np.int64)
    trumps = np.array([t for _p, t in rows], dtype=np.int64)
    called, blind = choose_call_batch(hands, trumps, prefer_long)
    expected = [choose_call(int(h), int(t), prefer_long) for h, t in zip(hands, trumps)]
    assert list(zip(called.tolist(), blind.tolist())) == expected


def test_batch_call_covers_king_blind_and_no_call():
    hands = [parse_hand(h) for h in ("A32.AKQ2.A32.A32", "AKQJT9.AK32.AQ2.", "AK32.KQJ32.A32.A", "AKQ432.K2.Q43.32")]
    trumps = [H, S, H, S]
    called, blind = choose_call_batch(np.array(hands, dtype=np.int64), np.array(trumps, dtype=np.int64))
    assert list(zip(called.tolist(), blind.tolist())) == [choose_call(h, t) for h, t in zip(hands, trumps)]
