"""Engine contract over many random games: both engines agree step by step and the invariants hold."""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis.strategies import integers as st_int
from schnapsen_helpers import KernelEngine

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.state import SchnapsenState


def marriage_total(history, trump):
    return sum(R.marriage_value(a - R.MARRIAGE_OFFSET, trump) for a in history
               if R.MARRIAGE_OFFSET <= a < R.EXCHANGE)


def check_invariants(st: SchnapsenState, legal):
    # Cards conserved: hands, stock and played cards partition the pack.
    parts = [st.hands[0], st.hands[1], R.mask_of(st.stock), st.played]
    assert sum(m.bit_count() for m in parts) == R.N_CARDS
    assert parts[0] | parts[1] | parts[2] | parts[3] == R.FULL_MASK
    # Points: every completed trick's card points plus announced marriages, nothing else.
    table = st.lead_card if st.lead_card >= 0 else None
    trick_points = sum(int(R.CARD_POINTS[c]) for c in R.cards_of(st.played) if c != table)
    assert sum(st.points) + sum(st.pending) == trick_points + marriage_total(st.history, st.trump)
    if not st.is_over:
        hand = st.hands[st.to_move]
        assert legal, "a running deal always has a legal action"
        for a in legal:
            if a < R.EXCHANGE:
                assert (hand >> (a % R.MARRIAGE_OFFSET)) & 1, "legal cards come from the hand"


def test_engines_agree_over_random_games():
    rnd = random.Random(20261129)
    full_games = 0
    closed_games = 0
    for game in range(400):
        order = list(range(R.N_CARDS))
        rnd.shuffle(order)
        st = SchnapsenState.deal(order, dealer=game % 2)
        ke = KernelEngine(st)
        while not st.is_over:
            legal = st.legal_actions()
            assert ke.legal_actions() == legal
            check_invariants(st, legal)
            action = rnd.choice(legal)
            st.apply(action)
            ke.apply(action)
            assert ke.s.tolist() == st.to_array().tolist()
        check_invariants(st, [])
        assert st.game_points in (1, 2, 3)
        if st.hands == [0, 0] and st.closer < 0:
            full_games += 1
            # All ten tricks played: the 120 card points of the pack were all won.
            assert sum(st.points) + sum(st.pending) - marriage_total(st.history, st.trump) == 120
        closed_games += st.closer >= 0
    assert full_games > 0 and closed_games > 0  # the random games reached both kinds of ending


def test_kernel_deal_matches_python_deal():
    rnd = random.Random(7)
    for dealer in (0, 1):
        order = list(range(R.N_CARDS))
        rnd.shuffle(order)
        from analyzer.games.schnapsen import kernels as K
        s = np.zeros(R.STATE_SIZE, dtype=np.int64)
        K.init_round(np.array(order, dtype=np.int64), dealer, s)
        assert s.tolist() == SchnapsenState.deal(order, dealer).to_array().tolist()


@settings(max_examples=60, deadline=None)
@given(seed=st_int(min_value=0, max_value=2**32 - 1), steps=st_int(min_value=0, max_value=30))
def test_notation_round_trip_on_random_positions(seed, steps):
    """A running position written as text and parsed back is the same position."""
    rnd = random.Random(seed)
    order = list(range(R.N_CARDS))
    rnd.shuffle(order)
    st = SchnapsenState.deal(order, dealer=seed % 2)
    for _ in range(steps):
        # stop one action short of the end of the deal: the position must still be running
        after = st.copy()
        after.apply(rnd.choice(st.legal_actions()))
        if after.is_over:
            break
        st = after
    again = SchnapsenState.from_text(st.to_text())
    assert again.to_array().tolist() == st.to_array().tolist()
    assert again.legal_actions() == st.legal_actions()


def test_heuristic_only_picks_legal_actions():
    from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action

    rnd = random.Random(17)
    buf = np.zeros(16, dtype=np.int64)
    variants = [HeuristicParams(), HeuristicParams(close_points=0, close_trumps=0, close_high_trumps=0,
                                                   win_with_high=0, trump_min=0, keep_marriage=0)]
    for game in range(200):
        order = list(range(R.N_CARDS))
        rnd.shuffle(order)
        st = SchnapsenState.deal(order, dealer=game % 2)
        params = variants[game % 2].to_array()
        while not st.is_over:
            choice = int(heuristic_action(st.to_array(), params, buf))
            assert choice in st.legal_actions(), st.to_text()
            # mix in random moves so the heuristic meets positions it would not steer into
            st.apply(choice if rnd.random() < 0.5 else rnd.choice(st.legal_actions()))
