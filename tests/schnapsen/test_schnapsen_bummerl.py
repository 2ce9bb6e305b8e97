"""Bummerl-aware values: the win-chance table against closed forms, the utility's boundaries worked by
hand, the bots' sums against their twins inside a Bummerl, and the match kernel handing the score on."""

import random
from math import comb

import numpy as np
import pytest
from test_schnapsen_pimc_plus import open_stock_positions, staged_twin
from test_schnapsen_rollout_bot import child_of, open_stock_position, twin_play_out

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen import search as S
from analyzer.games.schnapsen.bots import HeuristicParams
from analyzer.games.schnapsen.bummerl import DEAL_POINT_SHARES, bummerl_win_chances, deal_utility
from analyzer.games.schnapsen.kernels import apply_action, init_round, shuffle_deck
from analyzer.games.schnapsen.pimc_plus import plus_values
from analyzer.games.schnapsen.play import HEURISTIC, PIMC_PLUS, choose_action, play_match
from analyzer.games.schnapsen.rollout_bot import PLAYOUTS_PER_SAMPLE, rollout_bot_values
from analyzer.games.schnapsen.search import list_actions, new_workspace
from analyzer.games.schnapsen.state import SchnapsenState

TABLE = bummerl_win_chances()


def python_utility(mine: int, theirs: int, v: int) -> float:
    """The chance to win the Bummerl after a deal ending ``v`` for a player needing ``mine`` points
    against ``theirs``: certain once his count reaches 0, lost once the opponent's does."""
    if v > 0:
        return 1.0 if mine - v <= 0 else float(TABLE[mine - v, theirs])
    return 0.0 if theirs + v <= 0 else float(TABLE[mine, theirs + v])


def test_one_point_deals_follow_the_negative_binomial():
    """With every deal worth one point, the player needing a wins if he takes a deals before losing b:
    sum over k < b of C(a - 1 + k, k) / 2**(a + k)."""
    table = bummerl_win_chances((1.0, 0.0, 0.0))
    for a in range(1, 8):
        for b in range(1, 8):
            want = sum(comb(a - 1 + k, k) / 2 ** (a + k) for k in range(b))
            assert table[a, b] == pytest.approx(want, abs=1e-12), (a, b)


def test_win_chances_by_hand_and_by_symmetry():
    """1:1 is a coin flip; at 1:2 the player needing one wins the next deal (1/2) or loses it by one
    point (1/2 x q1) and then flips again: 1/2 + q1/4. Either player's chances add up to 1."""
    q1 = DEAL_POINT_SHARES[0]
    assert TABLE[1, 1] == pytest.approx(0.5)
    assert TABLE[1, 2] == pytest.approx(0.5 + q1 / 4)
    assert TABLE[7, 7] == pytest.approx(0.5)
    for a in range(1, 8):
        for b in range(1, 8):
            assert TABLE[a, b] + TABLE[b, a] == pytest.approx(1.0), (a, b)
            if b < 7:
                assert TABLE[a, b] < TABLE[a, b + 1]  # a farther opponent is never worse


@pytest.mark.parametrize("mine,theirs,v,want", [
    (0, 0, 3, 3.0),              # outside a Bummerl: the game points themselves
    (0, 0, -2, -2.0),
    (2, 5, 2, 1.0),              # exactly the two points needed: the Bummerl is won
    (3, 5, 2, TABLE[1, 5]),      # one point short
    (1, 4, 3, 1.0),              # a Schneider is worth no more than a plain win
    (4, 1, -1, 0.0),             # the opponent needed one point
    (4, 3, -3, 0.0),             # exactly the opponent's three
    (4, 3, -2, TABLE[4, 1]),
])
def test_deal_utility_boundaries(mine, theirs, v, want):
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    s[R.TO_GO0 + 1] = mine
    s[R.TO_GO0] = theirs
    assert deal_utility(s, 1, v) == pytest.approx(want)
    if mine:
        assert python_utility(mine, theirs, v) == pytest.approx(want)


