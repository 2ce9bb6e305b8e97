"""Where chunks run: this process, local worker processes, or a Dask cluster.

A backend is a context manager whose ``run(task, params, chunks)`` yields ``(chunk, result)`` pairs
as chunks finish, in any order; the runner puts them back in chunk order. Leaving the iteration
early (Ctrl-C, SIGTERM, an error) cancels the chunks not yet finished.
"""

import logging
import multiprocessing
import re
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from analyzer.errors import InputError

_LOCAL_CLUSTER = re.compile(r"local:(\d+)")


def make_backend(spec: str | None, workers: int):
    """Build the backend named by ``spec``.

    Parameters
    ----------
    spec : str or None
        ``None``, ``""`` or ``"local"``: local processes (``workers`` of them, 1 = this process);
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
    if spec is None or spec in ("", "local"):
        return LocalBackend(workers)
    match = _LOCAL_CLUSTER.fullmatch(spec)
    if match is not None:
        n_workers = int(match.group(1))
        if n_workers < 1:
            raise InputError(f"a local Dask cluster needs at least 1 worker, got {spec!r}")
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

    def run(self, task, params, chunks):
        """Yield ``(chunk, result)`` for every chunk as it finishes."""
        if self.workers == 1 or len(chunks) <= 1:
            for chunk in chunks:
                yield chunk, task(params, chunk.start, chunk.count, chunk.seed_seq)
            return
        # "spawn" keeps workers free of the parent's threads and locks; numba's on-disk cache makes it cheap.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(self.workers, len(chunks)), mp_context=context,
                                 initializer=_ignore_sigint) as pool:
            pending = {pool.submit(task, params, c.start, c.count, c.seed_seq): c for c in chunks}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        chunk = pending.pop(future)
                        yield chunk, future.result()
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                _terminate_workers(pool)
                raise


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them cleanly (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the chunks in flight now rather than after they finish (their results would be lost anyway)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    # Before Python 3.14 the executor has no public way to stop running tasks; its process table is the only handle.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


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

    def describe(self) -> str:
        """A short label for manifests and logs."""
        if self.address is not None:
            return f"dask {self.address}"
        return f"dask LocalCluster ({self.n_workers})"

    def __enter__(self):
        from distributed import Client, LocalCluster

        if self.address is None:
            # One thread per worker: the kernels are CPU-bound and hold the GIL in their Python parts.
            self._cluster = LocalCluster(n_workers=self.n_workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, silence_logs=logging.ERROR)
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(self.address, timeout=self.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise InputError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        return self

    def __exit__(self, *exc_info):
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = self._cluster = None
        return False

    def run(self, task, params, chunks):
        """Yield ``(chunk, result)`` for every chunk as it finishes."""
        from distributed import as_completed

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
        except BaseException:
            client.cancel([f for f, _ in futures.values()])
            raise
