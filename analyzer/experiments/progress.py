"""Progress from inside a chunk: a task calls ``report_items()`` as its deals or rounds finish
(``report_step`` where its loop is over something else).

The runner's bar then moves within long chunks and its ETA starts from the first items rather than
the first chunk. The task contract is unchanged: a task that never calls these moves the bar once
per chunk, and so does any task run where nothing listens (outside ``run_chunks``, on Dask).
Counts are batched into at most one message per ``REPORT_INTERVAL`` seconds, so calling it once
per item costs a clock read; the chunk's completion accounts for whatever was not yet sent."""

import threading
import time
from typing import Callable

REPORT_INTERVAL = 0.2

# The listener of the chunk running in this thread: sink(chunk start, items), or None.
_current = threading.local()


def report_items(count: int = 1) -> None:
    """Tell the runner that ``count`` more items of the running chunk are done.

    Parameters
    ----------
    count : int
        Items finished since the last call.
    """
    sink = getattr(_current, "sink", None)
    if sink is None:
        return
    _current.pending += count
    now = time.monotonic()
    if now - _current.sent >= REPORT_INTERVAL:
        sink(_current.start, _current.pending)
        _current.pending, _current.sent = 0, now


def report_step(step: int, steps: int) -> None:
    """Tell the runner that step ``step`` (counted from 1) of the running chunk's ``steps`` is done.

    For loops that are not over the chunk's items (the setups of several contracts per deal, the
    rounds left after passed-out deals): the chunk's items are spread evenly over the steps, so
    calling this for every step reports each item once.

    Parameters
    ----------
    step : int
        The step just finished, ``1 .. steps``.
    steps : int
        Steps in the loop.
    """
    count = getattr(_current, "count", 0)
    items = count * step // steps - count * (step - 1) // steps
    if items:
        report_items(items)


def run_reporting(sink: Callable[[int, int], None], task, params, start: int, count: int, seed_seq):
    """Run ``task(params, start, count, seed_seq)`` with its ``report_items`` counts sent to ``sink``.

    Parameters
    ----------
    sink : callable
        Called as ``sink(start, items)`` with the items done since its previous call.
    task, params, start, count, seed_seq
        The chunk, as ``run_chunks`` passes it.

    Returns
    -------
    object
        The task's result.
    """
    _current.sink, _current.start, _current.count = sink, start, count
    _current.pending, _current.sent = 0, time.monotonic()
    try:
        return task(params, start, count, seed_seq)
    finally:
        _current.sink = None
