"""``pimc_plus``: PIMC that spends its worlds where they matter, values winning and closes cautiously.

Against plain ``pimc`` (:func:`search.pimc_action`, the same perfect-information values per world):

* worlds per decision grow as the stock shrinks (``samples`` at the first tricks, where one solve costs
  most, one and a half times that at six stock cards, ``LATE_FACTOR * samples`` once four or fewer are
  left or the stock is closed) and where closing is legal and plausible (``CLOSE_FACTOR * samples``); as
  in ``pimc`` every world is solved once instead when there are no more of them than that;
* the worlds come in two stages: after the first ``samples // 2`` the search stops when one action
  other than closing is best in every one of them (the decision is clear; closing, which cannot be
  undone, always gets the second stage), and closing gets its extra worlds only if it won at least
  ``PLAUSIBLE_CLOSE_WINS`` of them (at the first tricks closing is legal at almost every lead
  and almost never right);
* an action's score is its mean game points plus its share of worlds won (``WIN_WEIGHT``), so a sure
  single game point beats a gamble for three; equal scores go to the ``heuristic`` bot's action
  (it is tried first), so the coarse per-world values do not leave the choice to move order;
* inside a Bummerl (the state carries the score, as in ``play.play_match``) the score is instead the
  mean chance of winning the Bummerl after the deal (:mod:`bummerl`): with one game point to go a
  Schneider is worth no more than a plain win;
* closing is chosen only when it has the best score and wins in at least ``CLOSE_MIN_WINS`` of the
  worlds: after closing the closer plays blind (strict play, no more draws) while the per-world
  values let him see the opponent's hand, so a closing that loses in a tenth of the worlds is usually
  worse than it looks;
* under the package's rules (``new_workspace(package_rules=True)``: an engine that counts deals won)
  each world tells only whether an action wins the deal (:func:`search.signs_in_world`, one zero-window
  test instead of the exact game points).
"""

import numpy as np
from numba import njit

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.bummerl import deal_utility, in_bummerl
from analyzer.games.schnapsen.lead_inference import draw_world
from analyzer.games.schnapsen.search import (
    list_actions,
    signs_in_world,
    uses_package_rules,
    values_in_world,
    world_count,
)

DEFAULT_SAMPLES = 12
LATE_FACTOR = 4
#: worlds at six stock cards left, in halves of ``samples`` (3: one and a half times)
MID_FACTOR_HALVES = 3
CLOSE_FACTOR = 3
WIN_WEIGHT = 1.0
CLOSE_MIN_WINS = 0.9
#: closing gets its extra worlds only when it won at least this share of the first stage's worlds
PLAUSIBLE_CLOSE_WINS = 0.75
_HEURISTIC = HeuristicParams.playout().to_array()


@njit(cache=True)
def worlds_for(s, samples, can_close):
    """Worlds to sample at ``s``: more once the stock is short or closed, and where closing is legal."""
    stock_left = R.STOCK_SIZE - s[R.DRAWN]
    factor = 2  # in halves of samples
    if s[R.CLOSER] >= 0 or stock_left <= 4:
        factor = 2 * LATE_FACTOR
    elif stock_left <= 6:
        factor = MID_FACTOR_HALVES
    if can_close and factor < 2 * CLOSE_FACTOR:
        factor = 2 * CLOSE_FACTOR
    return samples * factor // 2


@njit(cache=True)
def heuristic_first(s, acts, n, package):
    """Move the ``heuristic`` bot's action to ``acts[0]`` (the others keep their order) so that ties go
    to it; under the package's rules its queen-led marriage is the king-led one. Returns its index before
    the move, -1 if it is not among ``acts[:n]``. The heuristic lists the legal actions itself: under our
    rules the list of ``acts``, so calling :func:`bots.heuristic_action` (not inlining ``heuristic_pick``,
    a second compiled copy of the heuristic in every bot) picks the same action as picking from ``acts``."""
    h = heuristic_action(s, _HEURISTIC, np.empty(16, dtype=np.int64))
    if package and R.MARRIAGE_OFFSET <= h < R.EXCHANGE and h % 5 == R.QUEEN:
        h += 1
    for i in range(n):
        if acts[i] == h:
            for j in range(i, 0, -1):
                acts[j] = acts[j - 1]
            acts[0] = h
            return i
    return -1


