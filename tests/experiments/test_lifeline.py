"""A worker whose parent dies by ``kill -9`` ends within a second, even while a numba kernel holds the GIL."""

import subprocess
import sys
import time

import psutil  # a dependency of distributed
import pytest

# Watches its parent, then spins in one numba call for a minute without ever releasing the GIL.
WORKER = r"""
import sys
import numba
from analyzer.experiments.lifeline import watch_parent

@numba.njit
def spin(seconds):
    state, steps = 1, 0
    while steps < seconds * 200_000_000:
        state = (state * 6364136223846793005 + 1442695040888963407) % 18446744073709551557
        steps += 1
    return state

spin(0)
watch_parent(int(sys.argv[1]))
print("spinning", flush=True)
spin(60)
"""
# Starts the worker, says its pid once the worker is spinning, then waits to be killed.
PARENT = r"""
import os, subprocess, sys, time
worker = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid())], stdout=subprocess.PIPE, text=True)
assert worker.stdout.readline().strip() == "spinning"
print(worker.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the GIL-free watch is POSIX only")
def test_orphaned_worker_busy_in_a_kernel_ends_soon_after_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT, WORKER], stdout=subprocess.PIPE, text=True)
    worker = psutil.Process(int(parent.stdout.readline()))
    time.sleep(0.5)  # well inside the kernel
    parent.kill()
    parent.wait()
    killed = time.monotonic()
    try:
        while time.monotonic() - killed < 5 and worker.status() != psutil.STATUS_ZOMBIE:
            time.sleep(0.02)
    except psutil.NoSuchProcess:
        pass
    outlived = time.monotonic() - killed
    if worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE:
        worker.kill()
    assert outlived < 1.5, f"the orphaned worker ran on for {outlived:.1f} s"
