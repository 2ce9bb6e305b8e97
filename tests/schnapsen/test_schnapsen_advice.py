"""``schnapsen advise``: the answer does not depend on workers or chunks, and the headline says when no action
is clearly best."""

import json

import numpy as np
import pandas as pd
import pytest
from numba.core import sigutils
from typer.testing import CliRunner

from analyzer.cards.rng import state_from_seed
from analyzer.cli.schnapsen import app
from analyzer.games.schnapsen.advice import advice_table, advise, advise_plan, advise_task, headline
from analyzer.games.schnapsen.experiments import parse_bot
from analyzer.games.schnapsen.rules import action_name
from analyzer.games.schnapsen.state import SchnapsenState

FIRST_LEAD = "hand0=HJ SA SK SQ CJ; hand1=?; stock=? ? ? ? ? ? ? ? ? HA; leader=0"


def test_each_world_is_the_same_whichever_chunk_evaluates_it():
    params, n_worlds = advise_plan(SchnapsenState.from_text(FIRST_LEAD), parse_bot("heuristic"), 7, 9)
    assert n_worlds == 9 and not params["exact"]
    whole = advise_task(params, 0, 9, np.random.SeedSequence(1))
    pieces = np.concatenate([advise_task(params, 0, 4, np.random.SeedSequence(2)),
                             advise_task(params, 4, 5, np.random.SeedSequence(3))])
    np.testing.assert_array_equal(whole, pieces)
    assert len({tuple(row) for row in whole}) > 1  # the worlds differ from each other


def test_workers_give_the_same_table():
    state = SchnapsenState.from_text(FIRST_LEAD)
    one, exact = advise(state, parse_bot("heuristic"), 11, 24, workers=1)
    two, _ = advise(state, parse_bot("heuristic"), 11, 24, workers=2)
    assert not exact
    pd.testing.assert_frame_equal(one, two)


def table(rows, exact=False):
    """An advice table from (action, expected_gp, vs_best, vs_best_lo, vs_best_hi), best first."""
    return pd.DataFrame([{"action": a, "expected_gp": gp, "gp_lo": gp - 0.5, "gp_hi": gp + 0.5,
                          "win_probability": 0.5, "win_lo": 0.3, "win_hi": 0.7, "vs_best": d, "vs_best_lo": lo,
                          "vs_best_hi": hi, "worlds": 16}
                         for a, gp, d, lo, hi in rows])


def test_headline_names_one_best_action_only_when_every_other_is_clearly_worse():
    clear = headline(table([("SA", 1.0, 0, 0, 0), ("HJ", 0.4, -0.6, -1.0, -0.2), ("close", -2, -3, -3.5, -2.5)]),
                     False)
    assert clear["clear"] and clear["actions"] == ["SA"]
    assert clear["sentence"].startswith("Advice: SA") and "HJ" in clear["sentence"]
    # HJ's paired difference reaches zero: SA is not clearly best
    close = headline(table([("SA", 1.0, 0, 0, 0), ("HJ", 0.8, -0.2, -0.6, 0.0), ("close", -2, -3, -3.5, -2.5)]),
                     False)
    assert not close["clear"] and close["actions"] == ["SA", "HJ"]
    assert close["sentence"].startswith("No action is clearly best: SA and HJ")
    # one sampled world: no interval, so nothing is clearly best
    one_world = table([("SA", 1.0, 0, np.nan, np.nan), ("HJ", -1.0, -2.0, np.nan, np.nan)])
    nan = headline(one_world.assign(gp_lo=np.nan, gp_hi=np.nan), False)
    assert not nan["clear"]
    assert "nan" not in nan["sentence"] and "too few worlds for an interval" in nan["sentence"]


def test_the_share_of_worlds_won_has_its_interval():
    # the first action wins 3 of 4 worlds, the second none: Wilson's score interval by its formula, z = 1.96
    outcomes = np.array([[1, -1], [2, -2], [3, -1], [-1, -2]])
    first, second = action_name(0), action_name(1)
    rows = advice_table([0, 1], outcomes, False).set_index("action")
    z, n, p = 1.959964, 4, 0.75
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert rows.loc[first, ["win_probability", "win_lo", "win_hi"]].tolist() == \
        pytest.approx([0.75, centre - half, centre + half])
    assert rows.loc[second, ["win_probability", "win_lo"]].tolist() == [0.0, 0.0]
    assert f"won in 75.0% [{100 * (centre - half):.1f}, {100 * (centre + half):.1f}] of the worlds" in \
        headline(rows.reset_index(), False)["sentence"]
    # enumerated worlds: the share is exact
    exact = advice_table([0, 1], outcomes, True).set_index("action")
    assert exact.loc[first, ["win_lo", "win_hi"]].tolist() == [0.75, 0.75]


def test_headline_rounds_a_half_as_the_table_reads_it():
    sentence = headline(table([("SA", 1.075, 0, 0, 0), ("HJ", -1.0, -2.075, -2.5, -1.625)]), False)["sentence"]
    assert "+1.08 game points [+0.58, +1.58]" in sentence and "2.08 ahead of the next, HJ" in sentence


