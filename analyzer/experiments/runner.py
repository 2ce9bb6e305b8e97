"""Run an experiment as seeded chunks, in this process, in worker processes or on a Dask cluster.

Each chunk gets its own ``SeedSequence`` child, spawned from the run seed in chunk order, so a
chunk's result depends only on (seed, chunk size, chunk index): never on how many workers ran it,
in what order, or on which backend. Given a ``RunStore``, every finished chunk is checkpointed into
the run directory and the manifest tracks the run's status, so an interrupted run can be resumed.
A task may call ``analyzer.experiments.progress.report_items`` as its items finish, so that the
progress bar moves within long chunks.
"""

import os
import signal
import sys
import threading
import time
import weakref
from contextlib import closing, contextmanager
from functools import partial
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from analyzer.errors import InputError
from analyzer.experiments.backends import ClusterFailure, make_backend
from analyzer.experiments.checkpoint import (
    ChunkCheckpoint,
    fingerprint,
    params_digest,
    params_summary,
    remove_leftovers,
    task_name,
)
from analyzer.reports.integrity import describe_part
from analyzer.experiments.runstate import RunState
from analyzer.reports.dataset import write_part
from analyzer.reports.manifest import STAGE_NAME, read_manifest_if_any
from analyzer.reports.progress import chunk_progress

MAX_CHUNKS = 100_000
# How many of a stage's costliest chunks the manifest's ``timings`` name with their CPU seconds: a tail of a
# few slow chunks is what a run's mean hides (the bids-dd runs of issue 36).
SLOWEST_KEPT = 10
# How many run_chunks calls each store has seen: unnamed stages are named by call order.
_stage_calls: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()


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
    n_chunks = check_chunk_count(n_items, chunk_size)
    seeds = np.random.SeedSequence(seed).spawn(n_chunks)
    return [Chunk(i, i * chunk_size, min(chunk_size, n_items - i * chunk_size), seeds[i]) for i in range(n_chunks)]


