"""Large-N checks of the Sloppy Seconds policies and rule statistics (run with ``pytest -m slow``)."""

import numpy as np
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.games.seconds.play import simulate_deals
from analyzer.games.seconds.policies import POLICY_HEURISTIC, POLICY_RANDOM, POLICY_SAMPLING, params_array
from analyzer.games.seconds.rules import SecondsRules
from analyzer.reports.stats import paired_difference

pytestmark = pytest.mark.slow


def seat_swap_difference(n_deals, strong, weak, params=None, seed=0, n_players=4):
    """Mean deal score per seat of ``strong`` minus ``weak`` (alternating seats), each deal played twice with
    the seats swapped."""
    rules = SecondsRules(n_players=n_players)
    deals = deal_random(n_deals, seed, n_players, rules.deck)
    leaders = np.arange(n_deals) % n_players
    even = np.arange(n_players) % 2 == 0
    first = simulate_deals(deals, leaders, np.where(even, strong, weak), rules, seed + 1, params)["scores"]
    second = simulate_deals(deals, leaders, np.where(even, weak, strong), rules, seed + 1, params)["scores"]
    strong_scores = (first[:, even].mean(axis=1) + second[:, ~even].mean(axis=1)) / 2
    weak_scores = (first[:, ~even].mean(axis=1) + second[:, even].mean(axis=1)) / 2
    return paired_difference(strong_scores, weak_scores)


@pytest.mark.parametrize(("n_players", "margin"), [(3, 6.0), (4, 4.0), (6, 1.0)])
def test_heuristic_beats_random(n_players, margin):
    # Measured on these deals: +9.9, +6.3 and +1.8 points per deal (3, 4, 6 players; +8.1 and +5.6 with 3
    # and 4 before the per-suit floor left their values); the margins leave room for retuning but catch a
    # heuristic that has lost its edge.
    mean, low, _ = seat_swap_difference(20_000, POLICY_HEURISTIC, POLICY_RANDOM, params_array(n_players),
                                        n_players=n_players)
    assert low > margin, mean


def test_sampling_beats_heuristic():
    mean, low, _ = seat_swap_difference(150, POLICY_SAMPLING, POLICY_HEURISTIC, params_array(n_samples=6))
    assert low > 0, mean


def test_random_play_trump_statistics():
    # Seed rule: trick 1 (index 0) never makes trump. Original rule: trump needs a second broken suit,
    # which under random play takes clearly longer on average than the first off-suit card from trick 2
    # on (random play draws the same cards under both rules until the trumps differ).
    deals = deal_random(20_000, 5, 4)
    leaders = np.zeros(20_000, np.int64)
    seed_out = simulate_deals(deals, leaders, [POLICY_RANDOM] * 4, SecondsRules(4, trump="seed"), 6)
    orig_out = simulate_deals(deals, leaders, [POLICY_RANDOM] * 4, SecondsRules(4, trump="original"), 6)
    assert (seed_out["trump_trick"] != 0).all()
    appeared_seed = seed_out["trump_trick"][seed_out["trump_trick"] >= 0]
    appeared_orig = orig_out["trump_trick"][orig_out["trump_trick"] >= 0]
    assert appeared_orig.mean() > appeared_seed.mean() + 0.5
