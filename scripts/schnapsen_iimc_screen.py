"""Screen ``hybrid_iimc`` (:mod:`analyzer.games.schnapsen.iimc_bot`) against a registered bot on paired deals.

The Bummerls are played from Python, as ``experiments.match_task`` plays them in numba: each match pair is two
Bummerls on the same deal sequence with the seats swapped, the same bot random state for both, seat 1 dealing
first; bot B decides by ``play.choose_action``. So ``--bots``-style output: A's share of Bummerls won with its
95% Wilson interval, the game points a deal, A's net game points a pair, the seat test and the closings
(``schnapsen_strength.summarize``), and each bot's CPU milliseconds a decision (positions with more than one
legal action) inside these Bummerls. A progress line after every ``--chunk`` pairs.

Usage: python scripts/schnapsen_iimc_screen.py [--samples 20] [--player pimc:2] [--worlds 32]
       [--opponent hybrid:20] [--matches N] [--chunk C] [--seed S]
"""

import argparse
import secrets
import time
from collections.abc import Callable

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np
import pandas as pd

from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import Bot, parse_bot
from analyzer.games.schnapsen.iimc_bot import hybrid_iimc_action
from analyzer.games.schnapsen.kernels import apply_action, init_round, legal_actions, shuffle_deck
from analyzer.games.schnapsen.play import choose_action
from analyzer.games.schnapsen.search import new_workspace
from schnapsen_strength import summarize

#: a decision from Python: ``decide(s, rng, ws)`` -> action
Decide = Callable[[np.ndarray, np.ndarray, object], int]


def kernel_decider(bot: Bot) -> Decide:
    """A registered bot's decision (``play.choose_action``)."""
    params = bot.params.to_array()
    return lambda s, rng, ws: int(choose_action(s, bot.policy, bot.samples, params, rng, ws))


def play_bummerl(seats: tuple[Decide, Decide], deal_rng: np.ndarray, bot_rng: np.ndarray, ws,
                 cpu: tuple[list, list]) -> tuple:
    """One Bummerl as ``play.play_match`` plays it (seat 1 deals first), ``seats[p]`` deciding for player ``p``;
    each decision with a choice adds its CPU seconds to ``cpu[p]``. Returns ``play_match``'s tuple."""
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    acts = np.zeros(16, dtype=np.int64)
    left, gp, closes, close_wins = [R.MATCH_POINTS] * 2, [0, 0], [0, 0], [0, 0]
    deals, dealer = 0, 1
    while min(left) > 0:
        shuffle_deck(deal_rng, deck)
        init_round(deck, dealer, s)
        s[R.TO_GO0:R.TO_GO0 + 2] = left
        while s[R.WINNER] < 0:
            p = int(s[R.TO_MOVE])
            choice = legal_actions(s, acts) > 1
            start = time.process_time()
            a = seats[p](s, bot_rng, ws)
            if choice:
                cpu[p].append(time.process_time() - start)
            apply_action(s, a)
        winner, points = int(s[R.WINNER]), int(s[R.GAME_POINTS])
        left[winner] -= points
        gp[winner] += points
        closer = int(s[R.CLOSER])
        if closer >= 0:
            closes[closer] += 1
            close_wins[closer] += int(winner == closer)
        deals += 1
        dealer = 1 - dealer
    return (0 if left[0] <= 0 else 1), deals, gp[0], gp[1], closes[0], closes[1], close_wins[0], close_wins[1]


def play_pairs(a: Decide, b: Decide, start: int, count: int, seed_seq: np.random.SeedSequence,
               cpu: dict) -> pd.DataFrame:
    """``count`` match pairs of A against B, rows as ``experiments.match_task``'s (the same seeds' use); the
    CPU seconds of each bot's decisions are added to ``cpu["A"]`` and ``cpu["B"]``."""
    ws = new_workspace()
    rows = []
    for i, child in enumerate(seed_seq.spawn(count)):
        deal_ss, bot_ss = child.spawn(2)
        for seating in (0, 1):
            seats = (a, b) if seating == 0 else (b, a)
            times = (cpu["A"], cpu["B"]) if seating == 0 else (cpu["B"], cpu["A"])
            winner, deals, gp0, gp1, c0, c1, cw0, cw1 = play_bummerl(
                seats, state_from_seed(deal_ss), state_from_seed(bot_ss), ws, times)
            gp, closes, wins = (gp0, gp1), (c0, c1), (cw0, cw1)
            rows.append({"pair": start + i, "seating": seating, "a_seat": seating,
                         "winner": "A" if winner == seating else "B", "deals": deals,
                         "gp_a": gp[seating], "gp_b": gp[1 - seating], "closes_a": int(closes[seating]),
                         "closes_b": int(closes[1 - seating]), "close_wins_a": int(wins[seating]),
                         "close_wins_b": int(wins[1 - seating])})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=20, help="hybrid_iimc's samples, as hybrid:N's")
    parser.add_argument("--player", default="pimc:2", help="the play-outs' player, in both seats")
    parser.add_argument("--worlds", type=int, default=32, help="play-out worlds a decision")
    parser.add_argument("--opponent", default="hybrid:20", help="bot B")
    parser.add_argument("--matches", type=int, default=60, help="match pairs (2 Bummerls each)")
    parser.add_argument("--chunk", type=int, default=5, help="match pairs between progress lines")
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    args = parser.parse_args()
    if min(args.samples, args.worlds, args.matches, args.chunk) < 1:
        parser.error("--samples, --worlds, --matches and --chunk must be at least 1")
    try:
        player, opponent = parse_bot(args.player), parse_bot(args.opponent)
    except InputError as exc:
        parser.error(str(exc))
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    label = f"hybrid_iimc:{args.samples} ({args.player} play-outs on {args.worlds} worlds)"
    print(f"seed {seed}; {label} (A) against {opponent.label} (B): {args.matches} match pairs", flush=True)
    a = lambda s, rng, ws: hybrid_iimc_action(s, args.samples, player, args.worlds, rng, ws)  # noqa: E731
    b = kernel_decider(opponent)
    cpu = {"A": [], "B": []}
    seed_seq = np.random.SeedSequence(seed)
    chunks = []
    begin = time.time()
    for first in range(0, args.matches, args.chunk):
        chunks.append(play_pairs(a, b, first, min(args.chunk, args.matches - first), seed_seq, cpu))
        rows = pd.concat(chunks, ignore_index=True)
        print(f"after {first + len(chunks[-1]) // 2} pairs: A won {int((rows['winner'] == 'A').sum())}/{len(rows)} "
              f"Bummerls, net game points {int((rows['gp_a'] - rows['gp_b']).sum()):+d} "
              f"({time.time() - begin:.0f} s wall)", flush=True)
    summarize(rows)
    for name in ("A", "B"):
        ms = np.array(cpu[name]) * 1000
        print(f"{name}: CPU ms per decision ({len(ms)} decisions, in the Bummerls): mean {ms.mean():.1f}, "
              f"median {np.median(ms):.1f}, p90 {np.percentile(ms, 90):.1f}")


if __name__ == "__main__":
    main()
