"""The Rikken bot registry: one entry per bot, the one dispatch of a table, the command's choices from it."""

import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from analyzer.cards.rng import state_from_seed
from analyzer.cli.app import app
from analyzer.cli.rikken import Policy, policies_from_options
from analyzer.errors import InputError
from analyzer.games.rikken import bots, kernels
from analyzer.games.rikken.experiments import CHUNK_SIZE, Policies, default_chunk_size, shared_play, warm_up
from analyzer.games.rikken.heuristic import default_params

from .test_contract_invariants import as_arrays, random_setups


def test_every_bot_has_one_id_and_the_kernel_ids_are_the_kernel_bots():
    ids = [bot.policy for bot in bots.BOTS.values()]
    assert len(set(ids)) == len(ids)
    kernel_bots = {name: bot.policy for name, bot in bots.BOTS.items() if bot.driver is None}
    assert kernel_bots == kernels.POLICY_IDS
    assert {bot.speed for bot in bots.BOTS.values()} <= set(CHUNK_SIZE)
    assert [name for name, bot in bots.BOTS.items() if not bot.honest] == ["dd"]


def test_command_choices_and_help_come_from_the_registry():
    # What a user types and reads, written out here: the command's choices and its help name every bot.
    assert [p.value for p in Policy] == ["random", "heuristic", "expert", "dd", "sampled-dd"]
    help_page = CliRunner().invoke(app, ["rikken", "play", "--help"], terminal_width=400).output
    assert all(f"{name} = " in " ".join(help_page.split()) for name in ["random", "heuristic", "expert", "dd",
                                                                       "sampled-dd"])
    assert policies_from_options(Policy.heuristic, None, None, "sampled-dd,heuristic,sampled-dd,heuristic") == \
        Policies(None, None, ("sampled-dd", "heuristic", "sampled-dd", "heuristic"))
    # Two Python bots at one table are refused when the options are read, before any run starts.
    with pytest.raises(InputError, match="cannot play at one table"):
        policies_from_options(Policy.heuristic, Policy.dd, Policy["sampled-dd"])
    with pytest.raises(InputError, match="cannot play at one table"):
        policies_from_options(Policy.heuristic, None, None, "dd,sampled-dd,dd,heuristic")


def test_ids_chunk_sizes_and_shared_play_follow_the_entries():
    contract_of = np.array([[3, -1, -1, -1]], dtype=np.int64)
    ids = Policies("heuristic", "sampled-dd").ids(contract_of, np.array([-1]))
    assert ids.tolist() == [[kernels.POLICY_HEURISTIC] + [bots.BOTS["sampled-dd"].policy] * 3]
    assert default_chunk_size(Policies("heuristic", "random")) == 20_000
    assert default_chunk_size(Policies("expert", "heuristic")) == 500
    assert default_chunk_size(Policies("heuristic", "sampled-dd")) == 2
    assert shared_play(Policies.everywhere("heuristic")) and not shared_play(Policies("heuristic", "sampled-dd"))
    with pytest.raises(InputError, match="unknown card-play policy"):
        bots.policy_id("oracle")


def test_one_dispatch_per_table():
    setups = random_setups(4, 5)
    arrays = as_arrays(setups)
    out_registry = np.zeros((4, 4), dtype=np.int64)
    out_kernel = np.zeros((4, 4), dtype=np.int64)
    seats = np.tile(np.array([1, 0, 3, 1], dtype=np.int64), (4, 1))
    bots.play_batch(**arrays, policy_of_seat=seats, params=default_params(), rng_state=state_from_seed(2),
                    tricks_out=out_registry)
    kernels.playout_batch(**arrays, policy_of_seat=seats, params=default_params(), rng_state=state_from_seed(2),
                          tricks_out=out_kernel)
    assert (out_registry == out_kernel).all()
    assert bots.driver_of(seats) is None
    assert bots.driver_of(np.array([[1, 2, 1, 1]])) is bots.BOTS["dd"].driver
    with pytest.raises(InputError, match="cannot play at one table"):
        bots.driver_of(np.array([[2, 4, 1, 1]]))
    with pytest.raises(InputError, match="unknown policy ids"):
        bots.driver_of(np.array([[9, 1, 1, 1]]))
    # The kernels refuse a Python bot's id rather than play it as random.
    with pytest.raises(InputError, match="Python bots"):
        kernels.playout_one(**setups[0], policy_of_seat=[1, 4, 1, 1], params=default_params(),
                            rng_state=state_from_seed(2))


