"""``rikken advise`` against issue 39's speed goals: CPU seconds a deal with ``--policy sampled-dd`` (every option
the advice asks) and with ``--bracket`` (the perfect-play column), and the wall time the goals' deal counts would
take on 2 cores, one line per hand.

Goals (issue 39): sampled-dd advice, 500 deals in <= 10 minutes on 2 cores (1,200 CPU-s: 2.4 CPU-s a deal for every
option); the bracket's perfect play, 200 deals in <= 10 minutes (6 CPU-s a deal). The projection is CPU-s a deal
times the goal's deals over 2 cores (the runner's chunks keep both busy); ``ratio`` is the projection over the
goal's 600 s (<= 1: the goal holds at this rate). CPU seconds are this process's own (``time.process_time``,
after the kernels are loaded), so other sessions' load does not inflate them much; the solver counts (questions
asked, completed tricks) are deterministic for a seed.

Every option is played in one chunk as ``advise`` plays them, three times on the same draws: nothing shared among a
deal's options ("none"), the solver's complete verdicts shared (``shared_verdicts.sharing(table=False)``, session
12) and the verdicts and the solver's table generations shared (``sharing()``, as ``advise`` runs, session 13); rows
that differ from "none" are reported (the table may move where a budgeted question stops). ``--per-option`` first
plays each option by itself (no sharing across options); ``--breakdown`` prints, for the shared run, the solver's
questions and completed tricks per option and per kind of question (``max``: trick counts, sampled-dd's
tie-break; ``ge``/``le``/``eq``: made or beaten for trick contracts, Misery, 1 Alone), then per kind of question
and outcome (the budget stopped it, or its answer told the cards apart or not); ``--rows DIR`` writes each hand's
advice table, to compare two trees' play on a seed byte for byte. The
bracket solves all options of a deal together, as ``advise --bracket`` does; its figure is the chunk's CPU less
the same chunk's heuristic play. Hands: issue 39's three (N leads) and one random hand of a fresh seed, or
``--hands``. ``--tail T`` replaces all this by the bracket's perfect play of ``--tail-deals`` deals a hand, each
deal's questions by kind of contract in a child process stopped after T CPU-s (which questions stick, how long).

Usage: python scripts/bench_rikken_advise.py [--seed N] [--deals 2] [--bracket-deals 2] [--contracts all]
       [--hands H ...] [--worlds W] [--per-option] [--breakdown] [--profile] [--rows DIR]
       [--tail CPU-s [--tail-deals 20]]
"""

import argparse
import contextlib
import cProfile
import functools
import multiprocessing
import os
import pstats
import random
import sys
import time

import numpy as np

import digest_cache  # noqa: F401  (first: numba's cache by code digest)

from profile_bids_dd import cpu_seconds

from analyzer.cards.deck import SUIT_LETTERS
from analyzer.cards.pbn import format_hand
from analyzer.catalog import DD_DEFAULT_BUDGET
from analyzer.errors import InputError
from analyzer.games.rikken import advice, rules, shared_verdicts
from analyzer.games.rikken.advice import (
    PERFECT,
    advice_chunk,
    chunk_deals,
    option_params,
    option_setups,
    options_from_params,
)
from analyzer.games.rikken.advice_experiment import advise_plan
from analyzer.games.rikken.dd import contract_bounds, setup_contracts
from analyzer.games.rikken.experiments import Policies
from analyzer.solvers.dd import api

ISSUE_HANDS = ("AKJT9876.A32.54.", "KQ87.A965.QJ4.73", "7532.6432.752.42")
GOAL_SECONDS = 600
GOAL_DEALS = {"sampled-dd": 500, "bracket": 200}
CORES = 2
RANKS = "AKQJT98765432"
MODES = ("none", "verdicts", "table")


def random_hand(seed: int) -> str:
    """13 cards of a fresh shuffle as ``S.H.D.C`` text."""
    cards = random.Random(seed).sample(range(52), 13)
    return ".".join("".join(r for i, r in enumerate(RANKS) if 13 * s + i in cards) for s in range(4))


