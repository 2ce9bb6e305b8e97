"""Shares of 1, 2 and 3 game points among deals won, in self-play of one bot (both seats, dealer
alternating), with 95% Wilson intervals: the source of ``bummerl.DEAL_POINT_SHARES``.

Usage: python scripts/schnapsen_deal_point_shares.py [--bot hybrid] [--deals 400] [--seed S]
"""

import argparse
import secrets

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np  # noqa: E402

from analyzer.cards.rng import state_from_seed  # noqa: E402
from analyzer.games.schnapsen.experiments import parse_bot  # noqa: E402
from analyzer.games.schnapsen.play import play_deals  # noqa: E402
from analyzer.games.schnapsen.search import new_workspace  # noqa: E402
from analyzer.reports.stats import wilson_interval  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="hybrid")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be >= 1")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    bot = parse_bot(args.bot)
    ws = new_workspace()
    policy = np.full(2, bot.policy, dtype=np.int64)
    samples = np.full(2, bot.samples, dtype=np.int64)
    hparams = np.stack([bot.params.to_array()] * 2)
    out = np.zeros((args.deals, 6), dtype=np.int64)
    play_deals(args.deals, policy, samples, hparams, state_from_seed(seed), state_from_seed(seed + 1), out, ws)
    print(f"seed {seed}; {bot.label} self-play, {args.deals} deals")
    for points in (1, 2, 3):
        k = int((out[:, 1] == points).sum())
        lo, hi = wilson_interval(k, args.deals)
        print(f"{points} game points: {k} = {k / args.deals:.1%} [{lo:.1%}, {hi:.1%}]")


if __name__ == "__main__":
    main()
