"""How well the heuristic predicts a bot's plain leads (or, with ``--follows``, its free follows): the fit
behind ``lead_inference.MISMATCH_WEIGHT``.

Plays ``--deals`` deals of the bot against itself and, at every lead with the stock open that is a plain
card (not a marriage, exchange or closing), asks the model (``HeuristicParams()``) what it would have
led. Prints the share it matched, the plain leads there were to choose from, and the mismatch weight that
share implies when a mismatch spreads evenly over the other plain leads: ``(1 - q) / (k - 1) / q``. With
``--follows`` the same at every follow with the stock open that does not take the trick, the choices being
the cards in hand (a model no bot reads: session 13 screened it and took it out, docs/schnapsen-bots.md).

Usage: python scripts/schnapsen_lead_model_fit.py [--bot hybrid:20] [--deals 40] [--follows] [--seed S]
"""

import argparse
import secrets

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.experiments import parse_bot
from analyzer.games.schnapsen.kernels import (
    apply_action,
    init_round,
    legal_actions,
    shuffle_deck,
    stock_closed_or_exhausted,
)
from analyzer.games.schnapsen.play import choose_action
from analyzer.games.schnapsen.search import new_workspace
from analyzer.reports.stats import wilson_interval


def _takes(s, card):
    """True when ``card`` played to the card led in ``s`` takes the trick (the kernel's own rule, on a copy)."""
    after = s.copy()
    apply_action(after, card)
    return after[R.LEADER] == s[R.TO_MOVE]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="hybrid:20")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--follows", action="store_true", help="fit the free follows instead of the leads")
    parser.add_argument("--seed", type=int, default=None, help="seed (fresh and printed if left out)")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be >= 1")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    bot = parse_bot(args.bot)
    ws = new_workspace()
    rng = state_from_seed(seed)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    model = HeuristicParams().to_array()
    buf = np.zeros(16, dtype=np.int64)
    legal = np.zeros(16, dtype=np.int64)
    matched = leads = options = 0
    for g in range(args.deals):
        shuffle_deck(rng, ws.deck)
        init_round(ws.deck, g % 2, s)
        while s[R.WINNER] < 0:
            asked = (s[R.LEAD_CARD] >= 0) == args.follows and not stock_closed_or_exhausted(s)
            a = choose_action(s, bot.policy, bot.samples, bot.params.to_array(), rng, ws)
            if asked and a < R.N_CARDS and not (args.follows and _takes(s, a)):
                n = legal_actions(s, legal)
                leads += 1
                matched += int(heuristic_action(s, model, buf) == a)
                options += sum(1 for x in legal[:n] if x < R.N_CARDS)
            apply_action(s, a)
    q, k = matched / leads, options / leads
    lo, hi = wilson_interval(matched, leads)
    kind, choices = ("free follows", "cards") if args.follows else ("plain leads", "plain leads")
    print(f"seed {seed}; {bot.label}, {args.deals} deals: the heuristic matched {matched}/{leads} {kind} = "
          f"{q:.1%} [{lo:.1%}, {hi:.1%}], {k:.1f} {choices} to choose from; implied mismatch weight "
          f"{(1 - q) / (k - 1) / q:.2f}")


if __name__ == "__main__":
    main()
