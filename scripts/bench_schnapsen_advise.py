"""``schnapsen advise`` at a first lead with its defaults: wall seconds and CPU seconds (this process and its
workers) with one worker and with two, in one run, on a fresh random first-lead position; the two answers
must be the same (each world is seeded by itself).

The anchor is the one-worker run: the ratio is the speed-up the workers give on this machine now. Run it on a
quiet machine for the ≤ 10 s goal; under load the CPU seconds are the comparable figure.

Usage: python scripts/bench_schnapsen_advise.py [--seed N] [--workers W]
"""

import argparse
import random
import resource
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.advice import DEFAULT_BOT, DEFAULT_WORLDS, advise
from analyzer.games.schnapsen.experiments import parse_bot
from analyzer.games.schnapsen.state import SchnapsenState


def first_lead(seed: int) -> str:
    """A random deal at its first lead in state notation, the opponent's hand and the face-down stock hidden."""
    order = list(range(R.N_CARDS))
    random.Random(seed).shuffle(order)
    dealt = SchnapsenState.deal(order, dealer=1)
    hidden = ";".join(f for f in dealt.to_text().split(";")
                      if not f.strip().startswith(("hand1=", "stock=")))
    stock = " ".join(["?"] * (len(dealt.stock) - 1) + [R.card_name(dealt.stock[-1])])
    return f"{hidden}; hand1=?; stock={stock}"


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished workers."""
    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def timed(state: SchnapsenState, seed: int, workers: int):
    wall, cpu = time.perf_counter(), cpu_seconds()
    table, _ = advise(state, parse_bot(DEFAULT_BOT), seed, DEFAULT_WORLDS, workers)
    return table, time.perf_counter() - wall, cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None, help="position and run seed (default: fresh)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    position = first_lead(seed)
    state = SchnapsenState.from_text(position)
    print(f"seed {seed}; {position}; {DEFAULT_BOT}, {DEFAULT_WORLDS} worlds")
    advise(state, parse_bot(DEFAULT_BOT), seed, 1, 1)  # load the compiled kernels before timing
    one, wall1, cpu1 = timed(state, seed, 1)
    many, wall2, cpu2 = timed(state, seed, args.workers)
    print(f"1 worker: {wall1:.1f} s wall, {cpu1:.1f} CPU-s; {args.workers} workers: {wall2:.1f} s wall, "
          f"{cpu2:.1f} CPU-s (with their start); speed-up {wall1 / wall2:.2f}x")
    print("same answer" if one.equals(many) else "DIFFERENT ANSWERS")


if __name__ == "__main__":
    main()
