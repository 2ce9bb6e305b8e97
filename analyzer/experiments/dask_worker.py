"""What every Dask worker running chunks needs set up: the C library's allocator as a plain process has it.

A Dask nanny starts its worker with ``MALLOC_TRIM_THRESHOLD_=65536`` in the environment (its
``pre-spawn-environ`` default), so that memory goes back to the system at once. Setting any such
variable switches off glibc's sliding mmap threshold: every array above 128 KiB is then mapped and
unmapped afresh, and a ``rikken bids`` chunk of 20,000 deals took 5x the page faults and about 35%
more CPU in the worker than the same chunk in a local process (docs/cluster.md). ``restore_malloc``
sets the thresholds where the sliding one settles in a plain process.

This module imports distributed: the Dask backend imports it when it starts, and Dask pickles
:class:`WorkerSetup` by reference (every worker has the analyzer installed).
"""

import ctypes
import ctypes.util

from distributed import WorkerPlugin

# glibc's mallopt parameters and the values its sliding threshold reaches: the mmap threshold's maximum
# on 64-bit systems (DEFAULT_MMAP_THRESHOLD_MAX) and twice that for trimming, as glibc sets them together.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 32 * 1024 * 1024
TRIM_THRESHOLD_BYTES = 2 * MMAP_THRESHOLD_BYTES


def restore_malloc() -> bool:
    """Set glibc's mmap and trim thresholds of this process to where a plain process's sliding ones settle.

    Returns
    -------
    bool
        Whether both were set (False without glibc, e.g. on macOS, where there is nothing to undo).
    """
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD,
                                                                                TRIM_THRESHOLD_BYTES))


class WorkerSetup(WorkerPlugin):
    """Runs :func:`restore_malloc` on every worker of the cluster, present and future (a restarted one too)."""

    def setup(self, worker):
        restore_malloc()
