"""``hybrid_adapt``: ``hybrid_infer`` that draws more worlds where its decision is close.

``hybrid:20`` takes about 21 ms of CPU a decision against issue 41's budget of about 34 ms (a tenth of the
outside engine's MCTS). ``hybrid_adapt`` spends the rest where it can change an action: while the stock is
open it judges the actions as ``hybrid_infer`` does, and while the best action's score (mean game points
plus the win weight times the share of worlds won, or the chance of winning the Bummerl inside one) leads
the second best by less than a gap, it judges them again on fresh worlds (the same number) and takes the
mean of the batches, up to ``MAX_BATCHES`` in all. Once the stock is closed or exhausted, or when its
``pimc_plus`` half already enumerates every world, it decides as ``hybrid_infer`` (more batches of the same
worlds would change nothing).
"""

import numpy as np
from numba import njit

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bummerl import in_bummerl
from analyzer.games.schnapsen.hybrid_bot import hybrid_values
from analyzer.games.schnapsen.kernels import stock_closed_or_exhausted
from analyzer.games.schnapsen.pimc_plus import win_weight_at
from analyzer.games.schnapsen.rollout_bot import rollout_pick
from analyzer.games.schnapsen.search import world_count

#: batches of worlds at most, the first included
MAX_BATCHES = 2
#: a lead of the best action below which another batch is drawn: in game points outside a Bummerl, and in
#: the chance of winning the Bummerl inside one (a game point there is worth about 0.1-0.2 of it)
GAP_POINTS = 0.05
GAP_BUMMERL = 0.005


@njit(cache=True)
def score_gap(sums, wins, n, win_weight):
    """The best of the ``n`` scores ``sums[i] + win_weight * wins[i]`` minus the second best (per-world
    means; 0 for fewer than two actions)."""
    if n < 2:
        return 0.0
    best = -np.inf
    second = -np.inf
    for i in range(n):
        score = sums[i] + win_weight * wins[i]
        if score > best:
            second = best
            best = score
        elif score > second:
            second = score
    return best - second


@njit(cache=True)
def adapt_values(s, samples, rng, ws, n):
    """For the ``n`` actions listed in ``ws.acts``, fill ``ws.sums`` and ``ws.wins`` with the per-world means
    of :func:`hybrid_bot.hybrid_values` (with the lead inference) over one to ``MAX_BATCHES`` batches of
    ``samples`` (module notes), leaving the actions in the first batch's order; return ``(n_actions, 1)``:
    the means count for one world."""
    listed = ws.acts[:n].copy()
    m, worlds = hybrid_values(s, samples, rng, ws, n, True)
    acts = ws.acts[:m].copy()
    sums = ws.sums[:m] / worlds
    wins = ws.wins[:m] / worlds
    batches = 1
    if not stock_closed_or_exhausted(s) and world_count(s, s[R.TO_MOVE]) > 2 * samples:
        weight = win_weight_at(s)
        gap = GAP_BUMMERL if in_bummerl(s) else GAP_POINTS
        while batches < MAX_BATCHES and score_gap(sums, wins, m, weight) < gap:
            ws.acts[:n] = listed
            m2, worlds2 = hybrid_values(s, samples, rng, ws, n, True)
            for i in range(m):
                for j in range(m2):
                    if ws.acts[j] == acts[i]:
                        sums[i] = (sums[i] * batches + ws.sums[j] / worlds2) / (batches + 1)
                        wins[i] = (wins[i] * batches + ws.wins[j] / worlds2) / (batches + 1)
            batches += 1
    ws.acts[:m] = acts
    ws.sums[:m] = sums
    ws.wins[:m] = wins
    return m, 1


@njit(cache=True)
def adapt_choice(s, samples, rng, ws, n):
    """``hybrid_adapt``'s action among the ``n`` listed in ``ws.acts`` (a forced move without search)."""
    if n == 1:
        return ws.acts[0]
    n, worlds = adapt_values(s, samples, rng, ws, n)
    allowed = np.ones(n, dtype=np.bool_)
    return ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]
