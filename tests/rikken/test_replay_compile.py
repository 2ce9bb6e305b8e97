"""The judged replay's first compile (``replay._compile_judged``): the solver's helper groups and the unjudged
round compile in one process per core, this one included, no more: here the larger helper group and then the
search, once the other group is done in the other process, which then compiles the round."""

import os
from functools import partial
from pathlib import Path


# The spawned processes import this module for ``_write_pid``: the replay is imported in the tests alone.
def _write_pid(folder: Path, name: str) -> None:
    (folder / name).write_text(str(os.getpid()))


def test_the_judged_compile_starts_one_process_per_core(tmp_path, monkeypatch):
    # The oracle: the processes compile_in_parallel reports it used, two cores stated, and what the groups had
    # written when the search's step ran here.
    from analyzer.experiments import parallel_compile
    from analyzer.games.rikken import replay

    compile_in_parallel = parallel_compile.compile_in_parallel
    used = []
    monkeypatch.setattr(parallel_compile, "compile_in_parallel",
                        lambda *args, **kwargs: used.append(compile_in_parallel(*args, **kwargs)))
    monkeypatch.setattr(parallel_compile, "default_workers", lambda: 2)
    monkeypatch.setattr(parallel_compile, "solver_groups",
                        lambda: [partial(_write_pid, tmp_path, "helpers0"), partial(_write_pid, tmp_path, "helpers1")])
    seen = []
    monkeypatch.setattr(replay, "_import_solver", lambda: seen.append(sorted(p.name for p in tmp_path.iterdir())))
    replay._compile_judged(partial(_write_pid, tmp_path, "round"))
    pids = {name: (tmp_path / name).read_text() for name in ("helpers0", "helpers1", "round")}
    assert used == [2]
    assert pids["helpers1"] == str(os.getpid())
    assert pids["helpers0"] == pids["round"] != str(os.getpid())
    assert seen[0][:2] == ["helpers0", "helpers1"]


def test_a_warm_solver_starts_no_process(monkeypatch):
    from analyzer.experiments import parallel_compile
    from analyzer.games.rikken import replay

    monkeypatch.setattr(parallel_compile, "solver_groups", lambda: [])
    monkeypatch.setattr(parallel_compile, "compile_in_parallel", lambda *args, **kwargs: 1 / 0)
    replay._compile_judged(lambda: 1 / 0)
