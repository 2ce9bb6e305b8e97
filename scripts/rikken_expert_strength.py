"""Strength of the expert card-play policy against the heuristic, paired on the same deals, with dd beside.

1. Contracts (``--deals`` random deals, every seat's hand set up for each of Rik, 8 Alone, 9 Alone,
   Misery and 1 Alone as ``rikken bids`` sets them up, each contract played for its own target): the
   make rate with heuristic declarers and defenders, with expert declarers against heuristic
   defenders, and with heuristic declarers against expert defenders; the paired differences (same
   hands) with 95% intervals. On the first ``--dd-setups`` hands of each contract a second line gives
   the three rates on those hands with the double-dummy make rate (both sides perfect,
   ``dd.play_setups_dd``) beside them.
2. Full rounds (``--rounds`` random deals, the hand-written auction, money scoring): seats N and S
   play expert and E and W heuristic, then the other way round on the same deals; the expert pair's
   money per round (the mean over both seatings of its two seats' money) with a 95% interval. The
   heuristic pair's is its negative (money is zero-sum).

Usage: ``python scripts/rikken_expert_strength.py [--deals N] [--rounds R] [--dd-setups K] [--seed S]
[--samples W] [--first-trick T] [--contracts rik,misery]``. A fresh seed is drawn (and printed) unless ``--seed`` is given;
times are CPU seconds of this process.
"""

import argparse
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import rules
from analyzer.games.rikken.auction import auction_batch
from analyzer.games.rikken.dd import play_setups_dd
from analyzer.games.rikken.experiments import build_setups, declaring_seats, random_deals, result_columns
from analyzer.games.rikken.expert import DEFAULT_FIRST_TRICK, DEFAULT_SAMPLES, expert_params
from analyzer.games.rikken.kernels import POLICY_EXPERT, POLICY_HEURISTIC, playout_batch
from analyzer.games.rikken.rules import Contract, ScoringMode
from analyzer.games.rikken.scoring import score_rounds
from analyzer.reports.stats import mean_interval, paired_difference, wilson_interval

CONTRACTS = (Contract.RIK, Contract.ALONE_8, Contract.ALONE_9, Contract.MISERY, Contract.ONE_ALONE)
_KEYS = ("hands", "leader", "contract_of", "partner", "trump", "called_card", "blind")


def play(setups: dict, declarer: int, defender: int, params: np.ndarray, seed: int) -> np.ndarray:
    """Tricks per seat of every setup row, the declaring side playing ``declarer`` and the others ``defender``."""
    policy_of_seat = np.where(declaring_seats(setups["contract_of"], setups["partner"]), declarer,
                              defender).astype(np.int64)
    tricks = np.zeros((setups["hands"].shape[0], 4), dtype=np.int64)
    playout_batch(*(setups[key] for key in _KEYS), policy_of_seat, params, state_from_seed(seed), tricks)
    return tricks


def made_of(setups: dict, tricks: np.ndarray, contract: Contract) -> np.ndarray:
    """Made (bool per hand) from the play-out's tricks, as ``rikken bids`` scores it."""
    columns = result_columns(setups, tricks, int(setups["hand"].max()) + 1, [contract], shared={})
    return columns[f"made_{rules.CONTRACT_CLI_NAMES[contract]}"][setups["hand"]]


def rate_text(made: np.ndarray) -> str:
    """``rate [95% Wilson interval]``."""
    low, high = wilson_interval(int(made.sum()), made.size)
    return f"{made.mean():.3f} [{low:.3f}, {high:.3f}]"


def diff_text(a: np.ndarray, b: np.ndarray) -> str:
    """Paired mean difference ``a - b`` with its 95% interval and whether it excludes 0 (``yes`` above, ``reverse``
    below)."""
    mean, low, high = paired_difference(a.astype(float), b.astype(float))
    sign = "yes" if low > 0 else ("reverse" if high < 0 else "no")
    return f"{mean:+.4f} [{low:+.4f}, {high:+.4f}] {sign}"


