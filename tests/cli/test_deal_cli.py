"""`analyzer rikken deal` and the one-line error contract."""

import json
import subprocess
import sys

import pytest

from analyzer.cards.pbn import parse_deal


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def test_deal_prints_valid_pbn_reproducibly():
    first = run_cli("rikken", "deal", "-n", "3", "--seed", "4")
    assert first.returncode == 0
    lines = first.stdout.strip().splitlines()
    assert len(lines) == 3
    for line in lines:
        parse_deal(line)
    assert run_cli("rikken", "deal", "-n", "3", "--seed", "4").stdout == first.stdout


def test_constrained_deal_json():
    result = run_cli("rikken", "deal", "--hand", "N=AKQJ.AKQJ.AKQJ.A", "--hcp", "E=0-3", "--json")
    assert result.returncode == 0
    payload = json.loads(result.stdout)
    assert payload["deals"][0].startswith("N:AKQJ.AKQJ.AKQJ.A ")


@pytest.mark.parametrize("args", [
    ["rikken", "deal", "--cards", "N=SZ"],
    ["rikken", "deal", "--cards", "N=SA,SA"],
    ["rikken", "deal", "--hand", "N=AKQ.AKQ.AKQ.AKQ"],
    ["rikken", "deal", "-n", "-1"],
    ["rikken", "deal", "--hcp", "N=38-40"],
    ["rikken", "deal", "--bogus"],
])
def test_bad_input_gives_one_line_error_and_exit_2(args):
    result = run_cli(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
