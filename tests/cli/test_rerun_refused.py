"""A command pointed at a run directory holding another run refuses with one error line and leaves
every file of that run as it was (the manifest's seed and command included)."""

import sys

import pytest

from analyzer.cli.app import main

COMMANDS = {
    "rikken bids": ["rikken", "bids", "--deals", "4", "--chunk-size", "2"],
    "rikken play": ["rikken", "play", "--rounds", "4", "--chunk-size", "2"],
    "schnapsen match": ["schnapsen", "match", "--bots", "heuristic", "random", "--matches", "2", "--chunk-size", "1"],
    "schnapsen closing": ["schnapsen", "closing", "--bot", "heuristic", "--deals", "20", "--chunk-size", "10"],
    "seconds play": ["seconds", "play", "--games", "2", "--chunk-size", "1"],
    "seconds variants": ["seconds", "variants", "--deals", "4", "--chunk-size", "2"],
    "runs demo": ["runs", "demo", "--deals", "100", "--chunk-size", "50"],
}


def cli(capsys, *args):
    """Run the CLI in this process with the command line a run records; returns (code, stderr)."""
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exit_info:
        patch.setattr(sys, "argv", ["analyzer", *args])
        main(list(args))
    return exit_info.value.code, capsys.readouterr().err


def snapshot(run_dir):
    return {path.relative_to(run_dir): path.read_bytes() for path in sorted(run_dir.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("command", COMMANDS)
def test_another_runs_directory_is_refused_untouched(tmp_path, capsys, command):
    args = [*COMMANDS[command], "--workers", "1", "--out", str(tmp_path)]
    code, err = cli(capsys, *args, "--seed", "1")
    assert code == 0, err
    before = snapshot(tmp_path)
    code, err = cli(capsys, *args, "--seed", "2")
    assert code == 2
    assert err.startswith("error: ") and "different run" in err and len(err.strip().splitlines()) == 1
    assert snapshot(tmp_path) == before


def test_another_experiments_directory_is_refused_untouched(tmp_path, capsys):
    assert cli(capsys, *COMMANDS["runs demo"], "--workers", "1", "--out", str(tmp_path))[0] == 0
    before = snapshot(tmp_path)
    code, err = cli(capsys, *COMMANDS["rikken bids"], "--workers", "1", "--out", str(tmp_path))
    assert code == 2 and "another experiment's run" in err and len(err.strip().splitlines()) == 1
    assert snapshot(tmp_path) == before
