"""Extended PIMC (``epimc``, ``hybrid_ep``): the two-ply values against a plain-Python twin whose replies are
valued by full minimax (closed stock) or the tested solver (open stock), a hand-made position where
PIMC's fused strategy shows, and the hand-over inside ``hybrid``."""

import random

import numpy as np
import pytest
from test_schnapsen_pimc_plus import open_stock_positions
from test_schnapsen_search import brute_force, random_ending

from analyzer.cards.rng import bounded, state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen import search as S
from analyzer.games.schnapsen.epimc import ORDERS_PER_HAND, ep_values
from analyzer.games.schnapsen.hybrid_bot import hybrid_values
from analyzer.games.schnapsen.pimc_plus import WIN_WEIGHT, worlds_for
from analyzer.games.schnapsen.search import list_actions, new_workspace
from analyzer.games.schnapsen.state import SchnapsenState


def minimax_for(player: int):
    """Reply values by full minimax of the plain-Python rules, for ``player``."""
    def value(child: np.ndarray, _ws) -> int:
        v = brute_force(SchnapsenState.from_array(child))
        return v if player == 0 else -v
    return value


def solver_for(player: int, package: bool):
    """Reply values by the perfect-information solver (tested against minimax), signs under the package's rules."""
    def value(child: np.ndarray, ws) -> int:
        v = S.solve_value(child, ws.stack, ws.moves, ws.tt, ws.gen)
        v = v if player == 0 else -v
        return int(np.sign(v)) if package else int(v)
    return value


def ep_twin(s: np.ndarray, samples: int, rng: np.ndarray, package: bool, value_of) -> tuple[dict, dict, int]:
    """The module notes rebuilt from public pieces: the worlds (enumerated, else ``ORDERS_PER_HAND`` stock
    orders of each sampled hand, shuffled as a Fisher-Yates over the face-down cards), every reply of the next
    mover valued by ``value_of``, one reply per (mover, hand) by the best summed score for the mover.
    Returns ``(sums, wins, worlds)`` keyed by action."""
    ws = S.new_workspace(tt_bits=12, package_rules=package)
    player = int(s[R.TO_MOVE])
    acts = np.zeros(16, dtype=np.int64)
    legal = [int(a) for a in acts[:S.search_actions(s, acts, ws.moves[0])]]
    most = worlds_for(s, samples, R.CLOSE in legal)
    total = S.world_count(s, player)
    exact = total <= most
    count = total if exact else most
    orders = 1 if exact or s[R.CLOSER] >= 0 or s[R.DRAWN] >= R.STOCK_SIZE else ORDERS_PER_HAND
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    table = []  # per world: {action: (mover, hand, [(reply, value)])}
    for w in range(count):
        if w % orders == 0:
            S.world_into(s, player, w, exact, rng, pool, world)
        else:
            face_down = list(range(R.STOCK + int(world[R.DRAWN]), R.STOCK + R.STOCK_SIZE - 1))
            for i in range(len(face_down) - 1, 0, -1):
                j = int(bounded(rng, i + 1))
                world[face_down[i]], world[face_down[j]] = world[face_down[j]], world[face_down[i]]
        row = {}
        for a in legal:
            child = world.copy()
            S.search_apply(child, a, ws.moves[0])
            if child[R.WINNER] >= 0:
                v = int(child[R.GAME_POINTS]) * (1 if child[R.WINNER] == player else -1)
                row[a] = (None, None, [(None, int(np.sign(v)) if package else v)])
                continue
            mover = int(child[R.TO_MOVE])
            replies = [int(r) for r in acts[:S.search_actions(child, acts, ws.moves[0])]]
            values = []
            for r in replies:
                grand = child.copy()
                S.search_apply(grand, r, ws.moves[0])
                values.append((r, value_of(grand, ws)))
            row[a] = (mover, int(child[R.HAND0 + mover]), values)
        table.append(row)

    def score(v):
        return v + WIN_WEIGHT * (v > 0)

    sums = dict.fromkeys(legal, 0.0)
    wins = dict.fromkeys(legal, 0.0)
    for a in legal:
        groups = {}
        for w, row in enumerate(table):
            groups.setdefault(row[a][:2], []).append(w)
        for (mover, _), members in groups.items():
            replies = table[members[0]][a][2]
            sign = 1 if mover in (None, player) else -1
            totals = [sign * sum(score(table[w][a][2][k][1]) for w in members) for k in range(len(replies))]
            k = totals.index(max(totals))
            for w in members:
                v = table[w][a][2][k][1]
                sums[a] += v
                wins[a] += v > 0
    return sums, wins, count


