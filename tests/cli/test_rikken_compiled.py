"""A Rikken run compiles first (with the notice) unless numba's cache holds the kernels it uses itself: another
command's kernels do not count (after ``rikken play`` a first ``rikken advise`` still deals with constraints)."""

import pytest

from analyzer.games.rikken import experiments
from analyzer.games.rikken.advice_experiment import ADVISE
from analyzer.games.rikken.experiments import BIDS, PLAY, compiled

# What a cold `rikken play --rounds 200` (heuristic, random dealing) left in a fresh NUMBA_CACHE_DIR: its
# dealing kernel and the heuristic's playout set (the listing of the cache's *.nbi files, by kernel name).
AFTER_PLAY = {"deal_random_kernel", "_playout_kernel__k1"}


@pytest.fixture
def cache(monkeypatch):
    """The kernels numba's cache holds, by name (a set the test fills), and whether the solver's package is cached."""
    held = set()
    solver = {"cached": False}
    monkeypatch.setattr(experiments, "kernel_cached", lambda kernel: kernel.py_func.__qualname__ in held)
    monkeypatch.setattr(experiments, "solver_cached", lambda: solver["cached"])
    return held, solver


def params(policy="heuristic", dealing="random", constraints=None):
    return {"policy": policy, "dealing": dealing, **({"constraints": constraints} if constraints else {})}


def test_each_rikken_experiment_asks_for_its_own_kernels():
    assert BIDS.compiled is compiled and PLAY.compiled is compiled and ADVISE.compiled is compiled


def test_the_names_held_are_the_kernels_names():
    # The fixture matches kernels by name: a renamed kernel set would otherwise leave these tests green
    # while every warm run compiled again.
    kernels = experiments.kernels_for({experiments.POLICY_IDS["heuristic"]})
    assert {experiments.deal_random_kernel.py_func.__qualname__, kernels._playout_kernel.py_func.__qualname__} == (
        AFTER_PLAY)


def test_after_play_advise_and_other_bots_still_compile(cache):
    held, _ = cache
    held |= AFTER_PLAY
    assert compiled(params())  # bids or play again: the same kernels
    assert not compiled(params(constraints={"hands": ["S=AKQJ.T98.765.432"]}))  # advise deals with constraints
    assert not compiled(params(policy="expert"))  # another kernel set
    assert not compiled(params(dealing="packets"))  # another dealing kernel and the per-round play
    held |= {"deal_packets_kernel", "play_round__k1"}
    assert compiled(params(dealing="packets"))


def test_a_python_bot_needs_the_solver_cached(cache):
    held, solver = cache
    held |= AFTER_PLAY
    table = {"declarer_policy": "dd", "defender_policy": "heuristic", "dealing": "random"}
    assert not compiled(table)
    solver["cached"] = True
    assert compiled(table)
    assert compiled({"policy": "dd", "dealing": "random"})  # no kernel bot: the dealing and the solver


def test_checking_constraints_says_when_it_compiles(monkeypatch):
    """Planning a constrained run deals 0 deals to check the constraints, which compiles the constrained dealing
    on a first run (a silent 30 s in a cold `rikken advise` at load): the check runs inside the compile notice."""
    from contextlib import contextmanager

    events = []

    @contextmanager
    def notice(kernels, seconds=None):
        events.append(f"notice {kernels}")
        yield
        events.append("end")

    monkeypatch.setattr(experiments, "compile_notice", notice)
    monkeypatch.setattr(experiments, "deal_constrained", lambda n, seed, seats: events.append(f"deal {n}"))
    hand = ["N=AKQJ.T98.765.432"]
    assert experiments.constraint_params("random", 0, hand, None, None, None, None) == {"constraints": {"hand": hand}}
    assert events == ["notice Rikken", "deal 0", "end"]
