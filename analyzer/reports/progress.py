"""Progress bars for long runs (rich, on stderr so ``--json`` output stays clean)."""

import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def chunk_progress(description: str, n_chunks: int, n_items: int, *, chunks_done: int = 0, items_done: int = 0,
                   console: Console | None = None):
    """Show a bar over ``n_items`` while chunks complete; yields ``advance(count)``, called once per chunk.

    The bar shows items and chunks done, the rate of this session and the ETA. Chunks reused from an
    earlier, interrupted session (``chunks_done``, ``items_done``) start the bar part-full without
    inflating the rate. By default the bar goes to stderr and is hidden when stderr is not a terminal,
    so logs and CI output stay readable; a given ``console`` always shows it.
    """
    hidden = console is None and not sys.stderr.isatty()
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("chunks {task.fields[chunks]}"), TextColumn("{task.fields[rate]}"),
                        TimeElapsedColumn(), TimeRemainingColumn(),
                        console=console or Console(stderr=True), disable=hidden, transient=False)
    state = {"chunks": chunks_done, "items": 0}
    with progress:
        task_id = progress.add_task(description, total=n_items, completed=items_done,
                                    chunks=f"{chunks_done}/{n_chunks}", rate="")

        def advance(count: int) -> None:
            state["chunks"] += 1
            state["items"] += count
            progress.update(task_id, advance=count, chunks=f"{state['chunks']}/{n_chunks}")
            elapsed = progress.tasks[0].elapsed or 0.0
            if elapsed > 0:
                progress.update(task_id, rate=format_rate(state["items"] / elapsed))

        yield advance


def format_rate(per_second: float) -> str:
    """A rate that stays readable for slow runs: ``12,346/s``, ``3.5/s``, or per minute below one a second."""
    if per_second >= 10:
        return f"{per_second:,.0f}/s"
    if per_second >= 1:
        return f"{per_second:.1f}/s"
    return f"{60 * per_second:.2g}/min"
