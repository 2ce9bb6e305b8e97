"""A real Dask cluster on localhost (``dask scheduler`` and two ``dask worker`` processes): a run survives a
worker killed mid-run with the files of a local run, and a lost scheduler stops it in one line, its finished
chunks kept for ``analyzer resume``.

The cluster runs in a folder of its own and the run is given a relative ``--out``: a worker resolving the
rows' folder against its own working directory would write them where the run cannot see them.
"""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_files import assert_same_run

# 6 chunks of 8,000 deals dealt 400 times over: about a second per chunk on a quiet core, so both
# workers are inside a chunk when the first one is saved.
DEMO = ["runs", "demo", "--deals", "48000", "--chunk-size", "8000", "--rounds", "400", "--seed", "9"]
N_CHUNKS = 6
RUN = "run"
# The manifest keys that record when, where, how long and on which backend, not what.
DASK = Path(sys.executable).with_name("dask")
START_SECONDS = 120


def analyzer(cwd: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def saved_chunks(run_dir: Path) -> set[int]:
    """The chunks recorded in the ledger (a line torn by a kill is not one)."""
    ledger = run_dir / "chunks" / "deals" / "ledger.jsonl"
    recorded = set()
    for line in ledger.read_text().splitlines() if ledger.is_file() else []:
        try:
            recorded.add(json.loads(line)["chunk"])
        except (ValueError, KeyError):
            continue
    return recorded


def wait_for(condition, what: str, timeout: float = START_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what} after {timeout} s"
        time.sleep(0.05)


class Cluster:
    """A scheduler and two single-threaded workers without nannies (a killed worker stays dead), on 127.0.0.1."""

    def __init__(self, folder: Path):
        folder.mkdir()
        self.folder = folder
        scheduler_file = folder / "scheduler.json"
        common = ["--host", "127.0.0.1", "--no-dashboard"]
        self.scheduler = self._start("scheduler", "--port", "0", "--scheduler-file", str(scheduler_file), *common)
        wait_for(lambda: scheduler_file.is_file() and scheduler_file.stat().st_size > 0, "scheduler file")
        self.address = json.loads(scheduler_file.read_text())["address"]
        self.workers = [self._start("worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                    "--no-nanny", *common, log=f"worker-{i}.log") for i in range(2)]
        wait_for(lambda: all("Registered to" in (folder / f"worker-{i}.log").read_text() for i in range(2)),
                 "two registered workers")

    def _start(self, role: str, *args: str, log: str | None = None) -> subprocess.Popen:
        with open(self.folder / (log or f"{role}.log"), "w") as output:
            return subprocess.Popen([str(DASK), role, *args], cwd=self.folder, stdout=output, stderr=output)

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


@pytest.fixture
def cluster(tmp_path):
    running = Cluster(tmp_path / "cluster")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The same command on 2 local processes."""
    folder = tmp_path_factory.mktemp("reference")
    process = analyzer(folder, *DEMO, "--workers", "2", "--out", RUN)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    return folder / RUN


def start_and_wait_for_a_chunk(tmp_path: Path, cluster: Cluster) -> subprocess.Popen:
    """The demo on the cluster, once its first chunk is saved (both workers then inside a chunk)."""
    process = analyzer(tmp_path, *DEMO, "--scheduler", cluster.address, "--out", RUN)
    wait_for(lambda: saved_chunks(tmp_path / RUN) or process.poll() is not None, "saved chunk")
    assert process.poll() is None, f"the run ended before anything was stopped: {process.communicate()[1]}"
    return process


def test_a_worker_killed_mid_run_changes_no_file(tmp_path, cluster, reference):
    process = start_and_wait_for_a_chunk(tmp_path, cluster)
    cluster.workers[0].send_signal(signal.SIGKILL)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    assert len(saved_chunks(tmp_path / RUN)) == N_CHUNKS
    assert_same_run(tmp_path / RUN, reference, across_backends=True)


def test_a_lost_scheduler_stops_the_run_in_one_line_and_resume_finishes_it(tmp_path, cluster, reference):
    process = start_and_wait_for_a_chunk(tmp_path, cluster)
    cluster.scheduler.send_signal(signal.SIGKILL)
    _, stderr = process.communicate(timeout=120)
    kept = saved_chunks(tmp_path / RUN)
    assert process.returncode == 2, stderr
    assert stderr.splitlines() == [f"error: lost the Dask scheduler at {cluster.address}: {len(kept)}/{N_CHUNKS} "
                                   f"chunks saved; finish with: analyzer resume {RUN}"]
    assert 1 <= len(kept) < N_CHUNKS
    assert json.loads((tmp_path / RUN / "manifest.json").read_text())["status"] == "failed"
    chunk_times = {i: (tmp_path / RUN / "chunks" / "deals" / f"chunk-{i:06d}.npz").stat().st_mtime_ns for i in kept}
    resumed = analyzer(tmp_path, "resume", RUN)
    _, resume_stderr = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, resume_stderr
    assert_same_run(tmp_path / RUN, reference, across_backends=True)
    # The chunks finished before the scheduler went were reused, not recomputed.
    assert {i: (tmp_path / RUN / "chunks" / "deals" / f"chunk-{i:06d}.npz").stat().st_mtime_ns for i in kept} \
        == chunk_times
