"""Views of an int64 buffer that numba does not reference-count.

Every array argument of a compiled call costs an atomic increment and decrement of its reference
count; in kernels that make a call per card or per search node that is a large share of the time.
A ``carray`` over the buffer's address carries no reference count; the caller keeps the buffer alive.
"""

from numba import carray, njit, types
from numba.extending import intrinsic


@intrinsic
def _int64_pointer(typingctx, address):
    """Reinterpret an integer address as an int64 pointer."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return types.CPointer(types.int64)(types.intp), codegen


@njit(cache=True, inline="always")
def int64_view(address, size):
    """The ``size`` int64 words at ``address`` as an array without a reference count.

    Parameters
    ----------
    address : int
        Start of a live int64 buffer (``array.ctypes.data``).
    size : int
        Number of words.
    """
    return carray(_int64_pointer(address), size)
