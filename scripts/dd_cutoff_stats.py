"""Diagnosis: how our double-dummy search ends its nodes, by kind of cut-off and by trick, on bench deals.

Runs the max-tricks question of ``scripts/bench_dd.py`` (same deals for the same seed: strain and
leader cycled over the deals) in a counting build of the search (``ANALYZER_DD_STATS=1``, set here
before the solver is imported; the plain build has no counting code) and prints, per trick, the
nodes entered, how trick-start nodes ended (window decided, last trick, sure trumps, lone-hand
cut-offs, later tricks, table hit, quick tricks), second hand's and third/fourth hand's sure-trick
cut-offs, and the move loops: moves searched per loop and where the cut-off came.

``--json PATH`` writes the counts per kind and depth (cards played from the root) for comparison;
``--compare PATH`` reads counts of another solver in that format (for DDS: a build of DDS 2.9 whose
``AB_COUNT`` sites and move loops feed counters of the same names, see docs/dd-diagnosis.md) and
prints both side by side with their ratios.

Usage: python scripts/dd_cutoff_stats.py [--deals 200] [--seed S] [--strains CDHSN] [--json PATH] [--compare PATH]
"""

import argparse
import json
import os
import secrets

os.environ["ANALYZER_DD_STATS"] = "1"

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np  # noqa: E402

from bench_dd import random_deals  # noqa: E402

from analyzer.solvers.dd import solve  # noqa: E402
from analyzer.solvers.dd import layout as kernels  # noqa: E402
from analyzer.solvers.dd.api import _work, last_tricks  # noqa: E402

NS = 0b0101
EW = 0b1010
# Counter names shared with the other solver's file, in the kernels' order.
NAMES = ("decided", "last", "sure_trumps", "lone_winners", "lone_ducks", "later", "table", "quick", "second",
         "sure_trick", "nodes", "tried") + tuple(f"cut_at_{i}" for i in range(1, 8)) + ("no_cut", "probes")
START_KINDS = ("decided", "last", "sure_trumps", "later", "table", "quick")
TRICKS = 13


def our_counts(deals, strains):
    """Counts per name and depth, summed over the max-tricks solves of ``deals`` in ``strains`` (of "CDHSN"),
    the completed tricks and the answers."""
    assert kernels.STATS and len(NAMES) == kernels.STATS_KINDS
    mem = _work()
    stats = mem[kernels.M_STATS:kernels.M_STATS + kernels.STATS_KINDS * kernels.MAX_DEPTH]
    stats[:] = 0
    completed = 0
    answers = []
    for i, hands in enumerate(deals):
        if "CDHSN"[i % 5] not in strains:
            continue
        leader = (i // 5) % 4
        answers.append(solve(hands, i % 5, leader, NS if leader % 2 == 0 else EW))
        completed += last_tricks()
    counts = stats.reshape(kernels.STATS_KINDS, kernels.MAX_DEPTH)
    if counts[NAMES.index("nodes")].sum() == 0:
        raise SystemExit("error: the search counted nothing: a plain build was loaded")
    return {name: counts[k].tolist() for k, name in enumerate(NAMES)}, completed, answers


def per_trick(counts, name, pos=None):
    """Counts of ``name`` per trick (1..13), at one position in the trick or summed over all four."""
    row = np.zeros(TRICKS, dtype=np.int64)
    values = counts.get(name, [])
    for depth, value in enumerate(values[:4 * TRICKS]):
        if pos is None or depth % 4 == pos:
            row[depth // 4] += value
    return row


def summary_rows(counts):
    """Rows (label, per-trick counts) of the table."""
    rows = [("nodes entered", per_trick(counts, "nodes"))]
    rows.append(("trick-start nodes", per_trick(counts, "nodes", 0)))
    for kind in START_KINDS:
        rows.append((f"  ended: {kind}", per_trick(counts, kind, 0)))
    lone = per_trick(counts, "lone_winners", 0) + per_trick(counts, "lone_ducks", 0)
    rows.append(("  ended: lone hand", lone))
    rows.append(("2nd hand: sure tricks", per_trick(counts, "second", 1)))
    rows.append(("3rd/4th hand: sure trick", per_trick(counts, "sure_trick", 2) + per_trick(counts, "sure_trick", 3)))
    loops = sum(per_trick(counts, f"cut_at_{i}") for i in range(1, 8)) + per_trick(counts, "no_cut")
    rows.append(("move loops", loops))
    for pos in range(4):
        rows.append((f"  at hand {pos + 1}", sum(per_trick(counts, f"cut_at_{i}", pos) for i in range(1, 8))
                     + per_trick(counts, "no_cut", pos)))
    rows.append(("  cut at 1st move", per_trick(counts, "cut_at_1")))
    rows.append(("  cut at 2nd move", per_trick(counts, "cut_at_2")))
    rows.append(("  cut at 3rd+ move", sum(per_trick(counts, f"cut_at_{i}") for i in range(3, 8))))
    rows.append(("  no cut (all tried)", per_trick(counts, "no_cut")))
    rows.append(("moves searched", per_trick(counts, "tried")))
    return rows


def print_table(ours, theirs=None):
    """Totals and per-trick counts of ours (and the other solver's, with ratios)."""
    head = "".join(f"{t:>9}" for t in range(1, TRICKS + 1))
    print(f"{'per trick':28} {'total':>11}{head}")
    other = dict(summary_rows(theirs)) if theirs else {}
    for label, row in summary_rows(ours):
        print(f"{label:28} {row.sum():11d}" + "".join(f"{v:9d}" for v in row))
        if label in other:
            base = other[label]
            print(f"{'   other':28} {base.sum():11d}" + "".join(f"{v:9d}" for v in base))
            ratio = "".join(f"{(r / b if b else float('nan')):9.2f}" for r, b in zip(row, base))
            total = row.sum() / base.sum() if base.sum() else float("nan")
            print(f"{'   ratio':28} {total:11.2f}{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh seed, printed")
    parser.add_argument("--strains", default="CDHSN", help="only the deals of these strains (bench_dd cycles them)")
    parser.add_argument("--json", default=None, help="write our counts here")
    parser.add_argument("--compare", default=None, help="another solver's counts (same format) to print beside ours")
    args = parser.parse_args()
    seed = secrets.randbits(31) if args.seed is None else args.seed
    deals = random_deals(np.random.default_rng(seed), args.deals)
    print(f"{args.deals} deals, seed {seed}, max tricks of the side on lead (bench_dd's first pass)")
    counts, completed, answers = our_counts(deals, args.strains.upper())
    print(f"completed tricks searched: {completed}")
    theirs = None
    if args.compare:
        with open(args.compare) as handle:
            data = json.load(handle)
        if (data.get("seed"), data.get("deals"), data.get("strains")) != (seed, args.deals, args.strains.upper()):
            raise SystemExit(f"error: {args.compare} holds other deals (seed {data.get('seed')}, {data.get('deals')} "
                             f"deals, strains {data.get('strains')})")
        if data["answers"] != answers:
            raise SystemExit(f"error: the answers differ from {args.compare}'s")
        theirs = data["counts"]
        print(f"other solver's completed tricks: {data['completed']} (ratio {completed / data['completed']:.2f})")
    print_table(counts, theirs)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"seed": seed, "deals": args.deals, "strains": args.strains.upper(), "completed": completed, "answers": answers,
                       "counts": counts}, handle)


if __name__ == "__main__":
    main()
