"""Diagnosis: where the double-dummy search spends its time, by compiled function, sampled with ``perf``.

Runs the max-tricks question of ``scripts/bench_dd.py`` (same deals for the same seed) after compiling
the solver afresh into a scratch numba cache (a kernel loaded from the cache carries no LLVM module, and
its helpers' addresses are needed), samples this process with ``perf record`` while it solves, and
prints each function's share of the samples.  The helpers compiled on their own (``_tt_lookup``,
``_quick_tricks`` ...) get their own rows; those inlined into ``search`` count as ``search``.  Samples
outside the kernels (the interpreter, the answers' checks) are "outside".

``--annotate NAME`` (a row's name, e.g. ``transposition._tt_lookup``) also prints that function's
instructions with their sample counts (``objdump`` of the kernel's object code; the counts sit on the
instruction after a stalling load).  The compile takes about a CPU-minute; ``perf`` must be allowed to
sample the process (``perf_event_paranoid`` 2 or lower for one's own processes).  The scratch cache and
``perf.data`` are removed at exit.

It reads the search's library through numba's public ``CodeLibrary`` methods ``serialize_using_object_code``
(the object code, the first part of its data) and ``get_defined_functions``, written against numba 0.68.1.

Usage: python scripts/dd_stats_profile.py [--deals 150] [--seed S] [--frequency 2999] [--annotate NAME]
"""

import argparse
import bisect
import collections
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile

# A scratch cache, set before numba is imported: the fresh compile keeps each library's LLVM module.
os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="dd-profile-numba-")

import numpy as np  # noqa: E402

from bench_dd import random_deals  # noqa: E402

from analyzer.solvers.dd import solve  # noqa: E402
from analyzer.solvers.dd.search import search  # noqa: E402

NS = 0b0101
EW = 0b1010
MANGLED = re.compile(r"_ZN8analyzer7solvers2dd\d+(\w+?)B\d")


def _symbols(obj):
    """(address, size, short name, mangled name) of every function of the search's linked library; its
    object code (the same machine code as each helper's own library) is written to ``obj``."""
    library = next(iter(search.overloads.values())).library
    _, _, (object_code, _) = library.serialize_using_object_code()
    with open(obj, "wb") as out:
        out.write(object_code)
    table = subprocess.run(["nm", "-S", obj], capture_output=True, text=True, check=True).stdout
    sizes = {p[3]: (int(p[0], 16), int(p[1], 16)) for p in (line.split() for line in table.splitlines())
             if len(p) == 4 and p[2] in "TtWw"}
    rows = []
    for function in library.get_defined_functions():
        if function.name not in sizes:
            continue
        match = MANGLED.match(function.name)
        short = re.sub(r"\d+", ".", match.group(1), count=1) if match else function.name
        rows.append((library.get_pointer_to_function(function.name), sizes[function.name][1], short, function.name))
    return sorted(rows), sizes


def _fail(message):
    """Bad input or a missing tool: one line on stderr and exit code 2."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def _solve_all(deals):
    for i in range(1, len(deals)):
        leader = (i // 5) % 4
        solve(deals[i], i % 5, leader, NS if leader % 2 == 0 else EW)


def main() -> None:
    try:
        _profile()
    finally:
        shutil.rmtree(os.environ["NUMBA_CACHE_DIR"], ignore_errors=True)


def _profile():
    """Parse the options, compile, sample the solves and print the shares (and the annotation)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh seed, printed")
    parser.add_argument("--frequency", type=int, default=2999, help="perf samples per second")
    parser.add_argument("--annotate", default=None, help="print this function's instructions with their samples")
    args = parser.parse_args()
    if args.deals < 2:
        _fail(f"--deals must be at least 2 (one compiles, the rest are sampled), got {args.deals}")
    if args.frequency < 1:
        _fail(f"--frequency must be at least 1, got {args.frequency}")
    if shutil.which("perf") is None:
        _fail("no perf binary on PATH (install linux-tools / perf)")
    seed = secrets.randbits(31) if args.seed is None else args.seed
    deals = random_deals(np.random.default_rng(seed), args.deals)
    solve(deals[0], 0, 0, NS)  # compiles everything before the sampling starts
    obj = os.path.join(os.environ["NUMBA_CACHE_DIR"], "search.o")
    symbols, sizes = _symbols(obj)
    if args.annotate and args.annotate not in {row[2] for row in symbols}:
        _fail(f"--annotate: no function {args.annotate} among the kernels")
    data = os.path.join(os.environ["NUMBA_CACHE_DIR"], "perf.data")
    perf = subprocess.Popen(["perf", "record", "-q", "-F", str(args.frequency), "-e", "cpu-clock", "-p",
                             str(os.getpid()), "-o", data], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        perf.wait(timeout=2)  # perf gone this soon: it could not attach
        _fail(f"perf record failed: {perf.stderr.read().decode().strip()}")
    except subprocess.TimeoutExpired:
        pass
    _solve_all(deals)
    perf.send_signal(2)
    perf.wait()
    ips = [int(line, 16) for line in subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True,
                                                    text=True, check=True).stdout.split()]
    starts = [row[0] for row in symbols]
    counts = collections.Counter()
    offsets = collections.Counter()
    for ip in ips:
        i = bisect.bisect_right(starts, ip) - 1
        if i < 0 or ip - starts[i] >= symbols[i][1]:
            counts["outside"] += 1
            continue
        counts[symbols[i][2]] += 1
        if symbols[i][2] == args.annotate:
            offsets[ip - starts[i]] += 1
    print(f"seed {seed}, {args.deals - 1} max solves, {len(ips):,} samples")
    for name, count in counts.most_common():
        print(f"{100 * count / len(ips):6.1f}%  {name}")
    if args.annotate:
        _annotate(args.annotate, symbols, sizes, obj, offsets)


def _annotate(name, symbols, sizes, obj, offsets):
    """Print ``name``'s instructions from the library's object code, each with its samples."""
    mangled = next(row[3] for row in symbols if row[2] == name)
    start, size = sizes[mangled]
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start}",
                              f"--stop-address={start + size}", obj], capture_output=True, text=True,
                             check=True).stdout
    for line in listing.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if match:
            offset = int(match.group(1), 16) - start
            print(f"{offsets.get(offset, 0):6d}  {offset:5x}  {match.group(2)[:90]}")


if __name__ == "__main__":
    sys.exit(main())
