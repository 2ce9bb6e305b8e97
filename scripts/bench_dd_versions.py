"""Benchmark: two versions of the double-dummy solver, paired deal by deal in one run.

Each version runs in its own worker process with ``PYTHONPATH`` set to its source tree (for example
``git archive REV analyzer | tar -x -C DIR``) and without transparent huge pages; both solve the same
fresh random deals (max tricks, strain and leader cycled as in ``bench_dd.py``), alternating which goes
first, so load on a shared machine falls on both alike.  The answers and the completed tricks searched
must be identical (a change meant to keep the tree); the CPU ratio new / old is printed, over all deals
and as the median of the per-deal ratios.  With ``--tree-may-change`` (a change meant to shrink the
tree) only the answers must be identical, and the ratio of completed tricks new / old is printed too.

With ``--huge-pages`` both workers keep transparent huge pages, as ordinary runs do (numpy asks for them on
the work array), and each prints how much of its memory got them: a run compares like with like only when
both workers' tables lie on huge pages (a change of the table's size, for example, moves the TLB misses).

Usage: python scripts/bench_dd_versions.py OLD_TREE NEW_TREE [--deals 200] [--seed S] [--tree-may-change]
       [--huge-pages]
"""

import argparse
import json
import os
import secrets
import subprocess
import sys

import numpy as np

WORKER = r"""
import ctypes, json, os, sys, time
import numpy as np
# No transparent huge pages in either worker (PR_SET_THP_DISABLE) unless asked: whether the kernel finds
# huge pages for the work array depends on memory fragmentation at allocation, and it moved one tree
# against itself by 10% (docs/dd-diagnosis.md, "Cost per node").
if sys.argv[5] == "0":
    ctypes.CDLL(None).prctl(41, 1, 0, 0, 0)
sys.path.insert(0, sys.argv[3])
# The tree first: ``python -c`` puts the working directory ahead of PYTHONPATH, which would load one
# tree in both workers when the bench runs from a tree's root.
sys.path.insert(0, sys.argv[4])
from bench_dd import random_deals
from analyzer.solvers.dd import solve
from analyzer.solvers.dd.api import last_tricks

deals = random_deals(np.random.default_rng(int(sys.argv[1])), int(sys.argv[2]))
solve(deals[0], 0, 0, 0b0101)
import analyzer
print("ready", os.path.dirname(os.path.dirname(os.path.abspath(analyzer.__file__))), flush=True)
for line in sys.stdin:
    if line.strip() == "pages":
        with open("/proc/self/smaps_rollup") as rollup:
            print(next(row.split()[1] for row in rollup if row.startswith("AnonHugePages:")), flush=True)
        continue
    i = int(line)
    leader = (i // 5) % 4
    start = time.process_time()
    answer = solve(deals[i], i % 5, leader, 0b0101 if leader % 2 == 0 else 0b1010)
    print(json.dumps([answer, last_tricks(), time.process_time() - start]), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh seed, printed")
    parser.add_argument("--tree-may-change", action="store_true", help="compare answers only, print the tree ratio")
    parser.add_argument("--huge-pages", action="store_true",
                        help="leave transparent huge pages on (as in ordinary runs); prints each worker's huge-page kB")
    args = parser.parse_args()
    seed = secrets.randbits(31) if args.seed is None else args.seed
    here = os.path.dirname(os.path.abspath(__file__))
    workers = {}
    for name, tree in (("old", args.old), ("new", args.new)):
        env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
        workers[name] = subprocess.Popen([sys.executable, "-c", WORKER, str(seed), str(args.deals), here,
                                          os.path.abspath(tree), "1" if args.huge_pages else "0"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        if workers[name].stdout.readline().strip() != f"ready {os.path.abspath(tree)}":
            raise SystemExit(f"the {name} worker did not start from {tree}")
    cpu = {"old": 0.0, "new": 0.0}
    tricks = {"old": 0, "new": 0}
    ratios = []
    compared = 1 if args.tree_may_change else 2
    for i in range(args.deals):
        got = {}
        for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
            workers[name].stdin.write(f"{i}\n")
            workers[name].stdin.flush()
            got[name] = json.loads(workers[name].stdout.readline())
        if got["old"][:compared] != got["new"][:compared]:
            raise SystemExit(f"deal {i}: old (tricks, completed tricks) {got['old'][:2]}, new {got['new'][:2]}")
        for name in cpu:
            tricks[name] += got[name][1]
            cpu[name] += got[name][2]
        if got["old"][2] > 0:
            ratios.append(got["new"][2] / got["old"][2])
    if args.huge_pages:
        for name in ("old", "new"):
            workers[name].stdin.write("pages\n")
            workers[name].stdin.flush()
            print(f"{name} worker: AnonHugePages {workers[name].stdout.readline().strip()} kB")
    if args.tree_may_change:
        same = (f"answers identical; completed tricks old {tricks['old']:,}, new {tricks['new']:,}: "
                f"ratio {tricks['new'] / tricks['old']:.4f}")
    else:
        same = f"answers and completed tricks identical ({tricks['old']:,})"
    print(f"seed {seed}, {args.deals} deals, one thread each: {same}; CPU old {cpu['old']:.2f} s, "
          f"new {cpu['new']:.2f} s: ratio {cpu['new'] / cpu['old']:.3f}, median per-deal ratio "
          f"{float(np.median(ratios)):.3f}")


if __name__ == "__main__":
    main()
