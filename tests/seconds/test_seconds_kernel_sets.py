"""A kernel set compiled for one rule and parameter set plays exactly as the kernels that decide the
heuristic's suit floor at every card (``play.kernels_for``)."""

import numpy as np
import pytest

from analyzer.games.seconds import play
from analyzer.games.seconds.policies import POLICY_HEURISTIC, POLICY_RANDOM, params_array
from analyzer.games.seconds.rules import SecondsRules


@pytest.mark.parametrize("minimum, suit_floor", [("per-suit", 1.0), ("per-suit", 0.0), ("per-hand", 1.0)])
def test_a_set_made_for_the_rules_plays_as_the_heuristic_deciding_at_each_card(minimum, suit_floor, monkeypatch):
    rules = SecondsRules(n_players=4, minimum=minimum)
    params = params_array(4, suit_floor=suit_floor)
    seats = [POLICY_HEURISTIC, POLICY_RANDOM, POLICY_HEURISTIC, POLICY_HEURISTIC]
    made = play.simulate_games(40, seats, rules, 11, params)
    # The same policies with the floor decided at each card, as the kernels scripts call directly decide it.
    general = play.kernels_for
    monkeypatch.setattr(play, "kernels_for", lambda policies, minimum=None, params=None: general(policies))
    deciding = play.simulate_games(40, seats, rules, 11, params)
    for key in ("totals", "n_deals", "winner"):
        np.testing.assert_array_equal(made[key], deciding[key])
