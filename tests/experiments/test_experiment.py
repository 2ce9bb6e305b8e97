"""The generic experiment runner: one toy experiment run end to end, and the catalog of every game's."""

import json

import numpy as np
import pandas as pd
import pytest

from analyzer.cli.catalog import EXPERIMENTS, QUERY_SPECS, REPORT_SPECS
from analyzer.errors import InputError
from analyzer.experiments.experiment import Experiment, Plan, Summary, run_experiment
from analyzer.reports.stats import merge_sums


def count_task(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """Toy rows: item numbers and a fixed value."""
    return pd.DataFrame({"item": np.arange(start, start + count), "value": params["value"]})


def count_sums(rows: pd.DataFrame) -> dict:
    return {"items": pd.DataFrame({"n": [len(rows)], "total": [int(rows["value"].sum())]})}


def _toy_summary(plan: Plan, chunks: list) -> Summary:
    sums = merge_sums(chunks)["items"]
    return Summary(tables={"toy": sums}, figures={"nothing": lambda: None}, manifest={"items": plan.n_items},
                   shown=[("toy", sums)], payload={"n": int(sums["n"].iloc[0])})


TOY = Experiment("toy-count", count_task, count_sums, rows="items", description="toy", summarize=_toy_summary)


def test_a_run_writes_manifest_rows_tables_and_skips_a_figure_it_cannot_draw(tmp_path):
    out = tmp_path / "run"
    store, summary = run_experiment(TOY, Plan({"value": 3}, 10, 7, 4, manifest={"params": {"value": 3}}),
                                    out=str(out), workers=1, scheduler=None)
    assert store.root == out
    # 10 items in chunks of 4: 4 + 4 + 2 rows, each worth 3.
    assert pd.read_csv(out / "toy.csv").to_dict(orient="records") == [{"n": 10, "total": 30}]
    assert sorted(p.name for p in (out / "items").iterdir()) == [f"part-{s:012d}.parquet" for s in (0, 4, 8)]
    assert not list(out.glob("nothing.*"))
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["experiment"], manifest["seed"], manifest["chunk_size"], manifest["items"]) == ("toy-count", 7,
                                                                                                     4, 10)
    assert manifest["params"] == {"value": 3} and manifest["status"] == "complete"
    assert {"batch_seconds", "play_seconds", "summary_seconds"} <= set(manifest["timings"])
    assert summary.payload == {"n": 10}


def test_a_directory_holding_another_run_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "run"
    run_experiment(TOY, Plan({"value": 3}, 10, 7, 4), out=str(out), workers=1, scheduler=None)
    before = (out / "manifest.json").read_text()
    with pytest.raises(InputError, match="different"):
        run_experiment(TOY, Plan({"value": 3}, 10, 8, 4), out=str(out), workers=1, scheduler=None)
    assert (out / "manifest.json").read_text() == before


def test_an_empty_out_is_an_error(tmp_path):
    with pytest.raises(InputError, match="--out is empty"):
        run_experiment(TOY, Plan({"value": 3}, 10, 7, 4), out=" ", workers=1, scheduler=None)


def test_the_catalog_finds_every_experiment_by_the_name_its_manifest_records():
    assert set(EXPERIMENTS) >= {"schnapsen-match", "schnapsen-closing", "seconds-play", "seconds-variants",
                                "runs demo"}
    assert all(name == experiment.name for name, experiment in EXPERIMENTS.items())
    # Every experiment that keeps rows can be queried; every game's experiment has a report.
    assert set(EXPERIMENTS) <= set(QUERY_SPECS)
    assert set(EXPERIMENTS) - {"runs demo"} <= set(REPORT_SPECS)


def test_every_games_plans_record_their_rules_in_one_shape():
    from analyzer.games.rikken.experiments import Policies, bids_plan
    from analyzer.games.schnapsen.experiments import closing_plan, match_plan
    from analyzer.games.seconds.experiments import play_plan, variants_plan
    from analyzer.games.seconds.rules import SecondsRules

    plans = {
        "rikken": bids_plan(Policies("heuristic", "heuristic"), "random", "all", {}, None, 10, 0, None),
        "schnapsen": match_plan(("heuristic", "random"), 4, 12, 0, 2),
        "schnapsen ": closing_plan("heuristic", 2, 4, 0, 1),
        "seconds": play_plan(SecondsRules(n_players=4), "heuristic", 4, {}, 0, 2),
        "seconds ": variants_plan(4, "heuristic", 4, {}, 0, 2),
    }
    for game, plan in plans.items():
        rules = plan.manifest["rules"]
        assert isinstance(rules, dict) and rules["game"] == game.strip(), (game, rules)
        json.dumps(rules)  # a manifest entry


