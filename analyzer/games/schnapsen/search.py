"""Perfect-information search and PIMC for Schnapsen.

``perfect``: alpha-beta over the flat kernel state with every card known (both hands and the stock
order); the value is the deal's game points from player 0's side (-3..3). A transposition table of
bounds, keyed at trick starts, is shared by all searches in one "world" (one full deal).

Under the ``schnapsen`` PyPI package's rules (``new_workspace(package_rules=True)``) nobody closes, a marriage
leads the king and wins only with a trick taken (:func:`search_actions`, :func:`search_apply`).

``pimc``: for the player to move, sample the hidden cards consistently with what that player has seen
(own hand, played cards, the face-up trump card, cards the opponent has shown by exchanging, announcing
a marriage or drawing the face-up card, his whole hand once the stock is exhausted, and suits or ranks his
strict play showed he lacks), solve every legal action in every sampled world with ``perfect`` and choose
the action with the best average; when there are no more distinct worlds than samples, each is solved once
(:func:`world_count`, :func:`world_at`). :func:`signs_in_world` tells only who wins each action's deal in one
world (for bots that count deals won). The plain-Python brute-force minimax in the
tests is this module's independent oracle.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from analyzer import catalog
from analyzer.cards.masks import popcount
from analyzer.cards.rng import bounded
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.kernels import apply_action, copy_state, legal_actions, stock_closed_or_exhausted

MAX_DEPTH = 48
TT_BITS = 16
DEFAULT_SAMPLES = catalog.SCHNAPSEN_SAMPLES
_INF = 3
_POINTS = R.CARD_POINTS
_SUITS = R.SUIT_MASKS
_MUL1 = np.uint64(0x9E3779B97F4A7C15)
_MUL2 = np.uint64(0xC2B2AE3D27D4EB4F)


class Workspace(NamedTuple):
    """The preallocated buffers every Schnapsen search and bot decision works in, passed as one object
    (numba takes a named tuple of arrays like its arrays: no copies, cached compiles). Make one with
    :func:`new_workspace`; a decision's legal actions are listed once into ``acts``.

    Attributes
    ----------
    stack : ndarray
        ``(MAX_DEPTH, STATE_SIZE)``: the search's state stack.
    moves : ndarray
        ``(MAX_DEPTH, 48)``: each node's move list and frame; column ``_F_PACKAGE`` flags the package's rules.
    tt : ndarray
        The transposition table, ``2**tt_bits`` entries of 4 int64.
    gen : ndarray
        One int64: the table's generation (a new one per solved world).
    pool : ndarray
        Hidden cards while a world is drawn.
    world : ndarray
        The world (a full deal) being solved.
    acts : ndarray
        The decision's legal actions (16).
    sums, wins : ndarray
        Per action: summed values and worlds won (float64, 16).
    vals : ndarray
        Per action: its value in the current world (16).
    state, deck : ndarray
        A deal state and a shuffled pack for callers that deal.
    """

    stack: np.ndarray
    moves: np.ndarray
    tt: np.ndarray
    gen: np.ndarray
    pool: np.ndarray
    world: np.ndarray
    acts: np.ndarray
    sums: np.ndarray
    wins: np.ndarray
    vals: np.ndarray
    state: np.ndarray
    deck: np.ndarray


def new_workspace(tt_bits: int = TT_BITS, package_rules: bool = False) -> Workspace:
    """A zeroed :class:`Workspace` whose table holds ``2**tt_bits`` entries; with ``package_rules`` its
    searches follow the rules of the ``schnapsen`` PyPI package instead of ours (nobody closes the stock
    and a marriage always leads the king: used when our bots play in that package's engine)."""
    moves = np.zeros((MAX_DEPTH, 48), dtype=np.int64)
    # the flag lives in a column of every frame that the search never writes
    moves[:, _F_PACKAGE] = 1 if package_rules else 0
    return Workspace(stack=np.zeros((MAX_DEPTH, R.STATE_SIZE), dtype=np.int64), moves=moves,
                     tt=np.zeros((1 << tt_bits, 4), dtype=np.int64), gen=np.zeros(1, dtype=np.int64),
                     pool=np.zeros(R.N_CARDS, dtype=np.int64), world=np.zeros(R.STATE_SIZE, dtype=np.int64),
                     acts=np.zeros(16, dtype=np.int64), sums=np.zeros(16, dtype=np.float64),
                     wins=np.zeros(16, dtype=np.float64), vals=np.zeros(16, dtype=np.int64),
                     state=np.zeros(R.STATE_SIZE, dtype=np.int64), deck=np.zeros(R.N_CARDS, dtype=np.int64))


@njit(cache=True)
def _tt_slot(s, tt):
    drawn = s[R.DRAWN]
    face = s[R.STOCK + 9] if drawn < R.STOCK_SIZE else 31
    k1 = (s[R.HAND0] | (s[R.HAND0 + 1] << 20) | (drawn << 40) | (s[R.LEADER] << 44)
          | ((s[R.CLOSER] + 1) << 45) | (face << 47) | (s[R.CLOSE_OPP_TRICK] << 52)
          | ((1 if s[R.CLOSE_OPP_POINTS] < R.SCHNEIDER_POINTS else 0) << 53))
    k2 = (s[R.POINTS0] | (s[R.POINTS0 + 1] << 8) | (s[R.PENDING0] << 16) | (s[R.PENDING0 + 1] << 24)
          | ((1 if s[R.TRICKS0] > 0 else 0) << 32) | ((1 if s[R.TRICKS0 + 1] > 0 else 0) << 33))
    h = np.uint64(k1) * _MUL1 ^ np.uint64(k2) * _MUL2
    h ^= h >> np.uint64(29)
    idx = np.int64(h & np.uint64(tt.shape[0] - 1))
    return idx, k1, k2


@njit(cache=True)
def _order_score(s, a):
    lead = s[R.LEAD_CARD]
    if lead < 0:
        if a == R.EXCHANGE:
            return 300
        if a >= R.MARRIAGE_OFFSET and a != R.CLOSE:
            return 200 + (40 if (a - R.MARRIAGE_OFFSET) // 5 == s[R.TRUMP] else 20)
        if a == R.CLOSE:
            return 250
        return _POINTS[a]
    trump = s[R.TRUMP]
    if (a // 5 == lead // 5 and a > lead) or (a // 5 == trump and lead // 5 != trump):
        return 100 + _POINTS[a] - (20 if a // 5 == trump else 0)
    return 50 - _POINTS[a]


@njit(cache=True)
def _best_case(s, p):
    """Most game points player ``p`` can still score from ``s`` (a bound, not a prediction)."""
    closer = s[R.CLOSER]
    if closer >= 0:
        if closer == p:
            if s[R.CLOSE_OPP_TRICK] == 0:
                return 3
            return 2 if s[R.CLOSE_OPP_POINTS] < R.SCHNEIDER_POINTS else 1
        return 2 if s[R.CLOSE_OPP_TRICK] else 3
    if s[R.DRAWN] < R.STOCK_SIZE:
        # the opponent may still close and fail, which pays by p's own state at that moment
        if s[R.TRICKS0 + 1 - p] == 0 or s[R.TRICKS0 + p] == 0:
            return 3
        return 2
    if s[R.TRICKS0 + 1 - p] == 0:
        return 3
    return 2 if s[R.POINTS0 + 1 - p] < R.SCHNEIDER_POINTS else 1


# per-depth frame fields, stored in columns 32.. of the move array
_F_ALPHA, _F_BETA, _F_A0, _F_B0, _F_BEST, _F_BMOVE, _F_N, _F_I, _F_IDX, _F_K1, _F_K2, _F_HI, _F_LO, _F_START = (
    32 + i for i in range(14))
_F_PACKAGE = 47


@njit(cache=True)
def search_actions(s, out, frame):
    """Legal actions of ``s`` into ``out`` (count returned), less those the package's rules lack when
    ``frame[_F_PACKAGE]`` is set: closing, and marriages led with the queen."""
    n = legal_actions(s, out)
    if frame[_F_PACKAGE] == 0:
        return n
    k = 0
    for i in range(n):
        a = out[i]
        if a == R.CLOSE or (R.MARRIAGE_OFFSET <= a < R.EXCHANGE and a % 5 == R.QUEEN):
            continue
        out[k] = a
        k += 1
    return k


@njit(cache=True)
def search_apply(s, a, frame):
    """Play ``a`` in ``s`` (in place) as :func:`kernels.apply_action`; under the package's rules
    (``frame[_F_PACKAGE]``) a marriage never wins by itself: the package credits its points only with a
    trick won, so an announcer who would reach 66 is left at 65, which his next trick won lifts past 66."""
    apply_action(s, a)
    if frame[_F_PACKAGE] and R.MARRIAGE_OFFSET <= a < R.EXCHANGE and s[R.WINNER] >= 0:
        s[R.POINTS0 + s[R.WINNER]] = R.WIN_POINTS - 1
        s[R.WINNER] = -1
        s[R.GAME_POINTS] = 0


@njit(cache=True)
def _enter(stack, moves, tt, gen, d):
    """Set up the frame of node ``d``; return (done, value): done if the node needs no search."""
    s = stack[d]
    f = moves[d]
    if s[R.WINNER] >= 0:
        return True, (s[R.GAME_POINTS] if s[R.WINNER] == 0 else -s[R.GAME_POINTS])
    alpha = f[_F_ALPHA]
    beta = f[_F_BETA]
    hi0 = _best_case(s, np.int64(0))
    lo0 = -_best_case(s, np.int64(1))
    if hi0 <= alpha:
        return True, hi0
    if lo0 >= beta:
        return True, lo0
    f[_F_HI] = hi0
    f[_F_LO] = lo0
    tt_move = -1
    at_start = s[R.LEAD_CARD] < 0
    f[_F_START] = 1 if at_start else 0
    if at_start:
        idx, k1, k2 = _tt_slot(s, tt)
        f[_F_IDX] = idx
        f[_F_K1] = k1
        f[_F_K2] = k2
        if tt[idx, 2] == gen and tt[idx, 0] == k1 and tt[idx, 1] == k2:
            packed = tt[idx, 3]
            lo = (packed & 15) - 8
            hi = ((packed >> 4) & 15) - 8
            tt_move = (packed >> 8) - 1
            if lo >= beta:
                return True, lo
            if hi <= alpha:
                return True, hi
            if lo == hi:
                return True, lo
            if lo > alpha:
                f[_F_ALPHA] = lo
            if hi < beta:
                f[_F_BETA] = hi
    # bounds are classified against the window after narrowing by the table entry
    f[_F_A0] = f[_F_ALPHA]
    f[_F_B0] = f[_F_BETA]
    n = search_actions(s, f, f)
    # order: transposition-table move first, then by a static score (insertion sort, n <= 11)
    for i in range(n):
        f[16 + i] = 1000 if f[i] == tt_move else _order_score(s, f[i])
    for i in range(1, n):
        a = f[i]
        sc = f[16 + i]
        j = i - 1
        while j >= 0 and f[16 + j] < sc:
            f[j + 1] = f[j]
            f[16 + j + 1] = f[16 + j]
            j -= 1
        f[j + 1] = a
        f[16 + j + 1] = sc
    f[_F_N] = n
    f[_F_I] = 0
    f[_F_BEST] = -_INF - 1 if s[R.TO_MOVE] == 0 else _INF + 1
    f[_F_BMOVE] = f[0]
    return False, 0


@njit(cache=True)
def _store(s, f, tt, gen):
    best = f[_F_BEST]
    lo = -_INF
    hi = _INF
    if best <= f[_F_A0]:
        hi = best
    elif best >= f[_F_B0]:
        lo = best
    else:
        lo = best
        hi = best
    idx = f[_F_IDX]
    k1 = f[_F_K1]
    k2 = f[_F_K2]
    if tt[idx, 2] == gen and tt[idx, 0] == k1 and tt[idx, 1] == k2:
        packed = tt[idx, 3]
        lo = max(lo, (packed & 15) - 8)
        hi = min(hi, ((packed >> 4) & 15) - 8)
    tt[idx, 0] = k1
    tt[idx, 1] = k2
    tt[idx, 2] = gen
    tt[idx, 3] = (lo + 8) | ((hi + 8) << 4) | ((f[_F_BMOVE] + 1) << 8)


@njit(cache=True)
def _ab(stack, moves, tt, gen, alpha, beta):
    """Fail-soft alpha-beta from ``stack[0]`` with an explicit stack (numba cannot cache recursion).

    Returns the value for player 0 within the usual fail-soft guarantees for ``(alpha, beta)``.
    """
    moves[0, _F_ALPHA] = alpha
    moves[0, _F_BETA] = beta
    d = 0
    done, ret = _enter(stack, moves, tt, gen, np.int64(0))
    while True:
        if done:
            if d == 0:
                return ret
            d -= 1
            f = moves[d]
            v = ret
            a = f[f[_F_I]]
            if stack[d, R.TO_MOVE] == 0:
                if v > f[_F_BEST]:
                    f[_F_BEST] = v
                    f[_F_BMOVE] = a
                    f[_F_ALPHA] = max(f[_F_ALPHA], v)
                cut = f[_F_BEST] >= f[_F_HI]
            else:
                if v < f[_F_BEST]:
                    f[_F_BEST] = v
                    f[_F_BMOVE] = a
                    f[_F_BETA] = min(f[_F_BETA], v)
                cut = f[_F_BEST] <= f[_F_LO]
            f[_F_I] += 1
            if cut or f[_F_ALPHA] >= f[_F_BETA]:
                f[_F_I] = f[_F_N]
        f = moves[d]
        if f[_F_I] < f[_F_N]:
            child = stack[d + 1]
            copy_state(child, stack[d])
            search_apply(child, f[f[_F_I]], f)
            moves[d + 1, _F_ALPHA] = f[_F_ALPHA]
            moves[d + 1, _F_BETA] = f[_F_BETA]
            d += 1
            done, ret = _enter(stack, moves, tt, gen, d)
        else:
            if f[_F_START]:
                _store(stack[d], f, tt, gen)
            done = True
            ret = f[_F_BEST]


@njit(cache=True)
def _mtd(stack, moves, tt, gen):
    """Exact value of ``stack[0]`` by zero-window tests (MTD(f)); cheaper than one full-window search
    because the table keeps the bounds between tests and values take only six integers."""
    lower = -_INF
    upper = _INF
    g = 1
    while lower < upper:
        beta = g + 1 if g == lower else g
        v = _ab(stack, moves, tt, gen, beta - 1, beta)
        if v < beta:
            upper = v
        else:
            lower = v
        g = v
    return lower


@njit(cache=True)
def solve_value(s, stack, moves, tt, gen):
    """Exact game-point value of ``s`` for player 0 (everything known); starts a new TT generation."""
    gen[0] += 1
    copy_state(stack[0], s)
    return _mtd(stack, moves, tt, gen[0])


@njit(cache=True)
def values_in_world(world, player, stack, moves, tt, gen, acts, n, vals):
    """Exact value of each of the ``n`` root actions in one fully known world, for ``player``."""
    gen[0] += 1
    for i in range(n):
        copy_state(stack[0], world)
        search_apply(stack[0], acts[i], moves[0])
        v = _mtd(stack, moves, tt, gen[0])
        vals[i] = v if player == 0 else -v


@njit(cache=True)
def uses_package_rules(moves):
    """True when the workspace's ``moves`` search under the package's rules (``package_rules=True``)."""
    return moves[0, _F_PACKAGE] != 0


@njit(cache=True)
def signs_in_world(world, player, stack, moves, tt, gen, acts, n, vals):
    """Whether each of the ``n`` root actions wins the deal for ``player`` in one known world: ``vals[i]``
    is +1 or -1. One zero-window test per action instead of the exact value: a deal never ends level, so
    a value of at least 1 for player 0 is his win."""
    gen[0] += 1
    for i in range(n):
        copy_state(stack[0], world)
        search_apply(stack[0], acts[i], moves[0])
        won0 = _ab(stack, moves, tt, gen[0], np.int64(0), np.int64(1)) >= 1
        vals[i] = 1 if won0 == (player == 0) else -1


@njit(cache=True)
def perfect_values(s, stack, moves, tt, gen, acts, vals):
    """Fill ``acts``/``vals`` with every legal action and its exact value for the mover; return n."""
    n = search_actions(s, acts, moves[0])
    values_in_world(s, s[R.TO_MOVE], stack, moves, tt, gen, acts, n, vals)
    return n


@njit(cache=True)
def perfect_pick(s, ws, n):
    """An optimal action for the mover with every card known among the ``n`` listed in ``ws.acts``
    (first of equal best)."""
    values_in_world(s, s[R.TO_MOVE], ws.stack, ws.moves, ws.tt, ws.gen, ws.acts, n, ws.vals)
    best = 0
    for i in range(1, n):
        if ws.vals[i] > ws.vals[best]:
            best = i
    return ws.acts[best]


@njit(cache=True)
def hidden_pool(s, player):
    """Mask of the cards ``player`` cannot place: the opponent's unshown cards and the face-down stock."""
    opp = 1 - player
    visible = s[R.HAND0 + player] | s[R.PLAYED] | (s[R.SHOWN0 + opp] & s[R.HAND0 + opp])
    if s[R.DRAWN] < R.STOCK_SIZE:
        visible |= np.int64(1) << s[R.STOCK + 9]
    return R.FULL_MASK & ~visible


@njit(cache=True)
def sample_world(s, player, rng, pool, world):
    """Write into ``world`` a copy of ``s`` with the hidden cards reshuffled uniformly.

    The opponent keeps the cards he has shown; his other cards and the face-down stock cards are
    redistributed uniformly among the deals ``player`` cannot tell apart: cards the opponent showed
    he lacks (strict play) go to the stock, the rest anywhere.
    """
    copy_state(world, s)
    opp = 1 - player
    hidden = hidden_pool(s, player)
    k = 0
    for c in range(20):
        if (hidden >> c) & 1:
            pool[k] = c
            k += 1
    for i in range(k - 1, 0, -1):
        j = bounded(rng, i + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    known = s[R.SHOWN0 + opp] & s[R.HAND0 + opp]
    n_opp = popcount(s[R.HAND0 + opp]) - popcount(known)
    # cards the opponent showed he lacks can only be in the stock: deal him the others first
    banned = s[R.NOT_HELD0 + opp]
    j = 0
    for i in range(k):
        if not (banned >> pool[i]) & 1:
            t = pool[j]
            pool[j] = pool[i]
            pool[i] = t
            j += 1
    hand = known
    for i in range(n_opp):
        hand |= np.int64(1) << pool[i]
    world[R.HAND0 + opp] = hand
    drawn = s[R.DRAWN]
    if drawn < R.STOCK_SIZE:
        rest = k - n_opp
        for i in range(rest - 1, 0, -1):
            j = bounded(rng, i + 1)
            t = pool[n_opp + i]
            pool[n_opp + i] = pool[n_opp + j]
            pool[n_opp + j] = t
        for i in range(9 - drawn):
            world[R.STOCK + drawn + i] = pool[n_opp + i]
    return k


@njit(cache=True)
def _binomial(n, k):
    """C(n, k) for small non-negative integers (0 if k is outside 0..n)."""
    if k < 0 or k > n:
        return np.int64(0)
    out = np.int64(1)
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@njit(cache=True)
def _factorial(n):
    out = np.int64(1)
    for i in range(2, n + 1):
        out *= i
    return out


@njit(cache=True)
def _open_stock(s):
    """True while cards are still drawn from the stock (not closed, not exhausted): its order matters."""
    return not stock_closed_or_exhausted(s)


@njit(cache=True)
def world_count(s, player):
    """Number of distinct worlds ``player`` cannot tell apart in ``s`` (the deals :func:`sample_world`
    draws from, each equally likely).

    The opponent's unshown cards are any ``n`` of the hidden cards he has not shown he lacks; while the
    stock is open every order of the other hidden cards in it is a different world, once it is closed
    their order no longer matters (nobody draws again) and counts once. With the stock exhausted every
    card is known: one world.
    """
    opp = 1 - player
    hidden = hidden_pool(s, player)
    k = popcount(hidden)
    n_opp = popcount(s[R.HAND0 + opp]) - popcount(s[R.SHOWN0 + opp] & s[R.HAND0 + opp])
    allowed = k - popcount(hidden & s[R.NOT_HELD0 + opp])
    count = _binomial(allowed, n_opp)
    if _open_stock(s):
        count *= _factorial(k - n_opp)
    return count


@njit(cache=True)
def world_at(s, player, index, pool, world):
    """Write into ``world`` the ``index``-th of the :func:`world_count` worlds of ``s`` for ``player``.

    Index = hand rank * (orders of the face-down stock) + order rank: the opponent's unknown cards
    are the hand-rank-th combination (lexicographic, by card id) of the hidden cards he may hold; the
    face-down stock gets the other hidden cards in their order-rank-th permutation (lexicographic) while
    the stock is open, in card order once it is closed.
    """
    copy_state(world, s)
    opp = 1 - player
    hidden = hidden_pool(s, player)
    banned = hidden & s[R.NOT_HELD0 + opp]
    known = s[R.SHOWN0 + opp] & s[R.HAND0 + opp]
    n_opp = popcount(s[R.HAND0 + opp]) - popcount(known)
    a = 0
    for c in range(20):
        if (hidden >> c) & 1 and not (banned >> c) & 1:
            pool[a] = c
            a += 1
    k = popcount(hidden)
    orders = _factorial(k - n_opp) if _open_stock(s) else np.int64(1)
    rank = index // orders
    order = index % orders
    hand = known
    start = 0
    for i in range(n_opp):
        for j in range(start, a):
            c = _binomial(a - j - 1, n_opp - i - 1)
            if rank < c:
                hand |= np.int64(1) << pool[j]
                start = j + 1
                break
            rank -= c
    world[R.HAND0 + opp] = hand
    drawn = s[R.DRAWN]
    if drawn >= R.STOCK_SIZE:
        return
    m = 0
    rest = hidden & ~hand
    for c in range(20):
        if (rest >> c) & 1:
            pool[m] = c
            m += 1
    for i in range(m):
        f = _factorial(m - 1 - i)
        q = order // f
        order = order % f
        world[R.STOCK + drawn + i] = pool[i + q]
        # the cards still to place move up to pool[i + 1:], in their order
        for j in range(i + q, i, -1):
            pool[j] = pool[j - 1]


@njit(cache=True)
def world_into(s, player, index, exact, rng, pool, world):
    """Write into ``world`` the ``index``-th world of the :func:`world_at` enumeration when ``exact``,
    else a fresh :func:`sample_world` draw."""
    if exact:
        world_at(s, player, index, pool, world)
    else:
        sample_world(s, player, rng, pool, world)


@njit(cache=True)
def list_actions(s, ws):
    """List the legal actions of ``s`` into ``ws.acts`` (under the workspace's rules) and return their
    number: the one listing of a decision, which the bots' value functions then share."""
    return search_actions(s, ws.acts, ws.moves[0])


@njit(cache=True)
def pimc_values(s, n_samples, rng, ws, n):
    """Average the exact value of each of the ``n`` actions listed in ``ws.acts`` (:func:`list_actions`)
    over ``n_samples`` sampled worlds.

    Fills ``ws.sums`` (summed game points for the mover) and ``ws.wins`` (worlds in which the action wins
    the deal) and returns ``(n, n_worlds)``. When the position has at most ``n_samples`` distinct worlds
    (:func:`world_count`: one once the stock is exhausted, few once it is closed or down to two cards)
    each is solved once instead of sampling.
    """
    player = s[R.TO_MOVE]
    acts, sums, wins, vals = ws.acts, ws.sums, ws.wins, ws.vals
    for i in range(n):
        sums[i] = 0.0
        wins[i] = 0.0
    total = world_count(s, player)
    exact = total <= n_samples
    worlds = total if exact else n_samples
    for w in range(worlds):
        world_into(s, player, w, exact, rng, ws.pool, ws.world)
        values_in_world(ws.world, player, ws.stack, ws.moves, ws.tt, ws.gen, acts, n, vals)
        for i in range(n):
            sums[i] += vals[i]
            if vals[i] > 0:
                wins[i] += 1.0
    return n, worlds


@njit(cache=True)
def pimc_pick(s, n_samples, rng, ws, n):
    """The action with the best average ``perfect`` value over sampled worlds among the ``n`` listed in
    ``ws.acts`` (a forced move without search)."""
    if n == 1:
        return ws.acts[0]
    pimc_values(s, n_samples, rng, ws, n)
    best = 0
    for i in range(1, n):
        if ws.sums[i] > ws.sums[best]:
            best = i
    return ws.acts[best]


@njit(cache=True)
def pimc_action(s, n_samples, rng, ws):
    """Return ``pimc``'s action for the player to move: :func:`pimc_pick` over the listed actions."""
    return pimc_pick(s, n_samples, rng, ws, list_actions(s, ws))
