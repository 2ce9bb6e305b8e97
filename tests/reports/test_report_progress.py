"""The progress bar: items, chunks done (including chunks reused from an earlier session), rate, ETA;
the spinner of the summary and chart steps."""

import io
import re
import time

from rich.console import Console

from analyzer.reports.progress import chunk_progress, format_rate, stage


def terminal():
    out = io.StringIO()
    return out, Console(file=out, force_terminal=True, width=150, color_system=None)


def bar_lines(out, label="deals"):
    return [line for line in out.getvalue().replace("\r", "\n").splitlines() if label in line]


def test_bar_counts_items_and_chunks_from_a_resumed_start():
    out, console = terminal()
    # 5 chunks of 10 items; 2 were finished in an earlier session.
    with chunk_progress("deals", 5, 50, chunks_done=2, items_done=20, console=console) as advance:
        for _ in range(3):
            advance(10, chunks=1)
    lines = bar_lines(out)
    assert "20/50" in lines[0] and "chunks 2/5" in lines[0]
    final = lines[-1]
    assert "50/50" in final and "chunks 5/5" in final
    assert re.search(r"[\d,]+/s", final)  # the rate of this session's 30 items


def test_items_inside_a_chunk_move_the_bar_with_an_eta_before_any_chunk_ends():
    out, console = terminal()
    with chunk_progress("deals", 2, 10, console=console) as advance:
        for _ in range(4):
            time.sleep(0.02)
            advance(1)
    final = bar_lines(out)[-1]
    assert "4/10" in final and "chunks 0/2" in final
    assert "-:--:--" not in final  # rich's "no estimate yet"


def test_bar_is_hidden_without_a_terminal(capsys):
    with chunk_progress("deals", 2, 20) as advance:
        advance(10, chunks=1)
        advance(10, chunks=1)
    with stage("writing summary"):
        pass
    assert capsys.readouterr().err == ""


def test_stage_shows_what_it_is_doing_and_then_goes():
    out, console = terminal()
    with stage("drawing charts", console=console):
        pass
    text = out.getvalue()
    assert "drawing charts" in text and "0:00:00" in text


def test_rate_stays_readable_for_slow_runs():
    # Whole items per second hid slow double-dummy runs behind "0/s".
    assert format_rate(12345.6) == "12,346/s"
    assert format_rate(3.456) == "3.5/s"
    assert format_rate(0.2) == "12/min"
    assert format_rate(0.0125) == "0.75/min"


def test_the_bar_fits_80_columns_whole():
    """At 80 columns every column shows whole (rich cuts one that does not fit to ``…``): the bar shrinks, and
    the chunks go when they count the items again (the strategy fit's contracts) or leave no room."""
    cases = (("fitting on 16,000 hands, 1 thread", 16, 16, "5/16"), ("fitting", 16, 16, "5/16"),
             ("rikken bids", 4, 4000, "1333/4000"),
             ("schnapsen closing", 40, 100_000, "33333/100000"))
    for description, n_chunks, n_items, done in cases:
        out = io.StringIO()
        console = Console(file=out, force_terminal=True, width=80, color_system=None)
        with chunk_progress(description, n_chunks, n_items, console=console) as advance:
            time.sleep(0.1)  # a rate of at most 333,333/s, as fast as runs go
            advance(n_items // 3, chunks=n_chunks // 3)
        final = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", bar_lines(out, description)[-1]).strip()
        assert len(final) <= 80 and "…" not in final, final
        assert final.startswith(description) and f" {done} " in final and " ETA " in final
        assert ("chunks" in final) == (description == "rikken bids")