def check_chunk_count(n_items: int, chunk_size: int) -> int:
    """The number of chunks of ``n_items``; an absurd count (each chunk is a seed and a checkpoint file,
    and planning a billion would hang) is an ``InputError``."""
    n_chunks = -(-n_items // chunk_size)
    if n_chunks > MAX_CHUNKS:
        raise InputError(f"{n_items:,} items in chunks of {chunk_size:,} make {n_chunks:,} chunks, more than "
                         f"{MAX_CHUNKS:,}: raise --chunk-size")
    return n_chunks


def run_chunks(task: Callable[[dict, int, int, np.random.SeedSequence], Any], params: dict, n_items: int, *,
               seed: int, chunk_size: int, workers: int, description: str = "chunks", store=None,
               backend: str | None = None, stage: str | None = None, rows_dir=None,
               aggregate: Callable[[Any], Any] | None = None) -> list:
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
        Local worker processes; 1 runs in this process. Ignored by Dask backends.
    description : str
        Label of the progress bar.
    store : RunStore, optional
        Checkpoint every finished chunk into ``store.root / "chunks" / <stage>`` and keep the run's
        status in its manifest. Chunks already there from an earlier, identical call (same task,
        params, seed, chunk size and number of items) are reused instead of recomputed.
    backend : str, optional
        ``None``/``"local"`` (local processes), ``"local:N"`` (throw-away Dask LocalCluster with N
        workers) or ``"tcp://HOST:PORT"`` (existing Dask scheduler). Results do not depend on it.
    stage : str, optional
        Name of this call's chunk directory; by default ``stage-00``, ``stage-01``, ... in the order
        of the calls made with the same store, so an experiment calling run_chunks twice keeps both.
    rows_dir : path-like, optional
        With ``aggregate``: the task's result is a table of rows, which the worker that computed it
        writes as one Parquet part of this dataset folder; only ``aggregate(rows)``, a small summary,
        travels back, is checkpointed and is returned. Memory then stays flat in the size of the run.
    aggregate : callable, optional
        Summary of one chunk's rows (see ``rows_dir``); it must be picklable.

    Returns
    -------
    list
        One result per chunk, in chunk order.

    Raises
    ------
    InputError
        On bad sizes, an unknown backend, or a run directory holding chunks of a different run.
    KeyboardInterrupt
        On Ctrl-C or SIGTERM, after marking the run ``interrupted``.
    """
    if (rows_dir is None) != (aggregate is None):
        raise InputError("rows_dir and aggregate go together")
    runner = make_backend(backend, workers)
    # Absolute: a Dask worker resolves a relative folder against its own working directory.
    work = task if rows_dir is None else partial(_rows_then_aggregate, task, aggregate, str(Path(rows_dir).resolve()))
    work = partial(_cpu_timed, work)
    chunks = plan_chunks(n_items, chunk_size, seed)
    results: list = [None] * len(chunks)
    done: set[int] = set()
    checkpoint = state = None
    if store is not None:
        stage = _stage_name(store, stage)
        state = RunState(store)  # first: refuses a corrupt or newer run directory before anything is written
        checkpoint = ChunkCheckpoint(store.root, stage, fingerprint(task, params, seed, chunk_size, n_items))
        for index, result in checkpoint.open(len(chunks)).items():
            results[index] = result
            done.add(index)
        remove_leftovers(store.root)  # a manifest or summary write cut short by kill -9
        if rows_dir is not None:
            remove_leftovers(rows_dir)
        state.begin_stage(stage, {"task": task_name(task), "description": description, "seed": seed,
                                  "params": params_summary(params), "params_sha256": params_digest(params),
                                  "n_items": n_items,
                                  "chunk_size": chunk_size, "chunks_total": len(chunks),
                                  "chunks_done": len(done), "backend": runner.describe()})
    todo = [chunk for chunk in chunks if chunk.index not in done]
    started = time.time()
    try:
        with _sigterm_as_interrupt(), chunk_progress(description, len(chunks), n_items, chunks_done=len(done),
                                                     items_done=n_items - sum(c.count for c in todo)) as advance:
            if todo:
                in_flight = _InFlight(todo, advance)
                with runner, closing(runner.run(work, params, todo, progress=in_flight.report)) as stream:
                    for chunk, (result, cpu) in stream:
                        part = None
                        if rows_dir is not None:
                            result, part = result
                            _check_part_visible(chunk, part)
                        results[chunk.index] = result
                        if checkpoint is not None:
                            checkpoint.save(chunk.index, result, part)
                        done.add(chunk.index)
                        if state is not None:
                            _note_cpu(state.manifest, stage, chunk.index, cpu)
                            state.chunk_done(stage, len(done))
                        in_flight.finish(chunk)
    except KeyboardInterrupt:
        if state is not None:
            # The stop can land between a chunk's file and its count: count the files resume will reuse.
            saved = checkpoint.count(len(chunks))
            state.stopped(stage, saved, "interrupted")
            print(f"interrupted: {saved}/{len(chunks)} chunks saved; finish with: analyzer resume {store.root}",
                  file=sys.stderr)
        raise
    except ClusterFailure as exc:
        if state is None:
            raise
        saved = checkpoint.count(len(chunks))
        state.stopped(stage, saved, "failed")
        raise type(exc)(f"{exc}: {saved}/{len(chunks)} chunks saved; finish with: analyzer resume {store.root}") \
            from None
    except BaseException:
        if state is not None:
            state.stopped(stage, checkpoint.count(len(chunks)), "failed")
        raise
    if rows_dir is not None:
        remove_leftovers(rows_dir)  # of a part write cut short by a lost Dask worker
    if state is not None:
        state.manifest["stages"][stage].update(checkpoint.seal())
        state.end_stage(stage, time.time() - started)
    return results


def check_run_dir(run_dir, task, params, n_items: int, *, seed, chunk_size: int, stage: str | None = None) -> None:
    """Refuse, writing nothing, a run directory that holds another run.

    ``run_chunks`` makes the same checks, but an experiment that writes its manifest first would by
    then have overwritten the other run's seed and command: it calls this before writing anything.

    Parameters
    ----------
    run_dir : path-like or None
        The run directory (``--out``); None, a fresh default directory, has nothing to check.
    task, params, n_items, seed, chunk_size
        As they will be passed to ``run_chunks``.
    stage : str, optional
        The experiment's first stage, as ``run_chunks`` will name it; by default its first unnamed one.

    Raises
    ------
    InputError
        If the directory's manifest is corrupt or newer, records stages but not this one (a run of
        another experiment), or its chunks of ``stage`` belong to a different computation.
    """
    if run_dir is None:
        return
    recorded = read_manifest_if_any(run_dir).get("stages") or {}
    name = _unnamed_stage(0) if stage is None else _checked_stage(stage)
    if recorded and name not in recorded:
        raise InputError(f"{run_dir} holds another experiment's run (stages {', '.join(recorded)}); "
                         "use another --out or delete it")
    ChunkCheckpoint(run_dir, name, fingerprint(task, params, seed, chunk_size, n_items)).verify()


class _InFlight:
    """Items reported from inside running chunks, so that a finished chunk adds only the rest of its items."""

    def __init__(self, chunks: list[Chunk], advance):
        self._left = {chunk.start: chunk.count for chunk in chunks}
        self._advance = advance

    def report(self, start: int, items: int) -> None:
        """``items`` more done in the chunk starting at ``start``; late reports of a finished chunk are dropped."""
        items = min(items, self._left.get(start, 0))
        if items > 0:
            self._left[start] -= items
            self._advance(items)

    def finish(self, chunk: Chunk) -> None:
        """``chunk`` is done: count its unreported items and the chunk."""
        self._advance(self._left.pop(chunk.start), chunks=1)


def _cpu_timed(task, params, start: int, count: int, seed_seq):
    """``task``'s result for one chunk and the CPU seconds its process spent on it."""
    begin = time.process_time()
    return task(params, start, count, seed_seq), time.process_time() - begin


