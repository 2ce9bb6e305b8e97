"""``rollout``: play-out values against a plain-Python twin (our rules and the package's), honesty, the
hand-over to ``pimc_plus`` once the stock is closed or exhausted, and strength."""

import random
from dataclasses import replace

import numpy as np
import pytest
from test_schnapsen_heuristic import redealt
from test_schnapsen_pimc_plus import package_child
from test_schnapsen_search import random_ending

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen import search as S
from analyzer.games.schnapsen.bots import OFF, HeuristicParams, heuristic_action
from analyzer.games.schnapsen.experiments import paired_deals, parse_bot
from analyzer.games.schnapsen.kernels import init_round, shuffle_deck
from analyzer.games.schnapsen.pimc_plus import plus_pick, plus_values
from analyzer.games.schnapsen.rollout_bot import (
    PLAYOUTS_PER_SAMPLE,
    play_out_value,
    rollout_bot_action,
    rollout_bot_values,
    rollout_pick,
)
from analyzer.games.schnapsen.search import list_actions, new_workspace
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.reports.stats import mean_interval


def twin_play_out(st: SchnapsenState, player: int, package: bool, ws: S.Workspace, led_kings: list) -> int:
    """Plain-Python play-out: the heuristic in both seats (never closing, king-led marriages and marriage
    points only with a trick under the package's rules) until the stock is exhausted at a trick's
    start, then the exact value; ``player``'s signed game points. Counts in ``led_kings[0]`` the queen-led
    marriages turned into king-led ones."""
    params = replace(HeuristicParams.playout(), close_points=OFF if package else 0).to_array()
    buf = np.zeros(16, dtype=np.int64)
    while not st.is_over:
        if not st.stock and st.closer < 0 and st.lead_card < 0:
            v = int(S.solve_value(st.to_array(), ws.stack, ws.moves, ws.tt, ws.gen))
            return v if player == 0 else -v
        a = int(heuristic_action(st.to_array(), params, buf))
        if package and R.MARRIAGE_OFFSET <= a < R.EXCHANGE and a % 5 == R.QUEEN:
            a += 1
            led_kings[0] += 1
        st = package_child(st, a) if package else child_of(st, a)
    return st.game_points if st.winner == player else -st.game_points


def child_of(st: SchnapsenState, a: int) -> SchnapsenState:
    """A copy of ``st`` after action ``a``."""
    child = st.copy()
    child.apply(a)
    return child


def open_stock_position(rnd: random.Random, stock: int) -> SchnapsenState:
    """Random play (never closing) from a random deal to a trick's start with ``stock`` cards left."""
    while True:
        order = list(range(R.N_CARDS))
        rnd.shuffle(order)
        st = SchnapsenState.deal(order, dealer=rnd.randrange(2))
        while not st.is_over and len(st.stock) >= stock:
            if len(st.stock) == stock and st.lead_card < 0 and st.to_move == st.leader:
                return st
            st.apply(rnd.choice([a for a in st.legal_actions() if a != R.CLOSE]))


@pytest.mark.parametrize("package", [False, True])
def test_rollout_values_match_a_plain_python_twin(package):
    """Positions with two or four stock cards left, where every world is enumerated (4: up to
    C(8, 5) * 3! = 336 worlds): summed play-out values and worlds won, action by action, equal the
    twin's over the same worlds."""
    rnd = random.Random(31 + package)
    ws = new_workspace(tt_bits=12, package_rules=package)
    twin_ws = S.new_workspace(tt_bits=12, package_rules=package)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    rng = state_from_seed(1)
    samples = 336 // PLAYOUTS_PER_SAMPLE + 1
    led_kings = [0]
    for stock in (2, 2, 4, 4):
        st = open_stock_position(rnd, stock)
        s = st.to_array()
        p = st.to_move
        n, worlds = rollout_bot_values(s, samples, rng, ws, list_actions(s, ws))
        assert worlds == S.world_count(s, p) <= samples * PLAYOUTS_PER_SAMPLE
        sums = np.zeros(n)
        wins = np.zeros(n)
        for w in range(worlds):
            S.world_at(s, p, w, pool, world)
            base = SchnapsenState.from_array(world)
            for i, a in enumerate(ws.acts[:n]):
                child = package_child(base, int(a)) if package else child_of(base, int(a))
                v = twin_play_out(child, p, package, twin_ws, led_kings)
                v = (1 if v > 0 else -1) if package else v
                sums[i] += v
                wins[i] += v > 0
        np.testing.assert_array_equal(ws.sums[:n], sums, err_msg=st.to_text())
        np.testing.assert_array_equal(ws.wins[:n], wins, err_msg=st.to_text())
        assert (R.CLOSE in ws.acts[:n]) != package
    assert led_kings[0] > 0 or not package


