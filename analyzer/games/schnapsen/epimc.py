"""Extended PIMC, two plies: the next decision is made once for every world its mover cannot tell apart.

PIMC (:mod:`pimc_plus`) solves each sampled world with every card known, so after the root action the
player to move next picks his best reply in each world separately: he is credited with knowing the
cards he cannot see (strategy fusion when it is the root player himself, a clairvoyant defence when it
is the opponent). Extended PIMC (Arjonilla, Saffidine and Cazenave 2024, "Perfect Information Monte Carlo
with Postponing Reasoning") postpones the perfect-information solve by a ply: for each root action and
each world the exact value of every reply of the next mover is solved, and the mover then picks one reply
for all the worlds he cannot tell apart, the best on their mean. Those worlds are the sampled worlds in
which he holds the same hand (after the root action the rest of what he sees is the same in every world):

* after our lead the opponent follows knowing his hand but not the stock order: the worlds are drawn as
  ``ORDERS_PER_HAND`` stock orders of each sampled opponent hand while the stock is open, so that his
  reply is chosen once for the orders of his hand;
* after our follow, the winner of the trick leads knowing his hand after the draw; after an exchange or
  a closing we move again with the same hand in every world: our reply is then one for all worlds (the
  root player's own strategy fusion at his next decision is gone).

A world's value of a root action is its exact value after the reply chosen for its group; the mover
chooses by the mean of the deal utility plus the win weight (:func:`bummerl.deal_utility`,
:func:`pimc_plus.win_weight_at`), as ``pimc_plus`` scores actions, from his own side. The worlds are
``pimc_plus``'s in number (:func:`pimc_plus.worlds_for`, each world once when there are no more), without
its early stop. ``hybrid_ep`` is ``hybrid`` with these values in place of ``pimc_plus``'s
(:mod:`hybrid_bot`).
"""

import numpy as np
from numba import njit

from analyzer.cards.rng import bounded
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bummerl import deal_utility
from analyzer.games.schnapsen.kernels import signed_result, stock_closed_or_exhausted
from analyzer.games.schnapsen.pimc_plus import heuristic_first, win_weight_at, worlds_for
from analyzer.games.schnapsen.search import (
    search_actions,
    search_apply,
    signs_in_world,
    uses_package_rules,
    values_in_world,
    world_count,
    world_into,
)

#: sampled worlds per opponent hand while the stock is open: stock orders he cannot tell apart
ORDERS_PER_HAND = 4
#: replies at most (a hand of five cards, its marriages, the exchange and closing)
MAX_REPLIES = 16


@njit(cache=True)
def reshuffle_stock(world, rng):
    """Shuffle the face-down stock cards of ``world`` (in place); the face-up trump card stays last."""
    first = R.STOCK + world[R.DRAWN]
    last = R.STOCK + R.STOCK_SIZE - 1
    for i in range(last - first - 1, 0, -1):
        j = bounded(rng, i + 1)
        t = world[first + i]
        world[first + i] = world[first + j]
        world[first + j] = t


@njit(cache=True)
def reply_values(world, player, a, ws, reps, out):
    """Apply root action ``a`` to ``world``; return ``(mover, key, n)``: with the deal over, ``(-1, 0, 1)``
    and ``out[0]`` the game points for ``player``; else the next mover, his hand (the worlds he cannot tell
    apart share it) and his ``n`` replies listed in ``reps`` with their exact values for ``player`` in
    ``out`` (signs under the package's rules)."""
    child = world.copy()
    search_apply(child, a, ws.moves[0])
    if child[R.WINNER] >= 0:
        v = signed_result(child, player)
        if uses_package_rules(ws.moves):
            v = 1 if v > 0 else -1
        out[0] = v
        return -1, np.int64(0), 1
    mover = child[R.TO_MOVE]
    n = search_actions(child, reps, ws.moves[0])
    if uses_package_rules(ws.moves):
        signs_in_world(child, player, ws.stack, ws.moves, ws.tt, ws.gen, reps, n, out)
    else:
        values_in_world(child, player, ws.stack, ws.moves, ws.tt, ws.gen, reps, n, out)
    return mover, child[R.HAND0 + mover], n


@njit(cache=True)
def group_choice(s, player, movers, keys, counts, values, w, i, worlds, win_weight):
    """The reply chosen in world ``w`` after root action ``i``: its index among the world's replies, the
    first best by summed score for the mover over the worlds sharing his hand (module notes); -1 if the
    deal ended."""
    mover = movers[w, i]
    if mover < 0:
        return -1
    best = -1
    best_score = 0.0
    for r in range(counts[w, i]):
        total = 0.0
        for u in range(worlds):
            if movers[u, i] == mover and keys[u, i] == keys[w, i]:
                v = values[u, i, r]
                total += deal_utility(s, player, v) + (win_weight if v > 0 else 0.0)
        score = total if mover == player else -total
        if best < 0 or score > best_score:
            best = r
            best_score = score
    return best


@njit(cache=True)
def ep_values(s, samples, rng, ws, n):
    """For the ``n`` actions listed in ``ws.acts`` (:func:`search.list_actions`; the heuristic's action is
    moved first, so ties go to it), fill ``ws.sums`` (summed deal utility for the mover, as
    :func:`pimc_plus.plus_values`) and ``ws.wins`` (worlds won) from the two-ply values of the module
    notes; return ``(n_actions, n_worlds)``."""
    player = s[R.TO_MOVE]
    acts = ws.acts
    heuristic_first(s, acts, n, uses_package_rules(ws.moves))
    can_close = False
    for i in range(n):
        ws.sums[i] = 0.0
        ws.wins[i] = 0.0
        if acts[i] == R.CLOSE:
            can_close = True
    most = worlds_for(s, samples, can_close)
    total = world_count(s, player)
    exact = total <= most
    worlds = total if exact else most
    orders = 1 if exact or stock_closed_or_exhausted(s) else ORDERS_PER_HAND
    movers = np.empty((worlds, n), dtype=np.int64)
    keys = np.empty((worlds, n), dtype=np.int64)
    counts = np.empty((worlds, n), dtype=np.int64)
    values = np.empty((worlds, n, MAX_REPLIES), dtype=np.int64)
    reps = np.empty(MAX_REPLIES, dtype=np.int64)
    out = np.empty(MAX_REPLIES, dtype=np.int64)
    for w in range(worlds):
        if w % orders == 0:
            world_into(s, player, w, exact, rng, ws.pool, ws.world)
        else:
            reshuffle_stock(ws.world, rng)
        for i in range(n):
            mover, key, m = reply_values(ws.world, player, acts[i], ws, reps, out)
            movers[w, i] = mover
            keys[w, i] = key
            counts[w, i] = m
            values[w, i, :m] = out[:m]
    win_weight = win_weight_at(s)
    chosen = np.empty((worlds, n), dtype=np.int64)
    for w in range(worlds):
        for i in range(n):
            # a group's choice is made at its first world and copied to the others
            r = -2
            for u in range(w):
                if movers[u, i] == movers[w, i] and keys[u, i] == keys[w, i]:
                    r = chosen[u, i]
                    break
            if r == -2:
                r = group_choice(s, player, movers, keys, counts, values, w, i, worlds, win_weight)
            chosen[w, i] = r
            v = values[w, i, 0] if r < 0 else values[w, i, r]
            ws.sums[i] += deal_utility(s, player, v)
            if v > 0:
                ws.wins[i] += 1.0
    return n, worlds
