"""The play-strength script's ``--sdd-trick-weight``: refused when negative, set before play, kept with ``--out``."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import rikken_play_strength  # noqa: E402
from analyzer.experiments.code_digest import code_digest  # noqa: E402
from analyzer.games.rikken import sampled_dd  # noqa: E402

# Plays nothing: an empty folder's table with --saved-only (only the options are parsed and checked).
_QUIET = ["--seed", "5", "--deals", "1", "--contracts", "rik", "--saved-only"]


def run(monkeypatch, *options):
    """``main`` with ``options``; sampled-dd's weight restored by ``monkeypatch`` afterwards."""
    monkeypatch.setattr(sampled_dd, "TRICK_WEIGHT", sampled_dd.TRICK_WEIGHT)
    monkeypatch.setattr(sys, "argv", ["rikken_play_strength.py", *options])
    rikken_play_strength.main()


@pytest.mark.parametrize("weight", ["-0.5", "nan"])
def test_a_bad_weight_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path, weight):
    with pytest.raises(SystemExit) as stop:
        run(monkeypatch, *_QUIET, "--out", str(tmp_path), "--sdd-trick-weight", weight)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--sdd-trick-weight" in err


def test_the_weight_is_set_printed_and_saved(monkeypatch, capsys, tmp_path):
    run(monkeypatch, *_QUIET, "--out", str(tmp_path), "--sdd-trick-weight", "0")
    assert sampled_dd.TRICK_WEIGHT == 0.0
    assert "sampled-dd trick weight 0\n" in capsys.readouterr().out
    assert json.loads((tmp_path / "settings.json").read_text())["sdd_trick_weight"] == 0.0


def test_a_run_saved_before_the_option_resumes_at_1_32_only(monkeypatch, capsys, tmp_path):
    # The settings such a run saved: everything but the weight, played at the module's 1/32.
    script = rikken_play_strength
    old = {"seed": 5, "deals": 1, "screen": 0, "worlds": script.bots.DEFAULT_WORLDS,
           "dd_budget": script.dd.DECISION_BUDGET, "hand": None, "leader": None, "chunk": 10,
           "code": code_digest()[:16]}
    (tmp_path / "settings.json").write_text(json.dumps(old))
    run(monkeypatch, *_QUIET, "--out", str(tmp_path))
    with pytest.raises(SystemExit) as stop:
        run(monkeypatch, *_QUIET, "--out", str(tmp_path), "--sdd-trick-weight", "0")
    assert stop.value.code == 2
    assert "sdd_trick_weight 0.03125 -> 0.0" in capsys.readouterr().err
