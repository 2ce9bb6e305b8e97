"""``rollout``: Monte Carlo play-outs in which nobody sees a hidden card while the stock is open.

PIMC (``pimc``, ``pimc_plus``) values an action by solving each sampled world with every card known: in
each world both players play on as if they knew the stock order and each other's hand (strategy
fusion), which flatters the actions whose payoff depends on cards nobody can see yet. ``rollout``
values an action in each sampled world by playing the deal on with the ``heuristic`` bot in both
seats, each deciding from what he sees (the heuristic never looks at hidden cards), until the stock is
exhausted. From then on nothing is hidden (each player knows his own five cards and every card
played, so the other five are the opponent's), and the rest of the deal is solved exactly.

* Worlds: ``PLAYOUTS_PER_SAMPLE * samples`` of them, sampled as ``pimc`` does, each one shared by all
  actions (paired); every world once instead when there are no more than that.
* Score: mean game points plus ``WIN_WEIGHT`` times the share of worlds won, as ``pimc_plus``
  (:func:`pimc_plus.plus_pick`), but closing needs no extra share of worlds won: its play-outs, unlike
  ``pimc_plus``'s per-world solves, do not let the closer see the opponent's hand. Inside a Bummerl,
  the chance of winning it instead, as ``pimc_plus`` (:mod:`bummerl`).
* Once the stock is closed or exhausted at the decision itself the bot decides as ``pimc_plus`` with
  ``samples``: few cards are unknown then (none once it is exhausted).
* Under the package's rules (``new_workspace(package_rules=True)``) the play-outs follow them too: no
  closing, a marriage led with the king (the heuristic's queen-led one becomes it) and credited only
  with a trick won (:func:`search.search_apply`).
"""

from dataclasses import replace

import numpy as np
from numba import njit

from analyzer import catalog
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import OFF, HeuristicParams, heuristic_action
from analyzer.games.schnapsen.bummerl import deal_utility
from analyzer.games.schnapsen.kernels import copy_state, signed_result, stock_closed_or_exhausted
from analyzer.games.schnapsen.lead_inference import draw_world
from analyzer.games.schnapsen.pimc_plus import plus_pick, plus_values, win_weight_at
from analyzer.games.schnapsen.search import (
    list_actions,
    search_apply,
    solve_value,
    uses_package_rules,
    world_count,
)

#: play-out worlds per decision, in units of the bot's ``samples`` (12 by default: 384 worlds)
PLAYOUTS_PER_SAMPLE = catalog.SCHNAPSEN_PLAYOUTS_PER_SAMPLE
_PLAYOUT = HeuristicParams.playout().to_array()
#: the package's engine has no closing: its play-outs never close
_PLAYOUT_PACKAGE = replace(HeuristicParams.playout(), close_points=OFF).to_array()


@njit(cache=True)
def play_out_value(s, player, params, package, buf, stack, moves, tt, gen):
    """Play ``s`` (in place) on with the heuristic ``params`` in both seats until the deal ends or the
    stock is exhausted at a trick's start, then solve the rest exactly; return ``player``'s signed game
    points (under the package's rules only the sign counts)."""
    while s[R.WINNER] < 0:
        if s[R.DRAWN] >= R.STOCK_SIZE and s[R.CLOSER] < 0 and s[R.LEAD_CARD] < 0:
            v = solve_value(s, stack, moves, tt, gen)
            return v if player == 0 else -v
        a = heuristic_action(s, params, buf)
        if package and R.MARRIAGE_OFFSET <= a < R.EXCHANGE and a % 5 == R.QUEEN:
            a += 1
        search_apply(s, a, moves[0])
    return signed_result(s, player)


@njit(cache=True)
def rollout_bot_values(s, samples, rng, ws, n, infer=False):
    """For the ``n`` actions listed in ``ws.acts`` (:func:`search.list_actions`), fill ``ws.sums`` (summed
    game points for the mover; +-1 per deal under the package's rules; chances of winning the Bummerl
    inside one) and ``ws.wins`` (worlds won) as :func:`pimc_plus.plus_values` does, by play-outs while the
    stock is open (module notes), sampled worlds weighted by the opponent's lead when ``infer``
    (:mod:`lead_inference`); return ``(n_actions, n_worlds)``."""
    if stock_closed_or_exhausted(s):
        return plus_values(s, samples, rng, ws, n, infer)
    player = s[R.TO_MOVE]
    package = uses_package_rules(ws.moves)
    params = _PLAYOUT_PACKAGE if package else _PLAYOUT
    acts, sums, wins = ws.acts, ws.sums, ws.wins
    for i in range(n):
        sums[i] = 0.0
        wins[i] = 0.0
    total = world_count(s, player)
    worlds = PLAYOUTS_PER_SAMPLE * samples
    exact = total <= worlds
    if exact:
        worlds = total
    child = np.empty(R.STATE_SIZE, dtype=np.int64)
    buf = np.empty(16, dtype=np.int64)
    for w in range(worlds):
        draw_world(s, player, w, exact, infer, rng, ws.pool, ws.world)
        for i in range(n):
            copy_state(child, ws.world)
            search_apply(child, acts[i], ws.moves[0])
            v = play_out_value(child, player, params, package, buf, ws.stack, ws.moves, ws.tt, ws.gen)
            if package:
                v = 1 if v > 0 else -1
            sums[i] += deal_utility(s, player, v)
            if v > 0:
                wins[i] += 1.0
    return n, worlds


@njit(cache=True)
def rollout_choice(s, samples, rng, ws, n):
    """``rollout``'s action among the ``n`` listed in ``ws.acts`` (a forced move without search)."""
    if n == 1:
        return ws.acts[0]
    n, worlds = rollout_bot_values(s, samples, rng, ws, n)
    allowed = np.ones(n, dtype=np.bool_)
    return ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]


@njit(cache=True)
def rollout_bot_action(s, samples, rng, ws):
    """Return ``rollout``'s action for the player to move: :func:`rollout_choice` over the listed actions."""
    return rollout_choice(s, samples, rng, ws, list_actions(s, ws))


@njit(cache=True)
def rollout_pick(acts, sums, wins, n, worlds, allowed, win_weight):
    """Index of ``rollout``'s choice among the actions with ``allowed[i]``: :func:`pimc_plus.plus_pick`
    with closing judged like any other action."""
    return plus_pick(acts, sums, wins, n, worlds, allowed, win_weight, 0.0)