class SolverCount:
    """Counts the solver's questions (``api.judge_moves`` calls, the shared verdicts' hits not included) and their
    completed tricks (``api.last_tricks``) by wrapping the name ``shared_verdicts`` calls, in all, per (option
    played, kind of question) in ``by`` and per (kind of question, outcome) in ``outcomes``: ``stopped`` (the budget
    ran out), ``alike`` (complete, every move keeps or none does: the answer tells no card from another) or
    ``telling``; the answers are the solver's own."""

    def __init__(self):
        self.questions = 0
        self.tricks = 0
        self.by: dict[tuple[str, str], list[int]] = {}
        self.outcomes: dict[tuple[str, str], list[int]] = {}
        self.option = "?"
        self._inner = api.judge_moves
        self._play = advice.play_setups

    def __enter__(self):
        def counted(*args, **kwargs):
            verdicts = self._inner(*args, **kwargs)
            tricks = api.last_tricks()
            self.questions += 1
            self.tricks += tricks
            goal = kwargs.get("goal", args[4] if len(args) > 4 else "max")
            for table, key in ((self.by, (self.option, goal)), (self.outcomes, (goal, _outcome(verdicts)))):
                entry = table.setdefault(key, [0, 0])
                entry[0] += 1
                entry[1] += tricks
            return verdicts

        def labelled(setups, *args, **kwargs):
            if setups["hand"].size == 1:
                trump = int(setups["trump"][0])
                self.option = (rules.CONTRACT_CLI_NAMES[int(setups["contract"][0])]
                               + ("" if trump >= 4 else "/" + SUIT_LETTERS[trump]))
            return self._play(setups, *args, **kwargs)

        api.judge_moves = counted
        advice.play_setups = labelled
        return self

    def __exit__(self, *exc):
        api.judge_moves = self._inner
        advice.play_setups = self._play

    def breakdown(self, deals: int) -> str:
        """Questions and completed tricks a deal per option and kind of question, biggest first."""
        total = max(self.tricks, 1)
        lines = []
        for table in (self.by, self.outcomes):
            rows = sorted(table.items(), key=lambda item: -item[1][1])
            # Each column as wide as its longest entry (option names and outcomes vary in length).
            one, two = (max((len(key[part]) for key in table), default=0) for part in (0, 1))
            lines += [f"      {first:>{one}} {second:>{two}}: {q / deals:7.0f} questions, {t / deals / 1e6:7.2f} M "
                      f"completed tricks a deal ({100 * t / total:4.1f}%)" for (first, second), (q, t) in rows]
            lines.append("")
        return "\n".join(lines[:-1])


def _outcome(verdicts) -> str:
    """``stopped``, ``alike`` or ``telling`` (``SolverCount``)."""
    if not verdicts.complete:
        return "stopped"
    keep = verdicts.keep_up | verdicts.keep_down
    fail = verdicts.fail_up | verdicts.fail_down
    return "alike" if not keep or not fail else "telling"


def timed_chunk(params: dict, deals: int, seed: int, mode: str = "table"):
    """``(rows, CPU seconds, solver count)`` of one advice chunk of ``deals`` deals; ``mode`` (``MODES``): "none"
    plays it with ``shared_verdicts.sharing`` doing nothing, "verdicts" shares the verdicts only, "table" as
    ``advise`` runs (the same draws each)."""
    sharing = shared_verdicts.sharing
    shared_verdicts.sharing = {"none": contextlib.nullcontext, "verdicts": functools.partial(sharing, table=False),
                               "table": sharing}[mode]
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
    runs = {}
    for mode in args.modes:
        if profile and mode == args.modes[-1]:
            profile.enable()
        runs[mode] = timed_chunk(plan.params, args.deals, seed, mode)
        if profile and mode == args.modes[-1]:
            profile.disable()
    if args.rows:
        # The goal's run's advice table, to compare trees byte for byte (the same seed plays the same cards).
        runs[args.modes[-1]][0].to_csv(os.path.join(args.rows, f"{seed}-{hand}.csv"), index=False)
    base = args.modes[0]
    base_rows, base_cpu, _ = runs[base]
    ordinary = runs[args.modes[-1]][1] / args.deals
    parts = []
    for mode in args.modes:
        rows, cpu, count = runs[mode]
        same = "" if mode == base else (" same rows" if base_rows.equals(rows) else " ROWS DIFFER")
        parts.append(f"{mode} {cpu / args.deals:.2f} (x{cpu / base_cpu:.2f}; {count.tricks / 1e6:.1f}M tricks, "
                     f"{count.questions} questions;{same})")
    line = [f"{hand:>18} {len(options):2d} options: sampled-dd CPU-s a deal " + ", ".join(parts)
            + _against("sampled-dd", ordinary)]
    if args.breakdown:
        line.append(f"\n    {args.modes[-1]} run, per option and kind of question:\n"
                    + runs[args.modes[-1]][2].breakdown(args.deals)
                    + "\n")
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


