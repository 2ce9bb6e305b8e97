"""Diagnosis: how the search ends its nodes on one Misery or 1 Alone question of ``rikken bids --policy dd``.

Deals and leaders as ``scripts/profile_bids_dd.py`` takes them (those of ``rikken bids --policy dd --seed S``),
at no trump, asks "can SEAT take no trick?" (``misery``: ``le 0``) or "exactly one?" (``one``: ``eq 1``)
alone in a fresh table, in the counting build (``ANALYZER_DD_STATS=1``), and prints the table of
``dd_cutoff_stats.print_table``.  ``--limit`` stops the search after that many completed tricks (the
answer is then unknown and reported so): the three questions measured in docs/dd-diagnosis.md do not
finish in a minute.

Usage: python scripts/dd_misery_stats.py --seed S --deal D --seat E [--question misery|one] [--limit 3000000]
"""

import argparse
import os
import time

os.environ["ANALYZER_DD_STATS"] = "1"

import digest_cache  # noqa: F401  (first: numba's cache by code digest)

from dd_cutoff_stats import NAMES, print_table  # noqa: E402
from dd_misery_check import solve_within  # noqa: E402
from profile_bids_dd import experiment_deals  # noqa: E402

from analyzer.cards.pbn import SEAT_LETTERS, format_deal  # noqa: E402
from analyzer.cards.tricks import NO_TRUMP  # noqa: E402
from analyzer.solvers.dd import api  # noqa: E402
from analyzer.solvers.dd import layout as kernels  # noqa: E402

GOALS = {"misery": ("le", 0), "one": ("eq", 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--deal", type=int, required=True, help="deal index in the seed's draw")
    parser.add_argument("--seat", choices=list(SEAT_LETTERS), required=True, help="the lone declarer")
    parser.add_argument("--question", choices=sorted(GOALS), default="misery")
    parser.add_argument("--limit", type=int, default=3_000_000, help="completed tricks before giving up (0: none)")
    args = parser.parse_args()
    hands, setups, rows = experiment_deals(args.seed, args.deal + 1)[args.deal]
    leader = int(setups["leader"][rows[0]])
    print(format_deal(hands), f"({SEAT_LETTERS[leader]} on lead)")
    goal, k = GOALS[args.question]
    mem = api._work()
    stats = mem[kernels.M_STATS:kernels.M_STATS + kernels.STATS_KINDS * kernels.MAX_DEPTH]
    stats[:] = 0
    begin = time.process_time()
    answer, tricks = solve_within(args.limit, hands, NO_TRUMP, leader, 1 << SEAT_LETTERS.index(args.seat), goal, k)
    cpu = time.process_time() - begin
    verdict = "unknown (limit reached)" if answer is None else answer
    print(f"{args.question} of {args.seat}: {verdict}; {tricks} completed tricks, {cpu:.2f} CPU-s")
    counts = stats.reshape(kernels.STATS_KINDS, kernels.MAX_DEPTH)
    print_table({name: counts[i].tolist() for i, name in enumerate(NAMES)})


if __name__ == "__main__":
    main()
