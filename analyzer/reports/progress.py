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


@contextmanager
def chunk_progress(description: str, n_chunks: int, n_items: int, *, chunks_done: int = 0, items_done: int = 0,
                   console: Console | None = None):
    """Show a bar over ``n_items`` while chunks run; yields ``advance(items, chunks=0)``.

    The runner calls ``advance(items)`` as running chunks report items and ``advance(rest, chunks=1)``
    when a chunk finishes, so the bar moves per item where the tasks report them, per chunk where
    they do not. The bar shows items and chunks done, the rate of this session and the ETA. Chunks
    reused from an earlier, interrupted session (``chunks_done``, ``items_done``) start the bar
    part-full without inflating the rate. By default the bar goes to stderr and is hidden when
    stderr is not a terminal, so logs and CI output stay readable; a given ``console`` always shows it.
    """
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("chunks {task.fields[chunks]}"), TextColumn("{task.fields[rate]}"),
                        TimeElapsedColumn(), TimeRemainingColumn(),
                        console=console or _stderr_console(), disable=_hidden(console), transient=False)
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
