"""``rikken solve``'s table as a person sees it at 80 and 120 columns: no count split over two lines."""

import pytest

from analyzer.cli.rikken import _print_tables

# Three rows whose counts a budget left undecided, each with four calls: 3 + 12 intervals in the table.
_CALLS = {f"{suit}A": {"blind": suit == "C", "partner": "E", "tricks": [8, 13]} for suit in "CDHS"}
_ROWS = [{"declarer": "N", "trump": trump, "alone": [8, 13], "calls": _CALLS} for trump in "CDH"]
_MISERY = [{"declarer": "N", "misery": False, "one_alone": True}]


@pytest.mark.parametrize("columns", [80, 120])
def test_every_interval_of_the_solve_table_stays_on_one_line(columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", str(columns))
    _print_tables(_ROWS, _MISERY, 0)
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert sum(line.count("[8, 13]") for line in lines) == 15
