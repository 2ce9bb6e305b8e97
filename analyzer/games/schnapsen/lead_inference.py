"""Worlds weighted by the opponent's lead: inference for the bot that follows to it.

PIMC and the play-outs draw the opponent's hidden cards uniformly among those consistent with what the
player has seen (:func:`search.sample_world`). But the card the opponent has just led says more: from a
hand holding a king and queen of a suit he would most likely have announced the marriage, from a hand
with the trump jack he would have exchanged it, and he leads by some plan. When following to a card led
without announcing a marriage, ``hybrid_infer`` draws each world by rejection: a uniform draw is kept
when the ``heuristic`` bot (the model of the opponent, ``HeuristicParams()``) would have led the same
action from the world's opponent hand before the lead, else only with probability ``MISMATCH_WEIGHT``.
The worlds kept are then distributed in proportion to that likelihood (1 or ``MISMATCH_WEIGHT``)
times their uniform weight: the model is trusted, not believed.

Only sampled worlds are weighted: where every world is solved once (:func:`search.world_at`; mostly
with the stock closed or exhausted, where strict play already tells what the opponent lacks) they keep
equal weight. At the bot's own leads the state no longer tells what the opponent played to the trick
before, so there is nothing to infer from.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from analyzer.cards.rng import uniform
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.kernels import copy_state
from analyzer.games.schnapsen.search import sample_world, world_into

#: a world whose opponent hand the model would not have led from keeps this share of its weight
MISMATCH_WEIGHT = 0.25
#: draws per world at most: after them the last draw is kept whatever its likelihood (a model that fits
#: no world must not stall the bot)
MAX_DRAWS = 64
_MODEL = HeuristicParams().to_array()


@njit(cache=True)
def plain_lead(s, player):
    """The card the opponent of ``player`` led to the current trick, when ``player`` is to follow to it
    and it was not led announcing a marriage (its partner is not known to be in his hand); else -1."""
    lead = s[R.LEAD_CARD]
    opp = 1 - player
    if lead < 0 or s[R.LEADER] != opp or s[R.TO_MOVE] != player:
        return -1
    rank = lead % 5
    if rank == R.QUEEN or rank == R.KING:
        partner = lead + 1 if rank == R.QUEEN else lead - 1
        if (s[R.SHOWN0 + opp] & s[R.HAND0 + opp]) >> partner & 1:
            return -1
    return lead


@njit(cache=True)
def before_lead(world, lead, out):
    """Write into ``out`` the position of ``world`` just before its leader led ``lead`` (not announcing)."""
    copy_state(out, world)
    leader = world[R.LEADER]
    bit = np.int64(1) << lead
    out[R.HAND0 + leader] |= bit
    out[R.PLAYED] &= ~bit
    out[R.LEAD_CARD] = -1
    out[R.TO_MOVE] = leader


@njit(cache=True)
def lead_likelihood(world, lead, params, pre, buf):
    """1.0 when the heuristic ``params`` would have led ``lead`` (plainly) in the position of ``world``
    before the lead, else ``MISMATCH_WEIGHT`` (``pre`` and ``buf`` are scratch)."""
    before_lead(world, lead, pre)
    return 1.0 if heuristic_action(pre, params, buf) == lead else MISMATCH_WEIGHT


@njit(cache=True)
def inferred_world(s, player, rng, pool, world):
    """Write into ``world`` a world drawn for ``player`` with the opponent's plain lead as evidence (module
    notes); a plain :func:`search.sample_world` draw when there is no such lead. Returns the draws used."""
    lead = plain_lead(s, player)
    if lead < 0:
        sample_world(s, player, rng, pool, world)
        return 1
    pre = np.empty(R.STATE_SIZE, dtype=np.int64)
    buf = np.empty(16, dtype=np.int64)
    for draw in range(1, MAX_DRAWS + 1):
        sample_world(s, player, rng, pool, world)
        weight = lead_likelihood(world, lead, _MODEL, pre, buf)
        if weight >= 1.0 or uniform(rng) < weight:
            return draw
    return MAX_DRAWS


def _draw(s, player, index, exact, infer, rng, pool, world):
    """:func:`draw_world`'s body, chosen by ``infer``'s numba type (:func:`_draw_by_type`); numba alone calls it."""
    raise TypeError("_draw runs only inside numba kernels")


@overload(_draw, prefer_literal=True)
def _draw_by_type(s, player, index, exact, infer, rng, pool, world):
    # A bot that never infers passes ``infer`` as the constant False (numba types it Literal[bool](False)):
    # its draw is world_into alone, so the lead inference (and the heuristic it runs) is not compiled into it.
    if isinstance(infer, types.BooleanLiteral) and not infer.literal_value:
        def world_only(s, player, index, exact, infer, rng, pool, world):
            world_into(s, player, index, exact, rng, pool, world)
        return world_only

    def weighted(s, player, index, exact, infer, rng, pool, world):
        if infer and not exact:
            inferred_world(s, player, rng, pool, world)
        else:
            world_into(s, player, index, exact, rng, pool, world)
    return weighted


@njit(cache=True)
def draw_world(s, player, index, exact, infer, rng, pool, world):
    """:func:`search.world_into`, with sampled worlds drawn by :func:`inferred_world` when ``infer`` (a kernel
    passing the constant False compiles no inference: :func:`_draw_by_type`)."""
    _draw(s, player, index, exact, infer, rng, pool, world)
