"""Bit-mask helpers: a set of cards is an int64 with bit ``card`` set."""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from analyzer.errors import InputError


# Bit counts as single LLVM instructions (popcnt / tzcnt / lzcnt): kernels call them several
# times per card, where portable loops cost a few times more.
@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of an int64 (LLVM ``ctpop``)."""
    return _ctpop(x)


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    """Index of the lowest set bit of an int64 > 0 (LLVM ``cttz``)."""
    return _cttz(x)


@njit(cache=True, inline="always")
def highest_bit_index(x):
    """Index of the highest set bit of an int64 > 0 (LLVM ``ctlz``)."""
    return 63 - _ctlz(x)


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
