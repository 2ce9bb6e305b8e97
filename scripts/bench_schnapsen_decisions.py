"""Where two Schnapsen bots decide differently: both asked at the same positions, split by kind of decision.

The positions are those of deals that bot B plays against itself (``--deals``, fresh seed unless
``--seed``). At every decision with a choice both bots choose (A first, from its own random state); the
table gives, per kind of decision (lead or follow, stock open or closed/exhausted), the decisions, the share
where A and B agree, and for follows the share where each takes the trick, for leads where the exchange
of the trump jack is legal the share where each exchanges, where closing is legal the share where each
closes. B's action is played on. Each bot's CPU milliseconds per decision come from the same positions.

Usage: python scripts/bench_schnapsen_decisions.py --bots pimc:20 hybrid:20 [--deals 20] [--seed S]
"""

import argparse
import secrets
import time
from collections import defaultdict

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import parse_bot
from analyzer.games.schnapsen.kernels import apply_action, init_round, legal_actions, shuffle_deck
from analyzer.games.schnapsen.play import kernels_for
from analyzer.games.schnapsen.search import new_workspace
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.reports.stats import wilson_interval


def takes_trick(s: np.ndarray, card: int) -> bool:
    """Whether following ``card`` to the card led in ``s`` wins the trick."""
    st = SchnapsenState.from_array(s)
    return st.trick_winner(st.lead_card, card) == 1


def share(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson_interval(k, n)
    return f"{k}/{n} = {k / n:.0%} [{lo:.0%}, {hi:.0%}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs=2, default=["pimc:20", "hybrid:20"], metavar=("A", "B"))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be >= 1")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    bots = [parse_bot(x) for x in args.bots]
    print(f"seed {seed}; {bots[0].label} (A) and {bots[1].label} (B) at the positions of B's self-play, "
          f"{args.deals} deals", flush=True)
    choose = kernels_for(tuple(b.policy for b in bots)).choose_action
    ws = new_workspace()
    deal_rng = state_from_seed(seed)
    rngs = [state_from_seed(seed + 1), state_from_seed(seed + 2)]
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    legal = np.zeros(16, dtype=np.int64)
    fields = ("n", "agree", "take_a", "take_b", "exchange_legal", "exchange_a", "exchange_b", "close_legal",
              "close_a", "close_b")
    counts = defaultdict(lambda: dict.fromkeys(fields, 0))
    times = [[], []]
    for g in range(args.deals + 1):  # deal 0 compiles the kernels, untimed and uncounted
        shuffle_deck(deal_rng, ws.deck)
        init_round(ws.deck, g % 2, s)
        while s[R.WINNER] < 0:
            n = legal_actions(s, legal)
            options = set(int(a) for a in legal[:n])
            picks = []
            for k, bot in enumerate(bots):
                start = time.process_time()
                picks.append(int(choose(s, bot.policy, bot.samples, bot.params.to_array(), rngs[k], ws)))
                if n > 1 and g > 0:
                    times[k].append(time.process_time() - start)
            if n > 1 and g > 0:
                follow = s[R.LEAD_CARD] >= 0
                phase = "open" if s[R.CLOSER] < 0 and s[R.DRAWN] < R.STOCK_SIZE else "closed/exhausted"
                row = counts[("follow" if follow else "lead", phase)]
                row["n"] += 1
                row["agree"] += picks[0] == picks[1]
                if follow:
                    row["take_a"] += takes_trick(s, picks[0])
                    row["take_b"] += takes_trick(s, picks[1])
                for special, name in ((R.EXCHANGE, "exchange"), (R.CLOSE, "close")):
                    if special in options:
                        row[f"{name}_legal"] += 1
                        row[f"{name}_a"] += picks[0] == special
                        row[f"{name}_b"] += picks[1] == special
            apply_action(s, picks[1])
    print("decision | n | A agrees with B | A takes the trick | B takes the trick | exchange legal: A / B "
          "exchange | closing legal: A / B close")
    for key in sorted(counts):
        c = {name: int(v) for name, v in counts[key].items()}
        follow = key[0] == "follow"
        print(f"{key[0]}, stock {key[1]} | {c['n']} | {share(c['agree'], c['n'])} | "
              f"{share(c['take_a'], c['n']) if follow else '-'} | {share(c['take_b'], c['n']) if follow else '-'} | "
              f"{c['exchange_legal']}: {c['exchange_a']} / {c['exchange_b']} | "
              f"{c['close_legal']}: {c['close_a']} / {c['close_b']}")
    for name, t in zip(("A " + bots[0].label, "B " + bots[1].label), times):
        ms = np.array(t) * 1000
        print(f"{name}: CPU ms per decision ({len(ms)}): mean {ms.mean():.1f}, median {np.median(ms):.1f}")


if __name__ == "__main__":
    main()
