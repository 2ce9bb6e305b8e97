"""``pimc_plus``: PIMC that spends its worlds where they matter, values winning and closes cautiously.

Against plain ``pimc`` (:func:`search.pimc_action`, the same perfect-information values per world):

* worlds per decision grow as the stock shrinks (``samples`` at the first tricks, where one solve costs
  most, one and a half times that at six stock cards, ``LATE_FACTOR * samples`` once four or fewer are
  left or the stock is closed) and at decisions where closing is legal (``CLOSE_FACTOR * samples``); as
  in ``pimc`` every world is solved once instead when there are no more of them than that;
* an action's score is its mean game points plus its share of worlds won (``WIN_WEIGHT``), so a sure
  single game point beats a gamble for three;
* closing is chosen only when it has the best score and wins in at least ``CLOSE_MIN_WINS`` of the
  worlds: after closing the closer plays blind (strict play, no more draws) while the per-world
  values let him see the opponent's hand, so a closing that loses in a tenth of the worlds is usually
  worse than it looks.
"""

import numpy as np
from numba import njit

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.kernels import legal_actions
from analyzer.games.schnapsen.search import pimc_values, search_actions

DEFAULT_SAMPLES = 12
LATE_FACTOR = 4
#: worlds at six stock cards left, in halves of ``samples`` (3: one and a half times)
MID_FACTOR_HALVES = 3
CLOSE_FACTOR = 3
WIN_WEIGHT = 1.0
CLOSE_MIN_WINS = 0.9


@njit(cache=True)
def worlds_for(s, samples, can_close):
    """Worlds to sample at ``s``: more once the stock is short or closed, and where closing is legal."""
    stock_left = 10 - s[R.DRAWN]
    factor = 2  # in halves of samples
    if s[R.CLOSER] >= 0 or stock_left <= 4:
        factor = 2 * LATE_FACTOR
    elif stock_left <= 6:
        factor = MID_FACTOR_HALVES
    if can_close and factor < 2 * CLOSE_FACTOR:
        factor = 2 * CLOSE_FACTOR
    return samples * factor // 2


@njit(cache=True)
def plus_values(s, samples, rng, stack, moves, tt, gen, pool, world, acts, sums, wins, vals):
    """Fill ``acts``/``sums``/``wins`` like :func:`search.pimc_values` with the worlds of :func:`worlds_for`;
    return ``(n_actions, n_worlds)``."""
    n = search_actions(s, acts, moves[0])
    can_close = False
    for i in range(n):
        if acts[i] == R.CLOSE:
            can_close = True
    return pimc_values(s, worlds_for(s, samples, can_close), rng, stack, moves, tt, gen, pool, world, acts, sums,
                       wins, vals)


@njit(cache=True)
def plus_pick(acts, sums, wins, n, worlds, allowed, win_weight=WIN_WEIGHT):
    """Index of the chosen action among those with ``allowed[i]``: best mean game points plus
    ``win_weight`` times the share of worlds won; closing only if it also wins ``CLOSE_MIN_WINS`` of them."""
    best = -1
    best_score = 0.0
    for i in range(n):
        if not allowed[i]:
            continue
        if acts[i] == R.CLOSE and wins[i] < CLOSE_MIN_WINS * worlds:
            continue
        score = (sums[i] + win_weight * wins[i]) / worlds
        if best < 0 or score > best_score:
            best = i
            best_score = score
    return best


@njit(cache=True)
def plus_action(s, samples, rng, stack, moves, tt, gen, pool, world, acts, sums, wins, vals):
    """Return ``pimc_plus``'s action for the player to move (forced moves without search)."""
    if legal_actions(s, acts) == 1:
        return acts[0]
    n, worlds = plus_values(s, samples, rng, stack, moves, tt, gen, pool, world, acts, sums, wins, vals)
    allowed = np.ones(n, dtype=np.bool_)
    return acts[plus_pick(acts, sums, wins, n, worlds, allowed)]
