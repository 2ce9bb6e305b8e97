"""Backends: the same chunks give the same results in this process, in local workers and on Dask."""

import logging
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.experiments.backends import DaskBackend, LocalBackend, make_backend
from analyzer.experiments.demo import hcp_chunk
from analyzer.experiments.runner import plan_chunks, run_chunks
from analyzer.reports.manifest import read_manifest
from analyzer.reports.store import RunStore


@pytest.mark.parametrize("spec, expected", [(None, LocalBackend), ("local", LocalBackend), ("local:2", DaskBackend),
                                            ("tcp://10.0.0.5:8786", DaskBackend)])
def test_backend_specs(spec, expected):
    assert isinstance(make_backend(spec, 2), expected)


@pytest.mark.parametrize("spec", ["local:0", "dask", "tcp://host", "http://h:1", "local:x"])
def test_bad_backend_specs_are_input_errors(spec):
    with pytest.raises(InputError):
        make_backend(spec, 1)


def test_unreachable_scheduler_is_an_input_error():
    # Port 9 (discard) on localhost has no scheduler; the connection is refused at once.
    with pytest.raises(InputError, match="cannot reach"):
        with DaskBackend(address="tcp://127.0.0.1:9", connect_timeout="1s"):
            pass


def frame(results):
    return pd.concat(results, ignore_index=True)


def test_a_scheduler_that_stops_listening_between_probes_is_lost(monkeypatch):
    # A killed scheduler can still accept one connection while its others are already closed.
    answers = iter([None, InputError("refused"), None])

    def probe(timeout):
        answer = next(answers)
        if answer is not None:
            raise answer

    backend = DaskBackend(address="tcp://127.0.0.1:9")
    monkeypatch.setattr(backend, "probe", probe)
    monkeypatch.setattr("analyzer.experiments.backends.SCHEDULER_PROBE_PAUSE_SECONDS", 0)
    assert not backend._scheduler_listens()


def test_a_scheduler_that_answers_every_probe_listens(monkeypatch):
    backend = DaskBackend(address="tcp://127.0.0.1:9")
    monkeypatch.setattr(backend, "probe", lambda timeout: None)
    monkeypatch.setattr("analyzer.experiments.backends.SCHEDULER_PROBE_PAUSE_SECONDS", 0)
    assert backend._scheduler_listens()


def test_dask_backends_match_local_processes(tmp_path):
    from distributed import LocalCluster

    kwargs = dict(seed=11, chunk_size=300, description="test")
    local = frame(run_chunks(hcp_chunk, {}, 2_000, workers=1, **kwargs))
    throwaway = frame(run_chunks(hcp_chunk, {}, 2_000, workers=1, backend="local:2", store=RunStore(tmp_path),
                                 **kwargs))
    pd.testing.assert_frame_equal(local, throwaway)
    assert read_manifest(tmp_path)["stages"]["stage-00"]["backend"] == "dask LocalCluster (2)"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster:
        remote = frame(run_chunks(hcp_chunk, {}, 2_000, workers=1, backend=cluster.scheduler_address, **kwargs))
    pd.testing.assert_frame_equal(local, remote)


def test_the_console_script_entry_loads_no_command_line():
    """A spawned worker re-imports the script that started its parent: that import must stay cheap."""
    code = ("import sys, analyzer.__main__; "
            "print(sorted(m for m in sys.modules if m.startswith('analyzer.cli') or m in ('typer', 'rich')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def page_faults_of_big_arrays(params, start, count, seed_seq):
    """A chunk task: the minor page faults of making, filling and freeing ``count`` arrays of 1 MiB, and the
    worker's ``MALLOC_TRIM_THRESHOLD_``."""
    import os
    import resource

    import numpy as np

    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    for _ in range(count):
        np.empty(2**20, dtype=np.uint8).fill(1)
    return os.environ.get("MALLOC_TRIM_THRESHOLD_"), resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator and per-thread page faults")
def test_dask_workers_reuse_freed_memory_like_a_plain_process():
    """The nanny's MALLOC_TRIM_THRESHOLD_ makes glibc map every array above 128 KiB afresh: 256 page faults
    per MiB. A worker of the backend must reuse the freed block instead, as a local process does."""
    arrays = 200
    chunk = plan_chunks(arrays, arrays, 0)
    with DaskBackend(n_workers=1) as backend:
        [(_, (threshold, faults))] = list(backend.run(page_faults_of_big_arrays, {}, chunk))
    assert threshold == "65536"  # what makes it matter: Dask's default for the workers its nannies start
    assert faults < arrays * 256 // 10


def test_rows_written_where_this_machine_cannot_see_them_stop_the_run(tmp_path, monkeypatch):
    from analyzer.experiments import runner
    from analyzer.experiments.demo import hcp_sums
    from analyzer.reports.integrity import PartRecord

    # A worker with a disk of its own reports a part at a path that exists only there.
    monkeypatch.setattr(runner, "describe_part", lambda path, rows: PartRecord(
        str(tmp_path / "worker-disk" / Path(path).name), "0" * 64, rows))
    with pytest.raises(InputError, match=r"chunk 0's rows were written to .*worker-disk.* on a worker's disk"):
        run_chunks(hcp_chunk, {}, 100, seed=1, chunk_size=50, workers=1, description="test",
                   rows_dir=tmp_path / "deals", aggregate=hcp_sums)


def kill_own_worker(params, start, count, seed_seq):
    """A chunk task that kills the process running it, as an out-of-memory kill would."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_chunk_that_kills_its_worker_every_time_stops_the_run_in_one_resumable_line(tmp_path):
    from analyzer.experiments.backends import ChunkLost

    with pytest.raises(ChunkLost, match=r"gave up on a chunk .* died each time it ran it .*: 0/1 chunks saved; "
                                        r"finish with: analyzer resume"):
        run_chunks(kill_own_worker, {}, 10, seed=1, chunk_size=10, workers=1, backend="local:1",
                   store=RunStore(tmp_path), description="test")
    assert read_manifest(tmp_path)["status"] == "failed"
