"""``hybrid``: the mean of ``pimc_plus``'s and ``rollout``'s judgements of each action.

The two err in opposite directions while the stock is open. ``pimc_plus`` solves each sampled world
with every card known, so it credits both players with knowledge of the stock order and of each other's
hand; ``rollout`` plays each world on with the heuristic, so it credits both players with no more skill
than the heuristic's. ``hybrid`` scores an action by the mean of the two: its share of worlds won and
its mean game points under each, averaged. The play-outs use half of ``rollout``'s worlds (192 at 12
samples): 1,024 worlds against 256 changed ``rollout``'s game points by +0.02 +- 0.05 per deal.
``pimc_plus`` gets twice ``samples``. Closing is judged like any other action
(:func:`rollout_bot.rollout_pick`).

* At the first two tricks (at most ``ROLLOUT_ONLY_DRAWN`` stock cards drawn) ``hybrid`` decides as
  ``rollout`` alone. There the perfect-information solves see eight or ten hidden stock cards in a
  known order, which is where they are most biased, and they are slowest: at 12 samples they took 89%
  of the time (140 and 58 ms a decision, against 9 ms for the play-outs). That time buys the doubled
  worlds later on and more samples: ``hybrid:20`` takes about 24 ms a decision.
* Once the stock is closed or exhausted at the decision both judge alike, and ``hybrid`` decides as
  ``pimc_plus``.

``hybrid_infer`` is ``hybrid`` whose sampled worlds, when it follows to a card led plainly, are drawn
with that lead as evidence about the opponent's hand (:mod:`lead_inference`).
"""

import numpy as np
from numba import njit, typeof, types

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import heuristic_action
from analyzer.games.schnapsen.kernels import stock_closed_or_exhausted
from analyzer.games.schnapsen.pimc_plus import add_worlds, heuristic_first, plus_values, win_weight_at
from analyzer.games.schnapsen.rollout_bot import rollout_bot_values, rollout_pick
from analyzer.games.schnapsen.search import new_workspace, solve_value

#: ``hybrid`` decides as ``rollout`` alone while at most this many stock cards are drawn (the first two tricks)
ROLLOUT_ONLY_DRAWN = 2


@njit(cache=True)
def hybrid_values(s, samples, rng, ws, n, infer=False):
    """For the ``n`` actions listed in ``ws.acts`` (:func:`search.list_actions`; left in ``pimc_plus``'s
    order), fill ``ws.sums`` and ``ws.wins`` with each action's mean of the two per-world means (game
    points, share of worlds won) of :func:`rollout_bot.rollout_bot_values` (``samples // 2``) and
    :func:`pimc_plus.plus_values` (``2 * samples``), so that they count for one world; return
    ``(n_actions, 1)``. At the first two tricks return what ``rollout_bot_values`` returns with
    ``samples``, once the stock is closed or exhausted what ``plus_values`` returns with ``samples``. With
    ``infer`` both draw their sampled worlds with the opponent's lead as evidence (:mod:`lead_inference`)."""
    if stock_closed_or_exhausted(s):
        return plus_values(s, samples, rng, ws, n, infer)
    if s[R.DRAWN] <= ROLLOUT_ONLY_DRAWN:
        return rollout_bot_values(s, samples, rng, ws, n, infer)
    n, played = rollout_bot_values(s, max(1, samples // 2), rng, ws, n, infer)
    acts, sums, wins = ws.acts, ws.sums, ws.wins
    rollout_acts = acts[:n].copy()
    rollout_sums = sums[:n] / played
    rollout_wins = wins[:n] / played
    m, solved = plus_values(s, 2 * samples, rng, ws, n, infer)
    for i in range(m):
        for j in range(n):
            if rollout_acts[j] == acts[i]:
                sums[i] = 0.5 * (sums[i] / solved + rollout_sums[j])
                wins[i] = 0.5 * (wins[i] / solved + rollout_wins[j])
    return m, 1


# Keep in step with hybrid_decision, its twin called from Python.
@njit(cache=True)
def hybrid_choice(s, samples, rng, ws, n, infer=False):
    """``hybrid``'s action among the ``n`` listed in ``ws.acts`` (a forced move without search); with
    ``infer``, ``hybrid_infer``'s."""
    if n == 1:
        return ws.acts[0]
    n, worlds = hybrid_values(s, samples, rng, ws, n, infer)
    allowed = np.ones(n, dtype=np.bool_)
    return ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]


def hybrid_decision(s, samples, rng, ws, n):
    """:func:`hybrid_choice` (``hybrid``, not ``hybrid_infer``) with its steps called from Python: the same
    action from the same random state, for a caller that decides from Python (``play.DIRECT_CHOICES``), where
    it saves a cold cache one kernel level above :func:`hybrid_values` (each level relinks and re-optimises
    the whole bot below it: 2-3 CPU-s) against microseconds a decision of milliseconds. Keep in step with
    :func:`hybrid_choice`."""
    if n == 1:
        return ws.acts[0]
    n, worlds = hybrid_values(s, samples, rng, ws, n)
    allowed = np.ones(n, dtype=np.bool_)
    return ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]


def decision_signature() -> tuple:
    """The argument types :func:`hybrid_values` gets from :func:`hybrid_decision` (``infer`` omitted): another
    specialisation than ``hybrid_choice``'s, whose constant ``infer`` numba types ``Literal[bool]``."""
    return (typeof(np.zeros(1, dtype=np.int64)), types.int64, typeof(np.zeros(4, dtype=np.uint64)),
            typeof(new_workspace(tt_bits=1)), types.int64, types.Omitted(False))


#: the two halves of what :func:`hybrid_values` compiles below its own level, which share no kernel but
#: the engine's primitives: the heuristic (``heuristic_action`` and ``heuristic_first``) and the
#: perfect-information search with the solved worlds (``solve_value``, ``add_worlds``); the play-outs'
#: ``play_out_value``, which needs both, compiles in the caller (halves of ~9 CPU-s each, against 17 and 13
#: with the play-outs in the first: docs/performance.md, session 11)
VALUE_PARTS = ("heuristic", "worlds")


def value_part_signatures(part: str, infer: bool) -> list:
    """``(kernel, signature)`` of the kernels of ``part`` (:data:`VALUE_PARTS`), with the argument types
    :func:`hybrid_values` passes them when ``hybrid_choice`` is called with ``infer`` as a constant (numba
    types it ``Literal[bool]``)."""
    state = types.Array(types.int64, 1, "C")
    rows = types.Array(types.int64, 2, "C")
    if part == "heuristic":
        params = types.Array(types.float64, 1, "C", readonly=True)  # a module constant
        return [(heuristic_action, (state, params, state)),
                (heuristic_first, (state, state, types.int64, types.boolean))]
    rng = types.Array(types.uint64, 1, "C")
    return [(solve_value, (state, rows, rows, rows, state)),
            (add_worlds, (state, types.int64, types.int64, types.boolean, rng, typeof(new_workspace(tt_bits=1)),
                          types.int64, state, types.literal(infer)))]


def compile_value_part(part: str, infer: bool) -> None:
    """Compile (or load from numba's cache) the kernels of ``part`` for ``hybrid`` (``infer`` False) or
    ``hybrid_infer``: a group of ``parallel_compile.compile_in_parallel``, so that the two parts compile in
    two processes at once and the caller's compile of the bot loads them."""
    for kernel, signature in value_part_signatures(part, infer):
        kernel.compile(signature)
