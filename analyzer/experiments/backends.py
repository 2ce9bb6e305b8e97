"""Where chunks run: this process, local worker processes, or a Dask cluster.

A backend is a context manager whose ``run(task, params, chunks, progress)`` yields ``(chunk, result)``
pairs as chunks finish, in any order; the runner puts them back in chunk order. Leaving the
iteration early (Ctrl-C, SIGTERM, an error) stops the chunks in flight at once: local workers are
terminated, a LocalCluster's workers closed without waiting, other Dask tasks cancelled. Workers
this process starts end soon after it dies, even by ``kill -9`` (``lifeline``). On Dask a lost worker's
chunk runs again elsewhere, and a lost scheduler is a ``SchedulerLost`` error (a ``ClusterFailure``).
"""

import asyncio
import logging
import multiprocessing
import os
import re
import signal
import socket
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from analyzer.catalog import MAX_WORKERS
from analyzer.errors import InputError
from analyzer.experiments.lifeline import watch_parent
from analyzer.experiments.progress import REPORT_INTERVAL, run_reporting

_LOCAL_CLUSTER = re.compile(r"local:(\d+)")
# How long a terminated worker gets to exit before it is killed.
STOP_GRACE_SECONDS = 0.3
# How a closed connection is told from a lost scheduler (see DaskBackend._scheduler_listens).
SCHEDULER_PROBES = 3
SCHEDULER_PROBE_PAUSE_SECONDS = 0.5


def make_backend(spec: str | None, workers: int):
    """Build the backend named by ``spec``.

    Parameters
    ----------
    spec : str or None
        ``None`` or ``"local"``: local processes (``workers`` of them, 1 = this process);
        ``"local:N"``: a throw-away Dask ``LocalCluster`` with N worker processes;
        ``"tcp://HOST:PORT"`` (or ``tls://``): an existing Dask scheduler.
    workers : int
        Local worker processes for the default backend.

    Returns
    -------
    LocalBackend or DaskBackend
    """
    if workers < 1:
        raise InputError(f"workers must be >= 1, got {workers}")
    if spec is None or spec == "local":
        return LocalBackend(workers)
    if not spec.strip():
        raise InputError("--scheduler is empty: use local, local:N or tcp://HOST:PORT")
    match = _LOCAL_CLUSTER.fullmatch(spec)
    if match is not None:
        n_workers = int(match.group(1))
        if not 1 <= n_workers <= MAX_WORKERS:
            raise InputError(f"a local Dask cluster takes 1 to {MAX_WORKERS} workers, got {spec!r}")
        return DaskBackend(n_workers=n_workers)
    if re.fullmatch(r"(tcp|tls)://[^\s/]+:\d+", spec):
        return DaskBackend(address=spec)
    raise InputError(f"unknown scheduler {spec!r}: use local, local:N or tcp://HOST:PORT")


class LocalBackend:
    """Chunks in this process (one worker) or in a pool of spawned worker processes."""

    def __init__(self, workers: int):
        self.workers = workers

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def describe(self) -> str:
        """A short label for manifests and logs."""
        return f"local processes ({self.workers})"

    def run(self, task, params, chunks, progress=None):
        """Yield ``(chunk, result)`` for every chunk as it finishes.

        ``progress(start, items)``, if given, receives the ``report_items`` counts of running chunks
        (identified by their first item), always from the thread iterating this generator.
        """
        sink = progress or _ignore_items
        if self.workers == 1 or len(chunks) <= 1:
            for chunk in chunks:
                yield chunk, run_reporting(sink, task, params, chunk.start, chunk.count, chunk.seed_seq)
            return
        # "spawn" keeps workers free of the parent's threads and locks; numba's on-disk cache makes it cheap.
        context = multiprocessing.get_context("spawn")
        reports = context.SimpleQueue()
        pool = ProcessPoolExecutor(max_workers=min(self.workers, len(chunks)), mp_context=context,
                                   initializer=_init_worker, initargs=(os.getpid(), reports))
        try:
            pending = {pool.submit(_chunk_in_worker, task, params, c.start, c.count, c.seed_seq): c for c in chunks}
            while pending:
                # The timeout keeps in-chunk progress flowing while no chunk finishes.
                done, _ = wait(pending, timeout=REPORT_INTERVAL, return_when=FIRST_COMPLETED)
                _forward_reports(reports, sink)
                for future in done:
                    chunk = pending.pop(future)
                    yield chunk, future.result()
        except BaseException:
            _stop_now(pool)
            raise
        pool.shutdown(wait=True)


