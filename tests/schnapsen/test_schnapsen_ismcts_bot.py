"""``ismcts``: the tree against a plain-Python twin over the same worlds, a sure win, honesty, the hand-over
to ``pimc_plus`` once the stock is closed or exhausted; ``ismcts_hybrid``'s mean of the tree's and
``pimc_plus``'s judgements."""

import math
import random

import numpy as np
import pytest
from test_schnapsen_rollout_bot import (
    check_decides_only_from_what_its_player_sees,
    child_of,
    open_stock_position,
    twin_play_out,
)
from test_schnapsen_search import random_ending

from analyzer.cards.rng import bounded, state_from_seed
from analyzer.games.schnapsen import kernels as K
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen import search as S
from analyzer.games.schnapsen.experiments import parse_bot, play_on_sequence
from analyzer.games.schnapsen.ismcts_bot import (
    EXPLORATION,
    ITERATIONS_PER_SAMPLE,
    ismcts_choice,
    ismcts_hybrid_values,
    ismcts_tree,
    ismcts_values,
)
from analyzer.games.schnapsen.lead_inference import draw_world
from analyzer.games.schnapsen.pimc_plus import plus_values
from analyzer.games.schnapsen.rollout_bot import rollout_pick
from analyzer.games.schnapsen.search import list_actions, new_workspace
from analyzer.games.schnapsen.state import SchnapsenState


def kernel_order(st: SchnapsenState) -> list[int]:
    """``st``'s legal actions in the kernel's listing order (the order the tree tries and ranks them)."""
    buf = np.zeros(16, dtype=np.int64)
    n = K.legal_actions(st.to_array(), buf)
    assert sorted(buf[:n]) == sorted(st.legal_actions())
    return [int(a) for a in buf[:n]]


def twin_tree(s: np.ndarray, iterations: int, rng: np.ndarray) -> dict:
    """Plain-Python SO-ISMCTS (the module notes of ``ismcts_bot``) over the worlds the kernel draws with the
    same random state: returns ``{action sequence: [visits, summed reward of its last actor, deals won by the
    player to move at s]}``."""
    player = int(s[R.TO_MOVE])
    ws = new_workspace(tt_bits=12)
    twin_ws = new_workspace(tt_bits=12)
    c = EXPLORATION * 2.0 * 4.0
    total = S.world_count(s, player)
    exact = total <= iterations
    nodes = {(): [0, 0.0, 0]}
    avail = {}
    actor = {}
    for it in range(iterations):
        draw_world(s, player, it % total if exact else it, exact, False, rng, ws.pool, ws.world)
        st = SchnapsenState.from_array(ws.world)
        key = ()
        path = [()]
        while not st.is_over:
            legal = kernel_order(st)
            untried = [a for a in legal if key + (a,) not in nodes]
            for a in legal:
                if key + (a,) in nodes:
                    avail[key + (a,)] += 1
            if untried:
                a = untried[int(bounded(rng, len(untried)))]
                key = key + (a,)
                nodes[key] = [0, 0.0, 0]
                avail[key] = 1
                actor[key] = st.to_move
                path.append(key)
                st = child_of(st, a)
                break

            def ucb(a):
                visits, summed, _ = nodes[key + (a,)]
                return summed / visits + c * math.sqrt(math.log(avail[key + (a,)]) / visits)
            a = max(legal, key=ucb)  # the first of equal scores
            key = key + (a,)
            path.append(key)
            st = child_of(st, a)
        v = twin_play_out(st, player, False, twin_ws, [0])
        reward = v + (1.0 if v > 0 else 0.0)
        for k in path:
            nodes[k][0] += 1
            if k:
                nodes[k][1] += reward if actor[k] == player else -reward
                nodes[k][2] += v > 0
    return nodes


def kernel_tree(child, visits, totals, won) -> dict:
    """The kernel's tree as ``{action sequence: [visits, summed reward, deals won]}``."""
    nodes = {}
    stack = [((), 0)]
    while stack:
        key, node = stack.pop()
        nodes[key] = [int(visits[node]), float(totals[node]), int(won[node]) if key else 0]
        for a in np.flatnonzero(child[node] >= 0):
            stack.append((key + (int(a),), int(child[node, a])))
    return nodes


@pytest.mark.parametrize("stock", [2, 4, 6, 8])
def test_the_tree_matches_a_plain_python_twin(stock):
    """Every node's visits and summed reward equal the twin's after the same iterations (with two stock
    cards left the kernel cycles through every world, deeper stocks sample)."""
    rnd = random.Random(50 + stock)
    for _ in range(2):
        st = open_stock_position(rnd, stock)
        s = st.to_array()
        child, visits, totals, won = ismcts_tree(s, 150, state_from_seed(stock), new_workspace(tt_bits=12))
        twin = twin_tree(s, 150, state_from_seed(stock))
        ours = kernel_tree(child, visits, totals, won)
        assert ours.keys() == twin.keys(), st.to_text()
        for key, (n, summed, deals_won) in twin.items():
            assert (ours[key][0], ours[key][2]) == (n, deals_won), (st.to_text(), key)
            assert ours[key][1] == pytest.approx(summed, abs=1e-9), (st.to_text(), key)
        assert visits[0] == 150 and len(ours) <= 151  # an iteration ending at a finished deal adds no node
        assert max(len(k) for k in ours) >= 3  # the tree grew past the first trick


