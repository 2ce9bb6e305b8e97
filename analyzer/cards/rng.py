"""A small, fast PRNG for kernels: xoshiro256** (Blackman & Vigna), state in a uint64[4] array.

Kernels draw millions of numbers per second; calling back into ``np.random.Generator`` for each
bounded integer costs more than the rest of a deal, so each chunk seeds its own xoshiro state from
its ``SeedSequence`` and the kernel advances it inline. Nothing here touches global random state.
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import highest_bit_index

LOW32_MASK = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


def state_from_seed(seed) -> np.ndarray:
    """Return a fresh xoshiro256** state seeded from an int or a ``np.random.SeedSequence``."""
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    state = sequence.generate_state(4, np.uint64)
    if not state.any():
        state[0] = np.uint64(0x9E3779B97F4A7C15)
    return state


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def next_u64(state):
    """Advance ``state`` and return the next 64-bit output (uint64)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True)
def bounded(state, n):
    """Return a uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire's unbiased method)."""
    bound = np.uint64(n)
    product = (next_u64(state) >> np.uint64(32)) * bound
    low = product & LOW32_MASK
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            product = (next_u64(state) >> np.uint64(32)) * bound
            low = product & LOW32_MASK
    return np.int64(product >> np.uint64(32))


@njit(cache=True, inline="always")
def bounded_from(x32, n, state):
    """Map a uniform 32-bit value ``x32`` to ``[0, n)``; on the rare biased draw, fall back to ``bounded``.

    Lets a caller spend one 64-bit output on two bounded draws (its two halves).
    """
    bound = np.uint64(n)
    product = x32 * bound
    if (product & LOW32_MASK) < bound and (product & LOW32_MASK) < (_TWO32 - bound) % bound:
        return bounded(state, n)
    return np.int64(product >> np.uint64(32))


@njit(cache=True)
def uniform(state):
    """Return a uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def bounded_wide(state, n):
    """Return a uniform integer in ``[0, n)`` for ``1 <= n < 2**63`` (power-of-two mask, then rejection).

    For counts too large for ``bounded``: the top bits of one output are kept, as many as ``n - 1``
    has, and redrawn while they reach ``n`` (under half the time). ``n == 1`` draws nothing.
    """
    if n == 1:
        return np.int64(0)
    shift = np.uint64(63 - highest_bit_index(np.int64(n - 1)))
    bound = np.uint64(n)
    x = next_u64(state) >> shift
    while x >= bound:
        x = next_u64(state) >> shift
    return np.int64(x)