def with_score(st: SchnapsenState, mine: int, theirs: int) -> np.ndarray:
    """``st`` as an array whose player to move needs ``mine`` points and his opponent ``theirs``."""
    s = st.to_array()
    s[R.TO_GO0 + st.to_move] = mine
    s[R.TO_GO0 + 1 - st.to_move] = theirs
    return s


@pytest.mark.parametrize("mine,theirs", [(1, 1), (3, 2), (6, 2)])
def test_pimc_plus_sums_bummerl_chances(mine, theirs):
    """Inside a Bummerl ``plus_values`` sums each world's chance of winning the Bummerl (its twin maps
    the same worlds' game points through the table) and still counts the worlds won."""
    rnd = random.Random(51 + mine)
    ws = new_workspace(tt_bits=14)
    for i, st in enumerate(open_stock_positions(rnd, 6, 4)):
        s = with_score(st, mine, theirs)
        twin_sums, twin_wins, twin_worlds, _ = staged_twin(s, 8, state_from_seed(i), False,
                                                           lambda v: python_utility(mine, theirs, v))
        n, worlds = plus_values(s, 8, state_from_seed(i), ws, list_actions(s, ws))
        assert worlds == twin_worlds
        for a, total, won in zip(ws.acts[:n], ws.sums[:n], ws.wins[:n]):
            assert total == pytest.approx(twin_sums[int(a)]), (st.to_text(), int(a))
            assert won == twin_wins[int(a)]


def test_rollout_sums_bummerl_chances():
    """``rollout``'s play-out values inside a Bummerl (2 stock cards, every world enumerated) are its
    twin's play-outs mapped through the table."""
    rnd = random.Random(57)
    ws = new_workspace(tt_bits=12)
    twin_ws = S.new_workspace(tt_bits=12)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    for mine, theirs in ((2, 1), (5, 3)):
        st = open_stock_position(rnd, 2)
        s = with_score(st, mine, theirs)
        p = st.to_move
        n, worlds = rollout_bot_values(s, 336 // PLAYOUTS_PER_SAMPLE + 1, state_from_seed(1), ws, list_actions(s, ws))
        assert worlds == S.world_count(s, p)
        sums = np.zeros(n)
        for w in range(worlds):
            S.world_at(s, p, w, pool, world)
            base = SchnapsenState.from_array(world)
            for i, a in enumerate(ws.acts[:n]):
                sums[i] += python_utility(mine, theirs, twin_play_out(child_of(base, int(a)), p, False, twin_ws, [0]))
        np.testing.assert_allclose(ws.sums[:n], sums, err_msg=st.to_text())


def test_match_kernel_hands_the_score_to_the_bots():
    """``play_match`` with ``pimc_plus`` against the heuristic equals a Python loop that deals the same
    cards, writes both players' points to go into each deal's state and asks the same bots."""
    ws = new_workspace(tt_bits=14)
    policy = np.array([PIMC_PLUS, HEURISTIC], dtype=np.int64)
    samples = np.array([2, 1], dtype=np.int64)
    hparams = np.stack([HeuristicParams().to_array()] * 2)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    for seed in range(3):
        got = play_match(policy, samples, hparams, state_from_seed(seed), state_from_seed(50 + seed), 1, ws)
        deal_rng, bot_rng = state_from_seed(seed), state_from_seed(50 + seed)
        left = [R.MATCH_POINTS, R.MATCH_POINTS]
        gp = [0, 0]
        dealer = 1
        deals = 0
        while min(left) > 0:
            shuffle_deck(deal_rng, deck)
            init_round(deck, dealer, s)
            s[R.TO_GO0:R.TO_GO0 + 2] = left
            while s[R.WINNER] < 0:
                p = int(s[R.TO_MOVE])
                apply_action(s, choose_action(s, policy[p], samples[p], hparams[p], bot_rng, ws))
            left[int(s[R.WINNER])] -= int(s[R.GAME_POINTS])
            gp[int(s[R.WINNER])] += int(s[R.GAME_POINTS])
            dealer = 1 - dealer
            deals += 1
        assert tuple(int(x) for x in got[:4]) == (0 if left[0] <= 0 else 1, deals, gp[0], gp[1]), seed
