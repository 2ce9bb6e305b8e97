"""Benchmark a Dask cluster of N workers against N local processes on the same ``rikken bids`` run.

Starts a ``dask scheduler`` and N ``dask worker --nthreads 1`` processes on 127.0.0.1 (kept for the whole
benchmark, as a user's standing cluster is; ``--cluster local`` instead passes ``--scheduler local:N``,
which starts a throw-away LocalCluster inside every run), then runs the same command, ``analyzer rikken
bids`` with the same fresh seed, alternately with ``--workers N`` and with ``--scheduler``, ``--repeats``
times each. Wall times are the whole command, start-up included: what a user waits for. Checks that both
backends give identical ``summary.csv`` files and prints each pair's ratio (Dask time / local time), their
median, and the load average before and after (the machine may be shared: compare ratios, not seconds).

Usage: ``python3 scripts/bench_dask.py [--deals 800000] [--chunk-size 20000] [--workers 2] [--repeats 2]
[--cluster tcp|local] [--seed S]``
"""

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DASK = Path(sys.executable).with_name("dask")


def start_cluster(folder: Path, workers: int) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and ``workers`` single-threaded workers on 127.0.0.1; returns its address and processes."""
    scheduler_file = folder / "scheduler.json"
    common = ["--host", "127.0.0.1", "--no-dashboard"]
    log = open(folder / "cluster.log", "w")
    processes = [subprocess.Popen([str(DASK), "scheduler", "--port", "0", "--scheduler-file", str(scheduler_file),
                                   *common], cwd=folder, stdout=log, stderr=log)]
    while not (scheduler_file.is_file() and scheduler_file.stat().st_size):
        time.sleep(0.1)
    processes += [subprocess.Popen([str(DASK), "worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                    *common], cwd=folder, stdout=log, stderr=log) for _ in range(workers)]
    address = json.loads(scheduler_file.read_text())["address"]
    from distributed import Client

    with Client(address, timeout="60s") as client:
        client.wait_for_workers(workers, timeout=120)
    return address, processes


def timed_run(folder: Path, args: list[str]) -> float:
    """Wall seconds of ``analyzer rikken bids ARGS --out folder``."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "analyzer", "rikken", "bids", *args, "--out", str(folder)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=800_000)
    parser.add_argument("--chunk-size", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--cluster", choices=["tcp", "local"], default="tcp")
    parser.add_argument("--seed", type=int, default=None, help="Run seed (default: a fresh one, printed).")
    args = parser.parse_args()
    seed = secrets.randbelow(2**31) if args.seed is None else args.seed
    common = ["--deals", str(args.deals), "--chunk-size", str(args.chunk_size), "--seed", str(seed)]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as scratch:
        scratch = Path(scratch)
        processes = []
        try:
            if args.cluster == "tcp":
                address, processes = start_cluster(scratch, args.workers)
            else:
                address = f"local:{args.workers}"
            backends = {"local": ["--workers", str(args.workers)], "dask": ["--scheduler", address]}
            # Compiles the kernels if no cache holds them yet, and lets the standing workers import the task.
            for name, extra in backends.items():
                timed_run(scratch / f"warm-{name}", ["--deals", "8", "--chunk-size", "4", *extra])
            times = {name: [] for name in backends}
            for repeat in range(args.repeats):
                for name, extra in backends.items():
                    times[name].append(timed_run(scratch / f"{name}-{repeat}", [*common, *extra]))
            summaries = {(scratch / f"{name}-{r}" / "summary.csv").read_bytes()
                         for name in backends for r in range(args.repeats)}
        finally:
            for process in processes:
                process.kill()
                process.wait()
    ratios = [dask / local for local, dask in zip(times["local"], times["dask"])]
    label = f"{args.workers} dask workers ({'dask scheduler + dask worker' if args.cluster == 'tcp' else 'local:N'})"
    print(f"rikken bids --deals {args.deals:,} --chunk-size {args.chunk_size:,} --seed {seed}, {os.cpu_count()} "
          f"cores, load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after; summary.csv "
          f"{'identical on both backends' if len(summaries) == 1 else 'DIFFERS between runs'}")
    print(f"{'repeat':>6} {f'{args.workers} local processes s':>22} {label + ' s':>48} {'dask / local':>13}")
    for repeat, (local, dask, ratio) in enumerate(zip(times["local"], times["dask"], ratios)):
        print(f"{repeat:>6} {local:22.2f} {dask:48.2f} {ratio:12.2f}x")
    print(f"median dask / local time: {statistics.median(ratios):.2f}x (goal: <= 1.10)")
    if len(summaries) != 1:
        sys.exit(1)


if __name__ == "__main__":
    main()
