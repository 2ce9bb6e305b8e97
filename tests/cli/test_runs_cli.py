"""Real CLI runs killed part-way and resumed; the catalog, ``runs show`` and one-line errors on bad run dirs."""

import base64
import json
import re
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import typer.main

from analyzer.cli.app import app, main
from analyzer.cli.resume_args import rebuilt_arguments
from analyzer.cli.runs import run_list
from analyzer.errors import InputError

# 30 chunks, each dealt 40 times over, so a run lasts a few seconds and can be stopped part-way.
DEMO = ["runs", "demo", "--deals", "30000", "--chunk-size", "1000", "--rounds", "100", "--seed", "9"]


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=cwd)


def cli(capsys, *args):
    """Run the CLI in this process (fast), with the command line a run records; returns (code, stdout, stderr)."""
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exit_info:
        patch.setattr(sys, "argv", ["analyzer", *args])
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def chunk_files(run_dir):
    """The chunk files a resume reuses: those its ledger records (a kill -9 can orphan the newest file)."""
    from analyzer.reports.integrity import Ledger

    return [run_dir / "chunks" / "deals" / f"chunk-{index:06d}.npz" for index in sorted(Ledger(run_dir, "deals").entries())]


def start_and_stop(args, run_dir, sig, min_chunks=3):
    """Start a CLI run, wait until ``min_chunks`` chunks are on disk, send ``sig``; return (exit code, stderr)."""
    process = subprocess.Popen([sys.executable, "-m", "analyzer", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while len(chunk_files(run_dir)) < min_chunks and process.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the run finished before it could be stopped; make it longer"
    process.send_signal(sig)
    _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run with the same arguments."""
    out = tmp_path_factory.mktemp("reference")
    args = [*DEMO, "--workers", "1", "--out", str(out)]
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exit_info:
        patch.setattr(sys, "argv", ["analyzer", *args])
        main(args)
    assert exit_info.value.code == 0
    return out


def assert_same_outputs(run_dir, reference):
    for name in ("deals",):
        pd.testing.assert_frame_equal(pd.read_parquet(run_dir / name), pd.read_parquet(reference / name))
    pd.testing.assert_frame_equal(pd.read_csv(run_dir / "summary.csv"), pd.read_csv(reference / "summary.csv"))


def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path, reference):
    run_dir = tmp_path / "run"
    code, _ = start_and_stop([*DEMO, "--workers", "1", "--out", str(run_dir)], run_dir, signal.SIGKILL)
    assert code == -signal.SIGKILL
    kept = {path.name: path.stat().st_mtime_ns for path in chunk_files(run_dir)}
    assert 3 <= len(kept) < 30
    assert not (run_dir / "summary.csv").exists()
    listing = run_cli("runs", "--root", str(tmp_path))
    assert "crashed" in listing.stdout  # status "running" but its process is gone
    # Resume from another directory: the recorded command and run directory are used.
    resumed = run_cli("resume", str(run_dir), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert_same_outputs(run_dir, reference)
    # The chunks finished before the kill were reused, not recomputed.
    assert {name: (run_dir / "chunks" / "deals" / name).stat().st_mtime_ns for name in kept} == kept
    assert len(chunk_files(run_dir)) == 30
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["argv"][1:3] == ["runs", "demo"]


def test_sigterm_with_worker_processes_leaves_an_interrupted_run(tmp_path, reference, capsys):
    run_dir = tmp_path / "run"
    code, stderr = start_and_stop([*DEMO, "--workers", "2", "--out", str(run_dir)], run_dir, signal.SIGTERM,
                                  min_chunks=2)
    assert code == 130
    assert f"finish with: analyzer resume {run_dir}" in stderr
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["stages"]["deals"]["chunks_done"] == len(chunk_files(run_dir)) < 30
    code, out, _ = cli(capsys, "runs", "show", str(run_dir))
    assert code == 0 and "status interrupted" in out
    assert cli(capsys, "resume", str(run_dir))[0] == 0
    assert_same_outputs(run_dir, reference)


def test_catalog_show_and_report(reference, tmp_path, capsys):
    code, out, _ = cli(capsys, "runs", "--root", str(reference.parent))
    assert code == 0
    assert "runs demo" in out and "complete" in out and "30/30" in out
    # settings come from the manifest's params, named as the catalog's experiment names them, not from argv
    assert "threshold: 12" in out and "--seed" not in out
    code, out, _ = cli(capsys, "runs", "show", str(reference))
    summary = pd.read_csv(reference / "summary.csv")
    assert code == 0
    assert "summary:" in out and f"{summary['n'][0]:,}" in out and out.rstrip().endswith(f"results in {reference}")
    report = tmp_path / "r.html"
    code, _, err = cli(capsys, "report", str(reference), str(reference), "--out", str(report))
    assert code == 0, err
    text = report.read_text()
    assert "data:image/png;base64," in text and "--seed 9" in text and "Comparison" in text


@pytest.mark.parametrize("width", [80, 120])
def test_the_run_list_reads_at_the_terminal_width(reference, capsys, monkeypatch, tmp_path, width):
    # it was a 200-column table; now each run is a line of facts and its settings wrapped below it
    shutil.copytree(reference, tmp_path / reference.name)  # the reference run alone, not the other tests' runs
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = cli(capsys, "runs", "--root", ".")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["run", "experiment", "status", "chunks", "size", "updated", "(UTC)"]
    assert all(len(line) <= width for line in lines)
    assert lines[1].split()[:4] == [reference.name, "runs", "demo", "complete"]
    settings = " ".join(lines[2:])
    assert "threshold: 12" in settings
    many = run_list([["r", "e", "complete", "1/1", "1 KiB", "2026-12-05 20:58", "; ".join(["policy: x"] * 40)]], 80)
    assert max(len(line) for line in many.splitlines()) <= 80 and many.count("policy: x") == 40
    # a run path too long for one line of facts gets a line of its own, its facts indented below
    deep = "a-rather-long-folder-name-of-a-run/schnapsen-match-20261205T203000Z"
    long = run_list([[deep, "schnapsen-match", "complete", "1/1", "252.0 KiB", "2026-12-05 21:25", "a: heuristic"]], 80)
    assert max(len(line) for line in long.splitlines()) <= 80
    assert long.splitlines()[2:4] == [deep, "    schnapsen-match  complete  1/1     252.0 KiB  2026-12-05 21:25"]


@pytest.mark.parametrize("manifest, message", [
    (None, "not a run directory"),
    ("{broken", "corrupt"),
    (json.dumps({"analyzer_version": "99.0"}), "newer"),
    (json.dumps({"analyzer_version": "0.0.1", "format_version": 7}), "run format"),
])
@pytest.mark.parametrize("command", [["resume"], ["runs", "show"], ["report"]])
def test_bad_run_directories_give_one_line_errors(tmp_path, capsys, manifest, message, command):
    if manifest is not None:
        (tmp_path / "manifest.json").write_text(manifest)
    code, _, err = cli(capsys, *command, str(tmp_path))
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_resume_refuses_a_run_still_in_progress(tmp_path, capsys):
    manifest = {"analyzer_version": "0.1.0", "argv": ["analyzer", *DEMO], "status": "running", "pid": os.getpid(),
                "host": socket.gethostname()}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "resume", str(tmp_path))
    assert code == 2 and "still running" in err


def test_resume_needs_a_recorded_command(tmp_path, capsys):
    (tmp_path / "manifest.json").write_text(json.dumps({"analyzer_version": "0.0.1", "command": "seconds play"}))
    code, _, err = cli(capsys, "resume", str(tmp_path))
    assert code == 2 and "records no command line" in err


def test_resume_keeps_the_original_working_directory(tmp_path, capsys, monkeypatch):
    # A default --out is relative to where the run started; resume must write there, not in its own directory.
    workdir = tmp_path / "work"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    code, first, _ = cli(capsys, "runs", "demo", "--deals", "2000", "--chunk-size", "1000", "--workers", "1")
    assert code == 0
    [run_dir] = (workdir / "results").iterdir()
    os.remove(run_dir / "summary.csv")
    monkeypatch.chdir(tmp_path)
    code, resumed, _ = cli(capsys, "resume", str(run_dir.relative_to(tmp_path)))
    assert code == 0
    # Resumed from elsewhere, it prints the folder as a path that works from there: absolute.
    assert resumed.splitlines()[-1] == f"results in {run_dir.resolve()}"
    assert (run_dir / "summary.csv").exists()
    assert not (tmp_path / "results").exists()
    assert len(list((workdir / "results").iterdir())) == 1
    # Resumed from where it started, it prints the paths the run printed.
    os.remove(run_dir / "summary.csv")
    monkeypatch.chdir(workdir)
    code, again, _ = cli(capsys, "resume", str(run_dir.relative_to(workdir)))
    assert code == 0
    assert first.splitlines()[-1] == again.splitlines()[-1] == f"results in results/{run_dir.name}"


@pytest.mark.slow
def test_killed_rikken_bids_run_resumes_to_the_uninterrupted_result(tmp_path, capsys):
    args = ["rikken", "bids", "--deals", "600", "--chunk-size", "20", "--seed", "5", "--workers", "1"]
    reference = tmp_path / "reference"
    assert cli(capsys, *args, "--out", str(reference))[0] == 0
    run_dir = tmp_path / "run"
    stage = run_dir / "chunks" / "stage-00"
    process = subprocess.Popen([sys.executable, "-m", "analyzer", *args, "--out", str(run_dir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while len(list(stage.glob("chunk-*.npz")) if stage.is_dir() else []) < 3 and time.time() < deadline:
        time.sleep(0.02)
    process.kill()
    process.wait()
    assert 3 <= len(list(stage.glob("chunk-*.npz"))) < 30
    assert run_cli("resume", str(run_dir)).returncode == 0
    for name in ("hands",):
        pd.testing.assert_frame_equal(pd.read_parquet(run_dir / name), pd.read_parquet(reference / name))
    for name in ("summary.csv", "bidding_chart.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(run_dir / name), pd.read_csv(reference / name))


ROOT = typer.main.get_command(app)


def _option(args, name):
    return args[args.index(name) + 1]


@pytest.mark.parametrize("args", [["rikken", "bids", "--out", "rel/x", "--deals", "5"],
                                  ["rikken", "bids", "--out=rel/x", "--deals=5"], ["rikken", "bids", "--deals", "5"]])
def test_resume_rebuilds_the_command_pointed_at_the_run_directory(args):
    rebuilt = rebuilt_arguments(ROOT, ["analyzer", *args], Path("/abs/run"))
    assert rebuilt[:2] == ["rikken", "bids"] and rebuilt.count("--out") == 1
    assert _option(rebuilt, "--out") == "/abs/run" and _option(rebuilt, "--deals") == "5"
    assert not any(a.startswith("--out=") or a == "rel/x" for a in rebuilt)


def test_a_rebuilt_command_keeps_positional_arguments_and_flags():
    rebuilt = rebuilt_arguments(ROOT, ["analyzer", "rikken", "advise", "AKQT86.A2.K73.95", "--deals", "7", "--json"],
                                Path("/r"))
    assert rebuilt[-2:] == ["--", "AKQT86.A2.K73.95"] and "--json" in rebuilt and _option(rebuilt, "--deals") == "7"


@pytest.mark.parametrize("args, option, values", [
    (["schnapsen", "match", "--bots", "rollout:1", "random", "-n", "4"], "--bots", ["rollout:1", "random"]),
    (["rikken", "bids", "--hcp", "10-12", "--hcp", "13-15", "-n", "5"], "--hcp", ["10-12", "13-15"]),
    (["seconds", "play", "--param", "n_samples=2", "--param", "max_tries=3"], "--param", ["n_samples=2", "max_tries=3"]),
])
def test_a_rebuilt_command_gives_each_option_its_values_and_parses_again(args, option, values):
    # an option of two values (--bots A B) is written once with both; a repeatable one once per value
    rebuilt = rebuilt_arguments(ROOT, ["analyzer", *args], Path("/r"))
    starts = [i for i, word in enumerate(rebuilt) if word == option]
    given = [rebuilt[i + 1 + k] for i in starts for k in range(len(values) // len(starts))]
    assert given == values and len(starts) == (1 if option == "--bots" else len(values))
    assert rebuilt_arguments(ROOT, ["analyzer", *rebuilt], Path("/r")) == rebuilt


@pytest.mark.parametrize("argv, words", [
    (["analyzer", "rikken", "strategy", "fit", "/some/run", "--out", "/tmp/elsewhere"], "not a batch experiment"),
    (["analyzer", "report", "/some/run", "--out", "/tmp/elsewhere.html"], "not a batch experiment"),
    (["analyzer", "rikken", "bids", "--deals", "-5"], "does not parse"),
    (["analyzer", "rikken", "bids", "--evil", "x"], "does not parse"),
    ("rikken bids", "records no command line"),
    (["analyzer", "rikken", 5], "records no command line"),
])
def test_resume_refuses_a_recorded_command_it_cannot_validate(argv, words):
    with pytest.raises(InputError, match=words):
        rebuilt_arguments(ROOT, argv, Path("/abs/run"))


@pytest.mark.parametrize("form", ["separate", "joined"])
def test_a_recorded_scheduler_is_never_contacted_nor_passed_on(form):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.5)
        address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        option = ["--scheduler", address] if form == "separate" else [f"--scheduler={address}"]
        rebuilt = rebuilt_arguments(ROOT, ["analyzer", "rikken", "bids", "--deals", "5", *option], Path("/abs/run"))
        with pytest.raises(TimeoutError):
            listener.accept()
    assert not any(a.startswith("--scheduler") or address in a for a in rebuilt)
    assert _option(rebuilt, "--deals") == "5"


@pytest.mark.parametrize("args", [["runs", "demo", "--deals", "2000", "--chunk-size", "1000", "--workers", "1"],
                                  ["rikken", "bids", "--deals", "4", "--chunk-size", "2", "--workers", "1"]])
def test_resume_refuses_pickled_chunks_without_writing_anything(tmp_path, capsys, args):
    run_dir = tmp_path / "run"
    assert cli(capsys, *args, "--out", str(run_dir))[0] == 0
    marker = tmp_path / "code-ran"
    [stage] = (run_dir / "chunks").iterdir()
    (stage / "chunk-000000.pkl").write_bytes(b"\x80\x04" + str(marker).encode())
    before = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    code, _, err = cli(capsys, "resume", str(run_dir))
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(errors) == 1 and "pickled chunks of an older analyzer" in errors[0]
    assert {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()} == before


class _Marker:
    """Unpickling this creates the marker file: proof that code ran."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_crafted_manifest_naming_a_pickled_strategy_runs_no_code(tmp_path, capsys):
    import pickle

    marker = tmp_path / "code-ran"
    evil = tmp_path / "evil.joblib"
    evil.write_bytes(pickle.dumps(_Marker(marker)))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "manifest.json").write_text(json.dumps({"status": "interrupted", "argv": [
        "analyzer", "rikken", "play", "--rounds", "4", "--bidding", f"learned:{evil}", "--out", "/tmp/elsewhere"]}))
    code, _, err = cli(capsys, "resume", str(run_dir))
    assert code == 2 and "older pickled one is never opened" in err
    assert not marker.exists() and sorted(p.name for p in run_dir.iterdir()) == ["manifest.json"]


def test_runs_show_cuts_long_tables_as_the_report_does_within_80_columns(tmp_path, capsys, monkeypatch):
    """A hand-built rikken-bids run: its 25-row summary shows the 3 headline rows (each contract over all
    hands, as the report's), says where every row is, and its long settings line is wrapped to 80 columns."""
    run = tmp_path / "run"
    run.mkdir()
    params = {"policy": "heuristic", "declarer_policy": "heuristic", "defender_policy": "random",
              "dealing": "random"}
    (run / "manifest.json").write_text(json.dumps({
        "analyzer_version": "0.1.0", "argv": ["analyzer", "rikken", "bids", "--out", str(run)], "seed": 1,
        "experiment": "rikken-bids", "status": "complete", "params": params}))
    features = ["all"] * 3 + ["hcp"] * 22
    pd.DataFrame({"contract": [f"c{i}" for i in range(25)], "feature": features, "bin": ["all"] * 3 + ["5"] * 22,
                  "n": range(100, 125)}).to_csv(run / "summary.csv", index=False)
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = cli(capsys, "runs", "show", str(run))
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines if re.match(r"\s*c\d", line)] == ["c0", "c1", "c2"]
    assert f"summary(headlinerows:3of25;allin{run / 'summary.csv'}):" in "".join(out.split())  # wrapped
    assert "defender policy: random" in " ".join(lines)
    assert [line for line in lines if len(line) > 80 and str(tmp_path) not in line] == []


