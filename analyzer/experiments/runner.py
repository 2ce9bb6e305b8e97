"""Run an experiment as seeded chunks, in this process or in worker processes.

Each chunk gets its own ``SeedSequence`` child, spawned from the run seed in chunk order, so a
chunk's result depends only on (seed, chunk size, chunk index): never on how many workers ran it,
in what order, or on which backend.
"""

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from analyzer.errors import InputError
from analyzer.reports.progress import chunk_progress


@dataclass(frozen=True)
class Chunk:
    """One unit of work: items ``start .. start + count - 1`` seeded by ``seed_seq``."""

    index: int
    start: int
    count: int
    seed_seq: np.random.SeedSequence


def plan_chunks(n_items: int, chunk_size: int, seed: int) -> list[Chunk]:
    """Split ``n_items`` into chunks of ``chunk_size`` (the last may be shorter), each with its own seed."""
    if n_items < 0:
        raise InputError(f"number of items must be >= 0, got {n_items}")
    if chunk_size < 1:
        raise InputError(f"chunk size must be >= 1, got {chunk_size}")
    n_chunks = -(-n_items // chunk_size)
    seeds = np.random.SeedSequence(seed).spawn(n_chunks)
    return [Chunk(i, i * chunk_size, min(chunk_size, n_items - i * chunk_size), seeds[i]) for i in range(n_chunks)]


def default_workers() -> int:
    """Number of local worker processes to use by default: one per core."""
    return os.cpu_count() or 1


def run_chunks(task: Callable[[dict, int, int, np.random.SeedSequence], Any], params: dict, n_items: int, *,
               seed: int, chunk_size: int, workers: int, description: str = "chunks") -> list:
    """Run ``task(params, start, count, seed_seq)`` over all chunks and return the results in chunk order.

    Parameters
    ----------
    task : callable
        A top-level (picklable) function computing one chunk.
    params : dict
        Picklable parameters passed unchanged to every chunk.
    n_items : int
        Total number of items (deals, rounds, games).
    seed : int
        Run seed.
    chunk_size : int
        Items per chunk; part of what defines the result.
    workers : int
        Worker processes; 1 runs in this process.
    description : str
        Label of the progress bar.

    Returns
    -------
    list
        One result per chunk, in chunk order.
    """
    if workers < 1:
        raise InputError(f"workers must be >= 1, got {workers}")
    chunks = plan_chunks(n_items, chunk_size, seed)
    results: list = [None] * len(chunks)
    with chunk_progress(description, len(chunks), n_items) as advance:
        if workers == 1 or len(chunks) <= 1:
            for chunk in chunks:
                results[chunk.index] = task(params, chunk.start, chunk.count, chunk.seed_seq)
                advance(chunk.count)
            return results
        # "spawn" keeps workers free of the parent's threads and locks; numba's on-disk cache makes it cheap.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=context) as pool:
            pending = {pool.submit(task, params, c.start, c.count, c.seed_seq): c for c in chunks}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        chunk = pending.pop(future)
                        results[chunk.index] = future.result()
                        advance(chunk.count)
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    return results