@njit(cache=True)
def add_worlds(s, first, last, exact, rng, ws, n, best_in, infer):
    """Solve worlds ``first..last-1`` (the ``exact`` enumeration, else fresh samples, drawn with the
    opponent's lead as evidence when ``infer``: :mod:`lead_inference`) and add each action's
    value (:func:`bummerl.deal_utility`) to ``ws.sums``, its wins to ``ws.wins`` and, where it is among the
    best of the world, 1 to ``best_in``."""
    player = s[R.TO_MOVE]
    package = uses_package_rules(ws.moves)
    vals = ws.vals
    for w in range(first, last):
        draw_world(s, player, w, exact, infer, rng, ws.pool, ws.world)
        if package:
            signs_in_world(ws.world, player, ws.stack, ws.moves, ws.tt, ws.gen, ws.acts, n, vals)
        else:
            values_in_world(ws.world, player, ws.stack, ws.moves, ws.tt, ws.gen, ws.acts, n, vals)
        top = vals[0]
        for i in range(1, n):
            top = max(top, vals[i])
        for i in range(n):
            ws.sums[i] += deal_utility(s, player, vals[i])
            if vals[i] > 0:
                ws.wins[i] += 1.0
            if vals[i] == top:
                best_in[i] += 1


@njit(cache=True)
def plus_values(s, samples, rng, ws, n, infer=False):
    """For the ``n`` actions listed in ``ws.acts`` (:func:`search.list_actions`; the heuristic's action is
    moved first), fill ``ws.sums`` (summed values for the mover: game points, +-1 per deal won or lost
    under the package's rules, chances of winning the Bummerl inside one) and ``ws.wins`` (worlds won)
    over the worlds of :func:`worlds_for`, in the two stages of the module notes (sampled worlds weighted by
    the opponent's lead when ``infer``: :mod:`lead_inference`); return ``(n_actions, n_worlds)``."""
    acts = ws.acts
    heuristic_first(s, acts, n, uses_package_rules(ws.moves))
    close_at = -1
    for i in range(n):
        ws.sums[i] = 0.0
        ws.wins[i] = 0.0
        if acts[i] == R.CLOSE:
            close_at = i
    best_in = np.zeros(n, dtype=np.int64)
    most = worlds_for(s, samples, close_at >= 0)
    total = world_count(s, s[R.TO_MOVE])
    if total <= most:
        add_worlds(s, np.int64(0), total, np.bool_(True), rng, ws, n, best_in, infer)
        return n, total
    first = max(1, samples // 2)
    add_worlds(s, np.int64(0), first, np.bool_(False), rng, ws, n, best_in, infer)
    for i in range(n):
        if best_in[i] == first and i != close_at:
            return n, first
    plausible = close_at >= 0 and ws.wins[close_at] >= PLAUSIBLE_CLOSE_WINS * first
    last = min(worlds_for(s, samples, plausible), most)
    add_worlds(s, first, last, np.bool_(False), rng, ws, n, best_in, infer)
    return n, last


@njit(cache=True)
def plus_pick(acts, sums, wins, n, worlds, allowed, win_weight=WIN_WEIGHT, close_min_wins=CLOSE_MIN_WINS):
    """Index of the chosen action among those with ``allowed[i]``: best mean game points plus
    ``win_weight`` times the share of worlds won (the first of equal scores); closing only if it also
    wins ``close_min_wins`` of them."""
    best = -1
    best_score = 0.0
    for i in range(n):
        if not allowed[i]:
            continue
        if acts[i] == R.CLOSE and wins[i] < close_min_wins * worlds:
            continue
        score = (sums[i] + win_weight * wins[i]) / worlds
        if best < 0 or score > best_score:
            best = i
            best_score = score
    return best


@njit(cache=True)
def plus_choice(s, samples, rng, ws, n):
    """``pimc_plus``'s action among the ``n`` listed in ``ws.acts`` (a forced move without search)."""
    if n == 1:
        return ws.acts[0]
    n, worlds = plus_values(s, samples, rng, ws, n)
    allowed = np.ones(n, dtype=np.bool_)
    return ws.acts[plus_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, win_weight_at(s))]


@njit(cache=True)
def plus_action(s, samples, rng, ws):
    """Return ``pimc_plus``'s action for the player to move: :func:`plus_choice` over the listed actions."""
    return plus_choice(s, samples, rng, ws, list_actions(s, ws))


@njit(cache=True)
def win_weight_at(s):
    """``WIN_WEIGHT`` outside a Bummerl; 0 inside one, where :func:`bummerl.deal_utility` values the win."""
    return 0.0 if in_bummerl(s) else WIN_WEIGHT