def _ignore_items(start: int, items: int) -> None:
    """The progress sink when nobody listens."""


# Where report_items counts go in a worker process (set by _init_worker).
_worker_reports = None


def _init_worker(parent_pid: int, reports) -> None:
    """Set up a local worker: bound to the parent (see ``_bind_to_parent``), progress sent to it."""
    global _worker_reports
    _bind_to_parent(parent_pid)
    _worker_reports = reports


def _bind_to_parent(parent_pid: int) -> None:
    """Leave Ctrl-C to the parent and end this worker soon after the parent dies.

    The parent stops its workers itself; a worker acting on the terminal's Ctrl-C (sent to the whole
    process group) would only print a traceback.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent_pid)


def _chunk_in_worker(task, params, start: int, count: int, seed_seq):
    """One chunk in a worker process, its ``report_items`` counts sent to the parent."""
    return run_reporting(_send_report, task, params, start, count, seed_seq)


def _send_report(start: int, items: int) -> None:
    _worker_reports.put((start, items))


def _forward_reports(reports, sink) -> None:
    while not reports.empty():
        sink(*reports.get())


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Stop the chunks in flight now rather than after they finish (their results would be lost anyway).

    The processes are taken first: ``shutdown`` forgets them (Python 3.11 to 3.13 then had nothing
    left to terminate, and the interpreter's exit waited for every running chunk).
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


class ClusterFailure(ConnectionError):
    """The Dask cluster could not finish a run (the CLI prints it as one line, exit code 2; resume finishes it)."""


class SchedulerLost(ClusterFailure):
    """The Dask scheduler went away during a run."""


class ChunkLost(ClusterFailure):
    """The cluster gave up on a chunk: its worker died each time it ran it (out of memory, a crash), which
    Dask reports as ``KilledWorker`` or as a future cancelled for another reason than a lost scheduler."""


_CHUNK_LOST = ("the Dask cluster gave up on a chunk ({reason}): its worker died each time it ran it (out of memory? "
               "see the workers' logs)")


class DaskBackend:
    """Chunks as tasks on a Dask distributed cluster: an existing scheduler or a throw-away LocalCluster.

    Parameters
    ----------
    address : str, optional
        Scheduler address (``tcp://HOST:PORT``).
    n_workers : int, optional
        Start a ``LocalCluster`` with this many single-threaded worker processes instead.
    connect_timeout : str
        How long to keep trying to reach the scheduler (a Dask duration).
    """

    def __init__(self, address: str | None = None, n_workers: int | None = None, connect_timeout: str = "10s"):
        self.address = address
        self.n_workers = n_workers
        self.connect_timeout = connect_timeout
        self._cluster = None
        self._client = None
        self._logging_disabled = None

    def probe(self, timeout: float = 5.0) -> None:
        """Check that the scheduler's address accepts connections (before a run writes anything).

        Raises
        ------
        InputError
            If nothing listens there.
        """
        if self.address is None:
            return
        host, port = self.address.split("://", 1)[1].rsplit(":", 1)
        try:
            socket.create_connection((host, int(port)), timeout=timeout).close()
        except (OSError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None

    def _scheduler_listens(self) -> bool:
        """Whether the scheduler's address still accepts connections (a LocalCluster's always does).

        Asked after a closed connection, so asked three times: a killed scheduler's listening socket
        can outlive its connections by a moment, and one lucky probe would call it alive.
        """
        for attempt in range(SCHEDULER_PROBES):
            if attempt:
                time.sleep(SCHEDULER_PROBE_PAUSE_SECONDS)
            try:
                self.probe(timeout=2.0)
            except InputError:
                return False
        return True

    def describe(self) -> str:
        """A short label for manifests and logs."""
        if self.address is not None:
            return f"dask {self.address}"
        return f"dask LocalCluster ({self.n_workers})"

    def __enter__(self):
        from analyzer.experiments.dask_worker import WorkerSetup

        # A lost scheduler or worker is the run's to report, in one line: Dask's loggers (each with a level of
        # its own) would add tracebacks.
        self._logging_disabled = logging.root.manager.disable
        logging.disable(logging.CRITICAL)
        try:
            self._connect()
            self._client.register_plugin(WorkerSetup(), name="analyzer-worker-setup")
        except BaseException:
            logging.disable(self._logging_disabled)
            raise
        return self

    def _connect(self) -> None:
        """Start the LocalCluster or reach the scheduler, and set ``self._client``."""
        from distributed import Client, LocalCluster

        if self.address is None:
            # One thread per worker: the kernels are CPU-bound and hold the GIL in their Python parts.
            self._cluster = LocalCluster(n_workers=self.n_workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, silence_logs=logging.ERROR)
            self._client = Client(self._cluster)
            # Dask's own orphan check is a Python thread, which a running kernel starves.
            self._client.register_plugin(_lifeline_plugin(os.getpid()), name="analyzer-lifeline")
        else:
            try:
                self._client = Client(self.address, timeout=self.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise InputError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None

    def __exit__(self, exc_type, exc, traceback):
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            if exc_type is not None:
                _close_workers_now(self._cluster)
            self._cluster.close()
        self._client = self._cluster = None
        logging.disable(self._logging_disabled)
        return False

    def run(self, task, params, chunks, progress=None):
        """Yield ``(chunk, result)`` for every chunk as it finishes.

        ``progress`` is accepted for the runner's sake and unused: on Dask the bar moves per chunk.
        """
        from distributed import KilledWorker, as_completed
        from distributed.client import FutureCancelledError
        from distributed.comm import CommClosedError

        client = self._client
        # Ship the parameters once, not once per chunk.
        [shared_params] = client.scatter([params], broadcast=True)
        futures = {}
        for chunk in chunks:
            future = client.submit(task, shared_params, chunk.start, chunk.count, chunk.seed_seq, pure=False)
            futures[future.key] = (future, chunk)
        try:
            for future in as_completed([f for f, _ in futures.values()]):
                yield futures[future.key][1], future.result()
        except (FutureCancelledError, CommClosedError) as exc:
            # The loss shows as cancelled futures or, when it cuts a result's transfer, as a closed connection.
            cancelled = isinstance(exc, FutureCancelledError) and exc.reason == "scheduler-connection-lost"
            if cancelled or (isinstance(exc, CommClosedError) and not self._scheduler_listens()):
                raise SchedulerLost(f"lost the Dask scheduler at {self.address or 'this process'}") from None
            client.cancel([f for f, _ in futures.values()])
            if isinstance(exc, FutureCancelledError):
                raise ChunkLost(_CHUNK_LOST.format(reason=exc.reason)) from None
            raise
        except KilledWorker:
            client.cancel([f for f, _ in futures.values()])
            raise ChunkLost(_CHUNK_LOST.format(reason="KilledWorker")) from None
        except BaseException:
            client.cancel([f for f, _ in futures.values()])
            raise


def _lifeline_plugin(parent_pid: int):
    """A Dask worker plugin binding each LocalCluster worker to this process (see ``_bind_to_parent``)."""
    from distributed import WorkerPlugin

    # Defined here so that importing this module does not import distributed; Dask pickles it by value.
    class Lifeline(WorkerPlugin):
        def setup(self, worker):
            _bind_to_parent(parent_pid)

    return Lifeline()


def _close_workers_now(cluster) -> None:
    """Stop a LocalCluster's workers without letting them finish their running chunks.

    ``LocalCluster.close`` gives each worker 5 s to finish; a stopped run has no use for that.
    """

    async def close_all():
        await asyncio.gather(*(nanny.close(timeout=STOP_GRACE_SECONDS) for nanny in list(cluster.workers.values())),
                             return_exceptions=True)

    cluster.sync(close_all)
