"""Schnapsen bot strength on paired deals: Bummerls of bot A against bot B, plus each bot's CPU time.

Each match pair is two Bummerls on the same deal sequence with the seats swapped
(``experiments.match_task``, as ``analyzer schnapsen match``). Prints the seed (fresh unless
``--seed``), A's share of Bummerls won with its 95% Wilson interval, the game points per deal, both
bots' closings and closing success, A's net game points per match pair (A's minus B's over the pair's two
Bummerls) with its 95% interval, the seat test (:func:`seat_sign_test`), and each bot's CPU milliseconds
per decision (positions with more
than one legal action) over ``--timing-deals`` deals between the two, seats alternating, timed in one
run so load from other work hits both alike. A progress line after every ``--chunk`` pairs keeps what an
interrupted run has played (the chunks play the same pairs as one run).

Usage: python scripts/schnapsen_strength.py [--bots pimc_plus pimc] [--matches N] [--seed S]
"""

import argparse
import secrets
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np
import pandas as pd
from scipy.stats import binomtest

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import match_task, parse_bot
from analyzer.games.schnapsen.kernels import apply_action, init_round, legal_actions, shuffle_deck
from analyzer.games.schnapsen.play import kernels_for
from analyzer.games.schnapsen.search import new_workspace
from analyzer.reports.stats import mean_interval, wilson_interval


