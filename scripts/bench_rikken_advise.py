"""``rikken advise`` against issue 39's speed goals: CPU seconds a deal with ``--policy sampled-dd`` (every option
the advice asks) and with ``--bracket`` (the perfect-play column), and the wall time the goals' deal counts would
take on 2 cores, one line per hand.

Goals (issue 39): sampled-dd advice, 500 deals in <= 10 minutes on 2 cores (1,200 CPU-s: 2.4 CPU-s a deal for every
option); the bracket's perfect play, 200 deals in <= 10 minutes (6 CPU-s a deal). The projection is CPU-s a deal
times the goal's deals over 2 cores (the runner's chunks keep both busy); ``ratio`` is the projection over the
goal's 600 s (<= 1: the goal holds at this rate). CPU seconds are this process's own (``time.process_time``,
after the kernels are loaded), so other sessions' load does not inflate them much; the solver counts (questions
asked, completed tricks) are deterministic for a seed.

Every option is played in one chunk as ``advise`` plays them, twice on the same draws: with the solver's verdicts
shared among a deal's options (``shared_verdicts``, as ``advise`` runs) and without (the cut's "before"); the two
must give the same rows. ``--per-option`` first plays each option by itself (no sharing across options). The
bracket solves all options of a deal together, as ``advise --bracket`` does; its figure is the chunk's CPU less
the same chunk's heuristic play. Hands: issue 39's three (N leads) and one random hand of a fresh seed, or
``--hands``.

Usage: python scripts/bench_rikken_advise.py [--seed N] [--deals 2] [--bracket-deals 2] [--contracts all]
       [--hands H ...] [--worlds W] [--per-option] [--profile]
"""

import argparse
import contextlib
import cProfile
import pstats
import random
import sys
import time

import numpy as np

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
from analyzer.catalog import DD_DEFAULT_BUDGET
from analyzer.errors import InputError
from analyzer.games.rikken import shared_verdicts
from analyzer.games.rikken.advice import advice_chunk, option_params, options_from_params
from analyzer.games.rikken.advice_experiment import advise_plan
from analyzer.games.rikken.experiments import Policies
from analyzer.solvers.dd import api

ISSUE_HANDS = ("AKJT9876.A32.54.", "KQ87.A965.QJ4.73", "7532.6432.752.42")
GOAL_SECONDS = 600
GOAL_DEALS = {"sampled-dd": 500, "bracket": 200}
CORES = 2
RANKS = "AKQJT98765432"


def random_hand(seed: int) -> str:
    """13 cards of a fresh shuffle as ``S.H.D.C`` text."""
    cards = random.Random(seed).sample(range(52), 13)
    return ".".join("".join(r for i, r in enumerate(RANKS) if 13 * s + i in cards) for s in range(4))


class SolverCount:
    """Counts the solver's questions (``api.judge_moves`` calls, the shared verdicts' hits not included) and their
    completed tricks (``api.last_tricks``) by wrapping the name ``shared_verdicts`` calls; the answers are the
    solver's own."""

    def __init__(self):
        self.questions = 0
        self.tricks = 0
        self._inner = api.judge_moves

    def __enter__(self):
        def counted(*args, **kwargs):
            verdicts = self._inner(*args, **kwargs)
            self.questions += 1
            self.tricks += api.last_tricks()
            return verdicts

        api.judge_moves = counted
        return self

    def __exit__(self, *exc):
        api.judge_moves = self._inner


def timed_chunk(params: dict, deals: int, seed: int, share: bool = True):
    """``(rows, CPU seconds, solver count)`` of one advice chunk of ``deals`` deals; ``share``: False plays it with
    ``shared_verdicts.sharing`` doing nothing (the cut's "before", the same draws)."""
    sharing = shared_verdicts.sharing
    if not share:
        shared_verdicts.sharing = contextlib.nullcontext
    try:
        with SolverCount() as count:
            cpu = time.process_time()
            rows = advice_chunk(params, 0, deals, np.random.SeedSequence(seed))
            cpu = time.process_time() - cpu
    finally:
        shared_verdicts.sharing = sharing
    return rows, cpu, count