def test_report_and_runs_show_head_columns_in_words_and_the_csv_keeps_field_names(tmp_path, capsys):
    """One heading map for both: a bids run's ``mean_score`` reads ``money/hand`` (as the bids command's own
    table says), ``best_ev_value`` ``its money/hand``, ``hcp_bin`` ``HCP``; the CSV keeps the field names that
    ``query`` uses."""
    from analyzer.reports.report import build_report

    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({
        "analyzer_version": "0.1.0", "argv": ["analyzer", "rikken", "bids", "--out", str(run)], "seed": 1,
        "experiment": "rikken-bids", "status": "complete", "params": {"policy": "heuristic", "dealing": "random"}}))
    columns = ["hcp_bin", "n", "mean_score", "best_ev_value"]
    pd.DataFrame({"hcp_bin": ["10-12"], "n": [40], "mean_score": [1.25], "best_ev_value": [0.5]}).to_csv(
        run / "summary.csv", index=False)
    words = ["HCP", "n", "money/hand", "its money/hand"]
    code, out, _ = cli(capsys, "runs", "show", str(run))
    assert code == 0
    header = next(line for line in out.splitlines() if "HCP" in line)
    assert "best_ev_value" not in out and "mean_score" not in out
    assert [header.index(word) for word in words] == sorted(header.index(word) for word in words)
    text = build_report([run], "html").text
    assert re.findall(r"<th>([^<]+)</th>", text) == words
    [csv] = re.findall(r'href="data:text/csv;base64,([^"]+)"', text)
    assert base64.b64decode(csv).decode().splitlines()[0] == ",".join(columns)


def test_a_schnapsen_runs_bots_read_as_typed(tmp_path, capsys):
    """A match of ``heuristic`` against ``pimc:24`` lists its bots so, not as stored (the heuristic's unused
    sample count: ``heuristic (samples 12)``)."""
    from analyzer.games.schnapsen.experiments import Bot, HeuristicParams

    run = tmp_path / "match"
    run.mkdir()
    params = {"a": Bot("heuristic", 12, HeuristicParams()).as_dict(), "b": Bot("pimc", 24, HeuristicParams()).as_dict()}
    (run / "manifest.json").write_text(json.dumps({
        "analyzer_version": "0.1.0", "argv": ["analyzer", "schnapsen", "match", "--out", str(run)], "seed": 1,
        "experiment": "schnapsen-match", "status": "complete", "params": params}))
    code, out, _ = cli(capsys, "runs", "show", str(run))
    assert code == 0 and "a: heuristic; b: pimc:24" in out and "samples" not in out
