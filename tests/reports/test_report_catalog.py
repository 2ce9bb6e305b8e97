"""The run catalog: finding runs, their status, parameters and sizes."""

import json
import os
import socket
import subprocess
import sys

import pytest

from analyzer.errors import InputError
from analyzer.reports.catalog import describe_run, find_runs, format_size


def make(path, manifest, outputs=True):
    path.mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps(manifest))
    if outputs:
        (path / "summary.csv").write_text("a,n\nx,1\n")
    return path


def dead_pid():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_find_runs_describes_each_run_and_reports_unreadable_ones(tmp_path):
    argv = ["analyzer", "rikken", "bids", "--deals", "10", "--out", "x", "--workers", "2", "--seed", "4"]
    make(tmp_path / "a", {"analyzer_version": "0.1.0", "argv": argv, "status": "complete", "updated": "2026-01-02",
                          "stages": {"s": {"chunks_done": 3, "chunks_total": 3}}})
    make(tmp_path / "deep" / "b", {"command": "seconds play", "games": 20, "rules": {"x": 1}}, outputs=False)
    make(tmp_path / "a" / "chunks" / "s", {"not": "a run"})  # inside a run: never listed
    make(tmp_path / "bad", {"analyzer_version": "42.0"})
    runs, problems = find_runs(tmp_path)
    by_name = {run.path.name: run for run in runs}
    assert set(by_name) == {"a", "b"}
    a, b = by_name["a"], by_name["b"]
    assert (a.experiment, a.parameters, a.status, a.seed) == ("rikken bids", ["--deals", "10", "--seed", "4"],
                                                               "complete", "4")
    assert (a.chunks_done, a.chunks_total) == (3, 3)
    # Without the batch runner's keys: the command names it, scalar entries are its parameters,
    # and without any output table it is not complete.
    assert (b.experiment, b.parameters, b.status) == ("seconds play", ["games=20"], "incomplete")
    assert [p.name for p, _ in problems] == ["bad"] and "newer" in problems[0][1]
    assert a.size_bytes == sum(f.stat().st_size for f in (tmp_path / "a").rglob("*") if f.is_file())


def test_running_run_without_its_process_shows_as_crashed(tmp_path):
    base = {"analyzer_version": "0.1.0", "status": "running", "host": socket.gethostname()}
    alive = describe_run(make(tmp_path / "alive", {**base, "pid": os.getpid()}))
    gone = describe_run(make(tmp_path / "gone", {**base, "pid": dead_pid()}))
    elsewhere = describe_run(make(tmp_path / "elsewhere", {**base, "pid": dead_pid(), "host": "other-host"}))
    assert (alive.status, gone.status, elsewhere.status) == ("running", "crashed", "running")


def test_find_runs_on_a_file_is_an_error(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(InputError):
        find_runs(tmp_path / "f")


@pytest.mark.parametrize("size, text", [(0, "0 B"), (1023, "1023 B"), (1536, "1.5 KiB"), (3 * 1024 ** 2, "3.0 MiB"),
                                        (5 * 1024 ** 4, "5120.0 GiB")])
def test_format_size(size, text):
    assert format_size(size) == text
