"""Stopping real runs: Ctrl-C, SIGTERM and ``kill -9`` of the parent stop every worker at once, keep the
finished chunks, and ``analyzer resume`` then gives the uninterrupted run's files byte for byte."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil  # a dependency of distributed
import pytest
from run_files import assert_same_run

# 4 chunks of 16,000 deals dealt 1,000 times over: a few seconds per chunk, so with 2 workers the
# signal sent when chunks 0 and 1 are saved finds chunks 2 and 3 just started.
DEMO = ["runs", "demo", "--deals", "64000", "--chunk-size", "16000", "--rounds", "1000", "--seed", "4",
        "--workers", "2"]
N_CHUNKS = 4
# Workers must be gone this soon after the signal; the parent then still has its interpreter's own
# exit to go through (about a second on a loaded 2-core machine, with numba and pandas loaded).
WORKERS_GONE_SECONDS = 2.0
PARENT_EXIT_SECONDS = 4.0
# The manifest keys that record when, where and how long, not what (the command line names the --out folder).


def analyzer(*args, **popen):
    return subprocess.Popen([sys.executable, "-m", "analyzer", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)


def chunk_files(run_dir: Path) -> list[Path]:
    """The chunk files a resume reuses: those recorded in the ledger (a file whose line a kill -9 cut off
    is computed again)."""
    stage = run_dir / "chunks" / "deals"
    ledger = stage / "ledger.jsonl"
    recorded = set()
    for line in ledger.read_text().splitlines() if ledger.is_file() else []:
        try:
            recorded.add(json.loads(line)["chunk"])
        except (ValueError, KeyError):
            continue  # a line torn by the kill
    return sorted(stage / f"chunk-{index:06d}.npz" for index in recorded)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The same command, uninterrupted."""
    out = tmp_path_factory.mktemp("reference")
    process = analyzer(*DEMO, "--out", str(out))
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    return out


def alive(process: psutil.Process) -> bool:
    """Running, not merely a zombie waiting for its (possibly adoptive) parent to reap it."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_gone(processes, timeout: float) -> list[psutil.Process]:
    """Wait up to ``timeout`` for ``processes`` to end; return those still running."""
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in processes) and time.monotonic() < deadline:
        time.sleep(0.02)
    return [p for p in processes if alive(p)]


def describe(process: psutil.Process) -> str:
    """A leftover worker's pid, state and CPU seconds, for the failure message."""
    try:
        with process.oneshot():
            cpu = process.cpu_times()
            return f"pid {process.pid} {process.status()}, {cpu.user + cpu.system:.1f} CPU-s"
    except psutil.NoSuchProcess:
        return f"pid {process.pid} gone"


def start_then_stop(run_dir: Path, how: str, *extra: str):
    """Start the demo, stop it as ``how`` says once 2 chunks are saved; return (exit code, stderr, kept chunks)."""
    # Own session: Ctrl-C in a terminal goes to the whole foreground process group, workers included.
    # Default Ctrl-C handling, as a terminal's foreground job has it: a pytest started as a shell's
    # background job ignores SIGINT, the run would inherit that, and Python rightly keeps ignoring it.
    process = analyzer(*DEMO, *extra, "--out", str(run_dir), start_new_session=True,
                       preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 180
    while len(chunk_files(run_dir)) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before it could be stopped"
    descendants = psutil.Process(process.pid).children(recursive=True)
    # Not the resource tracker, a helper that leaves when the parent does.
    workers = [p for p in descendants if "spawn_main" in " ".join(p.cmdline())]
    assert len(workers) == 2
    sent = time.monotonic()
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)
    elif how == "sigterm":
        process.send_signal(signal.SIGTERM)
    else:
        process.kill()
    left = wait_gone(workers, WORKERS_GONE_SECONDS)
    # What the leftovers were doing (running, sleeping, disk-sleep) and whether the run had exited
    # says whether the run failed to stop them or the machine was slow to let them go.
    seen = [describe(p) for p in left]
    for orphan in left:
        orphan.kill()
    assert not left, (f"{len(left)} worker process(es) still running {WORKERS_GONE_SECONDS} s after {how}: "
                      f"{'; '.join(seen)}; the run had {'exited' if process.poll() is not None else 'not exited'}; "
                      f"load {os.getloadavg()[0]:.1f}")
    _, stderr = process.communicate(timeout=60)
    exited = time.monotonic() - sent
    assert exited < PARENT_EXIT_SECONDS, f"the run took {exited:.1f} s to exit after {how}"
    assert not wait_gone(descendants, 2.0), "a helper process outlived the run"
    kept = {path.name: path.stat().st_mtime_ns for path in chunk_files(run_dir)}
    return process.returncode, stderr, kept


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "kill-9"])
def test_stopped_run_stops_its_workers_at_once_and_resumes_to_the_uninterrupted_files(tmp_path, reference, how):
    run_dir = tmp_path / "run"
    code, stderr, kept = start_then_stop(run_dir, how)
    assert 2 <= len(kept) < N_CHUNKS
    manifest = json.loads((run_dir / "manifest.json").read_text())
    if how == "kill-9":
        assert code == -signal.SIGKILL
        assert manifest["status"] == "running"  # no chance to say otherwise; the catalog calls it crashed
    else:
        assert code == 130, stderr
        assert manifest["status"] == "interrupted"
        assert manifest["stages"]["deals"]["chunks_done"] == len(kept)
        assert f"finish with: analyzer resume {run_dir}" in stderr
    resumed = analyzer("resume", str(run_dir))
    _, resume_stderr = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, resume_stderr
    assert_same_run(run_dir, reference)
    # The chunks finished before the stop were reused, not recomputed.
    assert {name: (run_dir / "chunks" / "deals" / name).stat().st_mtime_ns for name in kept} == kept


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_local_dask_cluster_stops_at_once_too(tmp_path, how):
    run_dir = tmp_path / "run"
    code, stderr, kept = start_then_stop(run_dir, how, "--scheduler", "local:2")
    assert code == 130, stderr
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "interrupted"
    assert 2 <= len(kept) < N_CHUNKS
