"""Screen heuristic rule changes against the outside engine's rule player, deal by deal, paired.

Each deal seed is played twice by every variant of our heuristic, once from each seat (the engine's player
ONE deals, so the same cards reach the same seat), inside cpatrasciuc/schnapsen-card-game with its referee
(see ``scripts/schnapsen_sparring.py`` for the engine's sources). Python's ``random``, which the engine's
player draws from, is seeded per deal and seat, so a variant that decides as the first one replays its deal
exactly: the paired differences come only from the deals where a rule changed a card. Single deals, not
Bummerls: each deal's game points (won +, lost -) are the measure, which a Bummerl's win follows.

Prints the seed (fresh unless ``--seed``), per variant our game points a deal with a 95% interval and the
deals by how they ended (deals, won by us, game points won minus lost), and for every variant after the
first the paired difference a deal pair (both seats) against the first, with a 95% interval and the
number of pairs that differ.

Usage: python scripts/schnapsen_engine_screen.py --engine DIR/src [--deals N] [--seed S]
       [--variants '' 'name=value,...' ...]  (heuristic parameters changed; the first is the reference)
"""

import argparse
import random
import secrets

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.kernels import apply_action
from analyzer.reports.stats import mean_interval
from schnapsen_sparring import ENDINGS, Engine, deal_ending


def play_deal(engine: Engine, params: np.ndarray, our_seat: int, deal_seed: int, acts: np.ndarray) -> np.ndarray:
    """One deal of our heuristic (``params``) as player ``our_seat`` against the engine's rule player, player
    ONE dealing; the finished kernel state."""
    ids = engine.ids.PlayerId
    seats = (ids.ONE, ids.TWO)
    them = engine.opponent("heuristic", seats[1 - our_seat])
    game = engine.bummerl.Bummerl(next_dealer=ids.ONE).start_game(seed=deal_seed)
    s = engine.mirror(game.game_state)
    while not game.game_state.is_game_over:
        state = game.game_state
        if state.next_player == seats[our_seat]:
            code = int(heuristic_action(s, params, acts))
            action = engine.action(code, seats[our_seat])
        else:
            action = them.request_next_action(state.next_player_view())
            code = engine.code(action)
        game.play_action(action)
        apply_action(s, code)
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="the outside engine's src folder")
    parser.add_argument("--deals", type=int, default=1000, help="deal seeds (each played from both seats)")
    parser.add_argument("--seed", type=int, default=None, help="run seed (default: fresh)")
    parser.add_argument("--variants", nargs="+", default=[""], help="heuristic parameters changed, one per variant")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        variants = [HeuristicParams.parse(text).to_array() for text in args.variants]
    except ValueError as exc:
        parser.error(str(exc))
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    engine = Engine(args.engine)
    deal_seeds = 1 + np.random.SeedSequence(seed).generate_state(args.deals, np.uint32).astype(np.int64)
    acts = np.zeros(16, dtype=np.int64)
    points = np.zeros((len(variants), args.deals), dtype=np.int64)  # ours, both seats of a deal seed
    endings = [{name: [0, 0, 0] for name in ENDINGS} for _ in variants]
    print(f"seed {seed}: {args.deals} deals from both seats, {len(variants)} variants", flush=True)
    for k, deal_seed in enumerate(deal_seeds):
        for seat in (0, 1):
            for v, params in enumerate(variants):
                random.seed(int(deal_seed) * 2 + seat)
                s = play_deal(engine, params, seat, int(deal_seed), acts)
                won = int(s[R.WINNER]) == seat
                gp = int(s[R.GAME_POINTS]) * (1 if won else -1)
                points[v, k] += gp
                ending = endings[v][deal_ending(s, seat)]
                ending[0] += 1
                ending[1] += int(won)
                ending[2] += gp
    for v, text in enumerate(args.variants):
        mean, lo, hi = mean_interval(points[v] / 2)
        print(f"variant {v} ({text or 'default'}): {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] game points a deal; " + "; ".join(
            f"{name} {n}, {won}, {gp:+d}" for name, (n, won, gp) in endings[v].items()))
        if v:
            diff = points[v] - points[0]
            mean, lo, hi = mean_interval(diff)
            print(f"  minus variant 0: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] a deal pair, total {int(diff.sum()):+d}, "
                  f"{int(np.count_nonzero(diff))} of {args.deals} pairs differ")


if __name__ == "__main__":
    main()
