"""``compile_in_parallel``: each group runs in a process of its own, and the caller then loads the kernels the
groups compiled from numba's cache instead of compiling them again."""

import os
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from numba import njit

from analyzer.experiments.parallel_compile import compile_in_parallel

HERE = Path(__file__).parent


@njit(cache=True)
def _double(x):
    return 2 * x


@njit(cache=True)
def _square(x):
    return x * x


def _compile_double():
    _double(3)


def _compile_square():
    _square(4)


def _write_pid(folder: Path, name: str) -> None:
    (folder / name).write_text(str(os.getpid()))


def _fail() -> None:
    raise ValueError("group failed")


def test_each_group_runs_in_a_process_of_its_own(tmp_path):
    used = compile_in_parallel([partial(_write_pid, tmp_path, "a"), partial(_write_pid, tmp_path, "b")], processes=2)
    pids = {(tmp_path / name).read_text() for name in "ab"}
    assert used == 2
    assert len(pids) == 2 and str(os.getpid()) not in pids


def _write_pid_then_wait(folder: Path, name: str, other: str) -> None:
    """Write this process's id to ``name``, then wait until ``other`` is written (at most 20 s)."""
    _write_pid(folder, name)
    deadline = time.monotonic() + 20
    while not (folder / other).exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_more_groups_than_processes_reuse_the_processes_started(tmp_path):
    # Two processes for three groups: the first two wait for each other (so they run at once, in the two), the
    # third then runs in whichever is free first, not in a third process.
    groups = [partial(_write_pid_then_wait, tmp_path, "a", "b"), partial(_write_pid_then_wait, tmp_path, "b", "a"),
              partial(_write_pid, tmp_path, "c")]
    used = compile_in_parallel(groups, processes=2)
    first, second, third = ((tmp_path / name).read_text() for name in "abc")
    assert used == 2
    assert first != second and third in (first, second) and str(os.getpid()) not in (first, second)


def test_here_runs_in_this_process_while_the_groups_run_in_others(tmp_path):
    # ``here`` waits for the group (so both run at once); the processes used count this one.
    used = compile_in_parallel([partial(_write_pid, tmp_path, "a")], processes=2,
                               here=partial(_write_pid_then_wait, tmp_path, "b", "a"))
    assert used == 2
    assert (tmp_path / "b").read_text() == str(os.getpid()) != (tmp_path / "a").read_text()


def test_with_one_process_here_and_the_groups_run_here(tmp_path):
    used = compile_in_parallel([partial(_write_pid, tmp_path, "a")], processes=1,
                               here=partial(_write_pid, tmp_path, "b"))
    assert used == 1
    assert {(tmp_path / name).read_text() for name in "ab"} == {str(os.getpid())}


def test_one_process_runs_the_groups_here_in_turn(tmp_path):
    used = compile_in_parallel([partial(_write_pid, tmp_path, "a"), partial(_write_pid, tmp_path, "b")], processes=1)
    assert used == 1
    assert {(tmp_path / name).read_text() for name in "ab"} == {str(os.getpid())}


def test_a_group_error_reaches_the_caller(tmp_path):
    with pytest.raises(ValueError, match="group failed"):
        compile_in_parallel([_fail, partial(_write_pid, tmp_path, "a")], processes=2)


def _wait_for(folder: Path, name: str) -> None:
    """Wait until ``name`` is in ``folder`` (at most 20 s), then write ``b``."""
    deadline = time.monotonic() + 20
    while not (folder / name).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    (folder / "b").touch()


def test_then_runs_here_once_the_first_groups_are_done_while_the_others_run(tmp_path):
    seen = []

    def then():
        seen.append(sorted(p.name for p in tmp_path.iterdir()))
        (tmp_path / "go").touch()

    # The last group waits for ``then`` (which sees it unfinished, no ``b``) before it ends.
    used = compile_in_parallel([partial(_write_pid, tmp_path, "a"), partial(_wait_for, tmp_path, "go")],
                               processes=2, then=then, after=1)
    assert used == 2
    assert seen == [["a"]]


def test_then_runs_after_the_groups_in_one_process(tmp_path):
    seen = []
    compile_in_parallel([partial(_write_pid, tmp_path, "a")], processes=1,
                        then=lambda: seen.append((tmp_path / "a").exists()))
    assert seen == [True]


_PROBE = """
import sys
sys.path.insert(0, {here!r})
from numba.core import event
import test_parallel_compile as t
from analyzer.experiments.experiment import package_cached
from analyzer.experiments.parallel_compile import compile_in_parallel

before = package_cached({here!r})
compile_in_parallel([t._compile_double, t._compile_square], processes=2)
after = package_cached({here!r})
compiled = []


class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)

    def on_end(self, ev):
        pass


with event.install_listener("numba:compile", Compiles()):
    values = (t._double(3), t._square(4))
print(before, after, values, compiled)
"""


def test_the_caller_loads_what_the_groups_compiled(tmp_path):
    # A fresh interpreter and an empty cache: numba's compile events in the caller are the oracle, and the
    # cache numba wrote is what package_cached must find (none before).
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", _PROBE.format(here=str(HERE))], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "False True (6, 16) []"
