"""Work of sampled-dd decisions with and without the early stop (``sampled_dd.decided_action``), same deals.

Per contract, the setups of ``rikken_play_strength`` (``--deals``, ``--screen``, the heuristic declaring)
played twice with sampled-dd defenders on the same play stream: once solving every drawn world (the
anchor, the early stop switched off) and once stopping when the card is decided. Prints the worlds solved
(a deterministic count), the CPU seconds of both and their ratio, and whether every round's tricks agree
(they must unless a question runs out of its budget: a budgeted answer depends on the table's contents).

Usage: ``python scripts/rikken_sampled_dd_work.py [--deals N] [--seed S] [--screen K] [--contracts ...]``;
a fresh seed is drawn (and printed) unless ``--seed`` is given.
"""

import argparse
import time
from types import SimpleNamespace

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.games.rikken import rules, sampled_dd
from rikken_play_strength import play, setups_for


def measured(setups: dict, seed: int, early: bool) -> tuple[np.ndarray, int, float]:
    """Tricks of every round, worlds solved and CPU seconds, with the early stop on or off."""
    solved = [0]
    world_values, decided_action = sampled_dd.world_values, sampled_dd.decided_action

    def counting(*args, **kwargs):
        solved[0] += 1
        return world_values(*args, **kwargs)

    sampled_dd.world_values = counting
    if not early:
        sampled_dd.decided_action = lambda *args: None
    try:
        start = time.process_time()
        tricks = play(setups, "heuristic", "sampled-dd", seed)[0]
        return tricks, solved[0], time.process_time() - start
    finally:
        sampled_dd.world_values, sampled_dd.decided_action = world_values, decided_action


def main() -> None:
    """Parse the options and print one row per contract."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--screen", type=int, default=40)
    parser.add_argument("--contracts", default="misery,1-alone,9-alone,open-misery")
    args = parser.parse_args()
    seed = int(np.random.SeedSequence().entropy % 10**6) if args.seed is None else args.seed
    print(f"seed {seed}; {args.deals} deals per contract, screened among {args.screen}x as many")
    print("| contract | deals | worlds solved: all / early stop (ratio) | CPU s: all / early stop (ratio) "
          "| same tricks |")
    print("|---|---|---|---|---|")
    for text in args.contracts.split(","):
        contract = int(rules.parse_contract(text))
        setups = setups_for(SimpleNamespace(seed=seed, deals=args.deals, screen=args.screen, hand=None, leader=None),
                            contract)
        full, solved_all, cpu_all = measured(setups, seed, early=False)
        stopped, solved_early, cpu_early = measured(setups, seed, early=True)
        print(f"| {text} | {setups['hand'].size} | {solved_all} / {solved_early} "
              f"({solved_early / max(solved_all, 1):.2f})"
              f" | {cpu_all:.1f} / {cpu_early:.1f} ({cpu_early / max(cpu_all, 1e-9):.2f})"
              f" | {'yes' if (full == stopped).all() else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
