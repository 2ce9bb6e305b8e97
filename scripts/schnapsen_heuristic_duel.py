"""Schnapsen heuristic duel: Bummerl matches of the heuristic against the classic heuristic (issue 15).

Each pair of matches is played on the same deals with the seats swapped (``experiments.match_task``, as
``analyzer schnapsen match`` does). Prints bot A's Bummerl win rate with its 95% Wilson interval, the
paired differences per pair (match wins, game points per deal) with 95% intervals, and per bot its
closings per deal and the closings it won (closer won the deal): count, rate and Wilson interval. The
seed is fresh unless ``--seed`` is given, and printed; the same seed gives the same figures.

Then the speed of each bot in self-play: whole deals per CPU-second (this process), the two bots
alternating in batches of the same deals, with the ratio A / B.

Usage: ``python scripts/schnapsen_heuristic_duel.py [--pairs N] [--seed S] [--bots A B] [--seconds S]``
(default 10,000 pairs, ``--bots heuristic heuristic:classic``, 2 CPU-seconds per bot for the speed).
``--params A B`` changes heuristic parameters of either bot (``name=value,...``; ``''`` for none), so a rule
can be compared with itself switched off: ``--bots heuristic heuristic --params '' discard_order=0``.
"""

import argparse
import time
from dataclasses import replace

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np  # noqa: E402

from analyzer.cards.rng import state_from_seed  # noqa: E402
from analyzer.games.schnapsen.bots import HeuristicParams  # noqa: E402
from analyzer.games.schnapsen.experiments import Bot, match_task, parse_bot  # noqa: E402
from analyzer.games.schnapsen.play import play_deals  # noqa: E402
from analyzer.games.schnapsen.search import new_workspace  # noqa: E402
from analyzer.games.schnapsen.summary import match_sums, summarize_matches  # noqa: E402


def with_params(spec: str, changes: str) -> Bot:
    """The bot ``spec`` with its heuristic parameters changed by ``name=value,...`` (none when empty)."""
    bot = parse_bot(spec)
    return replace(bot, params=HeuristicParams.parse(changes, bot.params)) if changes else bot


def duel(bot_a: Bot, bot_b: Bot, pairs: int, seed: int) -> dict:
    """Play ``pairs`` seat-swapped match pairs of bots ``bot_a`` and ``bot_b`` from ``seed``; the summary tables."""
    rows = match_task({"a": bot_a.as_dict(), "b": bot_b.as_dict()}, 0, pairs, np.random.SeedSequence(seed))
    return summarize_matches(match_sums(rows), bot_a.label, bot_b.label)


def self_play_rates(bots: list[Bot], seconds: float, seed: int, batch: int = 20_000) -> list[float]:
    """Deals per CPU-second of each bot playing both seats, batches alternating between the bots; each
    round of batches replays the same deals for every bot."""
    ws = new_workspace(tt_bits=4)
    out = np.zeros((batch, 6), dtype=np.int64)
    spent = [0.0] * len(bots)
    done = [0] * len(bots)
    seats = [(np.full(2, b.policy), np.full(2, b.samples), np.stack([b.params.to_array()] * 2)) for b in bots]
    for policy, samples, hparams in seats:  # compile outside the timing
        play_deals(10, policy, samples, hparams, state_from_seed(seed), state_from_seed(seed + 1), out, ws)
    rounds = 0
    while min(spent) < seconds:
        for i, (policy, samples, hparams) in enumerate(seats):
            start = time.process_time()
            play_deals(batch, policy, samples, hparams, state_from_seed(seed + 2 * rounds),
                       state_from_seed(seed + 2 * rounds + 1), out, ws)
            spent[i] += time.process_time() - start
            done[i] += batch
        rounds += 1
    return [d / t for d, t in zip(done, spent)]


def main() -> None:
    """Run the duel and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000, help="match pairs (each pair: two Bummerls)")
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed when left out)")
    parser.add_argument("--bots", nargs=2, default=["heuristic", "heuristic:classic"], metavar=("A", "B"))
    parser.add_argument("--params", nargs=2, default=["", ""], metavar=("A", "B"),
                        help="heuristic parameters changed for A and B: name=value,... ('' for none)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU-seconds per bot for the speed")
    args = parser.parse_args()
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    print(f"seed {seed}: {args.pairs} pairs of Bummerls, {args.bots[0]} (A) against {args.bots[1]} (B), "
          "seats swapped on the same deals")
    bots = [with_params(spec, changes) for spec, changes in zip(args.bots, args.params)]
    start = time.process_time()
    tables = duel(bots[0], bots[1], args.pairs, seed)
    cpu = time.process_time() - start
    o = tables["overall"].iloc[0]
    print(f"A wins {o.a_wins} of {o.matches} Bummerls: {o.a_win_rate:.1%} [95%: {o.a_win_lo:.1%}, {o.a_win_hi:.1%}] "
          f"over {o.deals} deals")
    for r in tables["paired"].itertuples():
        print(f"{r.metric}: {r.mean:+.3f} [95%: {r.lo:+.3f}, {r.hi:+.3f}] over {r.pairs} pairs")
    for r in tables["per_bot"].itertuples():
        print(f"{r.bot} {r.label}: {r.gp_per_deal:.3f} game points per deal; closed {r.closes} times "
              f"({r.closes_per_deal:.3f} per deal), closes won {r.close_wins}: {r.close_success:.1%} "
              f"[95%: {r.close_lo:.1%}, {r.close_hi:.1%}]")
    print(f"{cpu:.1f} CPU-s")
    rates = self_play_rates(bots, args.seconds, seed)
    print(f"self-play deals per CPU-second: A {rates[0]:,.0f}, B {rates[1]:,.0f}, A / B {rates[0] / rates[1]:.2f}")


if __name__ == "__main__":
    main()
