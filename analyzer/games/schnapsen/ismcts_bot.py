"""``ismcts``: single-observer information-set Monte Carlo tree search while the stock is open.

PIMC (``pimc_plus``) and the flat play-outs (``rollout``) both judge only the action at hand: what
follows it is played either with every card known (strategy fusion) or by the heuristic. ``ismcts``
(Cowling, Powley and Whitehouse 2012, SO-ISMCTS) grows one tree of action sequences from the
decision, shared by every sampled world: each iteration draws a world consistent with what the player
to move has seen, walks down the tree choosing among the actions legal in that world by UCB1 with
availability counts (a child's exploration term counts the iterations in which it was legal, not its
parent's visits), adds one new node, values it by the ``rollout`` play-out (the heuristic in both
seats until the stock is exhausted, then the exact solve, :func:`rollout_bot.play_out_value`) and backs
the value up. A node is keyed by the actions that lead to it, not by the cards drawn, so the player's
later decisions in the tree are made without knowing his future draws, and the opponent's are made
alike for every hand he may hold: what nobody can see is not used.

* Iterations: ``ITERATIONS_PER_SAMPLE * samples``; the chosen action is the root's most visited child.
* Reward: the mover's deal utility (:func:`bummerl.deal_utility`: game points, or inside a Bummerl the
  chance of winning it) plus ``WIN_WEIGHT`` for a deal won outside one, as ``pimc_plus``; the opponent's
  reward is its negative. UCB's exploration constant is ``EXPLORATION`` times the reward's range.
* Once the stock is closed or exhausted at the decision the bot decides as ``pimc_plus`` (as ``hybrid``
  does): few cards are unknown then (none once it is exhausted).
"""

import numpy as np
from numba import njit

from analyzer.cards.rng import bounded
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams
from analyzer.games.schnapsen.bummerl import deal_utility, in_bummerl
from analyzer.games.schnapsen.hybrid_bot import ROLLOUT_ONLY_DRAWN
from analyzer.games.schnapsen.kernels import stock_closed_or_exhausted
from analyzer.games.schnapsen.lead_inference import draw_world
from analyzer.games.schnapsen.pimc_plus import plus_values, win_weight_at
from analyzer.games.schnapsen.rollout_bot import play_out_value, rollout_pick
from analyzer.games.schnapsen.search import search_actions, search_apply, uses_package_rules, world_count

#: tree iterations per decision, in units of the bot's ``samples``
ITERATIONS_PER_SAMPLE = 100
#: UCB1's exploration constant, in units of the reward's range
EXPLORATION = 0.35
#: action codes run 0..CLOSE: the width of the child table
N_ACTIONS = R.CLOSE + 1
#: the play-outs' heuristic, as ``rollout``'s
_PLAYOUT = HeuristicParams.playout().to_array()


@njit(cache=True)
def _reward(s, player, v):
    """The root mover's reward for a deal ending with ``v`` signed game points for him (module notes)."""
    return deal_utility(s, player, v) + (win_weight_at(s) if v > 0 else 0.0)


@njit(cache=True)
def ismcts_tree(s, iterations, rng, ws, infer=False):
    """Grow the SO-ISMCTS tree of the module notes from ``s`` for ``iterations`` iterations (worlds drawn
    with the opponent's lead as evidence when ``infer``: :mod:`lead_inference`). Returns ``(child,
    visits, totals)``: ``child[node, action]`` the node reached by ``action`` (-1 none; node 0 is the
    root), each node's visits, summed reward for the player who chose the action leading to it, and deals
    won by the player to move at ``s``."""
    player = s[R.TO_MOVE]
    frame = ws.moves[0]
    package = uses_package_rules(ws.moves)
    size = iterations + 1
    child = np.full((size, N_ACTIONS), -1, dtype=np.int32)
    actor = np.zeros(size, dtype=np.int64)
    visits = np.zeros(size, dtype=np.int64)
    avail = np.zeros(size, dtype=np.int64)
    totals = np.zeros(size, dtype=np.float64)
    won = np.zeros(size, dtype=np.int64)
    path = np.empty(R.N_CARDS * 3 + 4, dtype=np.int64)
    acts = np.empty(16, dtype=np.int64)
    untried = np.empty(16, dtype=np.int64)
    buf = np.empty(16, dtype=np.int64)
    st = np.empty(R.STATE_SIZE, dtype=np.int64)
    span = 1.0 if in_bummerl(s) else 3.0 + win_weight_at(s)
    c = EXPLORATION * 2.0 * span
    total = world_count(s, player)
    exact = total <= iterations
    nodes = 1
    for it in range(iterations):
        draw_world(s, player, it % total if exact else it, exact, infer, rng, ws.pool, ws.world)
        st[:] = ws.world
        node = 0
        depth = 0
        while st[R.WINNER] < 0:
            n = search_actions(st, acts, frame)
            k = 0
            for i in range(n):
                nxt = child[node, acts[i]]
                if nxt < 0:
                    untried[k] = acts[i]
                    k += 1
                else:
                    avail[nxt] += 1
            if k > 0:
                a = untried[bounded(rng, k)]
                child[node, a] = nodes
                actor[nodes] = st[R.TO_MOVE]
                avail[nodes] = 1
                node = nodes
                nodes += 1
                depth += 1
                path[depth] = node
                search_apply(st, a, frame)
                break
            best = -1
            best_score = 0.0
            for i in range(n):
                nxt = child[node, acts[i]]
                score = totals[nxt] / visits[nxt] + c * np.sqrt(np.log(avail[nxt]) / visits[nxt])
                if best < 0 or score > best_score:
                    best = acts[i]
                    best_score = score
            node = child[node, best]
            depth += 1
            path[depth] = node
            search_apply(st, best, frame)
        v = play_out_value(st, player, _PLAYOUT, package, buf, ws.stack, ws.moves, ws.tt, ws.gen)
        if package:
            v = 1 if v > 0 else -1
        r = _reward(s, player, v)
        visits[0] += 1
        for d in range(1, depth + 1):
            nd = path[d]
            visits[nd] += 1
            totals[nd] += r if actor[nd] == player else -r
            won[nd] += v > 0
    return child, visits, totals, won