def contracts_part(args, params: np.ndarray) -> None:
    """Part 1 of the module notes."""
    deals = random_deals(args.deals, np.random.SeedSequence(args.seed))
    leader = (np.arange(args.deals, dtype=np.int64) + 1) % 4
    print(f"1. contracts: {args.deals:,} deals x 4 hands; made rate [95% Wilson]; paired differences [95%]")
    print(f"{'contract':<9}{'hands':>7} {'heur/heur':>22} {'expert decl':>22} {'expert def':>22}"
          f"  {'expert decl - heur':>34}  {'expert def - heur':>34}")
    for i, contract in enumerate(args.contracts):
        setups = build_setups(deals, leader, [contract], shared={})
        start = time.process_time()
        base = made_of(setups, play(setups, POLICY_HEURISTIC, POLICY_HEURISTIC, params, args.seed + i), contract)
        decl = made_of(setups, play(setups, POLICY_EXPERT, POLICY_HEURISTIC, params, args.seed + i), contract)
        defn = made_of(setups, play(setups, POLICY_HEURISTIC, POLICY_EXPERT, params, args.seed + i), contract)
        name = rules.CONTRACT_CLI_NAMES[contract]
        print(f"{name:<9}{base.size:>7} {rate_text(base):>22} {rate_text(decl):>22} {rate_text(defn):>22}"
              f"  {diff_text(decl, base):>34}  {diff_text(defn, base):>34}   ({time.process_time() - start:.0f} s)",
              flush=True)
        if args.dd_setups:
            head = {key: value[:args.dd_setups] for key, value in setups.items()}
            dd = made_of(head, play_setups_dd(head)[0], contract)
            k = dd.size
            print(f"{'':<9}{k:>7} {rate_text(base[:k]):>22} {rate_text(decl[:k]):>22} {rate_text(defn[:k]):>22}"
                  f"  dd (both sides perfect) on these first {k} hands: {rate_text(dd)}", flush=True)


def rounds_part(args, params: np.ndarray) -> None:
    """Part 2 of the module notes."""
    deals = random_deals(args.rounds, np.random.SeedSequence(args.seed + 100))
    dealers = np.arange(args.rounds, dtype=np.int64) % 4
    arrays = auction_batch(deals, dealers)
    rows = np.flatnonzero(~arrays["passed_out"])
    setup = {key: arrays[key][rows] for key in _KEYS[1:]}
    setup["hands"] = deals[rows]
    money = np.zeros(args.rounds)
    start = time.process_time()
    for pair, seed in ((0, 1), (1, 2)):
        seats = np.array([POLICY_EXPERT if (s & 1) == pair else POLICY_HEURISTIC for s in range(4)], dtype=np.int64)
        tricks = np.zeros((rows.size, 4), dtype=np.int64)
        playout_batch(*(setup[key] for key in _KEYS), np.tile(seats, (rows.size, 1)), params,
                      state_from_seed(args.seed + seed), tricks)
        scores = score_rounds(setup["contract_of"], setup["partner"], tricks, ScoringMode.MONEY)
        money[rows] += 0.5 * (scores[:, pair] + scores[:, pair + 2])
    mean, low, high = mean_interval(money)
    print(f"\n2. full rounds: {args.rounds:,} deals ({rows.size:,} played), expert pair N+S then E+W against "
          f"heuristic: expert pair money per round {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
          f"   ({time.process_time() - start:.0f} s)")


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--dd-setups", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--first-trick", type=int, default=DEFAULT_FIRST_TRICK)
    parser.add_argument("--contracts", default=",".join(rules.CONTRACT_CLI_NAMES[c] for c in CONTRACTS),
                        help="comma-separated contracts of part 1")
    args = parser.parse_args()
    args.contracts = [rules.parse_contract(text) for text in args.contracts.split(",")]
    if args.seed is None:
        args.seed = int(np.random.SeedSequence().entropy % 10**6)
    params = expert_params(samples=args.samples, first_trick=args.first_trick)
    print(f"seed {args.seed}; expert: {args.samples} worlds per decision from trick {args.first_trick}")
    if args.deals:
        contracts_part(args, params)
    if args.rounds:
        rounds_part(args, params)


if __name__ == "__main__":
    main()
