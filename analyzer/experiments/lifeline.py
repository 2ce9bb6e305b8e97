"""Worker processes end soon after the process that started them dies, even by ``kill -9``.

``watch_parent`` starts a daemon thread that checks every ``POLL_SECONDS`` whether this process
still has the parent it was started by, and ends it with ``_exit`` once it has been re-parented.
The chunk kernels are numba code that holds the GIL for seconds at a time, which would starve a
Python thread until the kernel returns (a plain ``os.getppid``/``time.sleep`` loop then sleeps
through the whole kernel). So on POSIX the loop is itself a numba function compiled with
``nogil=True`` that calls ``getppid``, ``usleep`` and ``_exit`` of the C library directly: once
entered it never needs the interpreter again. Elsewhere the loop is plain Python and acts between
kernel calls.
"""

import os
import threading
import time

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

POLL_SECONDS = 0.5
# Exit status of a worker that outlived its parent; nobody is left to read it.
ORPHAN_EXIT_STATUS = 1
_INT32 = ir.IntType(32)


def watch_parent(parent_pid: int) -> threading.Thread:
    """Start a daemon thread ending this process soon after ``parent_pid`` stops being its parent.

    Returns once the watch is running, so a kernel started right after cannot delay it.

    Parameters
    ----------
    parent_pid : int
        The pid of the process that started this one (pass it from the parent: if the parent is
        already gone, ``os.getppid()`` here would name the adoptive parent instead).

    Returns
    -------
    threading.Thread
        The watch thread.
    """
    if os.name != "posix":
        thread = threading.Thread(target=_python_loop, args=(parent_pid,), name="parent-watch", daemon=True)
        thread.start()
        return thread
    entered = np.zeros(1, dtype=np.int64)
    thread = threading.Thread(target=_native_loop, args=(parent_pid, int(POLL_SECONDS * 1e6), ORPHAN_EXIT_STATUS,
                                                         entered), name="parent-watch", daemon=True)
    thread.start()
    while not entered[0]:  # sleeping releases the GIL, so the thread can get into its native loop
        time.sleep(0.001)
    return thread


def _python_loop(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_SECONDS)
    os._exit(ORPHAN_EXIT_STATUS)


@numba.njit(nogil=True, cache=True)
def _native_loop(parent_pid, micros, status, entered):
    entered[0] = 1
    while _c_getppid() == parent_pid:
        _c_usleep(micros)
    _c_exit(status)


def _call_c(builder, name: str, restype, args=()):
    """Emit a call of the C library's ``name``, whose arguments are all C ints."""
    function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(restype, [_INT32] * len(args)), name)
    return builder.call(function, list(args))


def _first_as_int32(context, builder, signature, args):
    return context.cast(builder, args[0], signature.args[0], types.int32)


@intrinsic
def _c_getppid(typingctx):
    def codegen(context, builder, signature, args):
        return _call_c(builder, "getppid", _INT32)

    return types.int32(), codegen


@intrinsic
def _c_usleep(typingctx, micros):
    def codegen(context, builder, signature, args):
        return _call_c(builder, "usleep", _INT32, [_first_as_int32(context, builder, signature, args)])

    return types.int32(micros), codegen


@intrinsic
def _c_exit(typingctx, status):
    def codegen(context, builder, signature, args):
        _call_c(builder, "_exit", ir.VoidType(), [_first_as_int32(context, builder, signature, args)])
        return context.get_dummy_value()

    return types.none(status), codegen
