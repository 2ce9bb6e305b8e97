"""Benchmark the chunk runner's backends on one real run, side by side.

Runs the Rikken bid-success experiment as ``rikken bids`` does (deal, evaluate every contract every
hand could declare, play it out with the heuristic policy; each worker writes its chunk's rows as a
Parquet part and sends back only the chunk's moments) over the same deals, seed and chunk size with:
1 local worker (the anchor), 2 local worker processes, and a throw-away Dask LocalCluster with 2
workers. Prints wall times (start-up included: that is what a user waits for), the start-up alone
(the same backend on a 2-chunk run of 2 deals), throughput net of start-up, the speed-up of 2
workers over 1, and the Dask overhead against 2 local processes; checks that all three give
identical summaries. A fresh seed every run unless ``--seed`` is given (printed either way).

Usage: ``python3 scripts/bench_runner.py [--deals 200000] [--chunk-size 20000] [--seed S]``
"""

import argparse
import os
import secrets
import tempfile
import time

PARAMS = {"policy": "heuristic", "dealing": "random", "contracts": list(range(16))}


def timed(deals: int, chunk_size: int, seed: int, workers: int, backend: str | None):
    # Imported here, as the ``analyzer`` command does: a spawned worker re-imports this script, and
    # top-level imports would charge every worker's start-up with them.
    from analyzer.experiments.runner import run_chunks
    from analyzer.games.rikken.experiments import bids_chunk
    from analyzer.games.rikken.summary import bids_moments, merge_bids_moments

    with tempfile.TemporaryDirectory(prefix="bench-runner-") as rows_dir:
        started = time.perf_counter()
        chunks = run_chunks(bids_chunk, PARAMS, deals, seed=seed, chunk_size=chunk_size, workers=workers,
                            description="bench", backend=backend, rows_dir=rows_dir, aggregate=bids_moments)
        return time.perf_counter() - started, merge_bids_moments(chunks)


def main() -> None:
    import pandas

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--chunk-size", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=None, help="Run seed (default: a fresh one, printed).")
    args = parser.parse_args()
    args.seed = secrets.randbelow(2**31) if args.seed is None else args.seed
    # Compile (or load from numba's cache) in this process first, so the anchor does not pay for it.
    timed(50, 50, 0, 1, None)
    rows = []
    reference = None
    for label, workers, backend in [("local, 1 worker (anchor)", 1, None), ("local, 2 worker processes", 2, None),
                                    ("dask LocalCluster, 2 workers", 1, "local:2")]:
        startup, _ = timed(2, 1, args.seed, workers, backend)
        seconds, table = timed(args.deals, args.chunk_size, args.seed, workers, backend)
        if reference is None:
            reference = table
        else:
            pandas.testing.assert_frame_equal(reference, table)
        rows.append((label, seconds, startup))
    anchor = rows[0][1]
    print(f"{args.deals:,} deals in chunks of {args.chunk_size:,}, seed {args.seed}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; summaries identical on all backends")
    print(f"{'backend':30} {'seconds':>8} {'vs anchor':>10} {'start-up s':>11} {'net deals/s':>12}")
    for label, seconds, startup in rows:
        net = args.deals / max(seconds - startup, 1e-9)
        print(f"{label:30} {seconds:8.2f} {anchor / seconds:9.2f}x {startup:11.2f} {net:12,.0f}")
    print(f"speed-up 1 -> 2 local workers: {anchor / rows[1][1]:.2f}x "
          f"(net of start-up: {(rows[0][1] - rows[0][2]) / (rows[1][1] - rows[1][2]):.2f}x)")
    print(f"dask overhead vs 2 local processes (time ratio): {rows[2][1] / rows[1][1]:.2f} "
          f"(net of start-up: {(rows[2][1] - rows[2][2]) / (rows[1][1] - rows[1][2]):.2f})")


if __name__ == "__main__":
    main()
