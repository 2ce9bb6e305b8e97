"""First run against a warm run of each command: CPU seconds (user + system, the command and its workers)
and wall seconds with an empty numba cache, then again with the cache it filled, in one invocation.

    .venv/bin/python scripts/first_run.py [--only schnapsen] [--workers default]

Each command runs with a fresh ``NUMBA_CACHE_DIR`` (and ``--workers 1`` when it writes a run, or the
command's own default with ``--workers default``, as a new user runs it), so it compiles what it uses and
nothing else. Prints one row per command: cold and warm CPU-s, their difference (the compile cost), then
cold and warm wall seconds and their difference (the issue's goal: at most 20 s on a quiet 2-core machine).
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

#: The command line of the code on the path (a worktree's with ``PYTHONPATH``), not the installed entry point's.
ANALYZER = [sys.executable, "-m", "analyzer"]
DEAL = "N:AKQT86.A2.K73.95 J32.KQJ5.Q84.AK2 974.T987.AJ2.QJ8 5.643.T965.T7643"
FIRST_LEAD = "hand0=HJ SA SK SQ CJ; hand1=?; stock=? ? ? ? ? ? ? ? ? HA; leader=0"
COMMANDS = {
    "schnapsen match": ["schnapsen", "match", "--matches", "50"],
    "schnapsen closing": ["schnapsen", "closing", "--deals", "4"],
    "schnapsen advise": ["schnapsen", "advise", FIRST_LEAD],
    "seconds play": ["seconds", "play", "--players", "4", "--games", "50"],
    "rikken bids": ["rikken", "bids", "--deals", "2000"],
    "rikken play": ["rikken", "play", "--rounds", "2000"],
    "rikken advise": ["rikken", "advise", "AKQT86.A2.K73.95", "--deals", "2000"],
}
#: Commands that write no run (no --workers, no --out).
PLAIN = {
    "rikken deal": ["rikken", "deal", "-n", "1000"],
    "rikken solve": ["rikken", "solve", DEAL],
    "rikken replay": ["rikken", "replay", "--seed", "1", "--index", "3", "--no-judge"],
    "rikken replay judged": ["rikken", "replay", DEAL],
}


def seconds(args: list[str], cache: str, out: str | None, workers: str) -> tuple[float, float]:
    """CPU seconds (user + system of the command and its children) and wall seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = [] if out is None else ["--out", out] + ([] if workers == "default" else ["--workers", workers])
    start = time.perf_counter()
    subprocess.run([*ANALYZER, *args, *run], check=True, capture_output=True,
                   env={**os.environ, "NUMBA_CACHE_DIR": cache})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the commands whose name contains this")
    parser.add_argument("--workers", default="1", help="workers of a command that writes a run, or 'default'")
    options = parser.parse_args()
    chosen = options.only
    print(f"{'command':<20} {'cold CPU-s':>10} {'warm CPU-s':>10} {'compile':>8} "
          f"{'cold wall':>9} {'warm wall':>9} {'+wall':>6}")
    for name, args in {**COMMANDS, **PLAIN}.items():
        if chosen not in name:
            continue
        runs = name in COMMANDS
        with tempfile.TemporaryDirectory() as scratch:
            cold, cold_wall = seconds(args, f"{scratch}/cache", f"{scratch}/cold" if runs else None,
                                      options.workers)
            warm, warm_wall = seconds(args, f"{scratch}/cache", f"{scratch}/warm" if runs else None,
                                      options.workers)
        print(f"{name:<20} {cold:10.1f} {warm:10.1f} {cold - warm:8.1f} "
              f"{cold_wall:9.1f} {warm_wall:9.1f} {cold_wall - warm_wall:6.1f}", flush=True)


if __name__ == "__main__":
    main()
