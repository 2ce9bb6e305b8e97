"""The progress bar: items, chunks done (including chunks reused from an earlier session), rate."""

import io
import re

from rich.console import Console

from analyzer.reports.progress import chunk_progress, format_rate


def test_bar_counts_items_and_chunks_from_a_resumed_start():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=150, color_system=None)
    # 5 chunks of 10 items; 2 were finished in an earlier session.
    with chunk_progress("deals", 5, 50, chunks_done=2, items_done=20, console=console) as advance:
        for _ in range(3):
            advance(10)
    lines = [line for line in out.getvalue().replace("\r", "\n").splitlines() if "deals" in line]
    assert "20/50" in lines[0] and "chunks 2/5" in lines[0]
    final = lines[-1]
    assert "50/50" in final and "chunks 5/5" in final
    assert re.search(r"[\d,]+/s", final)  # the rate of this session's 30 items


def test_bar_is_hidden_without_a_terminal(capsys):
    with chunk_progress("deals", 2, 20) as advance:
        advance(10)
        advance(10)
    assert capsys.readouterr().err == ""


def test_rate_stays_readable_for_slow_runs():
    # Whole items per second hid slow double-dummy runs behind "0/s".
    assert format_rate(12345.6) == "12,346/s"
    assert format_rate(3.456) == "3.5/s"
    assert format_rate(0.2) == "12/min"
    assert format_rate(0.0125) == "0.75/min"
