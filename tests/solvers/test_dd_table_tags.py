"""Bit tricks of the double-dummy search's table and move generation, against plain twins.

- ``_smear_down`` (doubling steps) against a rank-by-rank loop.
- The table tags: an entry's tag must pass the lookup's tag filter for every position the entry
  matches (its codes equal the entry's words on the entry's mask), else the table silently loses
  hits; and it must reject a position whose owner of a top card the entry fixes differs.
"""

import numpy as np

from analyzer.solvers.dd.moves import _smear_down
from analyzer.solvers.dd.transposition import (
    _keep_masks, _position, _tag_admits, _tag_query, _tag_word, _top_owner_bits,
)


def _smear_by_rank(cards, through):
    """Plain twin: every card extends down one rank at a time while the positions lie in ``through``."""
    out = cards
    for bit in range(52):
        if cards >> bit & 1:
            below = bit - 1
            while below >= 0 and through >> below & 1:
                out |= 1 << below
                below -= 1
    return out


def test_smear_down_matches_the_rank_by_rank_loop():
    rng = np.random.default_rng(17)
    aces = sum(1 << (13 * s + 12) for s in range(4))
    for density in (0.2, 0.6, 0.95):
        for _ in range(400):
            through = int(sum(1 << b for b in range(52) if rng.random() < density)) & ~aces
            cards = int(sum(1 << b for b in range(52) if rng.random() < 0.15))
            assert _smear_down(np.int64(cards), np.int64(through)) == _smear_by_rank(cards, through)


def _random_position(rng):
    """Four hands of equal size from a random subset of the deck, and the cards still out."""
    size = int(rng.integers(1, 14))
    cards = rng.permutation(52)[: 4 * size]
    hands = np.zeros(4, dtype=np.int64)
    for seat in range(4):
        for card in cards[seat * size:(seat + 1) * size]:
            hands[seat] |= np.int64(1) << int(card)
    return hands, hands[0] | hands[1] | hands[2] | hands[3]


def test_an_entrys_tag_passes_every_position_it_matches_and_no_other_top_owner():
    rng = np.random.default_rng(1717)
    tag = np.int64(0x5DEECE66D12345)
    rejected = 0
    for _ in range(2000):
        hands, present = _random_position(rng)
        word0, word1, sizes = _position(tuple(hands), present)
        tops = np.int64(0)
        for suit in range(4):
            size = int(sizes >> (4 * suit) & 15)
            tops |= np.int64(rng.integers(0, size + 1)) << (4 * suit)
        m0, m1 = _keep_masks(sizes, tops)
        w0, w1 = word0 & m0, word1 & m1
        stored = _tag_word(tag, _top_owner_bits(w0, w1, sizes), _top_owner_bits(m0, m1, sizes))
        assert _tag_admits(stored, _tag_query(tag, word0, word1, sizes))
        # Move the top card of a suit the entry fixes to another seat: the tag must reject it.
        fixed = [s for s in range(4) if tops >> (4 * s) & 15]
        if not fixed:
            continue
        suit = fixed[int(rng.integers(len(fixed)))]
        top = 13 * suit + int(present >> (13 * suit) & 0x1FFF).bit_length() - 1
        holder = next(s for s in range(4) if hands[s] >> top & 1)
        other = (holder + 1 + int(rng.integers(3))) % 4
        moved = hands.copy()
        moved[holder] ^= np.int64(1) << top
        moved[other] |= np.int64(1) << top
        moved_word0, moved_word1, _ = _position(tuple(moved), present)
        assert not _tag_admits(stored, _tag_query(tag, moved_word0, moved_word1, sizes))
        rejected += 1
    assert rejected > 1000
