"""What an experiment command prints: its tables headed in words, as its report and ``runs show`` head them."""

from types import SimpleNamespace

import pandas as pd

from analyzer.cli.running import run_and_print
from analyzer.experiments import experiment as experiment_module


def test_an_experiments_tables_are_headed_in_words(monkeypatch, capsys, tmp_path):
    # schnapsen match's overall table, as its summary shows it
    table = pd.DataFrame({"bot_a": ["heuristic"], "bot_b": ["random"], "matches": [60], "a_win_rate": [1.0],
                          "a_win_lo": [0.94], "a_win_hi": [1.0], "a_gp_per_deal": [2.1]})
    summary = SimpleNamespace(shown=[("overall", table)], payload={})
    monkeypatch.setattr(experiment_module, "run_experiment",
                        lambda *args, **kwargs: (SimpleNamespace(root=tmp_path), summary))
    run_and_print(SimpleNamespace(name="schnapsen-match"), None, out=None, workers=1, scheduler=None, json_out=False)
    out = capsys.readouterr().out
    header = out.splitlines()[1]
    assert [word in header for word in ("bot A", "bot B", "A win rate", "A game points/deal")] \
        == [True] * 4
    assert "_" not in header
    assert "100.0% [94.0, 100.0]" in out and out.endswith(f"results in {tmp_path}\n")