def test_package_play_outs_lead_the_marriage_with_the_king():
    """Spades trump, stock DA SJ, 40 to 51. The heuristic leads the hearts marriage with the queen; by
    the package's rules it is led with the king, HA takes 11 + 4 and the opponent reaches 66: a lost
    deal. Led with the queen he would reach only 65, and the leader's trumps and CA would take the
    last five tricks."""
    st = SchnapsenState.from_text("hand0=HQ HK SA ST CA; hand1=HA DJ DQ CJ CQ; stock=DA SJ; leader=0; "
                                  "points=40,51; tricks=2,2")
    s = st.to_array()
    params = replace(HeuristicParams.playout(), close_points=OFF).to_array()
    buf = np.zeros(16, dtype=np.int64)
    assert heuristic_action(s, params, buf) == R.MARRIAGE_OFFSET + R.parse_card("HQ")
    ws = new_workspace(tt_bits=12, package_rules=True)
    assert play_out_value(s, 0, params, True, buf, ws.stack, ws.moves, ws.tt, ws.gen) < 0


def check_decides_only_from_what_its_player_sees(bot_action, deals: int, first_deal_seed: int, rnd_seed: int) -> int:
    """Positions from heuristic play with the stock open: dealing the cards the player to move cannot
    see differently never changes ``bot_action(s, rng, ws)``, given the same random state. Returns the
    positions checked."""
    rnd = np.random.default_rng(rnd_seed)
    ws = new_workspace(tt_bits=12)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    params = HeuristicParams().to_array()
    buf = np.zeros(16, dtype=np.int64)
    positions = 0
    for deal in range(deals):
        shuffle_deck(state_from_seed(first_deal_seed + deal), deck)
        init_round(deck, deal % 2, s)
        st = SchnapsenState.from_array(s)
        while not st.is_over and st.stock and st.closer < 0:
            rng = state_from_seed(deal)
            action = int(bot_action(st.to_array(), rng.copy(), ws))
            for world in redealt(st, st.to_move, rnd, 3):
                assert int(bot_action(world.to_array(), rng.copy(), ws)) == action, st.to_text()
            positions += 1
            st.apply(int(heuristic_action(st.to_array(), params, buf)))
    return positions


def test_rollout_decides_only_from_what_its_player_sees():
    positions = check_decides_only_from_what_its_player_sees(
        lambda s, rng, ws: rollout_bot_action(s, 1, rng, ws), 8, 100, 14)
    assert positions > 30


@pytest.mark.parametrize("kind", ["closed", "exhausted"])
def test_rollout_decides_as_pimc_plus_once_the_stock_is_closed_or_exhausted(kind):
    rnd = random.Random(41)
    ws = new_workspace(tt_bits=12)
    for _ in range(5):
        s = random_ending(rnd, kind).to_array()
        n, worlds = rollout_bot_values(s, 3, state_from_seed(2), ws, list_actions(s, ws))
        acts, sums, wins = ws.acts[:n].copy(), ws.sums[:n].copy(), ws.wins[:n].copy()
        assert (n, worlds) == plus_values(s, 3, state_from_seed(2), ws, list_actions(s, ws))
        np.testing.assert_array_equal(acts, ws.acts[:n])
        np.testing.assert_array_equal(sums, ws.sums[:n])
        np.testing.assert_array_equal(wins, ws.wins[:n])


def test_rollout_closes_on_its_score_alone():
    """Closing wins 8 of 10 worlds for 1.0 game points a world, playing on 10 of 10 for 0.5: closing scores
    1.0 + 0.8 against 0.5 + 1.0. ``rollout`` closes; ``pimc_plus``, which wants 90% of worlds won, does not."""
    acts = np.array([R.CLOSE, 3], dtype=np.int64)
    sums = np.array([10.0, 5.0])
    wins = np.array([8.0, 10.0])
    allowed = np.ones(2, dtype=np.bool_)
    assert rollout_pick(acts, sums, wins, 2, 10, allowed, 1.0) == 0
    assert plus_pick(acts, sums, wins, 2, 10, allowed, 1.0) == 1


def test_bot_names():
    assert parse_bot("rollout").label == "rollout"
    assert parse_bot("ROLLOUT:3").label == "rollout:3"


def test_rollout_beats_heuristic_small():
    rows = paired_deals(parse_bot("rollout:1"), parse_bot("heuristic"), 24, seed=5)
    assert rows["a_gp"].mean() > 0


@pytest.mark.slow
def test_rollout_beats_pimc_per_deal():
    mean, lo, hi = mean_interval(paired_deals(parse_bot("rollout"), parse_bot("pimc"), 400, seed=32)["a_gp"])
    assert lo > 0, (mean, lo, hi)
