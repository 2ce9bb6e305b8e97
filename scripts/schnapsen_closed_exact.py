"""Headroom of "exact search once the stock is closed" for ``hybrid``: at every decision with a choice after
a closing (stock cards left, so hidden cards remain), ``hybrid`` decides as ``pimc_plus`` on
``LATE_FACTOR * samples`` sampled worlds; the same decision on every world once (samples raised until the
worlds are enumerated) shows how often sampling changes the action and by how much the enumerated value
of the sampled choice falls short of the enumerated best.

Self-play deals by ``hybrid:N`` (the bot of ``--bot``), fresh seed unless ``--seed``. Prints the decisions
compared, the share where the actions differ (95% Wilson interval) and the mean loss in game points per
such decision with its interval (enumerated values, the mover's view).

Usage: python scripts/schnapsen_closed_exact.py [--deals N] [--bot hybrid:20] [--seed S]
"""

import argparse
import secrets

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import parse_bot
from analyzer.games.schnapsen.kernels import apply_action, init_round, shuffle_deck
from analyzer.games.schnapsen.pimc_plus import LATE_FACTOR, plus_values, win_weight_at
from analyzer.games.schnapsen.play import choose_action
from analyzer.games.schnapsen.rollout_bot import rollout_pick
from analyzer.games.schnapsen.search import list_actions, new_workspace, world_count
from analyzer.reports.stats import mean_interval, wilson_interval


def closed_choice(s, samples, rng, ws):
    """``hybrid``'s choice once the stock is closed (as ``hybrid_choice`` makes it) and every action's
    mean value over the worlds used: ``(action, {action: mean value})``."""
    n = list_actions(s, ws)
    m, worlds = plus_values(s, samples, rng, ws, n)
    allowed = np.ones(m, dtype=np.bool_)
    pick = rollout_pick(ws.acts, ws.sums, ws.wins, m, worlds, allowed, win_weight_at(s))
    return int(ws.acts[pick]), {int(ws.acts[i]): ws.sums[i] / worlds for i in range(m)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--bot", default="hybrid:20")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    bot = parse_bot(args.bot)
    ws = new_workspace()
    deal_ss, bot_ss = np.random.SeedSequence(seed).spawn(2)
    deal_rng, rng = state_from_seed(deal_ss), state_from_seed(bot_ss)
    params = bot.params.to_array()
    s = ws.state
    differ, losses, worlds_seen = [], [], []
    for i in range(args.deals):
        shuffle_deck(deal_rng, ws.deck)
        init_round(ws.deck, i % 2, s)
        while s[R.WINNER] < 0:
            if s[R.CLOSER] >= 0 and s[R.DRAWN] < 10 and list_actions(s, ws) > 1:
                count = int(world_count(s, int(s[R.TO_MOVE])))
                sampled, _ = closed_choice(s, bot.samples, rng, ws)
                best, values = closed_choice(s, -(-count // LATE_FACTOR), rng, ws)
                differ.append(sampled != best)
                losses.append(values[best] - values[sampled])
                worlds_seen.append(count)
            apply_action(s, int(choose_action(s, bot.policy, bot.samples, params, rng, ws)))
    n = len(differ)
    lo, hi = wilson_interval(sum(differ), n)
    loss, loss_lo, loss_hi = mean_interval(losses)
    print(f"seed {seed}, {args.deals} deals, {bot.label}: {n} decisions after a closing with hidden cards "
          f"(worlds per decision median {np.median(worlds_seen):.0f}, max {max(worlds_seen)}, sampled "
          f"{LATE_FACTOR * bot.samples})")
    print(f"sampled and enumerated actions differ in {sum(differ)}/{n} = {100 * sum(differ) / n:.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}]; value lost per decision {loss:.4f} [{loss_lo:.4f}, {loss_hi:.4f}]")


if __name__ == "__main__":
    main()
