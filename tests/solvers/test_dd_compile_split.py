"""The solver's split first compile (``solvers.dd.compile_split``): the helper groups hold the argument types the
search calls its helpers with, so that after the groups compiled, the search's import compiles the search alone
and loads every helper from numba's cache.

The oracle is numba's compile events (``numba:compile``, one per specialisation compiled, none for one loaded
from the cache), counted in a fresh interpreter with an empty cache: a helper missing from the groups, or listed
with other argument types than the search's call, compiles in the search's import.
"""

import json
import os
import subprocess
import sys

import pytest

from analyzer.experiments import parallel_compile
from analyzer.solvers.dd import compile_split

# Runs in a fresh interpreter (argv: "split", "here": the last group here, as ``rikken solve``, or "serial");
# prints the compiles of the groups (in this process) and of the import and first use of the solver, each as the
# function's name per specialisation.
SCRIPT = """
import json, sys
from numba.core import event

compiled = []


class Compiles(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        func = ev.data["dispatcher"].py_func
        if func.__module__.startswith("analyzer."):
            compiled.append(func.__module__.rsplit(".", 1)[-1] + "." + func.__name__)


if __name__ == "__main__":
    from analyzer.experiments.parallel_compile import compile_in_parallel, compile_solver_helpers, solver_groups
    from analyzer.solvers.dd.compile_split import GROUPS, compile_group

    event.register("numba:compile", Compiles())
    if sys.argv[1] == "split":
        compile_in_parallel(solver_groups(), processes=2)
    elif sys.argv[1] == "here":
        compile_solver_helpers(processes=2)
    else:
        for index in range(len(GROUPS)):
            compile_group(index)
    groups = list(compiled)
    compiled.clear()
    from analyzer.cards.pbn import parse_deal
    from analyzer.solvers.dd import solve_bounds

    assert solve_bounds(parse_deal("N:AKQ... JT9... 876... 543...", hand_size=None), 4, 0, 0b0101, 100) == (3, 3)
    print(json.dumps({"groups": groups, "solver": compiled}))
"""


def _compiles(mode: str, cache: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], check=True, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": cache})
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_after_the_groups_in_other_processes_the_solver_compiles_only_the_search(tmp_path):
    compiles = _compiles("split", str(tmp_path))
    assert compiles["groups"] == []  # compiled in the child processes
    assert sorted(compiles["solver"]) == ["search.guess_tricks", "search.search"]


@pytest.mark.slow
def test_after_the_last_group_here_and_the_other_in_a_process_the_solver_compiles_only_the_search(tmp_path):
    compiles = _compiles("here", str(tmp_path))
    here = {f"{module}.{name}" for module, helpers in compile_split.GROUPS[-1].items() for name in helpers}
    assert here <= set(compiles["groups"])  # compiled in this process (with their callees), the first group not
    assert not {f"{module}.{name}" for module, helpers in compile_split.GROUPS[0].items() for name in helpers} & set(
        compiles["groups"])
    assert sorted(compiles["solver"]) == ["search.guess_tricks", "search.search"]


@pytest.mark.slow
def test_the_groups_compile_each_helper_once_and_the_search_none(tmp_path):
    compiles = _compiles("serial", str(tmp_path))
    groups = compiles["groups"]
    assert len(groups) == len(set(groups)) > 30, groups
    assert sorted(compiles["solver"]) == ["search.guess_tricks", "search.search"]


def test_the_groups_are_wanted_only_while_the_search_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    folder = parallel_compile.cache_folder(compile_split.FOLDER)
    folder.mkdir(parents=True)
    (folder / "moves._lead_suits-51.py311.nbi").touch()  # a helper's index does not make the search cached
    assert len(parallel_compile.solver_groups()) == 2
    (folder / "search.search-62.py311.nbi").touch()
    assert parallel_compile.solver_groups() == []


def test_the_solver_helpers_compile_the_last_group_here_and_nothing_when_cached(monkeypatch):
    calls = []
    monkeypatch.setattr(parallel_compile, "compile_in_parallel",
                        lambda groups, processes=None, here=None: calls.append((groups, processes, here)) or 2)
    monkeypatch.setattr(parallel_compile, "solver_groups", lambda: ["first", "second", "last"])
    assert parallel_compile.compile_solver_helpers(processes=2) == 2
    assert calls == [(["first", "second"], 2, "last")]
    monkeypatch.setattr(parallel_compile, "solver_groups", lambda: [])
    assert parallel_compile.compile_solver_helpers() == 0
    assert len(calls) == 1


def test_importing_the_groups_compiles_no_search():
    code = ("import sys; import analyzer.solvers.dd.compile_split, analyzer.experiments.parallel_compile; "
            "print('analyzer.solvers.dd.search' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "False"


def _callees(function, outlined_only):
    """The njit functions ``function`` calls, by module and name: through inlined helpers (their bodies are
    typed in the caller) to the outlined ones, or every callee at any depth."""
    from numba.core.registry import CPUDispatcher

    found, seen, todo = set(), {function}, [function]
    while todo:
        code = todo.pop()
        for name in code.py_func.__code__.co_names:
            callee = code.py_func.__globals__.get(name)
            if not isinstance(callee, CPUDispatcher) or callee in seen:
                continue
            seen.add(callee)
            inlined = callee.targetoptions.get("inline", "never") != "never"
            if not (outlined_only and not inlined):
                todo.append(callee)
            if not inlined:
                found.add((callee.py_func.__module__.rsplit(".", 1)[-1], name))
    return found


def test_every_helper_the_search_compiles_is_in_a_group():
    # Cheap twin of the slow tests above: a helper added to the search (or a call with a new name) and left
    # out of the groups would compile in the search's import, serially, on every first solver run.
    from analyzer.solvers.dd import search

    listed = {(module, name) for group in compile_split.GROUPS for module, helpers in group.items() for name in helpers}
    modules = {module: __import__(f"analyzer.solvers.dd.{module}", fromlist=["_"]) for module, _ in listed}
    covered = set(listed)
    for module, name in listed:
        covered |= _callees(getattr(modules[module], name), outlined_only=False)
    missing = _callees(search.search, outlined_only=True) - covered
    assert not missing, sorted(missing)