@njit(cache=True)
def tree_means(s, iterations, rng, ws, n, infer=False):
    """Grow the tree (:func:`ismcts_tree`) and return, for each of the ``n`` actions listed in ``ws.acts``,
    its root child's mean deal utility and share of deals won (0 for a child never visited)."""
    child, visits, totals, won = ismcts_tree(s, iterations, rng, ws, infer)
    weight = win_weight_at(s)
    util = np.zeros(n)
    wins = np.zeros(n)
    for j in range(n):
        nxt = child[0, ws.acts[j]]
        if nxt >= 0:
            wins[j] = won[nxt] / visits[nxt]
            util[j] = totals[nxt] / visits[nxt] - weight * wins[j]
    return util, wins


@njit(cache=True)
def ismcts_values(s, samples, rng, ws, n, infer=False):
    """For the ``n`` actions listed in ``ws.acts``, fill ``ws.sums`` and ``ws.wins`` with the means of
    :func:`tree_means` (``ITERATIONS_PER_SAMPLE * samples`` iterations) and return ``(n_actions, 1)``, as
    ``hybrid_values`` does (the values another engine's or the closing odds' pick reads); once the stock is
    closed or exhausted, what :func:`pimc_plus.plus_values` returns with ``samples``."""
    if stock_closed_or_exhausted(s):
        return plus_values(s, samples, rng, ws, n, infer)
    util, wins = tree_means(s, ITERATIONS_PER_SAMPLE * samples, rng, ws, n, infer)
    ws.sums[:n] = util
    ws.wins[:n] = wins
    return n, 1


@njit(cache=True)
def ismcts_choice(s, samples, rng, ws, n, infer=False):
    """``ismcts``'s action among the ``n`` listed in ``ws.acts`` (a forced move without search): the root
    child visited most (the first of equal counts), or ``pimc_plus``'s pick once the stock is closed or
    exhausted."""
    if n == 1:
        return ws.acts[0]
    if stock_closed_or_exhausted(s):
        n, worlds = plus_values(s, samples, rng, ws, n, infer)
        allowed = np.ones(n, dtype=np.bool_)
        return ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]
    child, visits, _, _ = ismcts_tree(s, ITERATIONS_PER_SAMPLE * samples, rng, ws, infer)
    best = 0
    for i in range(1, n):
        if visits[child[0, ws.acts[i]]] > visits[child[0, ws.acts[best]]]:
            best = i
    return ws.acts[best]


@njit(cache=True)
def ismcts_hybrid_values(s, samples, rng, ws, n, infer=False):
    """``hybrid_values`` (:mod:`hybrid_bot`) with the tree's judgement in place of ``rollout``'s: for the
    ``n`` actions listed in ``ws.acts`` fill ``ws.sums`` and ``ws.wins`` with the mean of the root
    child's mean deal utility and share of deals won (``ITERATIONS_PER_SAMPLE * samples // 2``
    iterations) and :func:`pimc_plus.plus_values`'s (``2 * samples``); return ``(n_actions, 1)``. At the
    first two tricks the tree's alone (``samples`` worth of iterations), once the stock is closed or
    exhausted ``plus_values``'s with ``samples``."""
    if stock_closed_or_exhausted(s):
        return plus_values(s, samples, rng, ws, n, infer)
    alone = s[R.DRAWN] <= ROLLOUT_ONLY_DRAWN
    iterations = ITERATIONS_PER_SAMPLE * (samples if alone else max(1, samples // 2))
    acts = ws.acts
    tree_acts = acts[:n].copy()
    tree_util, tree_wins = tree_means(s, iterations, rng, ws, n, infer)
    if alone:
        for j in range(n):
            ws.sums[j] = tree_util[j]
            ws.wins[j] = tree_wins[j]
        return n, 1
    m, solved = plus_values(s, 2 * samples, rng, ws, n, infer)
    for i in range(m):
        for j in range(n):
            if tree_acts[j] == acts[i]:
                ws.sums[i] = 0.5 * (ws.sums[i] / solved + tree_util[j])
                ws.wins[i] = 0.5 * (ws.wins[i] / solved + tree_wins[j])
    return m, 1


@njit(cache=True)
def ismcts_hybrid_choice(s, samples, rng, ws, n, infer=False):
    """``ismcts_hybrid``'s action among the ``n`` listed in ``ws.acts`` (a forced move without search):
    :func:`rollout_bot.rollout_pick` on :func:`ismcts_hybrid_values`."""
    if n == 1:
        return ws.acts[0]
    n, worlds = ismcts_hybrid_values(s, samples, rng, ws, n, infer)
    allowed = np.ones(n, dtype=np.bool_)
    return ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]
