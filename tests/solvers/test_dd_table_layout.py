"""The transposition table's place in the work array: its buckets start on a cache line wherever the
array lies, no entry spans two lines, the buckets stay inside it, and a bucket chain keeps every
entry stored (fill words and tags in the bucket heads, each bucket's entries after its head).
"""

import numpy as np
import pytest

from analyzer.solvers.dd.layout import (
    BUCKET, C_HEADS, C_TT_MASK, ENTRY, HEAD, M_CTX, M_TT, STRIDE, new_mem, set_context,
)
from analyzer.solvers.dd.tables import MODE_MAX, TT_BITS
from analyzer.solvers.dd.transposition import OFFSET_BITS, _tt_lookup, _tt_store

BITS = 10
SIZES = 13 | 13 << 4 | 13 << 8 | 13 << 12  # every suit with all 13 cards out
FULL_TOPS = SIZES  # every card relevant: the entry's mask covers every owner bit


def _shifted_mem(shift):
    """A work array starting ``shift`` words past the start of a larger buffer (so at any address modulo 64)."""
    size = new_mem(BITS).shape[0]
    return np.zeros(size + 8, dtype=np.int64)[shift:shift + size]


@pytest.mark.parametrize("shift", range(8))
def test_blocks_start_on_a_cache_line_and_fit_in_the_array(shift):
    mem = _shifted_mem(shift)
    set_context(mem, 0, 0b0101, MODE_MAX, -1, -1, 1)
    heads = int(mem[M_CTX + C_HEADS])
    buckets = int(mem[M_CTX + C_TT_MASK]) + 1
    assert buckets * BUCKET == 1 << BITS
    for bucket in (0, 1, buckets - 1):
        head = heads + STRIDE * bucket
        assert (mem.ctypes.data + 8 * head) % 64 == 0
        for i in range(BUCKET):
            first = mem.ctypes.data + 8 * (head + HEAD + ENTRY * i)
            assert first // 64 == (first + 8 * ENTRY - 1) // 64  # one cache line
    assert M_TT <= heads and heads + STRIDE * buckets <= mem.shape[0]
    assert STRIDE >= HEAD + BUCKET * ENTRY and HEAD >= 1 + BUCKET


@pytest.mark.parametrize("shift", [0, 3, 7])
def test_a_chain_over_several_buckets_finds_every_entry_with_its_own_bounds(shift):
    mem = _shifted_mem(shift)
    set_context(mem, 0, 0b0101, MODE_MAX, -1, -1, 1)
    rng = np.random.default_rng(41 + shift)
    count = 3 * BUCKET + 5  # one pattern: the entries spill over four buckets of one chain
    codes = rng.choice(1 << 26, size=count, replace=False)
    # Each suit's code: its sentinel (bit 26: 13 cards out) above 26 owner bits.
    positions = [(np.int64((1 << 26 | int(c)) * (1 + (1 << 27))), np.int64((1 << 26 | int(c) ^ 1) * (1 + (1 << 27))))
                 for c in codes]
    pattern, extra = np.int64(12345), np.int64(2)
    for i, (word0, word1) in enumerate(positions):
        # The team made i % 13 tricks from here: the lower bound i % 13, the upper bound still 13.
        _tt_store(mem, pattern, extra, word0, word1, np.int64(SIZES), np.int64(FULL_TOPS), 13, 0, i % 13, 99, True,
                  -1, MODE_MAX)
    for i, (word0, word1) in enumerate(positions):
        yes = _tt_lookup(mem, pattern, extra, word0, word1, np.int64(SIZES), 0, i % 13, 99, MODE_MAX)[0]
        open_ = _tt_lookup(mem, pattern, extra, word0, word1, np.int64(SIZES), 0, i % 13 + 1, 99,
                           MODE_MAX)[0]
        assert (yes, open_) == (1, -1), i