def check_against_twin(st: SchnapsenState, samples: int, seed: int, package: bool, value_of, ws) -> int:
    s = st.to_array()
    sums, wins, count = ep_twin(s, samples, state_from_seed(seed), package, value_of)
    n, worlds = ep_values(s, samples, state_from_seed(seed), ws, list_actions(s, ws))
    assert worlds == count, st.to_text()
    assert sorted(int(a) for a in ws.acts[:n]) == sorted(sums)
    for i, a in enumerate(ws.acts[:n]):
        assert (ws.sums[i], ws.wins[i]) == (sums[int(a)], wins[int(a)]), (st.to_text(), int(a))
    return worlds


def test_closed_stock_values_match_the_minimax_twin():
    """Closed stock, leads and follows (every world enumerated): each action's summed value and worlds won
    equal the twin's, whose replies are valued by full minimax of the plain-Python rules."""
    rnd = random.Random(83)
    ws = new_workspace(tt_bits=12)
    several = 0
    for i in range(10):
        st = random_ending(rnd, "closed")
        if i % 2 and not st.is_over:
            st.apply(rnd.choice(st.legal_actions()))
        if st.is_over or len(st.legal_actions()) < 2:
            continue
        several += check_against_twin(st, 4, i, False, minimax_for(st.to_move), ws) > 1
    assert several >= 3


@pytest.mark.parametrize("package", [False, True])
def test_open_stock_values_match_the_twin(package):
    """Four and six stock cards, leads and follows: sampled worlds in groups of stock orders (six) and
    enumerated ones (four), every reply valued by the solver; the same sums, wins and world counts."""
    rnd = random.Random(91 + package)
    ws = new_workspace(tt_bits=12, package_rules=package)
    positions = open_stock_positions(rnd, 4, 4) + open_stock_positions(rnd, 4, 6)
    for i, st in enumerate(positions):
        check_against_twin(st, 4, i, package, solver_for(st.to_move, package), ws)


def score_changes(positions, ws) -> dict:
    """Over every world enumerated, compare each action's summed score (points plus the win weight) under
    the two-ply values with PIMC's (the solver's value of the action in each world, every reply the best
    for its world), asserting that one reply chosen for the worlds the next mover cannot tell apart is
    never better for him. Returns how often the score changed, by whether the root player moves next."""
    changed = {True: 0, False: 0}
    for st in positions:
        s = st.to_array()
        n, _ = S.pimc_values(s, 10**6, state_from_seed(1), ws, list_actions(s, ws))
        pimc = {int(a): ws.sums[i] + WIN_WEIGHT * ws.wins[i] for i, a in enumerate(ws.acts[:n])}
        n, _ = ep_values(s, 1000, state_from_seed(1), ws, list_actions(s, ws))
        for i, a in enumerate(ws.acts[:n]):
            child = st.copy()
            child.apply(int(a))
            if child.is_over:
                continue
            ours = child.to_move == st.to_move
            ep = ws.sums[i] + WIN_WEIGHT * ws.wins[i]
            assert (ep <= pimc[int(a)] if ours else ep >= pimc[int(a)]), (st.to_text(), int(a))
            changed[ours] += ep != pimc[int(a)]
    return changed


def test_one_reply_for_worlds_alike_closed_stock():
    """Closed stock, the follower's decisions: the root player's next lead made once for the worlds he cannot
    tell apart lowers his score at some positions (2 of these 240: the fused strategy is no longer
    credited); the opponent, whose hand tells the worlds apart once nobody draws, keeps his best reply in
    each."""
    rnd = random.Random(29)
    positions = []
    for _ in range(240):
        st = random_ending(rnd, "closed")
        if not st.is_over:
            st.apply(rnd.choice(st.legal_actions()))
        if not st.is_over and len(st.legal_actions()) > 1:
            positions.append(st)
    changed = score_changes(positions, new_workspace(tt_bits=12))
    assert changed[True] > 0 and changed[False] == 0


def test_one_reply_for_worlds_alike_open_stock():
    """Four stock cards (every world enumerated: the opponent's hands by the orders of the three face-down
    cards): the opponent's reply chosen once for the stock orders raises the root player's score at some
    positions, as his own next decision lowers it."""
    changed = score_changes(open_stock_positions(random.Random(41), 6, 4), new_workspace(tt_bits=12))
    assert changed[True] > 0 and changed[False] > 0


def test_hybrid_ep_hands_its_solves_to_ep_values():
    """``hybrid_values`` with ``ep``: once the stock is closed, ``ep_values`` alone."""
    rnd = random.Random(67)
    ws = new_workspace(tt_bits=12)
    for _ in range(3):
        s = random_ending(rnd, "closed").to_array()
        n, worlds = ep_values(s, 3, state_from_seed(5), ws, list_actions(s, ws))
        expected = {int(a): (ws.sums[i], ws.wins[i]) for i, a in enumerate(ws.acts[:n])}
        n2, worlds2 = hybrid_values(s, 3, state_from_seed(5), ws, list_actions(s, ws), False, True)
        assert worlds2 == worlds
        assert {int(a): (ws.sums[i], ws.wins[i]) for i, a in enumerate(ws.acts[:n2])} == expected
