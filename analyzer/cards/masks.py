"""Bit-mask helpers: a set of cards is an int64 with bit ``card`` set."""

import numpy as np
from numba import njit

from analyzer.errors import InputError


@njit(cache=True)
def popcount(x):
    """Number of set bits of a non-negative int64 (SWAR count, branch-free)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True)
def lowest_bit_index(x):
    """Index of the lowest set bit of ``x`` (> 0)."""
    return popcount((x & -x) - 1)


@njit(cache=True)
def highest_bit_index(x):
    """Index of the highest set bit of ``x`` (> 0)."""
    index = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if x >> shift:
            x >>= shift
            index += shift
    return index


def mask_of(cards) -> int:
    """Return the mask holding the given card ids; a repeated card is an error."""
    mask = 0
    for card in cards:
        bit = 1 << int(card)
        if mask & bit:
            raise InputError(f"card id {int(card)} appears twice")
        mask |= bit
    return mask


def cards_of(mask: int) -> list[int]:
    """Return the card ids in ``mask``, lowest first."""
    mask = int(mask)
    return [i for i in range(64) if mask >> i & 1]


def popcounts(masks: np.ndarray) -> np.ndarray:
    """Vectorised popcount of an int64 array (any shape)."""
    x = masks.astype(np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)
