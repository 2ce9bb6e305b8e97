"""Compile independent groups of numba kernels at once, one process per core (this one included), on a cold
cache.

Numba compiles in one thread. A command whose kernels fall into groups that share no kernel (a judged
``rikken replay``: the solver and the round's play) compiles them in about the time of the longest group
when the groups share the cores: on two cores, two groups of equal cost take half the wall time, one of them
compiled in this process. The other processes write numba's on-disk cache (``NUMBA_CACHE_DIR`` is
inherited), from which the caller then loads the kernels. A group computes nothing the caller keeps, so
results cannot depend on it.
"""

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from analyzer.catalog import default_workers


def compile_in_parallel(groups: Sequence[Callable[[], object]], processes: int | None = None,
                        then: Callable[[], object] | None = None, after: int = 0,
                        here: Callable[[], object] | None = None) -> int:
    """Run ``groups`` (picklable callables of no argument, each calling its kernels once on a small input) in
    one process per core, this one included when it runs ``here``, and return when all are done.

    Parameters
    ----------
    groups : sequence of callable
        Top-level functions or ``functools.partial`` of them: a spawned process imports their module. With
        more groups than processes, a group runs in the first process free.
    processes : int, optional
        Processes at once, this one included when it runs ``here``; by default one per core, as the runner's
        workers. With one group or one process the groups run here, one after the other (the same kernels
        compile, with no process started).
    then : callable, optional
        Run here once the first ``after`` groups (and ``here``) are done, while the others still run: a compile
        that loads what those groups compiled (the solver's search after its helpers).
    after : int
        The groups ``then`` waits for.
    here : callable, optional
        A group run in this process while the others run in theirs, before ``then``: this process would
        otherwise wait, and one process fewer saves its start (imports, about a CPU-second).

    Returns
    -------
    int
        The processes used, this one included when it ran ``here`` (1: this one alone).

    Raises
    ------
    Exception
        What a group raised, re-raised here.
    """
    mine = [] if here is None else [here]
    processes = min(processes or default_workers(), len(groups) + len(mine))
    if processes <= 1 or not groups:
        for group in [*mine, *groups]:
            group()
        if then is not None:
            then()
        return 1
    # "spawn", as the runner's workers: no copy of this process's threads and locks (a progress spinner).
    with ProcessPoolExecutor(processes - len(mine), mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(group) for group in groups]
        for group in mine:
            group()
        if then is not None:
            for future in futures[:after]:
                future.result()
            then()
        for future in futures:
            future.result()
    return processes


def cache_folder(package: str) -> Path:
    """Where numba caches the kernels of the package in folder ``package``: ``__pycache__`` beside its modules,
    or with ``NUMBA_CACHE_DIR`` set (as the command line sets it, a folder per code digest)
    ``<dir name>_<sha1 of the dir's absolute path>`` below it."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return Path(root, f"{os.path.basename(package)}_{hashlib.sha1(package.encode()).hexdigest()}")
    return Path(package, "__pycache__")


def solver_cached() -> bool:
    """Whether numba's cache holds the double-dummy solver's search (written after every helper it calls, so
    helpers cached by :func:`solver_groups` alone do not count). The solver is not imported."""
    from analyzer.solvers.dd import compile_split

    return any(cache_folder(compile_split.FOLDER).glob(compile_split.SEARCH_INDEX))


def solver_groups() -> list:
    """The double-dummy solver's helpers in two groups (``solvers.dd.compile_split``) when its search is not
    cached, else none: compiled by :func:`compile_in_parallel`, they leave only the search's own compile to
    the solver's import. The solver is not imported."""
    from analyzer.solvers.dd import compile_split

    return [] if solver_cached() else compile_split.compile_groups()


def compile_solver_helpers(processes: int | None = None) -> int:
    """On a cold cache of the solver, compile its helpers (:func:`solver_groups`) at once, the last (larger)
    group in this process and the others in processes of their own; the solver's import then compiles only
    its search. A warm cache starts no process.

    Parameters
    ----------
    processes : int, optional
        As in :func:`compile_in_parallel` (by default one per core).

    Returns
    -------
    int
        The processes used, this one included (0: the solver was cached, nothing compiled).
    """
    helpers = solver_groups()
    if not helpers:
        return 0
    return compile_in_parallel(helpers[:-1], processes=processes, here=helpers[-1])
