"""Our Schnapsen bot against the ``schnapsen`` PyPI package's ``RdeepBot`` inside the package's engine.

The package bot is ``RdeepBot(samples, depth)`` while the talon has cards and the package's
``AlphaBetaBot`` once it is empty. Every deal is played twice with the seats swapped (our bot leading
the first trick, then the package bot), from the same shuffled deck. Prints the seed (fresh unless
``--seed``), our share of games (deals) won with its 95% Wilson interval, the game points, and our CPU
milliseconds per decision (positions with more than one valid move).

Usage: python scripts/schnapsen_package_duel.py [--games N] [--bot pimc_plus] [--seed S] [--our-rules]
"""

import argparse
import random
import secrets
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np
from schnapsen.bots import RdeepBot
from schnapsen.game import SchnapsenGamePlayEngine
from schnapsen_package_adapter import AnalyzerBot, PhaseTwoAlphaBeta

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import Bot, package_decider, parse_bot
from analyzer.games.schnapsen.kernels import init_round, shuffle_deck
from analyzer.games.schnapsen.search import new_workspace
from analyzer.reports.stats import wilson_interval


def duel(bot: Bot, n_deals: int, seed: int, rdeep_samples: int = 64, rdeep_depth: int = 8,
         progress: bool = False, package_rules: bool = True) -> dict:
    """Play ``n_deals`` deals twice (seats swapped) of ``bot`` against the package configuration; our
    bot's search follows the package's rules (no closing, king-led marriages) unless ``package_rules``
    is False (then ours, closing included, as our bots were first carried over).

    Returns a dict: ``games``, ``wins`` (ours), ``game_points`` (ours, opponent's), ``times`` (our CPU
    seconds per decision) and ``per_seat`` wins (leading the first trick, following it).
    """
    engine = SchnapsenGamePlayEngine()
    deck_ss, ours_ss, theirs_ss = np.random.SeedSequence(seed).spawn(3)
    ws = new_workspace(package_rules=package_rules)
    decide = package_decider(bot, state_from_seed(ours_ss), ws)
    # one untimed decision first: it compiles the kernels (or loads them from the cache)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    shuffle_deck(state_from_seed(seed), ws.deck)
    init_round(ws.deck, 1, s)
    decide(s, [a for a in range(R.N_CARDS) if (int(s[R.HAND0]) >> a) & 1])
    ours = AnalyzerBot(decide, name=bot.label)
    theirs_rng = random.Random(int(theirs_ss.generate_state(1)[0]))
    theirs = PhaseTwoAlphaBeta(RdeepBot(num_samples=rdeep_samples, depth=rdeep_depth, rand=theirs_rng))
    deal_seeds = deck_ss.generate_state(n_deals, np.uint64)
    wins = [0, 0]
    gp = [0, 0]
    for i in range(n_deals):
        for seat in (0, 1):
            deck_rng = random.Random(int(deal_seeds[i]))
            first, second = (ours, theirs) if seat == 0 else (theirs, ours)
            winner, points, _ = engine.play_game(first, second, deck_rng)
            if winner is ours:
                wins[seat] += 1
                gp[0] += points
            else:
                gp[1] += points
        if progress and (i + 1) % 25 == 0:
            print(f"  {i + 1} deals: {sum(wins)}/{2 * (i + 1)} games won", flush=True)
    return {"games": 2 * n_deals, "wins": sum(wins), "game_points": tuple(gp), "times": np.array(ours.times),
            "per_seat": tuple(wins)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="games in all (deals x 2 seatings), even")
    parser.add_argument("--bot", default="pimc_plus", help="our bot, as in `schnapsen match --bots`")
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    parser.add_argument("--rdeep-samples", type=int, default=64)
    parser.add_argument("--rdeep-depth", type=int, default=8)
    parser.add_argument("--our-rules", action="store_true",
                        help="search with our rules (closing in the tree) instead of the package's")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number >= 2")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    bot = parse_bot(args.bot)
    rules = "our rules" if args.our_rules else "the package's rules"
    print(f"seed {seed}; {bot.label} (searching with {rules}) against RdeepBot({args.rdeep_samples}, "
          f"{args.rdeep_depth}) then AlphaBetaBot, {args.games} games (each deal twice, seats swapped)", flush=True)
    start = time.time()
    r = duel(bot, args.games // 2, seed, args.rdeep_samples, args.rdeep_depth, progress=True,
             package_rules=not args.our_rules)
    lo, hi = wilson_interval(r["wins"], r["games"])
    ms = r["times"] * 1000
    print(f"{bot.label} won {r['wins']}/{r['games']} games = {r['wins'] / r['games']:.1%} [{lo:.1%}, {hi:.1%}] "
          f"(leading first {r['per_seat'][0]}, following first {r['per_seat'][1]} of {r['games'] // 2} each)")
    print(f"game points: ours {r['game_points'][0]}, package {r['game_points'][1]}")
    print(f"our CPU ms per decision ({len(ms)} decisions): mean {ms.mean():.1f}, median {np.median(ms):.1f}, "
          f"p90 {np.percentile(ms, 90):.1f}, max {ms.max():.1f}; wall {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
