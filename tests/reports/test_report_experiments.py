"""Reports of real (tiny) runs of every experiment: each opens with findings from its own game, every
chart has a caption, every table column is in the glossary, and no table cell shows float noise.
(About a minute: seven small runs in this process.)"""

import re
import sys

import pandas as pd
import pytest

from analyzer.cli.app import main
from analyzer.cli.catalog import REPORT_SPECS
from analyzer.reports.catalog import figure_files, summary_tables
from analyzer.reports.headings import heading
from analyzer.reports.report import build_report, table_as_shown, without_idle_bounds
from analyzer.reports.report_spec import TableSpec

EXPERIMENTS = {
    "rikken-bids": ["rikken", "bids", "--deals", "40"],
    "rikken-play": ["rikken", "play", "--rounds", "60"],
    "rikken-advise": ["rikken", "advise", "AKQT86.A2.K73.95", "--deals", "60"],
    "schnapsen-match": ["schnapsen", "match", "--bots", "heuristic", "random", "--matches", "4"],
    "schnapsen-closing": ["schnapsen", "closing", "--deals", "3", "--bot", "heuristic"],
    "schnapsen-advise": ["schnapsen", "advise", "hand0=SA ST SK CA HQ; hand1=?; stock=? ? ? ? ? ? ? ? ? SJ; leader=0",
                         "--bot", "heuristic", "-n", "8"],
    "seconds-play": ["seconds", "play", "--players", "3", "--games", "4"],
    "seconds-variants": ["seconds", "variants", "--players", "4", "--deals", "60"],
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One finished run folder per experiment."""
    root = tmp_path_factory.mktemp("runs")
    folders = {}
    for experiment, args in EXPERIMENTS.items():
        out = root / experiment
        argv = [*args, "--seed", "3", "--workers", "1", "--out", str(out)]
        with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as exit_info:
            patch.setattr(sys, "argv", ["analyzer", *argv])
            main(argv)
        assert exit_info.value.code == 0, experiment
        folders[experiment] = out
    return folders


def test_every_experiment_has_a_report_spec():
    assert set(EXPERIMENTS) <= set(REPORT_SPECS)


@pytest.mark.parametrize("experiment", sorted(EXPERIMENTS))
def test_report_of_each_experiment(runs, experiment):
    run = runs[experiment]
    spec = REPORT_SPECS[experiment]
    text = build_report([run], "html", REPORT_SPECS).text
    findings = re.search(r'<ul class="findings">(.*?)</ul>', text).group(1)
    assert "No findings" not in findings and "<li>" in findings
    assert [p.stem for p in figure_files(run) if p.stem not in spec.captions] == []
    glossary = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", text[text.index('<h2 id="glossary">'):]))
    for name, table in summary_tables(run).items():
        # the report leaves out bounds columns when nothing is bounded, and the columns its spec keeps in the CSV
        shown, _, _ = table_as_shown(without_idle_bounds(table), spec.tables.get(name, TableSpec()))
        # An interval's bounds are named in the entry of the value whose cell shows them.
        bounds = {bound for entry in glossary.values()
                  for pair in re.findall(r"in the CSV (\S+) and (\S+)\)", entry) for bound in pair}
        headings = {c: heading(c, experiment) for c in shown.columns}
        missing = [c for c in shown.columns if headings[c] not in glossary and f"{headings[c]} ({name})" not in glossary
                   and c not in bounds]
        assert missing == [], name
    # every column headed in words, not by its field name (best_ev_value, a_gp_per_deal)
    heads = re.findall(r"<th>([^<]+)</th>", text)
    assert heads and not [h for h in heads if "_" in h]
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", text)
    assert cells and not [c for c in cells if re.fullmatch(r"-?[\d.]+e[-+]\d+", c)]


def test_bids_findings_say_where_each_contract_pays():
    """Hand-built summary: rik pays with 5 trumps (exactly MIN_CELL hands) but not with 4; 8-alone's only
    paying bin has one hand too few to count; 9-alone's interval reaches above zero but not its low end."""
    from analyzer.games.rikken.findings import bids_findings
    from analyzer.games.rikken.summary import MIN_CELL

    def row(contract, feature, bin_, n, mean, lo, hi):
        return {"contract": contract, "feature": feature, "bin": bin_, "n": n, "rate": 0.5, "rate_lo": 0.4,
                "rate_hi": 0.6, "mean_score": mean, "score_lo": lo, "score_hi": hi}

    summary = pd.DataFrame([row("rik", "all", "all", 100, 0.2, -0.1, 0.5),
                            row("rik", "trumps", "4", 60, -0.5, -1.0, 0.0),
                            row("rik", "trumps", "5", MIN_CELL, 1.0, 0.5, 1.5),
                            row("8-alone", "all", "all", 100, -3.0, -4.0, -2.0),
                            row("8-alone", "aces", "2", MIN_CELL - 1, 2.0, 1.0, 3.0),
                            row("9-alone", "all", "all", 100, -5.0, -6.0, -4.0),
                            row("9-alone", "trumps", "7", 60, -1.0, -2.0, 0.5)])
    text = " ".join(bids_findings({"summary": summary}, {}))
    assert f"rik with trumps 5 ({MIN_CELL:,} hands)." in text
    assert "Never paying in any such bin: 8-alone, 9-alone." in text