def test_table_offsets_pass_the_constant_mask_unchanged():
    # The probe and the store AND the context's table offsets with OFFSET_BITS (so LLVM drops numba's
    # negative-index fix-up); the mask must keep every offset of the table the solver allocates.
    mem = new_mem(TT_BITS)
    set_context(mem, 0, 0b0101, MODE_MAX, -1, -1, 1)
    for slot in (C_TT_MASK, C_HEADS):
        assert int(mem[M_CTX + slot]) & OFFSET_BITS == int(mem[M_CTX + slot])
    assert mem.shape[0] - 1 <= OFFSET_BITS


def _masked(word0, word1, sizes, tops):
    """Plain twin of an entry's key: per suit the owner bits of its top ``tops`` cards and its sentinel."""
    kept = []
    for suit in range(4):
        size, top = sizes >> (4 * suit) & 15, tops >> (4 * suit) & 15
        code = (word0 if suit < 2 else word1) >> (27 * (suit % 2)) & ((1 << 27) - 1)
        kept.append(code >> (2 * (size - top)) << (2 * (size - top)) & ((1 << (2 * size + 1)) - 1))
    return tuple(kept)


def test_probes_answer_as_a_plain_list_of_entries():
    """Entries keep their own tops, extra word and bounds (the info word packs them; the masks are rebuilt
    from the tops): every probe's verdict is one a matching entry of a plain list gives, and a probe
    finds nothing only when no matching entry decides its window."""
    from analyzer.solvers.dd.transposition import _pattern, _position

    mem = new_mem(BITS)
    set_context(mem, 0, 0b0101, MODE_MAX, -1, -1, 1)
    rng = np.random.default_rng(2026)
    universe = [13 * suit + rank for suit in (0, 3) for rank in range(8, 13)]  # few cards: keys repeat
    extras = [0, 1, 5 << 12, (1 << 22) - 1]
    entries = {}  # (pattern, extra, tops, masked key) -> [low, high]
    found = 0
    for step in range(600):
        cards = rng.permutation(universe)[:8]
        hands = np.zeros(4, dtype=np.int64)
        for seat in range(4):
            for card in cards[2 * seat:2 * seat + 2]:
                hands[seat] |= np.int64(1) << int(card)
        present = hands[0] | hands[1] | hands[2] | hands[3]
        word0, word1, sizes = _position(tuple(hands), present)
        pattern = _pattern(hands, 0, 0, -1, -1)[0]
        extra = np.int64(extras[int(rng.integers(len(extras)))])
        target = int(rng.integers(0, 4))
        if step < 300:
            target = 1 + target % 2  # a search stores "no" only at a target it could miss: 1 or 2 of 2 tricks
            tops = 0
            for suit in range(4):
                tops |= int(rng.integers(0, (int(sizes) >> (4 * suit) & 15) + 1)) << (4 * suit)
            result = bool(rng.integers(2))
            _tt_store(mem, pattern, extra, word0, word1, sizes, np.int64(tops), 2, 0, target, 99, result, -1,
                      MODE_MAX)
            bounds = entries.setdefault((int(pattern), int(extra), tops, _masked(int(word0), int(word1), int(sizes),
                                                                                   tops)), [0, 2])
            if result:
                bounds[0] = max(bounds[0], target)
            else:
                bounds[1] = min(bounds[1], target - 1)
            continue
        verdict, tops, _ = _tt_lookup(mem, pattern, extra, word0, word1, sizes, 0, target, 99, MODE_MAX)
        verdicts = {}
        for (p, e, t, key), (low, high) in entries.items():
            if p == pattern and e == extra and key == _masked(int(word0), int(word1), int(sizes), t):
                if low >= target or high < target:
                    verdicts.setdefault(t, set()).add(1 if low >= target else 0)
        if verdict < 0:
            assert not verdicts, step
        else:
            assert verdict in verdicts.get(int(tops), set()), step
            found += 1
    assert found > 50
