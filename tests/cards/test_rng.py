"""The kernel PRNG: reproducible streams and unbiased bounded draws."""

import numpy as np

from analyzer.cards.rng import bounded, next_u64, state_from_seed, uniform


def test_same_seed_same_stream():
    a, b = state_from_seed(42), state_from_seed(42)
    assert [next_u64(a) for _ in range(5)] == [next_u64(b) for _ in range(5)]
    c = state_from_seed(43)
    assert next_u64(state_from_seed(42)) != next_u64(c)


def test_bounded_is_uniform_for_small_bounds():
    state = state_from_seed(1)
    n, draws = 7, 70_000
    counts = np.bincount([bounded(state, n) for _ in range(draws)], minlength=n)
    assert counts.size == n
    expected = draws / n
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 24.3  # chi-square 99.95% quantile with 6 degrees of freedom


def test_uniform_in_unit_interval_with_right_mean():
    state = state_from_seed(9)
    values = np.array([uniform(state) for _ in range(20_000)])
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 5 * np.sqrt(1 / 12 / values.size)
