"""The slow Misery questions of a ``rikken bids --policy dd`` run, asked again one by one.

Re-creates the deals of the command's chunks (``--seed`` is the command's seed, chunks of two deals as
its default for dd; the dealer of deal ``n`` is seat ``n % 4``, its left hand leads) and asks each
seat's Misery at no trump ("can SEAT take no trick?", ``le 0``) alone in a fresh table, within
``--limit`` completed tricks, printing the answer, completed tricks and CPU seconds.  ``--list``
names the fixed questions of session 8 (seed 845865993) instead of whole chunks.

Usage: python scripts/dd_misery_slow.py --seed S --chunks 60 70 [--limit 2000000]
       python scripts/dd_misery_slow.py --list [--limit 0]
"""

import argparse
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from dd_misery_check import solve_within

from analyzer.cards.pbn import SEAT_LETTERS, format_deal
from analyzer.cards.tricks import NO_TRUMP
from analyzer.experiments.runner import plan_chunks
from analyzer.games.rikken.experiments import random_deals

CHUNK = 2
# (seed, deal, declarer): the Misery questions of seed 845865993's bids run above a minute.
SLOW = ((845865993, 61, "N"), (845865993, 70, "S"), (845865993, 700, "W"))


def chunk_deals(seed, index, n_items):
    """The deals of chunk ``index`` of a bids run of ``n_items`` deals and their deal numbers."""
    chunk = plan_chunks(n_items, CHUNK, seed)[index]
    deal_seed, _ = chunk.seed_seq.spawn(2)
    return random_deals(chunk.count, deal_seed), chunk.start + np.arange(chunk.count)


def ask(hands, number, seat, limit):
    leader = (number + 1) % 4
    begin = time.process_time()
    answer, tricks = solve_within(limit, hands, NO_TRUMP, leader, 1 << seat, "le", 0)
    cpu = time.process_time() - begin
    verdict = "unknown" if answer is None else ("made" if answer else "not made")
    print(f"deal {number} Misery of {SEAT_LETTERS[seat]} ({SEAT_LETTERS[leader]} leads): {verdict}, "
          f"{tricks} completed tricks, {cpu:.2f} CPU-s", flush=True)
    return answer, tricks, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=845865993)
    parser.add_argument("--deals", type=int, default=1000, help="the run's --deals (it decides the chunks' seeds)")
    parser.add_argument("--chunks", type=int, nargs="*", default=[])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--limit", type=int, default=2_000_000, help="completed tricks per question (0: none)")
    args = parser.parse_args()
    if args.list:
        total = [0, 0.0]
        for seed, number, seat in SLOW:
            deals, _ = chunk_deals(seed, number // CHUNK, args.deals)
            hands = deals[number % CHUNK]
            _, tricks, cpu = ask(hands, number, SEAT_LETTERS.index(seat), args.limit)
            total[0] += tricks
            total[1] += cpu
        print(f"all: {total[0]} completed tricks, {total[1]:.2f} CPU-s")
        return
    for index in args.chunks:
        deals, numbers = chunk_deals(args.seed, index, args.deals)
        for hands, number in zip(deals, numbers):
            print(format_deal(hands))
            for seat in range(4):
                ask(hands, int(number), seat, args.limit)


if __name__ == "__main__":
    main()
