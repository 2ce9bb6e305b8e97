"""Bummerl accounting of the match kernel against a plain-Python replay on the same deals."""

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.kernels import shuffle_deck
from analyzer.games.schnapsen.play import HEURISTIC, PIMC, RANDOM, kernels_for, play_match
from analyzer.games.schnapsen.search import new_workspace
from analyzer.games.schnapsen.state import SchnapsenState


def python_bummerl(seed, params_a, params_b):
    """Both start at 7; each deal's winner counts down by his game points; first to 0 wins. Also counts
    each seat's closings and the closings its closer won.

    Deals come from the same shuffles as the kernel, dealt and played by the Python state (the
    heuristic picks actions, the Python engine applies them); the dealer alternates, starting with 1.
    """
    rng = state_from_seed(seed)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    buf = np.zeros(16, dtype=np.int64)
    params = [params_a.to_array(), params_b.to_array()]
    left = [7, 7]
    gp = [0, 0]
    closes = [0, 0]
    close_wins = [0, 0]
    deals = 0
    dealer = 1
    while min(left) > 0:
        shuffle_deck(rng, deck)
        st = SchnapsenState.deal(deck.tolist(), dealer)
        while not st.is_over:
            st.apply(int(heuristic_action(st.to_array(), params[st.to_move], buf)))
        left[st.winner] -= st.game_points
        gp[st.winner] += st.game_points
        if st.closer >= 0:  # a closing is won when the closer wins the deal
            closes[st.closer] += 1
            close_wins[st.closer] += st.winner == st.closer
        deals += 1
        dealer = 1 - dealer
    return (0 if left[0] <= 0 else 1), deals, gp[0], gp[1], closes[0], closes[1], close_wins[0], close_wins[1]


def test_match_kernel_matches_python_bummerl():
    a = HeuristicParams()
    b = HeuristicParams(close_points=30, close_trumps=2, trump_min=4)
    ws = new_workspace(tt_bits=10)
    policy = np.array([HEURISTIC, HEURISTIC], dtype=np.int64)
    samples = np.array([1, 1], dtype=np.int64)
    hparams = np.stack([a.to_array(), b.to_array()])
    outcomes = set()
    closings = 0
    for seed in range(12):
        got = play_match(policy, samples, hparams, state_from_seed(seed), state_from_seed(99), 1, ws)
        want = python_bummerl(seed, a, b)
        assert tuple(int(x) for x in got) == want
        assert want[2 + want[0]] >= 7 > want[3 - want[0]]  # the winner counted 7 down to 0
        outcomes.add(want[0])
        closings += want[4] + want[5]
    assert outcomes == {0, 1}
    assert closings > 0  # variant b closes with 30 points and 2 trumps: the closing counts are exercised


def test_heuristic_kernel_set_plays_the_python_bummerl():
    # what `schnapsen match` compiles for heuristic against random: the same Bummerls as the Python replay
    a = HeuristicParams()
    b = HeuristicParams(close_points=30, close_trumps=2, trump_min=4)
    ws = new_workspace(tt_bits=10)
    light = kernels_for((HEURISTIC, RANDOM))
    hparams = np.stack([a.to_array(), b.to_array()])
    for seed in range(4):
        got = light.play_match(np.array([HEURISTIC, HEURISTIC]), np.ones(2, dtype=np.int64), hparams,
                               state_from_seed(seed), state_from_seed(99), 1, ws)
        assert tuple(int(x) for x in got) == python_bummerl(seed, a, b)


def test_a_kernel_set_leaves_out_the_bots_it_was_not_made_for():
    # the search bots are pruned from the heuristic-and-random set (that is what makes its first run cheap)
    light = kernels_for((HEURISTIC, RANDOM))
    s = SchnapsenState.deal(list(range(R.N_CARDS)), 1).to_array()
    ws = new_workspace(tt_bits=10)
    hparams = HeuristicParams().to_array()
    assert light.choose_action(s, HEURISTIC, 1, hparams, state_from_seed(1), ws) >= 0
    with pytest.raises(ValueError, match="not compiled for"):
        light.choose_action(s, PIMC, 1, hparams, state_from_seed(1), ws)


def test_every_bot_has_a_switch_in_the_kernel_sets():
    # a bot registered without its switch would be compiled into every set, or dispatched nowhere
    from analyzer.games.schnapsen.play import _SWITCHES, POLICIES

    assert sorted(_SWITCHES.values()) == sorted(POLICIES.values())


def test_kernel_set_names_cannot_read_two_ways():
    # numba caches a set under its name: every set of bots needs its own
    from itertools import combinations

    from analyzer.games.kernel_sets import set_label
    from analyzer.games.schnapsen.play import POLICIES

    ids = sorted(POLICIES.values())
    subsets = [frozenset(c) for k in range(1, len(ids) + 1) for c in combinations(ids, k)]
    assert len({set_label(s) for s in subsets}) == len(subsets)


def test_a_match_asks_the_cache_for_its_own_bots_kernel(monkeypatch):
    # any other kernel of the package in the cache must not stand for the pair's (the workers would compile it)
    import analyzer.games.schnapsen.experiments as experiments
    from analyzer.games.schnapsen.experiments import MATCH, match_plan

    asked = []
    monkeypatch.setattr(experiments, "kernel_cached", lambda kernel: asked.append(kernel) or False)
    plan = match_plan(("heuristic", "random"), 2, 12, 0, 1)
    assert MATCH.compiled(plan.params) is False
    assert asked == [kernels_for((HEURISTIC, RANDOM)).play_match]