def _note_cpu(manifest: dict, stage: str, index: int, cpu: float) -> None:
    """Keep chunk ``index``'s CPU seconds (of the process that ran it) among the stage's ``SLOWEST_KEPT``
    costliest in the manifest's ``timings["slowest_chunks"][stage]`` (``[chunk, CPU seconds]`` pairs, costliest
    first; kept across resumes). Timings are not part of a run's result: two runs of the same chunks differ
    only there."""
    slowest = manifest.setdefault("timings", {}).setdefault("slowest_chunks", {})
    kept = [pair for pair in slowest.get(stage, []) if pair[0] != index] + [[int(index), round(cpu, 3)]]
    slowest[stage] = sorted(kept, key=lambda pair: -pair[1])[:SLOWEST_KEPT]


def _rows_then_aggregate(task, aggregate, rows_dir: str, params, start: int, count: int, seed_seq):
    """Run one chunk in a worker: write its rows as a dataset part and return only their aggregate and the
    part's checksum record."""
    rows = task(params, start, count, seed_seq)
    path = write_part(rows_dir, start, rows)
    return aggregate(rows), describe_part(path, len(rows))


def _check_part_visible(chunk: Chunk, part) -> None:
    """Refuse rows written where this process cannot read them: a Dask worker on a disk of its own."""
    if not os.path.isfile(part.path):
        raise InputError(f"chunk {chunk.index}'s rows were written to {part.path} on a worker's disk, which this "
                         "machine does not see: put the run folder (--out) on a disk that every worker shares "
                         "at the same path (docs/cluster.md)")


def _stage_name(store, stage: str | None) -> str:
    calls = _stage_calls.get(store, 0)
    _stage_calls[store] = calls + 1
    return _unnamed_stage(calls) if stage is None else _checked_stage(stage)


def _unnamed_stage(call: int) -> str:
    return f"stage-{call:02d}"


def _checked_stage(stage: str) -> str:
    if not STAGE_NAME.fullmatch(stage):
        raise InputError(f"stage name {stage!r} must be letters, digits, '_', '.' or '-'")
    return stage


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same clean stop as Ctrl-C."""


@contextmanager
def _sigterm_as_interrupt():
    """While running chunks, let SIGTERM stop the run cleanly (manifest marked, workers stopped)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise _Terminated(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