def test_a_plan_refuses_rules_in_another_shape():
    with pytest.raises(TypeError):
        Plan({}, 1, 0, 1, manifest={"rules": "docs/rules.md section 2"})
    with pytest.raises(TypeError):
        Plan({}, 1, 0, 1, manifest={"rules": {"dealing": "random"}})


def test_the_compiling_notice_shows_when_numba_compiles_and_only_then(tmp_path, capsys):
    import dataclasses

    from numba import njit

    @njit  # no cache: compiled in this process at its first call for each argument type
    def doubled(x):
        return 2 * x

    calls = []
    argument = {"value": 1}

    def counted(params, start, count, seed_seq):
        calls.append((start, count))
        doubled(argument["value"])
        return count_task(params, start, count, seed_seq)

    toy = dataclasses.replace(TOY, task=counted, kernels="Toy", compile_seconds=5)
    plan = Plan({"value": 1}, 4, 0, 4)
    run_experiment(toy, plan, out=str(tmp_path / "cold"), workers=1, scheduler=None)
    assert "compiling Toy kernels (first run only, about 5 s)" in capsys.readouterr().err
    assert calls == [(0, 1), (0, 4)]  # one item to compile, then the chunk
    calls.clear()
    run_experiment(toy, plan, out=str(tmp_path / "warm"), workers=1, scheduler=None)
    assert "compiling" not in capsys.readouterr().err and calls == [(0, 1), (0, 4)]
    assert (tmp_path / "cold" / "toy.csv").read_bytes() == (tmp_path / "warm" / "toy.csv").read_bytes()
    # Kernels not compiled before (here a new specialisation; in a game, a new set of bots) announce
    # themselves although others of the same game are compiled.
    argument["value"] = 1.5
    run_experiment(toy, plan, out=str(tmp_path / "other"), workers=1, scheduler=None)
    assert "compiling Toy kernels" in capsys.readouterr().err


def test_a_warm_up_replaces_the_compile_item(tmp_path, monkeypatch):
    """An experiment whose items take minutes compiles through its own ``warm_up``, on a cold cache only."""
    import dataclasses

    import analyzer.experiments.experiment as experiment_module

    calls = []

    def counted(params, start, count, seed_seq):
        calls.append((start, count))
        return count_task(params, start, count, seed_seq)

    toy = dataclasses.replace(TOY, task=counted, kernels="Toy", warm_up=lambda params: calls.append(params))
    for cached, out in ((False, "cold"), (True, "warm")):
        calls.clear()
        monkeypatch.setattr(experiment_module, "kernels_cached", lambda task, cached=cached: cached)
        run_experiment(toy, Plan({"value": 1}, 4, 0, 4), out=str(tmp_path / out), workers=1, scheduler=None)
        assert calls == ([] if cached else [{"value": 1}]) + [(0, 4)]


def test_a_warm_run_computes_no_extra_item(tmp_path, monkeypatch):
    """The warm-up item runs only while numba's cache holds no kernel of the task's package (one item of a
    dd round can cost minutes); the cache is found where numba itself writes it."""
    import dataclasses
    import os
    import subprocess
    import sys

    import analyzer.experiments.experiment as experiment_module

    calls = []

    def counted(params, start, count, seed_seq):
        calls.append((start, count))
        return count_task(params, start, count, seed_seq)

    toy = dataclasses.replace(TOY, task=counted, kernels="Toy")
    monkeypatch.setattr(experiment_module, "kernels_cached", lambda task: True)
    run_experiment(toy, Plan({"value": 1}, 4, 0, 4), out=str(tmp_path / "warm"), workers=1, scheduler=None)
    assert calls == [(0, 4)]
    package = tmp_path / "toygame"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef one():\n    return 1\n\n\n"
                                        "def task():\n    return one()\n")
    probe = ("import sys\nfrom toygame import kernels\nfrom analyzer.experiments.experiment import kernels_cached\n"
             "before = kernels_cached(kernels.task)\nkernels.task()\nprint(before, kernels_cached(kernels.task))\n")
    for cache in (str(tmp_path / "numba"), None):  # a cache folder as the command line sets it; numba's default
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
        if cache:
            env["NUMBA_CACHE_DIR"] = cache
        out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.split() == ["False", "True"]
        for path in package.rglob("*.nb[ic]"):
            path.unlink()
