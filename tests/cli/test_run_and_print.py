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


def test_an_undefined_cell_is_explained_once_under_its_table(capsys):
    from analyzer.cli.running import print_table

    # rikken play's passed-out row has no make rate: 0 of 0 declarations
    table = pd.DataFrame({"contract": ["rik", "passed-out"], "declared": [10, 0], "make_rate": [0.5, float("nan")]})
    print_table(table, "contracts")
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "" and max(map(len, lines)) <= 80  # wrapped to the terminal
    assert " ".join(lines[-3:-1]) == ("– none, or not defined: a rate or mean over no cases (a contract never "
                                      "declared, say)")
    print_table(table.iloc[:1], "contracts")
    assert "not defined" not in capsys.readouterr().out


def test_a_report_explains_an_undefined_cell_in_its_glossary(tmp_path):
    import json
    import re

    from analyzer.reports.report import build_report

    run = tmp_path / "play"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({
        "analyzer_version": "0.1.0", "argv": ["analyzer", "rikken", "play", "--out", str(run)], "seed": 1,
        "experiment": "rikken-play", "status": "complete", "params": {"policy": "heuristic"}}))
    pd.DataFrame({"contract": ["rik", "passed-out"], "declared": [10, 0], "make_rate": [0.5, None]}).to_csv(
        run / "summary.csv", index=False)
    glossary = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", build_report([run], "html").text))
    assert glossary["–"].startswith("none, or not defined")
