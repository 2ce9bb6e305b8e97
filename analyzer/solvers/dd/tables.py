"""Constants and lookup tables shared by the double-dummy kernels, and the gather that reads two of them.

Tables are indexed by a 13-bit suit holding (bit r = rank r, 2 = 0 ... A = 12); numba
freezes module-level arrays as constants, which is what we want for fixed lookup tables.
"""

import numpy as np
from numba import njit

SUIT_BITS = 0x1FFF

# Search modes: which final counts of the team's tricks the team is trying to reach.
MODE_MAX = 0  # team wants at least ``lo`` (so it maximises)
MODE_MIN = 1  # team wants at most ``hi`` (so it minimises)
MODE_EXACT = 2  # team wants a count inside ``[lo, hi]`` (exactly k when lo == hi)

# A blind (face-down) lead is encoded as the card id plus this offset.
BLIND = 64

# Large enough to stand for "no bound" on a trick count.
UNBOUNDED = 99

# Transposition table size (entries); a power of two.
TT_BITS = 20


def _highest_table() -> np.ndarray:
    table = np.full(1 << 13, -1, dtype=np.int64)
    for holding in range(1, 1 << 13):
        table[holding] = holding.bit_length() - 1
    return table


def _compress_table(bits: int) -> np.ndarray:
    """``table[mask, x]``: the bits of ``x`` at the set positions of ``mask``, packed from bit 0 up."""
    table = np.zeros((1 << bits, 1 << bits), dtype=np.int8)
    for mask in range(1 << bits):
        places = [i for i in range(bits) if mask >> i & 1]
        for x in range(1 << bits):
            table[mask, x] = sum(1 << j for j, i in enumerate(places) if x >> i & 1)
    return table


def _spread_table() -> np.ndarray:
    """``table[x]``: bit ``i`` of a 13-bit ``x`` moved to bit ``2 i``."""
    return np.array([sum(1 << (2 * i) for i in range(13) if x >> i & 1) for x in range(1 << 13)], dtype=np.int32)


def _sure_tables() -> tuple[np.ndarray, np.ndarray]:
    """Sure trump tricks of one seat, indexed by ``1 << k | mine``.

    ``k`` cards (the seat's trumps and the other side's) are listed from the lowest, bit ``j`` of
    ``mine`` set when the seat holds the ``j``-th.  Going down from the top, the seat's ``i``-th card
    with ``h`` of the other side's above it gives ``i - h`` sure tricks; ``best`` is the most of
    these and ``at`` the place (from the lowest) of the first card that reaches it.
    """
    best = np.zeros(1 << 14, dtype=np.int8)
    at = np.full(1 << 14, -1, dtype=np.int8)
    for code in range(1, 1 << 14):
        count = higher = 0
        for j in range(code.bit_length() - 2, -1, -1):
            if code >> j & 1:
                count += 1
                if count - higher > best[code]:
                    best[code] = count - higher
                    at[code] = j
            else:
                higher += 1
    return best, at


def _select_table() -> np.ndarray:
    """``table[mask, j]``: the rank of the ``j``-th lowest card of a 13-bit ``mask`` (-1 past its end)."""
    table = np.full((1 << 13, 13), -1, dtype=np.int8)
    for mask in range(1 << 13):
        for j, rank in enumerate(r for r in range(13) if mask >> r & 1):
            table[mask, j] = rank
    return table


HIGHEST = _highest_table()
COUNT = np.array([bin(h).count('1') for h in range(1 << 13)], dtype=np.int64)
# A 13-bit gather (the bits of ``x`` where ``mask`` is set, packed) in two steps: ranks 0-6, ranks 7-12.
COMPRESS_LOW = _compress_table(7)
COMPRESS_HIGH = _compress_table(6)
SPREAD = _spread_table()
SURE_BEST, SURE_AT = _sure_tables()
SELECT = _select_table()


@njit(cache=True, inline="always")
def _gather(x, mask):
    """The bits of the 13-bit ``x`` at the set positions of ``mask``, packed from bit 0 up."""
    return (np.int64(COMPRESS_LOW[mask & 127, x & 127])
            | (np.int64(COMPRESS_HIGH[mask >> 7, (x >> 7) & 63]) << COUNT[mask & 127]))