def test_ismcts_takes_a_sure_win():
    """Stock open, 42 to 14 (SA ST and DA DT won, CT CK lost): announcing the trump marriage (40 in hearts)
    reaches 82 at once, a deal won for two game points in every world (the opponent has a trick, under 33);
    every other action leaves the deal open. The root's most visited child is the announcement (led with
    the queen or the king)."""
    st = SchnapsenState.from_text("hand0=HQ HK CA DJ SJ; hand1=?; stock=? ? ? HJ; leader=0; points=42,14; "
                                  "tricks=2,1; history=SA ST DA DT CT CK")
    s = st.to_array()
    ws = new_workspace(tt_bits=12)
    n = list_actions(s, ws)
    marriage = {R.MARRIAGE_OFFSET + R.parse_card(c) for c in ("HQ", "HK")}
    assert ismcts_choice(s, 2, state_from_seed(3), ws, n) in marriage


def test_ismcts_decides_only_from_what_its_player_sees():
    positions = check_decides_only_from_what_its_player_sees(
        lambda s, rng, ws: ismcts_choice(s, 1, rng, ws, list_actions(s, ws)), 5, 200, 15)
    assert positions > 20


@pytest.mark.parametrize("kind", ["closed", "exhausted"])
def test_ismcts_decides_as_pimc_plus_once_the_stock_is_closed_or_exhausted(kind):
    rnd = random.Random(71)
    ws = new_workspace(tt_bits=12)
    for _ in range(5):
        s = random_ending(rnd, kind).to_array()
        n, worlds = plus_values(s, 3, state_from_seed(5), ws, list_actions(s, ws))
        allowed = np.ones(n, dtype=np.bool_)
        expected = ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, 1.0)]
        assert ismcts_choice(s, 3, state_from_seed(5), ws, list_actions(s, ws)) == expected


@pytest.mark.parametrize("stock", [8, 4])
def test_ismcts_hybrid_averages_the_tree_and_pimc_plus_action_by_action(stock):
    """With eight stock cards left (the second trick) the tree's means alone, with ``samples`` worth of
    iterations; with four, the mean of the tree's (half the iterations) and ``plus_values``'s (``2 *
    samples``, drawn after the tree from the same random state) per-world means, action by action."""
    rnd = random.Random(80 + stock)
    ws = new_workspace(tt_bits=12)
    for k in range(2):
        s = open_stock_position(rnd, stock).to_array()
        n = list_actions(s, ws)
        acts = [int(a) for a in ws.acts[:n]]
        rng = state_from_seed(k)
        alone = stock == 8
        child, visits, totals, won = ismcts_tree(s, ITERATIONS_PER_SAMPLE * (4 if alone else 2), rng, ws)
        tree = {a: ((totals[child[0, a]] - won[child[0, a]]) / visits[child[0, a]],
                    won[child[0, a]] / visits[child[0, a]]) for a in acts}
        if alone:
            expected = tree
        else:
            m, solved = plus_values(s, 8, rng, ws, list_actions(s, ws))
            expected = {int(ws.acts[i]): ((ws.sums[i] / solved + tree[int(ws.acts[i])][0]) / 2,
                                          (ws.wins[i] / solved + tree[int(ws.acts[i])][1]) / 2) for i in range(m)}
        m, worlds = ismcts_hybrid_values(s, 4, state_from_seed(k), ws, list_actions(s, ws))
        assert worlds == 1
        got = {int(ws.acts[i]): (ws.sums[i], ws.wins[i]) for i in range(m)}
        assert got.keys() == expected.keys()
        for a, (util, share) in expected.items():
            assert got[a] == (pytest.approx(util), pytest.approx(share)), a


@pytest.mark.parametrize("name", ["ismcts", "ismcts_hybrid"])
def test_the_closing_odds_play_on_by_the_trees_values(name):
    """``schnapsen closing``'s "play on" for these bots is the best non-closing action by their values (the
    tree's means for ``ismcts``), not a random one: at open-stock leads where closing is legal it is the
    :func:`rollout_bot.rollout_pick` of ``ismcts_values`` / ``ismcts_hybrid_values`` without closing."""
    values = ismcts_values if name == "ismcts" else ismcts_hybrid_values
    rnd = random.Random(90)
    ws = new_workspace(tt_bits=12)
    checked = 0
    while checked < 4:
        st = open_stock_position(rnd, rnd.choice([4, 6]))
        s = st.to_array()
        n = list_actions(s, ws)
        if R.CLOSE not in ws.acts[:n] or R.EXCHANGE in ws.acts[:n]:
            continue
        n, worlds = values(s, 2, state_from_seed(checked), ws, n)
        allowed = ws.acts[:n] != R.CLOSE
        expected = int(ws.acts[rollout_pick(ws.acts, ws.sums, ws.wins, n, worlds, allowed, 1.0)])
        assert play_on_sequence(s, parse_bot(f"{name}:2"), state_from_seed(checked), ws) == [expected]
        checked += 1


def test_bot_names():
    assert parse_bot("ismcts").label == "ismcts"
    assert parse_bot("ISMCTS:40").label == "ismcts:40"
