"""The transposition table's place in the work array: its blocks start on a cache line wherever the
array lies, stay inside it, and a bucket chain keeps every entry stored (fill words and tags in the
bucket heads, entries in their own block).
"""

import numpy as np
import pytest

from analyzer.solvers.dd.layout import (
    BUCKET, C_ENTRIES, C_HEADS, C_TT_MASK, ENTRY, HEAD, M_CTX, M_TT, new_mem, set_context,
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
    entries = int(mem[M_CTX + C_ENTRIES])
    buckets = int(mem[M_CTX + C_TT_MASK]) + 1
    assert buckets * BUCKET == 1 << BITS
    assert (mem.ctypes.data + 8 * heads) % 64 == 0
    assert (mem.ctypes.data + 8 * entries) % 64 == 0
    assert M_TT <= heads and heads + buckets * HEAD <= entries
    assert entries + ENTRY * (buckets * BUCKET) <= mem.shape[0]


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
    for slot in (C_TT_MASK, C_HEADS, C_ENTRIES):
        assert int(mem[M_CTX + slot]) & OFFSET_BITS == int(mem[M_CTX + slot])
    assert mem.shape[0] - 1 <= OFFSET_BITS
