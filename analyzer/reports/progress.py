"""Progress bars for long runs (rich, on stderr so ``--json`` output stays clean)."""

import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


@contextmanager
def chunk_progress(description: str, n_chunks: int, n_items: int, *, chunks_done: int = 0, items_done: int = 0,
                   console: Console | None = None):
    """Show a bar over ``n_items`` while chunks run; yields ``advance(items, chunks=0)``.

    The runner calls ``advance(items)`` as running chunks report items and ``advance(rest, chunks=1)``
    when a chunk finishes, so the bar moves per item where the tasks report them, per chunk where
    they do not. The bar shows items and chunks done, the rate of this session, the time and the ETA,
    within the console's width (the bar shrinks first, then the chunks go, and always when they are the
    items). Chunks reused from an earlier, interrupted session (``chunks_done``, ``items_done``) start the
    bar part-full without inflating the rate. By default the bar goes to stderr and is hidden when
    stderr is not a terminal, so logs and CI output stay readable; a given ``console`` always shows it.
    """
    hidden, console = _hidden(console), console or _stderr_console()
    progress = Progress(*_bar_columns(description, n_chunks, n_items, console.width), console=console,
                        disable=hidden, transient=False)
    state = {"chunks": chunks_done, "items": 0}
    with progress:
        task_id = progress.add_task(description, total=n_items, completed=items_done,
                                    chunks=f"{chunks_done}/{n_chunks}", rate="")

        def advance(items: int, chunks: int = 0) -> None:
            state["chunks"] += chunks
            state["items"] += items
            elapsed = progress.tasks[0].elapsed or 0.0
            rate = format_rate(state["items"] / elapsed) if elapsed > 0 else ""
            progress.update(task_id, advance=items, chunks=f"{state['chunks']}/{n_chunks}", rate=rate)

        yield advance


class _Eta(TimeRemainingColumn):
    """The time left, named: two clock times side by side read alike."""

    def render(self, task) -> Text:
        return Text("ETA ") + super().render(task)


#: Widths of the columns beside the bar and the description: the rate (``123,456/s``), the elapsed time and
#: the ETA (``0:01:30``, ``ETA 0:01:30``), each with the space before it.
_RATE, _ELAPSED, _ETA = 11, 8, 12
_SHORTEST_BAR = 10


def _bar_columns(description: str, n_chunks: int, n_items: int, width: int) -> list:
    """The bar's columns for a console ``width`` wide: rich cuts columns that do not fit to ``…``."""
    counts = 1 + 2 * len(str(n_items)) + 1
    chunks = 1 + len(f"chunks {n_chunks}/{n_chunks}")
    rest = width - len(description) - counts - _RATE - _ELAPSED - _ETA - 1
    show_chunks = n_chunks != n_items and rest - chunks >= _SHORTEST_BAR
    bar = max(_SHORTEST_BAR, rest - (chunks if show_chunks else 0))
    return [TextColumn("[bold]{task.description}"), BarColumn(bar_width=min(40, bar)), MofNCompleteColumn(),
            *([TextColumn("chunks {task.fields[chunks]}")] if show_chunks else []),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), _Eta()]


@contextmanager
def stage(description: str, console: Console | None = None):
    """Show a spinner with ``description`` and the elapsed time while a step runs (summary, charts).

    Like the chunk bar it goes to stderr, hidden when stderr is not a terminal unless ``console`` is
    given; the line goes away when the step is done.
    """
    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                        console=console or _stderr_console(), disable=_hidden(console), transient=True)
    with progress:
        progress.add_task(description, total=None)
        yield


def _stderr_console() -> Console:
    return Console(stderr=True)


def _hidden(console: Console | None) -> bool:
    return console is None and not sys.stderr.isatty()


def format_rate(per_second: float) -> str:
    """A rate that stays readable for slow runs: ``12,346/s``, ``3.5/s``, or per minute below one a second."""
    if per_second >= 10:
        return f"{per_second:,.0f}/s"
    if per_second >= 1:
        return f"{per_second:.1f}/s"
    return f"{60 * per_second:.2g}/min"