def test_headline_on_enumerated_worlds_compares_the_exact_means():
    tie = headline(table([("SA", 1.0, 0, 0, 0), ("HJ", 1.0, 0, 0, 0), ("SK", 0.5, -0.5, -0.5, -0.5)]), True)
    assert not tie["clear"] and tie["actions"] == ["SA", "HJ"]
    ahead = headline(table([("SA", 1.0, 0, 0, 0), ("HJ", 0.9, -0.1, -0.1, -0.1)]), True)
    assert ahead["clear"] and "(exact)" in ahead["sentence"]
    only = headline(table([("SA", 1.0, 0, 0, 0)]), True)
    assert only["clear"] and "only legal action" in only["sentence"]


def test_advise_prints_the_headline_and_returns_it_as_json(tmp_path):
    runner = CliRunner()
    args = ["advise", FIRST_LEAD, "--bot", "heuristic", "--samples", "8", "--workers", "1"]
    out = json.loads(runner.invoke(app, args + ["--json", "--out", str(tmp_path / "a")]).stdout)
    assert out["headline"]["actions"][0] == out["actions"][0]["action"]
    text = runner.invoke(app, args + ["--out", str(tmp_path / "b")]).output
    first = text.split("\n\n")[0]
    assert " ".join(first.split()) == out["headline"]["sentence"]
    assert text.rstrip().splitlines()[-1] == f"results in {tmp_path / 'b'}"


