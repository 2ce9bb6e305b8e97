"""The chunk runner: results depend on the seed and chunk size, never on the worker count."""

import numpy as np
import pandas as pd
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.errors import InputError
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