def test_the_world_count_is_a_run_parameter_only_with_a_sampling_bot():
    assert "worlds" not in Policies.everywhere("heuristic").params()
    assert Policies.everywhere("sampled-dd").params()["worlds"] == bots.DEFAULT_WORLDS == 8
    # A run recorded before the count was a parameter played the default.
    assert Policies.from_params({"policy": "sampled-dd"}).worlds == 8
    with pytest.raises(InputError, match="plays no seat here"):
        Policies.everywhere("dd").with_worlds(4)
    for bad in (0, bots.MAX_WORLDS + 1, 2.5):
        with pytest.raises(InputError, match="1..256"):
            Policies("heuristic", "sampled-dd").with_worlds(bad)


def test_the_dd_turn_budget_is_a_run_parameter_only_with_a_dd_seat():
    # The commands' budget: a million completed tricks a turn (docs/rikken-bots.md), dd.DECISION_BUDGET too.
    assert Policies("dd", "heuristic").with_turn_budget().params()["dd_turn_budget"] == 1_000_000
    assert Policies(None, None, ("heuristic", "dd", "random", "dd")).with_turn_budget(7).params()["dd_turn_budget"] == 7
    assert "dd_turn_budget" not in Policies.everywhere("sampled-dd").with_turn_budget().params()
    assert "dd_turn_budget" not in Policies.everywhere("dd").with_turn_budget(0).params()
    assert Policies.everywhere("expert").with_turn_budget() == Policies.everywhere("expert")
    read = Policies.from_params(Policies("dd", "expert").with_turn_budget(5000).params())
    assert read.budget() == 5000 and "dd turns within 5,000 completed tricks" in read.label()
    # A run recorded before the budget played its dd turns without one.
    assert Policies.from_params({"policy": "dd"}).budget() == 0
    for bad in (-1, 2.5, True, "9"):
        with pytest.raises(InputError, match="dd turn budget"):
            Policies.from_params({"policy": "dd", "dd_turn_budget": bad})


def test_a_budgeted_table_records_its_undecided_turns_and_others_record_none():
    arrays = as_arrays(random_setups(3, 9, ("trick",)))
    tricks = np.zeros((3, 4), dtype=np.int64)
    undecided = np.full(3, -1, dtype=np.int64)
    bots.play_batch(**arrays, policy_of_seat=np.ones((3, 4), dtype=np.int64), params=default_params(),
                    rng_state=state_from_seed(1), tricks_out=tricks, budget=10, undecided_out=undecided)
    assert (undecided == 0).all()
    # A budget with nowhere to record the turns it stops is refused (the dd driver's rule, through the registry).
    with pytest.raises(InputError, match="undecided"):
        bots.play_batch(**arrays, policy_of_seat=np.full((3, 4), bots.policy_id("dd"), dtype=np.int64),
                        params=default_params(), rng_state=state_from_seed(1), tricks_out=tricks, budget=10)
    with pytest.raises(InputError, match="undecided"):
        bots.play_one(**{key: value[0] for key, value in arrays.items()}, policy_of_seat=np.full(4, 2),
                      params=default_params(), rng_state=state_from_seed(1), budget=10)


# Every Rikken command module, then rounds at a table without a solver bot: none may load the solver, whose
# search compiles when imported (tens of CPU-seconds on a first run).
_NO_SOLVER = """
import sys
import numpy as np
import analyzer.cli.catalog, analyzer.cli.rikken, analyzer.cli.rikken_advise, analyzer.cli.rikken_replay
import analyzer.cli.rikken_strategy, analyzer.games.rikken.replay
from analyzer.games.rikken.experiments import play_chunk
play_chunk({"declarer_policy": "expert", "defender_policy": "heuristic", "dealing": "packets"}, 0, 2,
           np.random.SeedSequence(1))
print(sorted(m for m in sys.modules if m.startswith("analyzer.solvers") or m.endswith(("rikken.dd", "sampled_dd"))))
"""


def test_the_solver_loads_only_when_a_solver_bot_plays():
    out = subprocess.run([sys.executable, "-c", _NO_SOLVER], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n"


@pytest.mark.parametrize(("policies", "played"), [
    (Policies("dd", "heuristic"), Policies("heuristic", "heuristic")),
    (Policies(None, None, ("random", "sampled-dd", "expert", "sampled-dd")),
     Policies(None, None, ("random", "random", "expert", "random"))),
    (Policies.everywhere("dd"), None),
    (Policies.everywhere("expert"), Policies.everywhere("expert")),
])
def test_a_cold_run_compiles_without_a_solver_round(monkeypatch, policies, played):
    # Item 0 of seed 0 played by the solver took minutes: the warm-up loads the solver's modules and plays the
    # item with a kernel bot of the table in the solver bots' seats, or no item with none at the table.
    loaded, items = [], []
    monkeypatch.setattr(bots, "load", lambda names: loaded.append(set(names)))
    params = {**policies.params(), "dealing": "random"}
    warm_up(lambda params, start, count, seed: items.append((Policies.from_params(params), start, count)), params)
    assert loaded == [policies.names()]
    assert items == ([] if played is None else [(played, 0, 1)])