def bench_hand(hand: str, args, seed: int, profile: cProfile.Profile | None) -> str:
    """One hand's figures (a line per option first with ``--per-option``), then the hand's line against the
    goals: every option in one chunk as ``advise`` plays them, without and with the shared verdicts."""
    policies = Policies.everywhere("sampled-dd").with_worlds(args.worlds)
    plan = advise_plan(hand, "N", None, policies, args.contracts, {}, args.deals, seed, None)
    options = options_from_params(plan.params["options"])
    if args.per_option:
        for option in options:
            _, cpu, count = timed_chunk({**plan.params, "options": option_params([option])}, args.deals, seed)
            print(f"  {option.name:>16}: {cpu / args.deals:7.2f} CPU-s a deal, {count.questions / args.deals:6.0f} "
                  f"questions, {count.tricks / args.deals / 1e6:7.2f} M completed tricks", flush=True)
    before, cpu_before, count_before = timed_chunk(plan.params, args.deals, seed, share=False)
    if profile:
        profile.enable()
    after, cpu_after, count_after = timed_chunk(plan.params, args.deals, seed)
    if profile:
        profile.disable()
    same = "same rows" if before.equals(after) else "ROWS DIFFER"
    ordinary = cpu_after / args.deals
    line = [f"{hand:>18} {len(options):2d} options: sampled-dd {cpu_before / args.deals:6.2f} -> {ordinary:6.2f} "
            f"CPU-s a deal (x{cpu_after / cpu_before:.2f}; completed tricks {count_before.tricks / 1e6:.1f}M -> "
            f"{count_after.tricks / 1e6:.1f}M, questions {count_before.questions} -> {count_after.questions}; "
            f"{same})" + _against("sampled-dd", ordinary)]
    if args.bracket_deals:
        heuristic = Policies.everywhere("heuristic")
        bracket_plan = advise_plan(hand, "N", None, heuristic, args.contracts, {}, args.bracket_deals, seed, None,
                                   bracket=args.bracket_deals)
        _, plain, _ = timed_chunk({k: v for k, v in bracket_plan.params.items() if k != "bracket"},
                                  args.bracket_deals, seed)
        rows, cpu, _ = timed_chunk(bracket_plan.params, args.bracket_deals, seed)
        perfect = max(cpu - plain, 0.0) / args.bracket_deals
        bounded = int((~rows["perfect_exact"]).sum())
        line.append(f"; bracket {perfect:6.2f} CPU-s a deal ({bounded} of {len(rows)} rows bounded)"
                    + _against("bracket", perfect))
    return "".join(line)


def _against(goal: str, cpu_per_deal: float) -> str:
    projected = cpu_per_deal * GOAL_DEALS[goal] / CORES
    return f", {GOAL_DEALS[goal]} deals {projected:7.0f} s on {CORES} cores, ratio {projected / GOAL_SECONDS:5.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None, help="deals and play seed (default: fresh)")
    parser.add_argument("--deals", type=int, default=2, help="sampled-dd deals a hand")
    parser.add_argument("--bracket-deals", type=int, default=2, help="perfect-play deals a hand (0: none)")
    parser.add_argument("--contracts", default="all", help="as advise's --contracts")
    parser.add_argument("--hands", nargs="+", default=None, help="hands (default: issue 39's three and a random one)")
    parser.add_argument("--worlds", type=int, default=None, help="sampled-dd worlds a decision")
    parser.add_argument("--per-option", action="store_true", help="also each option played by itself")
    parser.add_argument("--profile", action="store_true", help="cProfile the sampled-dd play, top 25 by own time")
    args = parser.parse_args()
    if args.deals < 1 or args.bracket_deals < 0:
        print("--deals must be at least 1 and --bracket-deals at least 0", file=sys.stderr)
        return 2
    if args.seed is not None and not 0 <= args.seed < 2**63:
        print(f"--seed {args.seed}: want a whole number from 0 to 2**63 - 1", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    hands = args.hands or [*ISSUE_HANDS, random_hand(seed)]
    profile = cProfile.Profile() if args.profile else None
    try:
        for hand in hands:
            advise_plan(hand, "N", None, Policies.everywhere("sampled-dd").with_worlds(args.worlds), args.contracts,
                        {}, 1, seed, None)  # checks the hand before any play
        print(f"seed {seed}; {args.deals} sampled-dd deals and {args.bracket_deals} perfect-play deals a hand; "
              f"contracts {args.contracts}; bracket budget {DD_DEFAULT_BUDGET:,}", flush=True)
        timed_chunk(advise_plan(hands[0], "N", None, Policies.everywhere("sampled-dd"), "misery", {}, 1, seed,
                                None).params, 1, seed)  # loads the kernels before timing
        for hand in hands:
            print(bench_hand(hand, args, seed, profile), flush=True)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
