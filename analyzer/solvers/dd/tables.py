"""Constants and lookup tables shared by the double-dummy kernels.

Tables are indexed by a 13-bit suit holding (bit r = rank r, 2 = 0 ... A = 12); numba
freezes module-level arrays as constants, which is what we want for fixed lookup tables.
"""

import numpy as np

NO_TRUMP = 4
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


HIGHEST = _highest_table()
COUNT = np.array([bin(h).count('1') for h in range(1 << 13)], dtype=np.int64)
