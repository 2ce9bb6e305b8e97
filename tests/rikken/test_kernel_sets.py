"""Rikken's kernel sets (``kernels.kernels_for``): a table of fewer bots compiles only them and plays as the
kernels with every bot compiled in."""

import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import kernels
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.rules import EXPOSURE, KIND

from .test_contract_invariants import as_arrays, random_setups


def test_a_table_of_heuristic_and_random_seats_compiles_no_expert_and_plays_as_every_bot():
    heuristic = kernels.kernels_for([kernels.POLICY_HEURISTIC, kernels.POLICY_RANDOM])
    switches = heuristic.play_round.py_func.__globals__
    assert switches["_WITH_HEURISTIC"] and not switches["_WITH_EXPERT"]
    arrays = as_arrays(random_setups(40, 17))
    seats = np.tile(np.array([1, 0, 1, 0], dtype=np.int64), (40, 1))
    from_set = np.zeros((40, 4), dtype=np.int64)
    kernels.playout_batch(**arrays, policy_of_seat=seats, params=default_params(), rng_state=state_from_seed(4),
                          tricks_out=from_set)
    every = np.zeros((40, 4), dtype=np.int64)
    kernels._EVERY._playout_kernel(*(arrays[key] for key in ("hands", "leader", "contract_of", "partner", "trump",
                                                             "called_card", "blind")),
                                   seats, default_params(), state_from_seed(4), KIND, EXPOSURE, every)
    np.testing.assert_array_equal(from_set, every)
