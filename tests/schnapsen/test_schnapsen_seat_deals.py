"""Seats from the sparring harness's deal rows (scripts/schnapsen_seat_deals.py), on a small run counted by hand."""

import sys
from pathlib import Path

import pandas as pd
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

from schnapsen_seat_deals import bummerls, main, report  # noqa: E402

# pair, our seat, deal, leader, winner, game points, closer: pair 0 won by us in both seats, pair 1 won by
# seat TWO both times, pair 2 cut short after one deal with us as ONE
ROWS = [(0, 0, 0, 1, 0, 3, -1), (0, 0, 1, 0, 0, 2, -1), (0, 0, 2, 1, 0, 2, 0),
        (0, 1, 0, 1, 1, 3, -1), (0, 1, 1, 0, 0, 1, -1), (0, 1, 2, 1, 1, 2, -1), (0, 1, 3, 0, 1, 2, 1),
        (1, 0, 0, 1, 1, 3, -1), (1, 0, 1, 0, 1, 3, 1), (1, 0, 2, 1, 1, 1, -1),
        (1, 1, 0, 1, 1, 3, -1), (1, 1, 1, 0, 1, 2, -1), (1, 1, 2, 1, 1, 2, -1),
        (2, 0, 0, 1, 0, 1, -1)]
COLUMNS = ["pair", "our_seat", "deal", "leader", "winner", "game_points", "closer"]


def deals() -> pd.DataFrame:
    return pd.DataFrame(ROWS, columns=COLUMNS).assign(run=0)


def test_bummerl_winners_from_the_deals():
    b = bummerls(deals())
    assert list(zip(b["pair"], b["our_seat"], b["won"])) == [(0, 0, True), (0, 1, True), (1, 0, False), (1, 1, True)]


def test_report_by_hand():
    lines = report(deals())
    assert lines[0].startswith("Bummerls won as ONE 1/2 = 50.0% [") and "as TWO 2/2 = 100.0% [" in lines[0]
    assert lines[1].startswith("ONE minus TWO -0.500 [")
    assert lines[1].endswith("by ONE 0, by TWO 1 (exact two-sided p 1.000)")
    # the forehand won 8 of 14 deals, net +4 game points; first deals 3 of 5 (+5), later 5 of 9 (-1)
    assert lines[2].startswith("forehand, every deal: won 8/14 = 57.1% [") and "a deal +0.286 [" in lines[2]
    assert lines[3].startswith("forehand, first deals: won 3/5 = 60.0% [") and "a deal +1.000 [" in lines[3]
    assert lines[4].startswith("forehand, later deals: won 5/9 = 55.6% [") and "a deal -0.111 [" in lines[4]
    # ours as forehand 5 of 6 (+9), as dealer 5 of 8 (+5)
    assert lines[5].startswith("our deals as forehand: won 5/6 = 83.3% [") and "a deal +1.500 [" in lines[5]
    assert lines[6].startswith("our deals as dealer: won 5/8 = 62.5% [") and "a deal +0.625 [" in lines[6]


def test_a_file_of_other_columns_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    monkeypatch.setattr(sys, "argv", ["schnapsen_seat_deals.py", str(bad)])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
