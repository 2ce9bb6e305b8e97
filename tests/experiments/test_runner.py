"""The chunk runner: results depend on the seed and chunk size, never on the worker count."""

import time
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.errors import InputError
from analyzer.experiments.progress import report_items, report_step
from analyzer.experiments.runner import plan_chunks, run_chunks


def deal_chunk(params, start, count, seed_seq):
    deals = deal_random(count, seed_seq)
    return pd.DataFrame({"item": np.arange(start, start + count), "north": deals[:, 0] * params["scale"]})


def test_chunks_cover_items_once_with_distinct_seeds():
    chunks = plan_chunks(10, 4, seed=1)
    assert [(c.start, c.count) for c in chunks] == [(0, 4), (4, 4), (8, 2)]
    states = {tuple(c.seed_seq.generate_state(2)) for c in chunks}
    assert len(states) == 3


def test_one_and_two_workers_give_identical_results():
    kwargs = dict(seed=5, chunk_size=25, description="test")
    one = pd.concat(run_chunks(deal_chunk, {"scale": 1}, 100, workers=1, **kwargs))
    two = pd.concat(run_chunks(deal_chunk, {"scale": 1}, 100, workers=2, **kwargs))
    pd.testing.assert_frame_equal(one.reset_index(drop=True), two.reset_index(drop=True))
    assert one["item"].tolist() == list(range(100))


@pytest.mark.parametrize("kwargs", [dict(n_items=-1, chunk_size=5), dict(n_items=5, chunk_size=0)])
def test_bad_sizes_raise(kwargs):
    with pytest.raises(InputError):
        plan_chunks(seed=0, **kwargs)


def slow_reporting_chunk(params, start, count, seed_seq):
    """Items that take a while, each reported as it finishes (by one more than asked, to test the cap)."""
    for _ in range(count):
        time.sleep(params["seconds_per_item"])
        report_items(params.get("report", 1))
    return start


@pytest.fixture
def bar_calls(monkeypatch):
    """The runner's progress bar, replaced by a list of its ``advance(items, chunks)`` calls."""
    calls = []

    @contextmanager
    def recording_bar(description, n_chunks, n_items, **kwargs):
        yield lambda items, chunks=0: calls.append((items, chunks))

    monkeypatch.setattr("analyzer.experiments.runner.chunk_progress", recording_bar)
    return calls


@pytest.mark.parametrize("workers", [1, 2])
def test_items_reported_inside_chunks_move_the_bar_before_the_chunks_end(bar_calls, workers):
    # 0.1 s per item and reports batched per 0.2 s: about two reports within each 0.6 s chunk.
    params = {"seconds_per_item": 0.1}
    results = run_chunks(slow_reporting_chunk, params, 24, seed=1, chunk_size=6, workers=workers)
    assert results == [0, 6, 12, 18]
    inside = [items for items, chunks in bar_calls if chunks == 0]
    assert len(inside) >= 4 and all(items > 0 for items in inside)
    assert sum(items for items, _ in bar_calls) == 24
    assert sum(chunks for _, chunks in bar_calls) == 4


def stepping_chunk(params, start, count, seed_seq):
    """A loop over three steps per item (say, contracts per deal), reported as steps."""
    steps = 3 * count
    for step in range(1, steps + 1):
        time.sleep(0.02)
        report_step(step, steps)
    return start


def test_steps_are_spread_over_the_chunk_items(bar_calls):
    run_chunks(stepping_chunk, {}, 14, seed=1, chunk_size=7, workers=1)
    inside = [items for items, chunks in bar_calls if chunks == 0]
    assert len(inside) >= 2
    # Finishing a chunk adds only what the last, not yet sent batch of steps held.
    assert all(items < 7 for items, chunks in bar_calls if chunks)
    assert sum(items for items, _ in bar_calls) == 14


def test_a_chunk_never_counts_more_items_than_it_has(bar_calls):
    run_chunks(slow_reporting_chunk, {"seconds_per_item": 0.05, "report": 3}, 12, seed=1, chunk_size=6, workers=1)
    assert sum(items for items, _ in bar_calls) == 12
    assert [chunks for _, chunks in bar_calls if chunks] == [1, 1]


def busy_chunk(params, start, count, seed_seq):
    """Chunk 2 (items 4-5) burns 0.3 CPU-s; the others almost none."""
    if start == 4:
        begin = time.process_time()
        while time.process_time() - begin < 0.3:
            pass
    return pd.DataFrame({"item": np.arange(start, start + count)})


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_the_manifest_names_the_costliest_chunks_with_their_cpu(tmp_path, workers):
    """The oracle: the one chunk known to burn CPU comes first, the others near 0, at most SLOWEST_KEPT kept."""
    from analyzer.experiments.runner import SLOWEST_KEPT
    from analyzer.reports.manifest import read_manifest_if_any
    from analyzer.reports.store import RunStore

    store = RunStore(tmp_path)
    run_chunks(busy_chunk, {}, 30, seed=3, chunk_size=2, workers=workers, store=store, stage="busy")
    slowest = read_manifest_if_any(tmp_path)["timings"]["slowest_chunks"]["busy"]
    assert len(slowest) == SLOWEST_KEPT < 15
    assert slowest[0][0] == 2 and slowest[0][1] >= 0.3
    assert all(cpu < 0.15 for _, cpu in slowest[1:]) and 2 not in [chunk for chunk, _ in slowest[1:]]
