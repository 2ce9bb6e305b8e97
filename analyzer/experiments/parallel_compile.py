"""Compile independent groups of numba kernels at once, one process per group, on a cold cache.

Numba compiles in one thread. A command whose kernels fall into groups that share no kernel (a judged
``rikken replay``: the solver and the round's play) compiles them in about the time of the longest group
when each group compiles in a process of its own: on two cores, two groups of equal cost take half the wall
time. The processes write numba's on-disk cache (``NUMBA_CACHE_DIR`` is inherited), from which the caller
then loads the kernels. A group computes nothing the caller keeps, so results cannot depend on it.
"""

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from analyzer.catalog import default_workers


def compile_in_parallel(groups: Sequence[Callable[[], object]], processes: int | None = None) -> int:
    """Run each of ``groups`` (picklable callables of no argument, each calling its kernels once on a small
    input) in a process of its own, at most ``processes`` at once, and return when all are done.

    Parameters
    ----------
    groups : sequence of callable
        Top-level functions or ``functools.partial`` of them: a spawned process imports their module.
    processes : int, optional
        Processes at once; by default one per core, as the runner's workers. With one group or one process the groups run here,
        one after the other (the same kernels compile, with no process started).

    Returns
    -------
    int
        The processes used (1: this one).

    Raises
    ------
    Exception
        What a group raised, re-raised here.
    """
    processes = min(processes or default_workers(), len(groups))
    if processes <= 1:
        for group in groups:
            group()
        return 1
    # "spawn", as the runner's workers: no copy of this process's threads and locks (a progress spinner).
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        for future in [pool.submit(group) for group in groups]:
            future.result()
    return processes
