"""The search keeps its table's position key from trick start to trick start (``_position_after``)
instead of recomputing it (``_position``): along random play sequences both must equal a plain
twin that builds the code from its definition."""

import numpy as np

from analyzer.solvers.dd.transposition import _position, _position_after


def _plain_position(hands, present):
    """Plain twin of ``_position``: per suit, a sentinel 1 then the owner (2 bits) of each card
    still out, the lowest card in bits 0-1; suits C D in one word (27 bits apart), H S in the other."""
    words = [0, 0]
    sizes = 0
    for suit in range(4):
        ranks = [r for r in range(13) if present >> (13 * suit + r) & 1]
        code = 1
        for rank in reversed(ranks):
            owner = next(seat for seat in range(4) if hands[seat] >> (13 * suit + rank) & 1)
            code = (code << 2) | owner
        words[suit // 2] |= code << (27 * (suit % 2))
        sizes |= len(ranks) << (4 * suit)
    return words[0], words[1], sizes


def _deal(rng):
    cards = rng.permutation(52)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        for card in cards[13 * seat:13 * seat + 13]:
            hands[seat] |= 1 << int(card)
    return hands


def _key(hands, present):
    return tuple(int(v) for v in _position(tuple(np.int64(h) for h in hands), np.int64(present)))


def test_the_key_kept_from_trick_to_trick_equals_the_recomputed_key_and_the_plain_twin():
    rng = np.random.default_rng(36)
    for _ in range(60):
        hands = _deal(rng)
        present = hands[0] | hands[1] | hands[2] | hands[3]
        kept = _key(hands, present)
        assert kept == _plain_position(hands, present)
        leader = int(rng.integers(4))
        for _trick in range(13):
            before = present
            led_suit = -1
            for step in range(4):
                seat = (leader + step) % 4
                held = [c for c in range(52) if hands[seat] >> c & 1]
                follow = [c for c in held if c // 13 == led_suit]
                card = int(rng.choice(follow or held))
                led_suit = card // 13 if step == 0 else led_suit
                hands[seat] &= ~(1 << card)
            present = hands[0] | hands[1] | hands[2] | hands[3]
            leader = int(rng.integers(4))
            kept = tuple(int(v) for v in _position_after(*(np.int64(v) for v in kept), np.int64(before),
                                                          np.int64(present)))
            assert kept == _key(hands, present) == _plain_position(hands, present)


def test_the_key_skips_several_tricks_at_once():
    """Any superset of the cards still out will do, such as the position two tricks up."""
    rng = np.random.default_rng(37)
    for _ in range(200):
        hands = _deal(rng)
        before = hands[0] | hands[1] | hands[2] | hands[3]
        start = _key(hands, before)
        for seat in range(4):
            held = [c for c in range(52) if hands[seat] >> c & 1]
            for card in rng.choice(held, size=int(rng.integers(0, 14)), replace=False):
                hands[seat] &= ~(1 << int(card))
        present = hands[0] | hands[1] | hands[2] | hands[3]
        after = _position_after(*(np.int64(v) for v in start), np.int64(before), np.int64(present))
        assert tuple(int(v) for v in after) == _plain_position(hands, present)