def decision_ms(bots, n_deals: int, seed: int, in_bummerl: bool = False) -> list[np.ndarray]:
    """CPU milliseconds per decision of each of the two bots over ``n_deals`` deals between them
    (seats alternating; a first untimed deal compiles the kernels, those of the two bots alone). With
    ``in_bummerl`` each deal is played inside a Bummerl whose two scores (game points still needed, 1-7) are
    drawn uniformly, as in a match, where a bot's work may depend on the score."""
    choose_action = kernels_for((bots[0].policy, bots[1].policy)).choose_action
    ws = new_workspace()
    rng = state_from_seed(seed)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    scores = np.random.default_rng(seed).integers(1, R.MATCH_POINTS + 1, size=(n_deals + 1, 2))
    times = [[], []]
    for g in range(n_deals + 1):
        shuffle_deck(rng, ws.deck)
        init_round(ws.deck, g % 2, s)
        if in_bummerl:
            s[R.TO_GO0:R.TO_GO0 + 2] = scores[g]
        seat_of_a = (g // 2) % 2
        while s[R.WINNER] < 0:
            p = int(s[R.TO_MOVE])
            k = 0 if p == seat_of_a else 1
            bot = bots[k]
            choice = legal_actions(s, ws.acts) > 1
            start = time.process_time()
            a = choose_action(s, bot.policy, bot.samples, bot.params.to_array(), rng, ws)
            if choice and g > 0:
                times[k].append(time.process_time() - start)
            apply_action(s, a)
    return [np.array(t) * 1000 for t in times]


def seat_sign_test(won_in_seat0, won_in_seat1) -> tuple[int, int, float]:
    """Whether a seat is favoured, from pairs of Bummerls on the same deals with the seats swapped.

    ``won_in_seat0[i]`` and ``won_in_seat1[i]`` tell whether bot A won pair ``i``'s Bummerl in seat 0 and in
    seat 1 (each seat gets the same cards in both). A pair won once tells which seat won both Bummerls; with
    no seat advantage either is as likely, whatever the bots' strengths. Returns the pairs won both times by
    seat 0 and by seat 1 and the exact two-sided binomial (McNemar) p-value of that split.
    """
    a0 = np.asarray(won_in_seat0, dtype=bool)
    a1 = np.asarray(won_in_seat1, dtype=bool)
    seat0_both = int((a0 & ~a1).sum())
    seat1_both = int((~a0 & a1).sum())
    split = seat0_both + seat1_both
    return seat0_both, seat1_both, binomtest(seat0_both, split).pvalue if split else 1.0


def summarize(rows: pd.DataFrame) -> None:
    """Print A's Bummerls won, the game points per deal, A's net game points per pair and the closings."""
    n = len(rows)
    won = int((rows["winner"] == "A").sum())
    lo, hi = wilson_interval(won, n)
    deals = int(rows["deals"].sum())
    print(f"A won {won}/{n} Bummerls = {won / n:.1%} [{lo:.1%}, {hi:.1%}]")
    print(f"game points per deal: A {rows['gp_a'].sum() / deals:.3f}, B {rows['gp_b'].sum() / deals:.3f} "
          f"({deals} deals)")
    net = (rows["gp_a"] - rows["gp_b"]).groupby(rows["pair"]).sum()
    mean, lo, hi = mean_interval(net)
    print(f"A's net game points per match pair: {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] ({len(net)} pairs)")
    won = (rows["winner"] == "A").groupby([rows["pair"], rows["a_seat"]]).first().unstack()
    seat0, seat1, p = seat_sign_test(won[0], won[1])
    print(f"A won {int(won[0].sum())} Bummerls in seat 0, {int(won[1].sum())} in seat 1; pairs whose both "
          f"Bummerls went to seat 0: {seat0}, to seat 1: {seat1} (exact two-sided p {p:.3f})")
    for side in ("a", "b"):
        c, cw = int(rows[f"closes_{side}"].sum()), int(rows[f"close_wins_{side}"].sum())
        clo, chi = wilson_interval(cw, c) if c else (float("nan"), float("nan"))
        print(f"{side.upper()} closed {c} times ({c / deals:.3f} per deal), won {cw} = "
              f"{cw / max(c, 1):.1%} [{clo:.1%}, {chi:.1%}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs=2, default=["pimc_plus", "pimc"], metavar=("A", "B"))
    parser.add_argument("--matches", type=int, default=250, help="match pairs (2 Bummerls each)")
    parser.add_argument("--timing-deals", type=int, default=40, help="0: no timing")
    parser.add_argument("--timing-bummerl", action="store_true",
                        help="time the decisions inside a Bummerl of random scores, as in the matches")
    parser.add_argument("--chunk", type=int, default=5, help="match pairs between progress lines")
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    args = parser.parse_args()
    if args.matches < 0 or args.timing_deals < 0 or args.chunk < 1:
        parser.error("--matches and --timing-deals must be >= 0, --chunk >= 1")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    a, b = (parse_bot(x) for x in args.bots)
    print(f"seed {seed}; {a.label} (A) against {b.label} (B): {args.matches} match pairs, seats swapped on the "
          "same deals", flush=True)
    start = time.time()
    params = {"a": a.as_dict(), "b": b.as_dict()}
    seed_seq = np.random.SeedSequence(seed)
    chunks = []
    for first in range(0, args.matches, args.chunk):
        # spawning from one SeedSequence continues its children: the chunks play the pairs of one long run
        chunks.append(match_task(params, first, min(args.chunk, args.matches - first), seed_seq))
        rows = pd.concat(chunks, ignore_index=True)
        won = int((rows["winner"] == "A").sum())
        print(f"after {first + len(chunks[-1]) // 2} pairs: A won {won}/{len(rows)} Bummerls, net game points "
              f"{int((rows['gp_a'] - rows['gp_b']).sum()):+d} ({time.time() - start:.0f} s wall)", flush=True)
    if chunks:
        summarize(rows)
    print(f"matches: {time.time() - start:.0f} s wall", flush=True)
    if args.timing_deals == 0:
        return
    ms = decision_ms([a, b], args.timing_deals, seed + 1, args.timing_bummerl)
    for name, m in zip(("A " + a.label, "B " + b.label), ms):
        print(f"{name}: CPU ms per decision ({len(m)} decisions): mean {m.mean():.1f}, median "
              f"{np.median(m):.1f}, p90 {np.percentile(m, 90):.1f}")


if __name__ == "__main__":
    main()
