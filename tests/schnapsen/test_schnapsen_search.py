"""``perfect`` search against a plain-Python brute-force minimax, and PIMC sampling consistency."""

import random

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen import search as S
from analyzer.games.schnapsen.state import SchnapsenState


def brute_force(st: SchnapsenState) -> int:
    """Game points for player 0 under optimal play by both, by full minimax (no pruning, no table)."""
    if st.is_over:
        return st.game_points if st.winner == 0 else -st.game_points
    values = []
    for a in st.legal_actions():
        child = st.copy()
        child.apply(a)
        values.append(brute_force(child))
    return max(values) if st.to_move == 0 else min(values)


def random_ending(rnd: random.Random, kind: str) -> SchnapsenState:
    """Play random moves from a random deal until a small ending of the requested kind is reached."""
    while True:
        order = list(range(R.N_CARDS))
        rnd.shuffle(order)
        st = SchnapsenState.deal(order, dealer=rnd.randrange(2))
        while not st.is_over:
            at_start = st.lead_card < 0 and st.to_move == st.leader
            if kind == "exhausted" and at_start and not st.stock and st.closer < 0 and len(R.cards_of(st.hands[0])) <= 4:
                return st
            if kind == "closed" and at_start and st.closer >= 0 and len(R.cards_of(st.hands[st.leader])) <= 4:
                return st
            if kind == "last-stock" and at_start and len(st.stock) == 2 and st.closer < 0:
                return st
            legal = st.legal_actions()
            if kind != "closed":
                legal = [a for a in legal if a != R.CLOSE] or legal
            st.apply(rnd.choice(legal))


@pytest.mark.parametrize("kind,count,seed", [("exhausted", 25, 11), ("closed", 25, 12), ("last-stock", 6, 13)])
def test_perfect_matches_brute_force(kind, count, seed):
    """The search's exact value of each ending, and of each action in it, equals full minimax."""
    rnd = random.Random(seed)
    ws = S.new_workspace(tt_bits=12)
    acts = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    for _ in range(count):
        st = random_ending(rnd, kind)
        s = st.to_array()
        assert S.solve_value(s, ws.stack, ws.moves, ws.tt, ws.gen) == brute_force(st), st.to_text()
        # per-action values agree with the brute force of each child, from the mover's side
        n = S.perfect_values(s, ws.stack, ws.moves, ws.tt, ws.gen, acts, vals)
        sign = 1 if st.to_move == 0 else -1
        for a, v in zip(acts[:n], vals[:n]):
            child = st.copy()
            child.apply(int(a))
            assert v == sign * brute_force(child)
            assert_bounds_hold(child, sign * v)


def assert_bounds_hold(st: SchnapsenState, value: int):
    """The search prunes with each player's best case: it may not be below what he can still score."""
    if not st.is_over:
        s = st.to_array()
        assert -S._best_case(s, 1) <= value <= S._best_case(s, 0), st.to_text()


def test_best_case_allows_the_closers_three_points():
    """Player 0 closed when player 1 had no trick; leading HA (player 1 holds no heart) makes
    55 + 11 + 2 >= 66, which scores 3: the bound must let player 0 reach 3, and the search finds it."""
    st = SchnapsenState.from_text("hand0=HA HT; hand1=SJ DJ; stock=CJ HJ; leader=0; points=55,0; tricks=3,0; "
                                  "closed=0,0,0")
    ws = S.new_workspace(tt_bits=8)
    value = S.solve_value(st.to_array(), ws.stack, ws.moves, ws.tt, ws.gen)
    assert value == brute_force(st) == 3
    assert_bounds_hold(st, value)


def test_sampled_worlds_keep_what_the_player_saw():
    rnd = random.Random(5)
    rng = state_from_seed(9)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    for _ in range(30):
        st = random_ending(rnd, "last-stock")
        s = st.to_array()
        p = st.to_move
        seen_opp_hands = set()
        for _ in range(20):
            S.sample_world(s, p, rng, pool, world)
            w = SchnapsenState.from_array(world)
            assert w.hands[p] == st.hands[p] and w.played == st.played
            assert w.stock[-1] == st.stock[-1]  # the face-up card stays put
            assert w.shown[1 - p] & ~w.hands[1 - p] == 0  # shown cards stay with the opponent
            assert len(R.cards_of(w.hands[1 - p])) == len(R.cards_of(st.hands[1 - p]))
            assert sorted(R.cards_of(w.hands[1 - p]) + w.stock) == sorted(R.cards_of(st.hands[1 - p]) + st.stock)
            seen_opp_hands.add(w.hands[1 - p])
        assert len(seen_opp_hands) > 1  # hidden cards really are resampled


def test_copy_state_copies_a_state_into_a_row_and_nothing_else():
    """The kernels' element-wise state copy (it replaces ``dst[:] = src`` for compile cost) against numpy's
    slice copy: into a row of a stack and into a lone state, the other rows untouched."""
    from analyzer.games.schnapsen.kernels import copy_state

    rng = np.random.default_rng(20261206)
    src = rng.integers(-(2 ** 40), 2 ** 40, size=R.STATE_SIZE, dtype=np.int64)
    stack = rng.integers(0, 9, size=(3, R.STATE_SIZE), dtype=np.int64)
    expected = stack.copy()
    expected[1, :] = src
    copy_state(stack[1], src)
    assert np.array_equal(stack, expected)
    lone = np.zeros(R.STATE_SIZE, dtype=np.int64)
    copy_state(lone, src)
    assert np.array_equal(lone, src)