KIND_NAMES = {rules.Kind.TRICKS: "tricks", rules.Kind.MISERY: "Misery", rules.Kind.ONE: "1 Alone"}


def _solve_in_child(hands, leader, contracts, budget, pipe):
    cpu = time.process_time()
    bounds = contract_bounds(hands, leader, contracts, budget)
    pipe.send((time.process_time() - cpu, bounds))


def bracket_tail(hand: str, args, seed: int) -> None:
    """The bracket's perfect play of ``--tail-deals`` deals of ``hand`` (drawn from ``seed`` as one advice chunk draws
    them; ``advise --bracket`` gives each chunk its own seed, so not its deals), each deal's questions solved by kind of
    contract (trick contracts together, Misery, 1 Alone; each kind is asked once a deal, whatever the options that share
    it) in a child process stopped after ``--tail`` CPU-s: a line per deal with each kind's CPU-s (``>T``: stopped), how
    many contracts it answered and their counts (the declaring side's tricks, ``?``: bounded; Misery 0 and 1 Alone 1:
    made)."""
    plan = advise_plan(hand, "N", None, Policies.everywhere("heuristic"), args.contracts, {}, args.tail_deals, seed,
                       None)
    params = plan.params
    deals, leader, _ = chunk_deals(params, args.tail_deals, np.random.SeedSequence(seed))
    _, setups = option_setups(deals, leader, int(params["seat"]), options_from_params(params["options"]), PERFECT)
    context = multiprocessing.get_context("fork")  # the child inherits the loaded kernels
    print(f"  {hand}: bracket tail, {args.tail_deals} deals, stop at {args.tail:.0f} CPU-s a kind", flush=True)
    total = {}
    for deal in range(args.tail_deals):
        rows = np.flatnonzero(setups["hand"] // 4 == deal)
        contracts = list(dict.fromkeys(setup_contracts(setups, rows)))
        parts = []
        for kind, name in KIND_NAMES.items():
            asked = [c for c in contracts if c[2] == kind]
            if not asked:
                continue
            here, there = context.Pipe(duplex=False)
            child = context.Process(target=_solve_in_child,
                                    args=(deals[deal], int(leader[deal]), asked, DD_DEFAULT_BUDGET, there))
            child.start()
            wall = time.monotonic()
            while not here.poll(1.0) and child.is_alive() and time.monotonic() - wall < args.tail * 20:
                if cpu_seconds(child.pid) > args.tail:
                    break
            if here.poll():
                cpu, bounds = here.recv()
                made = ",".join("?" if lo != hi else str(lo) for lo, hi in bounds)
                parts.append(f"{name} {cpu:7.2f} ({len(asked)}: {made})")
                total[name] = total.get(name, 0.0) + cpu
            else:
                parts.append(f"{name} >{args.tail:.0f} (deal {' '.join(format_hand(int(h)) for h in deals[deal])})")
                total[name] = total.get(name, 0.0) + args.tail
            child.kill()
            child.join()
        print(f"    deal {deal:3d}: " + ", ".join(parts), flush=True)
    print("    CPU-s a deal (stopped kinds at the stop): "
          + ", ".join(f"{name} {cpu / args.tail_deals:.2f}" for name, cpu in total.items()), flush=True)


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
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES),
                        help="what is shared, in order: the first is the anchor, the last the goal's figure")
    parser.add_argument("--breakdown", action="store_true", help="solver work per option and kind of question")
    parser.add_argument("--tail", type=float, default=0.0,
                        help="CPU-s: the bracket's questions by kind on --tail-deals deals, each stopped there")
    parser.add_argument("--tail-deals", type=int, default=20, help="deals a hand for --tail")
    parser.add_argument("--profile", action="store_true", help="cProfile the sampled-dd play, top 25 by own time")
    parser.add_argument("--rows", default=None, help="a folder: each hand's advice table as SEED-HAND.csv")
    args = parser.parse_args()
    if args.deals < 1 or args.bracket_deals < 0 or args.tail_deals < 1 or args.tail < 0:
        print("--deals and --tail-deals must be at least 1, --bracket-deals and --tail at least 0", file=sys.stderr)
        return 2
    if args.seed is not None and not 0 <= args.seed < 2**63:
        print(f"--seed {args.seed}: want a whole number from 0 to 2**63 - 1", file=sys.stderr)
        return 2
    if args.rows is not None and not os.path.isdir(args.rows):
        print(f"--rows {args.rows}: not a folder", file=sys.stderr)
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
            if args.tail:
                bracket_tail(hand, args, seed)
            else:
                print(bench_hand(hand, args, seed, profile), flush=True)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
