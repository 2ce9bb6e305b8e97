"""First run against a warm run of each command: CPU seconds (user + system, the command and its workers)
with an empty numba cache, then again with the cache it filled, in one invocation.

    .venv/bin/python scripts/first_run.py [--only schnapsen]

Each command runs with a fresh ``NUMBA_CACHE_DIR`` (and ``--workers 1`` when it writes a run), so it compiles
what it uses and nothing else. Prints one row per command: cold CPU-s, warm CPU-s, their difference (the
compile cost; the goal is at most 20 s) and the ratio.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile

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


def cpu_seconds(args: list[str], cache: str, out: str | None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = [] if out is None else ["--workers", "1", "--out", out]
    subprocess.run([*ANALYZER, *args, *run], check=True, capture_output=True,
                   env={**os.environ, "NUMBA_CACHE_DIR": cache})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the commands whose name contains this")
    chosen = parser.parse_args().only
    print(f"{'command':<20} {'cold CPU-s':>10} {'warm CPU-s':>10} {'compile':>8} {'ratio':>6}")
    for name, args in {**COMMANDS, **PLAIN}.items():
        if chosen not in name:
            continue
        runs = name in COMMANDS
        with tempfile.TemporaryDirectory() as scratch:
            cold = cpu_seconds(args, f"{scratch}/cache", f"{scratch}/cold" if runs else None)
            warm = cpu_seconds(args, f"{scratch}/cache", f"{scratch}/warm" if runs else None)
        print(f"{name:<20} {cold:10.1f} {warm:10.1f} {cold - warm:8.1f} {cold / warm:6.1f}", flush=True)


if __name__ == "__main__":
    main()
