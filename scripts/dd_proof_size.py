"""Diagnosis: how big the "yes" proofs of a stuck Misery question are, against the search that finds them.

Plays random ducking lines of a Misery question of ``rikken bids --policy dd --seed S`` (as
``dd_misery_reach.py``: the declarer ducks under the trick's best card ``--duck`` of the time, the
defenders play at random) and keeps the trick starts with a defender on lead and ``--sizes`` cards a
hand that ``misery_bounds._lone_ducks`` leaves open.  Each is asked alone in a fresh table in the
counting build (``ANALYZER_DD_STATS=1``) within ``--limit`` completed tricks; of the "yes" answers that
took at least ``--min-tricks``, prints per card count and per depth the nodes the search entered
against the proof it found (``analyzer.solvers.dd.proof``): searched nodes, table leaves, bound leaves,
and the proof's nodes whose cutting move was not the first tried (the declarer's ordering misses).
``--root`` asks the question itself first (within the same limit).

Usage: python scripts/dd_proof_size.py --seed 961411519 --question 380:W --lines 200 --line-seed L
"""

import argparse
import os
import time
from collections import Counter

os.environ["ANALYZER_DD_STATS"] = "1"

import digest_cache  # noqa: F401,E402  (first: numba's cache by code digest)
import numpy as np  # noqa: E402

from dd_misery_check import solve_within  # noqa: E402
from dd_misery_reach import add_line_options, open_starts  # noqa: E402

from analyzer.cards.tricks import NO_TRUMP  # noqa: E402
from analyzer.solvers.dd import api  # noqa: E402
from analyzer.solvers.dd import layout as kernels  # noqa: E402
from analyzer.solvers.dd.proof import P_CUT, P_LATE, P_SEARCHED, P_TABLE, proof_counts  # noqa: E402


def measure(hands, leader, declarer, limit):
    """Ask "can ``declarer`` take no trick?" alone in a fresh table; returns the answer (None: the limit ran
    out), the completed tricks, the search's nodes and table hits per depth, and the proof per kind and depth."""
    mem = api._work()
    stats = mem[kernels.M_STATS:kernels.M_STATS + kernels.STATS_KINDS * kernels.MAX_DEPTH]
    stats[:] = 0
    answer, tricks = solve_within(limit, np.asarray(hands, dtype=np.int64), NO_TRUMP, leader, 1 << declarer, "le", 0)
    counts = stats.reshape(kernels.STATS_KINDS, kernels.MAX_DEPTH)
    return answer, tricks, counts[kernels.S_NODES].copy(), counts[kernels.S_TABLE].copy(), proof_counts(mem)


def _row(label, nodes, table, proof):
    searched = proof[P_SEARCHED].sum()
    size = searched + proof[P_TABLE].sum() + proof[P_CUT].sum()
    late = proof[P_LATE].sum()
    return (f"{label} | {nodes.sum():,} | {table.sum():,} | {size:,} ({nodes.sum() / max(size, 1):.1f}x) | "
            f"{searched:,} / {proof[P_TABLE].sum():,} / {proof[P_CUT].sum():,} | {late:,} "
            f"({100 * late / max(searched, 1):.1f}%)")


HEADER = ("what | nodes entered | table hits | proof nodes (entered / proof) | proof: searched / table leaves / "
          "bound leaves | proof nodes cut late (of searched)")


def report(title, nodes, table, proof):
    """Print the totals, then per trick from the root (trick starts and in-trick nodes apart)."""
    print(title)
    print(HEADER)
    print(_row("all", nodes, table, proof))
    for trick in range(kernels.MAX_DEPTH // 4):
        span = slice(4 * trick, 4 * trick + 4)
        if nodes[span].sum() == 0:
            break
        starts = slice(4 * trick, 4 * trick + 1)
        inside = slice(4 * trick + 1, 4 * trick + 4)
        print(_row(f"trick {trick + 1} start", nodes[starts], table[starts], proof[:, starts]))
        print(_row(f"trick {trick + 1} in trick", nodes[inside], table[inside], proof[:, inside]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_line_options(parser, 200, [7, 8, 9], 3_000_000)
    parser.add_argument("--min-tricks", type=int, default=10_000, help="the yes answers kept: at least this costly")
    parser.add_argument("--per-size", type=int, default=12, help="most open starts asked per card count")
    parser.add_argument("--root", action="store_true", help="ask the question itself first")
    args = parser.parse_args()
    if args.min_tricks < 0:
        parser.error(f"--min-tricks {args.min_tricks}: must be 0 or more")
    hands, leader, declarer, rng, seen = open_starts(parser, args)
    if args.root:
        begin = time.process_time()
        answer, tricks, nodes, table, proof = measure(hands, leader, declarer, args.limit)
        report(f"root: {answer} in {tricks:,} completed tricks, {time.process_time() - begin:.1f} CPU-s",
               nodes, table, proof)
    per = Counter()
    totals = {}
    tally = Counter()
    for key in rng.sample(sorted(seen), len(seen)):
        size = seen[key]
        if per[size] >= args.per_size:
            continue
        per[size] += 1
        position, lead = key
        answer, tricks, nodes, table, proof = measure(position, lead, declarer, args.limit)
        tally[size, answer] += 1
        if answer is not True or tricks < args.min_tricks:
            continue
        tally[size, "kept"] += 1
        tally[size, "tricks"] += tricks
        old = totals.get(size)
        totals[size] = (nodes, table, proof) if old is None else tuple(a + b for a, b in zip(old, (nodes, table,
                                                                                                   proof)))
    print(f"{args.question} seed {args.seed}, {args.lines} lines (line seed {args.line_seed}), limit {args.limit:,}")
    for size in sorted(totals):
        print()
        report(f"{size} cards a hand: asked {per[size]}, yes {tally[size, True]}, no {tally[size, False]}, "
               f"unknown {tally[size, None]}; kept {tally[size, 'kept']} yes of >= {args.min_tricks:,} completed "
               f"tricks ({tally[size, 'tricks']:,} together)", *totals[size])


if __name__ == "__main__":
    main()
