"""Schnapsen benchmark: our kernels side by side with the ``schnapsen`` PyPI package, in one run.

Measures (CPU seconds of this process, single thread):
  1. random full games per CPU-second          (anchor: schnapsen package RandBot vs RandBot)
  2. heuristic games per CPU-second            (anchor: schnapsen package BullyBot vs BullyBot)
  3. ``perfect`` solves from the first lead per second (no anchor in the package)
  4. ``pimc`` milliseconds per decision (positions with more than one legal move) at the default
     sample count over whole games against the heuristic: median, mean and 90th percentile
                                             (anchor: schnapsen package RdeepBot, 16 samples, depth 4)

Usage: python scripts/bench_schnapsen.py [--seconds S]
"""

import argparse
import random
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams
from analyzer.games.schnapsen.kernels import (
    apply_action,
    init_round,
    legal_actions,
    shuffle_deck,
)
from analyzer.games.schnapsen.play import (
    HEURISTIC,
    PIMC,
    RANDOM,
    choose_action,
    play_deals,
)
from analyzer.games.schnapsen.search import DEFAULT_SAMPLES, new_workspace, solve_value


def cpu_rate(step, budget):
    """Call ``step()`` (returning items done) until ``budget`` CPU seconds pass; return items per CPU-second."""
    step()
    done = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        done += step()
    return done / (time.process_time() - start)


def ours_games(policy, budget, batch):
    ws = new_workspace()
    pol = np.array([policy, policy], dtype=np.int64)
    samples = np.array([DEFAULT_SAMPLES] * 2, dtype=np.int64)
    hp = np.stack([HeuristicParams().to_array()] * 2)
    out = np.zeros((batch, 6), dtype=np.int64)
    deal_rng, bot_rng = state_from_seed(1), state_from_seed(2)

    def step():
        play_deals(batch, pol, samples, hp, deal_rng, bot_rng, out, ws)
        return batch

    return cpu_rate(step, budget)


def package_games(bot_factory, budget):
    from schnapsen.game import SchnapsenGamePlayEngine

    engine = SchnapsenGamePlayEngine()
    rng = random.Random(1)

    def step():
        engine.play_game(bot_factory(rng), bot_factory(rng), rng)
        return 1

    return cpu_rate(step, budget)


def ours_solves(budget):
    ws = new_workspace()
    rng = state_from_seed(3)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)

    def step():
        shuffle_deck(rng, ws.deck)
        init_round(ws.deck, 1, s)
        solve_value(s, ws.stack, ws.moves, ws.tt, ws.gen)
        return 1

    return cpu_rate(step, budget)


def ours_pimc_ms(games):
    """Per-decision CPU milliseconds of pimc (default samples) over whole games against the heuristic."""
    ws = new_workspace()
    rng = state_from_seed(4)
    hp = HeuristicParams().to_array()
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    times = []
    for g in range(games + 1):
        shuffle_deck(rng, ws.deck)
        init_round(ws.deck, g % 2, s)
        while s[R.WINNER] < 0:
            # forced moves are not decisions: only positions with a choice are timed
            pimc_turn = s[R.TO_MOVE] == 0 and legal_actions(s, ws.acts) > 1
            start = time.process_time()
            a = choose_action(s, PIMC if s[R.TO_MOVE] == 0 else HEURISTIC, DEFAULT_SAMPLES, hp, rng, ws)
            if pimc_turn and g > 0:  # game 0 only compiles
                times.append(time.process_time() - start)
            apply_action(s, a)
    return np.array(times) * 1000


def package_rdeep_ms(games):
    from schnapsen.bots import RandBot, RdeepBot
    from schnapsen.game import SchnapsenGamePlayEngine

    times = []

    class Timed(RdeepBot):
        def get_move(self, perspective, leader_move):
            start = time.process_time()
            move = super().get_move(perspective, leader_move)
            if len(perspective.valid_moves()) > 1:
                times.append(time.process_time() - start)
            return move

    engine = SchnapsenGamePlayEngine()
    rng = random.Random(5)
    for _ in range(games):
        engine.play_game(Timed(num_samples=16, depth=4, rand=rng), RandBot(rng), rng)
    return np.array(times) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU budget per throughput measurement")
    parser.add_argument("--games", type=int, default=10, help="games for the per-decision timings")
    args = parser.parse_args()
    from schnapsen.bots import BullyBot, RandBot

    rows = []
    ours = ours_games(RANDOM, args.seconds, 20000)
    theirs = package_games(lambda rng: RandBot(rng), args.seconds)
    rows.append(("random games / CPU-s", ours, theirs, ours / theirs))
    ours = ours_games(HEURISTIC, args.seconds, 20000)
    theirs = package_games(lambda rng: BullyBot(rng), args.seconds)
    rows.append(("heuristic games / CPU-s (anchor: BullyBot)", ours, theirs, ours / theirs))
    rows.append(("perfect solves from first lead / CPU-s", ours_solves(args.seconds), float("nan"), float("nan")))
    ours_ms = ours_pimc_ms(args.games)
    theirs_ms = package_rdeep_ms(args.games)
    rows.append((f"pimc ({DEFAULT_SAMPLES} samples) ms/decision, median", float(np.median(ours_ms)),
                 float(np.median(theirs_ms)), float(np.median(theirs_ms) / np.median(ours_ms))))
    rows.append((f"pimc ({DEFAULT_SAMPLES} samples) ms/decision, mean", float(ours_ms.mean()),
                 float(theirs_ms.mean()), float(theirs_ms.mean() / ours_ms.mean())))
    rows.append((f"pimc ({DEFAULT_SAMPLES} samples) ms/decision, p90", float(np.percentile(ours_ms, 90)),
                 float(np.percentile(theirs_ms, 90)), float(np.percentile(theirs_ms, 90) / np.percentile(ours_ms, 90))))
    print(f"{'measure':48s} {'ours':>12s} {'package':>12s} {'ratio':>9s}")
    for name, a, b, r in rows:
        print(f"{name:48s} {a:12.2f} {b:12.2f} {r:8.1f}x")
    print("ratio = ours/package for throughput, package/ours for milliseconds (higher is better for us);")
    print("the package's rdeep bot is rollouts without search; its rules lack closing.")


if __name__ == "__main__":
    main()
