"""Benchmark: constrained deals per CPU-second side by side with free deals (``deal_random``).

Run ``python scripts/bench_dealing.py [--deals N] [--seed S] [--repeats R]``. The seed is fresh unless
given, and printed. Every kernel is warmed up first; timings use ``time.process_time`` (CPU seconds of
this process) and include each call's setup (profile tables, acceptance estimate). The cases are timed
in turn, ``R`` rounds, and each keeps its best round, so load from other work on the machine hurts all
of them alike. ``chance`` is the exact share of free deals meeting the constraints of the seat drawn
exactly: plain rejection would need about 1 / chance tries per deal.
"""

import argparse
import time
from math import comb

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.constraints import build_constraints
from analyzer.cards.dealing import deal_constrained, deal_random
from analyzer.cards.profiles import build_profile, counter_spec

CASES = {
    "N exactly 2 aces, >= 6 spades": dict(aces=["N=2"], lengths=["N:S=6-13"]),
    "N 12-15 HCP": dict(hcp=["N=12-15"]),
    "N 20+ HCP, 1-3 aces": dict(hcp=["N=20-37"], aces=["N=1-3"]),
    "N 2 aces, >= 6 spades; S 12-15 HCP (S by rejection)": dict(aces=["N=2"], lengths=["N:S=6-13"],
                                                                   hcp=["S=12-15"]),
}


def seats_of(options: dict) -> list:
    return build_constraints([], [], options.get("hcp", []), options.get("aces", []), options.get("lengths", []))


def chance(seat) -> float:
    """Exact share of hands meeting a seat's constraint (no fixed cards)."""
    spec = np.array([*counter_spec(*seat.aces, 0, 4), *counter_spec(*seat.hcp, 0, 37)], dtype=np.int64)
    bounds = np.array(seat.suit_lengths, dtype=np.int64).T.copy()
    count, _ = build_profile(np.int64((1 << 52) - 1), np.int64(0), 13, bounds[0], bounds[1], spec)
    return count / comb(52, 13)


def rate(n: int, run, *args) -> float:
    """Items per CPU-second of ``run(*args)``."""
    start = time.process_time()
    run(*args)
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    n = args.deals
    print(f"seed {seed}, {n:,} deals per case, best of {args.repeats} rounds")
    seats = {name: seats_of(options) for name, options in CASES.items()}
    deal_random(64, 0)
    for constraint in seats.values():
        deal_constrained(64, 0, constraint)

    best = {"free deal (deal_random)": 0.0, **{name: 0.0 for name in CASES}}
    for round_ in range(args.repeats):
        best["free deal (deal_random)"] = max(best["free deal (deal_random)"], rate(n, deal_random, n, seed + round_))
        for name, constraint in seats.items():
            best[name] = max(best[name], rate(n, deal_constrained, n, seed + round_, constraint))
    free = best["free deal (deal_random)"]
    print(f"{'case':<55} {'deals/CPU-s':>12} {'free / this':>12} {'chance':>10}")
    for name, value in best.items():
        share = f"{min(chance(s) for s in seats[name] if not s.is_trivial()):.2e}" if name in seats else ""
        print(f"{name:<55} {value:>12,.0f} {free / value:>11.2f}x {share:>10}")


if __name__ == "__main__":
    main()
