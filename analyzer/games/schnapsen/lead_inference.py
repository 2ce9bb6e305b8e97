"""Worlds weighted by the opponent's lead and follow: inference for the bot that answers them.

PIMC and the play-outs draw the opponent's hidden cards uniformly among those consistent with what the
player has seen (:func:`search.sample_world`). But the card the opponent has just led says more: from a
hand holding a king and queen of a suit he would most likely have announced the marriage, from a hand
with the trump jack he would have exchanged it, and he leads by some plan. When following to a card led
without announcing a marriage, ``hybrid_infer`` draws each world by rejection: a uniform draw is kept
when the ``heuristic`` bot (the model of the opponent, ``HeuristicParams()``) would have led the same
action from the world's opponent hand before the lead, else only with probability ``MISMATCH_WEIGHT``.
The worlds kept are then distributed in proportion to that likelihood (1 or ``MISMATCH_WEIGHT``)
times their uniform weight: the model is trusted, not believed.

The same for his follow: at the bot's lead after a trick it led and won with the stock open (the state
keeps the deal's last trick, ``R.LAST_LEAD`` / ``R.LAST_FOLLOW``), a world is weighted by whether the model
would have followed with the card he played, from the world's hand before the trick. That hand is the
world's less the card he drew since, which the bot did not see: any of his cards it has not been shown,
each as likely in a uniform world, so the likelihood is the mean over them.

Only sampled worlds are weighted: where every world is solved once (:func:`search.world_at`; mostly
with the stock closed or exhausted, where strict play already tells what the opponent lacks) they keep
equal weight.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from analyzer.cards.rng import uniform
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.kernels import copy_state, stock_closed_or_exhausted
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
def free_follow(s, player):
    """The card the opponent of ``player`` followed with to the last trick, when ``player`` led that trick,
    won it and is to lead now with the stock open (so the follow was free and each has drawn since); else -1."""
    if s[R.LEAD_CARD] >= 0 or s[R.TO_MOVE] != player or s[R.LEADER] != player or s[R.LAST_FOLLOW] == 0:
        return -1
    if stock_closed_or_exhausted(s):
        return -1
    lead = s[R.LAST_LEAD] - 1
    follow = s[R.LAST_FOLLOW] - 1
    same_suit = follow // 5 == lead // 5
    if (same_suit and follow > lead) or (not same_suit and follow // 5 == s[R.TRUMP]):
        return -1  # the follower took the trick: ``player``, on lead now, was the follower
    return follow


@njit(cache=True)
def before_follow(world, drew, out):
    """Write into ``out`` the position of ``world`` (its leader on lead after winning the last trick, the stock
    open) when the opponent was to follow to that trick, had he drawn ``drew`` since. The leader's hand keeps
    the card he drew (the follower's rules never read it) and a marriage's points credited with that trick stay
    counted."""
    copy_state(out, world)
    leader = world[R.LEADER]
    opp = 1 - leader
    lead = world[R.LAST_LEAD] - 1
    follow = world[R.LAST_FOLLOW] - 1
    drawn = world[R.DRAWN] - 2
    out[R.HAND0 + opp] = (world[R.HAND0 + opp] & ~(np.int64(1) << drew)) | (np.int64(1) << follow)
    out[R.HAND0 + leader] |= np.int64(1) << lead
    out[R.PLAYED] &= ~(np.int64(1) << follow)
    out[R.POINTS0 + leader] -= R.CARD_POINTS[lead] + R.CARD_POINTS[follow]
    out[R.TRICKS0 + leader] -= 1
    out[R.STOCK + drawn + 1] = drew
    out[R.DRAWN] = drawn
    out[R.LEAD_CARD] = lead
    out[R.TO_MOVE] = opp


@njit(cache=True)
def follow_likelihood(world, follow, params, pre, buf):
    """The mean, over the cards the opponent may have drawn since the last trick (his cards not shown), of 1.0
    when the heuristic ``params`` would have followed with ``follow`` before the draw, else ``MISMATCH_WEIGHT``."""
    opp = 1 - world[R.LEADER]
    drawable = world[R.HAND0 + opp] & ~world[R.SHOWN0 + opp]
    total = 0.0
    k = 0
    for drew in range(R.N_CARDS):
        if (drawable >> drew) & 1:
            before_follow(world, drew, pre)
            total += 1.0 if heuristic_action(pre, params, buf) == follow else MISMATCH_WEIGHT
            k += 1
    return total / k if k > 0 else 1.0


@njit(cache=True)
def inferred_world(s, player, rng, pool, world):
    """Write into ``world`` a world drawn for ``player`` with the opponent's plain lead, or at ``player``'s lead
    his free follow, as evidence (module notes); a plain :func:`search.sample_world` draw when there is neither.
    Returns the draws used."""
    lead = plain_lead(s, player)
    follow = free_follow(s, player) if lead < 0 else -1
    if lead < 0 and follow < 0:
        sample_world(s, player, rng, pool, world)
        return 1
    pre = np.empty(R.STATE_SIZE, dtype=np.int64)
    buf = np.empty(16, dtype=np.int64)
    for draw in range(1, MAX_DRAWS + 1):
        sample_world(s, player, rng, pool, world)
        if lead >= 0:
            weight = lead_likelihood(world, lead, _MODEL, pre, buf)
        else:
            weight = follow_likelihood(world, follow, _MODEL, pre, buf)
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
