"""Whether the forehand (who leads the first trick of a deal) has an edge: one bot in both seats, deal by deal.

Each random deck is played twice by the same bot in both seats: once as dealt (the non-dealer leads), once
with the two hands exchanged (:func:`swap_hands`), so the forehand holds the dealer's cards on the same trump
and stock. The cards' strength then cancels from the pair's mean, which leaves the forehand's edge with a
much smaller spread than over unpaired deals. Prints the seed (fresh unless ``--seed``), the forehand's share
of deals won and its net game points a deal (its points won minus lost), each with a 95% interval over all
deals (Wilson; the plain mean) and over the pairs (the mean of each pair's two deals: the sharper one).

Usage: python scripts/schnapsen_seat.py [--bot hybrid:20] [--pairs 1000] [--seed S] [--chunk 50]
"""

import argparse
import secrets
import sys
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import parse_bot
from analyzer.games.schnapsen.kernels import init_round, shuffle_deck
from analyzer.games.schnapsen.play import kernels_for
from analyzer.games.schnapsen.search import new_workspace
from analyzer.reports.stats import mean_interval, wilson_interval

# positions in a dealt order (``init_round``) of the non-dealer's five cards and of the dealer's
FOREHAND_CARDS = np.array([0, 1, 2, 7, 8])
DEALER_CARDS = np.array([3, 4, 5, 9, 10])


def swap_hands(order: np.ndarray) -> np.ndarray:
    """The dealt ``order`` with the two hands exchanged: the same trump card and stock."""
    swapped = order.copy()
    swapped[FOREHAND_CARDS], swapped[DEALER_CARDS] = order[DEALER_CARDS], order[FOREHAND_CARDS]
    return swapped


def forehand_pairs(bot, n_pairs: int, deal_rng, bot_rng, ws) -> np.ndarray:
    """Play ``n_pairs`` decks twice (as dealt, then hands exchanged), ``bot`` in both seats, seat 0 on lead.

    Returns an ``(n_pairs, 2)`` array of the forehand's signed game points (+ won, - lost) in each deal.
    ``deal_rng`` and ``bot_rng`` are advanced in place, so calls in a row continue one run.
    """
    play_out = kernels_for((bot.policy,)).play_out
    policy = np.full(2, bot.policy, dtype=np.int64)
    samples = np.full(2, bot.samples, dtype=np.int64)
    params = np.stack([bot.params.to_array()] * 2)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    out = np.zeros((n_pairs, 2), dtype=np.int64)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    for i in range(n_pairs):
        shuffle_deck(deal_rng, deck)
        for j, order in enumerate((deck, swap_hands(deck))):
            init_round(order, 1, s)
            play_out(s, policy, samples, params, bot_rng, ws)
            out[i, j] = s[R.GAME_POINTS] if s[R.WINNER] == 0 else -s[R.GAME_POINTS]
    return out


def summary(points: np.ndarray) -> list[str]:
    """The forehand's deals won and net game points a deal of :func:`forehand_pairs`' ``points``, each with a
    95% interval over all deals and one over the pairs' means."""
    wins = points > 0
    k, n = int(wins.sum()), wins.size
    lo, hi = wilson_interval(k, n)
    pm, plo, phi = mean_interval(wins.mean(axis=1))
    gm, glo, ghi = mean_interval(points.ravel())
    qm, qlo, qhi = mean_interval(points.mean(axis=1))
    return [f"forehand won {k}/{n} deals = {100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (Wilson); over the "
            f"{len(points)} pairs {100 * pm:.1f}% [{100 * plo:.1f}, {100 * phi:.1f}]",
            f"forehand's net game points a deal {gm:+.3f} [{glo:+.3f}, {ghi:+.3f}]; over the pairs "
            f"{qm:+.3f} [{qlo:+.3f}, {qhi:+.3f}]"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="hybrid:20", help="the bot in both seats (as for schnapsen match)")
    parser.add_argument("--pairs", type=int, default=1000, help="decks, each played twice")
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    parser.add_argument("--chunk", type=int, default=50, help="pairs between progress lines")
    args = parser.parse_args()
    try:
        if args.pairs < 1 or args.chunk < 1:
            raise InputError("--pairs and --chunk must be >= 1")
        if args.seed is not None and args.seed < 0:
            raise InputError("--seed must be >= 0")
        bot = parse_bot(args.bot)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    deal_ss, bot_ss = np.random.SeedSequence(seed).spawn(2)
    deal_rng, bot_rng = state_from_seed(deal_ss), state_from_seed(bot_ss)
    ws = new_workspace()
    print(f"seed {seed}: {bot.label} in both seats, {args.pairs} decks each played twice", flush=True)
    start = time.time()
    parts = []
    for first in range(0, args.pairs, args.chunk):
        parts.append(forehand_pairs(bot, min(args.chunk, args.pairs - first), deal_rng, bot_rng, ws))
        done = np.concatenate(parts)
        print(f"after {len(done)} pairs ({time.time() - start:.0f} s wall):", *summary(done), sep="\n  ", flush=True)


if __name__ == "__main__":
    main()
