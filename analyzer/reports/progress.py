"""Progress bars for long runs (rich, on stderr so ``--json`` output stays clean)."""

import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def chunk_progress(description: str, n_chunks: int, n_items: int):
    """Show a bar over ``n_items`` while chunks complete; yields ``advance(count)``.

    The bar is hidden when stderr is not a terminal, so logs and CI output stay readable.
    """
    console = Console(stderr=True)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                        console=console, disable=not sys.stderr.isatty(), transient=False)
    with progress:
        task_id = progress.add_task(description, total=n_items, rate="")

        def advance(count: int) -> None:
            progress.advance(task_id, count)
            elapsed = progress.tasks[0].elapsed or 0.0
            done = progress.tasks[0].completed
            if elapsed > 0:
                progress.update(task_id, rate=f"{done / elapsed:,.0f}/s")

        yield advance
