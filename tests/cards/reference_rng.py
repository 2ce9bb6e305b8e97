"""Plain-Python random number reference for the kernel twins: xoshiro256** and Lemire's bounded draw.

Written from the published algorithms, not from ``analyzer.cards.rng``: xoshiro256** after Blackman &
Vigna's reference ``xoshiro256starstar.c``, the bounded draw after Lemire, "Fast random integer
generation in an interval" (ACM TOMACS 2019), on 32-bit draws.
"""

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1


def rotl(x: int, k: int) -> int:
    """Rotate a 64-bit word left by ``k``."""
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256StarStar:
    """xoshiro256** on a list of four Python ints.

    Parameters
    ----------
    state : sequence of four unsigned 64-bit ints
        Copied; the caller's sequence is not advanced.
    """

    def __init__(self, state):
        self.s = [int(x) for x in state]

    def next(self) -> int:
        """Return the next 64-bit output and advance the state."""
        s = self.s
        result = (rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def next32(self) -> int:
        """The upper 32 bits of the next output."""
        return self.next() >> 32


def lemire(n: int, x: int, redraw) -> int:
    """Map a uniform 32-bit ``x`` to ``[0, n)`` without bias, calling ``redraw()`` for a fresh 32-bit draw.

    ``m = x * n``; its high word is the result unless its low word falls in the ``2**32 mod n``
    values that would favour some results, in which case ``x`` is drawn again.
    """
    m = x * n
    low = m & MASK32
    if low < n:
        threshold = (1 << 32) % n  # == (2**32 - n) mod n
        while low < threshold:
            m = redraw() * n
            low = m & MASK32
    return m >> 32


def state_with_output(first: int, rest=(0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x0F1E2D3C4B5A6978)) -> list[int]:
    """A state whose next xoshiro256** output is ``first``.

    The output is ``rotl(s1 * 5, 7) * 9`` and both factors are odd, so ``s1`` follows by inverting
    each step; ``rest`` fills ``s0, s2, s3``.
    """
    s1 = (rotl((first * pow(9, -1, 1 << 64)) & MASK64, 64 - 7) * pow(5, -1, 1 << 64)) & MASK64
    return [rest[0], s1, rest[1], rest[2]]