def test_advise_writes_a_run_folder_with_every_world(tmp_path):
    # like rikken advise: a manifest, the table, and the outcome of every action in every world
    args = ["advise", FIRST_LEAD, "--bot", "heuristic", "--samples", "8", "--workers", "1", "--seed", "5"]
    out = json.loads(CliRunner().invoke(app, args + ["--json", "--out", str(tmp_path)]).stdout)
    assert out["run_dir"] == str(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["experiment"] == "schnapsen-advise" and manifest["status"] == "complete"
    # as typed: hidden cards stay '?'; the bot's name without a sample count it does not use
    assert manifest["params"] == {"state": FIRST_LEAD, "bot": "heuristic", "samples": 8}
    rows = pd.read_parquet(tmp_path / "worlds")
    assert sorted(set(rows["world"])) == list(range(8))
    means = rows.groupby("action")["game_points"].mean()
    for action in out["actions"]:
        assert action["expected_gp"] == pytest.approx(means[action["action"]])
    table = pd.read_csv(tmp_path / "advice.csv")
    assert list(table["action"]) == [action["action"] for action in out["actions"]]


@pytest.mark.parametrize("workers", ["0", "x"])
def test_bad_workers_are_refused(workers):
    result = CliRunner().invoke(app, ["advise", FIRST_LEAD, "--workers", workers])
    assert result.exit_code == 2


def test_the_report_gives_the_share_won_with_its_interval():
    from analyzer.games.schnapsen.findings import advise_findings

    sampled = table([("SA", 1.0, 0, 0, 0), ("HJ", 0.4, -0.6, -1.0, -0.2)])
    assert "won in 50.0% (95% 30.0% to 70.0%) of them" in advise_findings({"advice": sampled}, {})[0]
    # a run recorded before the interval, and enumerated worlds (an exact share), give the share alone
    for plain in (sampled.drop(columns=["win_lo", "win_hi"]), sampled.assign(win_lo=0.5, win_hi=0.5)):
        assert "won in 50.0% of them" in advise_findings({"advice": plain}, {})[0]


# hybrid's kernels compile for about a minute cold and no other default test builds them
@pytest.mark.parametrize("name", ["heuristic", pytest.param("hybrid:2", marks=pytest.mark.slow)])
def test_the_warm_up_compiles_every_signature_the_chunks_run(name, monkeypatch):
    # a kernel or specialisation the warm-up missed would be compiled (or loaded) by each worker on its own:
    # numba's Dispatcher.compile, which both do, is the oracle, watched while a chunk runs after the warm-up
    from numba.core.dispatcher import Dispatcher

    from analyzer.games.schnapsen.advice import advice_rows, advise_warm_up

    params, _ = advise_plan(SchnapsenState.from_text(FIRST_LEAD), parse_bot(name), 3, 1)
    advise_warm_up(params)
    added = []
    compile_signature = Dispatcher.compile

    def watched(dispatcher, sig):
        if tuple(sigutils.normalize_signature(sig)[0]) not in dispatcher.overloads:
            added.append(dispatcher.py_func.__name__)
        return compile_signature(dispatcher, sig)

    monkeypatch.setattr(Dispatcher, "compile", watched)
    advice_rows(params, 0, 1, np.random.SeedSequence(0))
    assert added == []


@pytest.mark.slow
def test_hybrid_outcomes_are_those_before_its_play_outs_ran_from_python():
    # the oracle: advise_task of main at e793232 (hybrid played out by the numba chain rollout_values >
    # play_out > choose_action > hybrid_choice), seed 7, three sampled worlds at the first lead
    params, n_worlds = advise_plan(SchnapsenState.from_text(FIRST_LEAD), parse_bot("hybrid:2"), 7, 3)
    assert [row[0] for row in params["sequences"]] == [0, 10, 16, 17, 19, 36, 37, 40, 41]
    np.testing.assert_array_equal(advise_task(params, 0, n_worlds, None),
                                  [[2, -2, -2, 1, 2, 2, 2, -2, 3], [2, -2, -1, -1, -1, -1, -1, 3, 3],
                                   [1, -2, -1, -1, 2, 2, 2, 2, -3]])


@pytest.mark.slow
def test_hybrid_counts_as_compiled_once_its_warm_up_wrote_the_signature_its_decisions_call():
    # numba's own index is the oracle: the warm-up saved hybrid_values with the types hybrid_decision calls it
    # with (infer omitted, not hybrid_choice's literal), which advise_compiled must find
    from analyzer.games.schnapsen.advice import advise_compiled, advise_warm_up
    from analyzer.games.schnapsen.hybrid_bot import decision_signature, hybrid_values

    params, _ = advise_plan(SchnapsenState.from_text(FIRST_LEAD), parse_bot("hybrid:2"), 3, 1)
    advise_warm_up(params)
    assert advise_compiled(params)
    keys = [key[0] for key in hybrid_values._cache._cache_file._load_index()]
    assert decision_signature() in keys


def test_direct_play_outs_match_the_kernel_chain(monkeypatch):
    # the numba chain (rollout_values > play_out > the bot) is the oracle for the Python loops around a
    # decision kernel; the heuristic, which draws nothing from the random state, stands in for that kernel
    from analyzer.games.schnapsen import play
    from analyzer.games.schnapsen.bots import heuristic_action
    from analyzer.games.schnapsen.search import new_workspace

    bot = parse_bot("heuristic")
    hparams = bot.params.to_array()
    monkeypatch.setitem(play.DIRECT_CHOICES, play.HEURISTIC,
                        lambda s, samples, rng, ws, n: heuristic_action(s, hparams, ws.acts))
    params, _ = advise_plan(SchnapsenState.from_text(FIRST_LEAD), bot, 3, 6)
    s = np.asarray(params["state"], dtype=np.int64)
    seqs = np.asarray(params["sequences"], dtype=np.int64)
    world_rngs = np.array([state_from_seed(k) for k in range(6)])
    for exact in (False, True):
        want = np.zeros((6, len(seqs)), dtype=np.int64)
        play.kernels_for((play.HEURISTIC,)).rollout_values(s, seqs, play.HEURISTIC, 1, hparams, exact, 3, world_rngs,
                                                           want, new_workspace())
        got = np.zeros_like(want)
        play.direct_rollout_values(s, seqs, play.HEURISTIC, 1, exact, 3, world_rngs, got, new_workspace())
        np.testing.assert_array_equal(got, want)
        assert len(set(want.ravel().tolist())) > 1  # the worlds and actions do not all score alike


def test_kernel_cached_tells_whether_numba_loads_or_compiles(tmp_path):
    # numba's own cache hit is the oracle: no compile event in a second process once the first compiled
    import os
    import subprocess
    import sys

    (tmp_path / "toykernel.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef one(x):\n"
                                           "    return x + 1\n")
    probe = ("from numba.core import event\nfrom analyzer.experiments.experiment import kernel_cached\n"
             "from toykernel import one\nbefore = kernel_cached(one)\n"
             "with event.install_recorder('numba:compile') as rec:\n    one(1)\n"
             "print(before, kernel_cached(one), len(rec.buffer) > 0)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    runs = [subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs == [["False", "True", "True"], ["True", "True", "False"]]


def test_advise_compiles_first_with_the_notice_when_its_bot_is_not_cached(tmp_path, monkeypatch):
    # another kernel of the package in the cache (one compiled while planning) must not hide the compile
    import analyzer.experiments.experiment as experiment_module
    import analyzer.games.schnapsen.advice as advice_module

    import dataclasses

    calls = []
    monkeypatch.setattr(experiment_module, "kernels_cached", lambda task: True)
    monkeypatch.setattr(advice_module, "ADVISE", dataclasses.replace(
        advice_module.ADVISE, warm_up=lambda params: calls.append(params["bot"]["name"])))
    for cached in (False, True):
        calls.clear()
        monkeypatch.setattr(advice_module, "kernel_cached", lambda kernel, cached=cached: cached)
        args = ["advise", FIRST_LEAD, "--bot", "heuristic", "--samples", "2", "--workers", "1"]
        assert CliRunner().invoke(app, args + ["--out", str(tmp_path / str(cached))]).exit_code == 0
        assert calls == ([] if cached else ["heuristic"])
