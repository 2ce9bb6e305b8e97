"""``hybrid_iimc``: ``hybrid`` whose play-outs are played by an imperfect-information player (a screen).

``hybrid`` scores an action by the mean of two judgements over sampled worlds: ``pimc_plus``'s (each world
solved with every card known) and ``rollout``'s (each world played on by the heuristic in both seats). Both
err: the first credits both players with the hidden cards, the second with no more than the heuristic's
skill. Imperfect-information Monte Carlo (IIMC; Furtak and Buro 2013) plays each sampled world on with a
player that itself decides from what it sees and searches (here a small ``pimc``), so the play-outs are
both honest and skilful. ``hybrid_iimc`` keeps ``hybrid``'s decision everywhere but where it averages the two
halves (the stock open, past the first two tricks: :data:`hybrid_bot.ROLLOUT_ONLY_DRAWN`) and there replaces
the heuristic's play-outs with such play-outs (:func:`experiments.honest_outcomes`, the engine of
``schnapsen advise``), on fewer worlds: each play-out makes a dozen searched decisions.

Not registered as a bot: it decides from Python (each world's play-out is a kernel call) and is played by
``scripts/schnapsen_iimc_screen.py``.
"""

import numpy as np

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bummerl import deal_utility
from analyzer.games.schnapsen.experiments import Bot, honest_outcomes
from analyzer.games.schnapsen.hybrid_bot import ROLLOUT_ONLY_DRAWN, hybrid_decision
from analyzer.games.schnapsen.kernels import stock_closed_or_exhausted
from analyzer.games.schnapsen.pimc_plus import plus_values, win_weight_at
from analyzer.games.schnapsen.rollout_bot import rollout_pick
from analyzer.games.schnapsen.search import Workspace, list_actions


def iimc_values(s: np.ndarray, player: Bot, worlds: int, rng: np.ndarray,
                ws: Workspace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each legal action's IIMC judgement in ``s``: the action played in each of ``worlds`` sampled worlds
    (every world once when there are no more) and the deal played on by ``player`` in both seats.

    Returns
    -------
    acts, utility, won : np.ndarray
        The legal actions (``search.list_actions``' order), each one's mean value to the mover over the worlds
        (game points; inside a Bummerl his chance of winning it, ``bummerl.deal_utility``) and its share of
        worlds won.
    """
    n = list_actions(s, ws)
    acts = ws.acts[:n].copy()
    outcomes, _ = honest_outcomes(s, [[int(a)] for a in acts], player, worlds, rng, ws)
    mover = int(s[R.TO_MOVE])
    utility = np.array([[deal_utility(s, mover, int(v)) for v in row] for row in outcomes]).mean(axis=0)
    return acts, utility, (outcomes > 0).mean(axis=0)


def uses_iimc(s: np.ndarray) -> bool:
    """Whether ``hybrid_iimc`` judges ``s`` by IIMC: where ``hybrid`` averages its two halves."""
    return not stock_closed_or_exhausted(s) and s[R.DRAWN] > ROLLOUT_ONLY_DRAWN


def hybrid_iimc_action(s: np.ndarray, samples: int, player: Bot, worlds: int, rng: np.ndarray,
                       ws: Workspace) -> int:
    """``hybrid_iimc``'s action in ``s``: ``hybrid:samples``'s (``hybrid_bot.hybrid_decision``) where
    :func:`uses_iimc` is false; else each action scored by the mean of :func:`iimc_values` (``player``,
    ``worlds``) and ``pimc_plus``'s judgement on ``2 * samples`` (as ``hybrid``'s), picked as ``hybrid``
    picks (``rollout_bot.rollout_pick``)."""
    n = list_actions(s, ws)
    if n == 1:
        return int(ws.acts[0])
    if not uses_iimc(s):
        return int(hybrid_decision(s, samples, rng, ws, n))
    acts, utility, won = iimc_values(s, player, worlds, rng, ws)
    n = list_actions(s, ws)  # the play-outs used the workspace's lists
    m, solved = plus_values(s, 2 * samples, rng, ws, n, False)
    for i in range(m):
        j = int(np.flatnonzero(acts == ws.acts[i])[0])
        ws.sums[i] = 0.5 * (ws.sums[i] / solved + utility[j])
        ws.wins[i] = 0.5 * (ws.wins[i] / solved + won[j])
    allowed = np.ones(m, dtype=np.bool_)
    return int(ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, m, 1, allowed, win_weight_at(s))])
