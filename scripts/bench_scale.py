"""Benchmark ``analyzer rikken bids`` at growing sizes: peak memory of all its processes, wall time, bytes
stored per hand.

Each size runs the real command (2 local workers unless ``--workers``) in a subprocess on a fresh
seed (printed; ``--seed`` repeats a run); the resident memory of the command and every worker it
started is sampled five times a second and summed, and the peak of that sum is reported beside the
wall time, the time per million deals (flat when time grows linearly) and the bytes of the stored
``hands/`` dataset per hand. The target: peak <= 2 GiB at every size.

Usage: ``python3 scripts/bench_scale.py [--sizes 100000,1000000,10000000] [--workers 2] [--seed S]``
"""

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
from analyzer.reports.dataset import dataset_bytes

GIB = 1 << 30


def tree_rss(process: psutil.Process) -> int:
    """Resident bytes of a process and all its descendants (processes that vanish count as 0)."""
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            continue
    return total


def measure(deals: int, workers: int, seed: int, out: Path) -> tuple[float, int, int]:
    """Run the command once: (wall seconds, peak summed RSS bytes, dataset bytes)."""
    command = [sys.executable, "-m", "analyzer", "rikken", "bids", "--deals", str(deals), "--workers", str(workers),
               "--seed", str(seed), "--out", str(out), "--json"]
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    watched = psutil.Process(child.pid)
    peak = 0
    while child.poll() is None:
        peak = max(peak, tree_rss(watched))
        time.sleep(0.2)
    seconds = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"rikken bids --deals {deals} failed with exit code {child.returncode}")
    return seconds, peak, dataset_bytes(out / "hands")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000,10000000", help="Comma-separated numbers of deals.")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None, help="Run seed (default: a fresh one, printed).")
    args = parser.parse_args()
    seed = secrets.randbelow(2**31) if args.seed is None else args.seed
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"rikken bids, all contracts, heuristic play, {args.workers} workers, seed {seed}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"{'deals':>11} {'hands':>11} {'wall s':>8} {'s per M deals':>14} {'peak RSS (all)':>15} "
          f"{'stored':>10} {'bytes/hand':>11} {'<= 2 GiB':>9}")
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as scratch:
        for deals in sizes:
            out = Path(scratch) / f"run-{deals}"
            seconds, peak, stored = measure(deals, args.workers, seed, out)
            hands = 4 * deals
            print(f"{deals:11,} {hands:11,} {seconds:8.1f} {seconds / deals * 1e6:14.1f} {peak / GIB:11.2f} GiB "
                  f"{stored / 1e6:7.0f} MB {stored / hands:11.1f} {'yes' if peak <= 2 * GIB else 'NO':>9}",
                  flush=True)
            subprocess.run(["rm", "-rf", str(out)], check=True)


if __name__ == "__main__":
    main()
