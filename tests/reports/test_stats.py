"""Interval estimates against textbook values."""

import numpy as np
import pytest

import pandas as pd

from analyzer.reports.stats import (
    group_moments,
    histogram_quantile,
    mean_interval,
    merge_sums,
    moments_interval,
    paired_difference,
    proportion_difference,
    wilson_interval,
)


def test_wilson_matches_published_example():
    # Newcombe (1998), Table I: 81 successes of 263 -> 95% Wilson interval 0.2553 .. 0.3662.
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)


def test_wilson_edges_and_vectorised():
    low, high = wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert low[0] == 0.0 and 0.0 < high[0] < 0.35
    assert high[1] == pytest.approx(1.0) and 0.65 < low[1] < 1.0
    # n of n is bounded by 1 exactly, 0 of n by 0 (the float formula gives 0.9999999999999999 for 622 n < 2,000)
    n = np.arange(1, 2000)
    assert np.all(wilson_interval(n, n)[1] == 1.0) and np.all(wilson_interval(0 * n, n)[0] == 0.0)


def test_mean_interval_normal_approximation():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    mean, low, high = mean_interval(values)
    half = 1.959963984540054 * np.std(values, ddof=1) / 2
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))


def test_paired_difference_uses_differences():
    a = np.array([3.0, 5.0, 7.0])
    b = a - 1.0
    mean, low, high = paired_difference(a, b)
    assert mean == 1.0 and low == high == 1.0


# Independent oracles: scipy's Wilson bounds (binomtest), published values, statistics of raw samples.


def test_wilson_agrees_with_scipy_on_a_grid():
    from scipy.stats import binomtest

    n = np.array([1, 2, 3, 7, 10, 50, 263, 1000])
    for total in n:
        k = np.arange(total + 1)
        low, high = wilson_interval(k, np.full_like(k, total))
        for i, successes in enumerate(k):
            expected = binomtest(int(successes), int(total)).proportion_ci(0.95, method="wilson")
            assert (low[i], high[i]) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_wilson_of_an_empty_sample_is_undefined_and_scalars_stay_scalars():
    low, high = wilson_interval(0, 0)
    assert np.isnan(low) and np.isnan(high)
    low, high = wilson_interval(np.array([0, 3]), np.array([0, 4]))
    assert np.isnan(low[0]) and 0 < low[1] < 0.75 < high[1]
    assert isinstance(wilson_interval(2, 5)[0], float)


def test_wilson_at_another_level_matches_scipy():
    from scipy.stats import binomtest

    low, high = wilson_interval(7, 20, z=2.5758293035489004)
    expected = binomtest(7, 20).proportion_ci(0.99, method="wilson")
    assert (low, high) == pytest.approx((expected.low, expected.high), abs=1e-12)


@pytest.mark.parametrize("k_a, n_a, k_b, n_b, low, high", [
    # Newcombe (1998), Table II, method 10, p_1 - p_2 for 56/70 - 48/80 and 10/10 - 0/20, read as B - A.
    (48, 80, 56, 70, 0.0524, 0.3339),
    (0, 20, 10, 10, 0.6791, 1.0000),
])
def test_proportion_difference_matches_newcombes_published_intervals(k_a, n_a, k_b, n_b, low, high):
    difference, lo, hi = proportion_difference(k_a, n_a, k_b, n_b)
    assert difference == pytest.approx(k_b / n_b - k_a / n_a)
    assert (lo, hi) == pytest.approx((low, high), abs=1e-4)


def test_proportion_difference_is_built_from_the_two_wilson_intervals():
    from scipy.stats import binomtest

    rng = np.random.default_rng(38)
    n_a, n_b = rng.integers(1, 200, 40), rng.integers(1, 200, 40)
    k_a, k_b = rng.integers(0, n_a + 1), rng.integers(0, n_b + 1)
    difference, low, high = proportion_difference(k_a, n_a, k_b, n_b)
    for i in range(40):
        a = binomtest(int(k_a[i]), int(n_a[i])).proportion_ci(method="wilson")
        b = binomtest(int(k_b[i]), int(n_b[i])).proportion_ci(method="wilson")
        p_a, p_b = k_a[i] / n_a[i], k_b[i] / n_b[i]
        assert low[i] == pytest.approx(p_b - p_a - np.hypot(p_b - b.low, a.high - p_a), abs=1e-9)
        assert high[i] == pytest.approx(p_b - p_a + np.hypot(b.high - p_b, p_a - a.low), abs=1e-9)
    for empty in ((1, 0, 1, 2), (1, 2, 1, 0), (0, 0, 0, 0)):
        assert all(np.isnan(proportion_difference(*empty)))


def test_moments_interval_equals_the_interval_of_the_raw_sample():
    from scipy import stats

    rng = np.random.default_rng(5)
    for size in (2, 3, 17, 400):
        x = rng.integers(-30, 31, size).astype(float)
        mean, low, high = moments_interval(x.size, x.sum(), (x * x).sum())
        expected = stats.norm.interval(0.95, loc=x.mean(), scale=stats.sem(x))
        assert (mean, low, high) == pytest.approx((x.mean(), *expected), rel=1e-12, abs=1e-12)
        assert mean_interval(x) == pytest.approx((x.mean(), *expected), rel=1e-12, abs=1e-12)
    mean, low, high = moments_interval(1, 4.0, 16.0)
    assert mean == 4.0 and np.isnan(low) and np.isnan(high)
    assert all(np.isnan(moments_interval(0, 0.0, 0.0)))


def test_group_moments_and_merged_sums_match_pandas():
    rng = np.random.default_rng(6)
    codes, values = rng.integers(0, 4, 300), rng.normal(size=300)
    out = group_moments(codes, {"v": values}, 5)
    frame = pd.DataFrame({"c": codes, "v": values})
    grouped = frame.groupby("c")["v"]
    np.testing.assert_allclose(out["n"][:4], grouped.size().to_numpy())
    np.testing.assert_allclose(out["v_sum"][:4], grouped.sum().to_numpy())
    np.testing.assert_allclose(out["v_sq"][:4], frame.assign(q=values ** 2).groupby("c")["q"].sum().to_numpy())
    assert out["n"][4] == 0
    parts = [{"t": frame.iloc[:100].groupby("c").sum()}, {"t": frame.iloc[100:].groupby("c").sum()}]
    pd.testing.assert_frame_equal(merge_sums(parts)["t"], frame.groupby("c").sum())


def test_histogram_quantile_equals_numpy_on_the_expanded_sample():
    rng = np.random.default_rng(7)
    for _ in range(30):
        values = rng.choice(np.arange(-5, 15), size=rng.integers(1, 8), replace=False)
        counts = rng.integers(0, 6, values.size)
        if counts.sum() == 0:
            continue
        sample = np.repeat(values, counts)
        for q in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0):
            assert histogram_quantile(values, counts, q) == pytest.approx(np.quantile(sample, q))
    assert np.isnan(histogram_quantile([1, 2], [0, 0], 0.5))


def test_empty_and_single_samples_are_undefined_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(np.isnan(mean_interval([])))
        mean, low, high = mean_interval([2.0])
        assert mean == 2.0 and np.isnan(low) and np.isnan(high)
    mean, low, high = moments_interval(3, 6.0, 14.0)
    assert all(isinstance(v, float) for v in (mean, low, high))
    mean, low, high = moments_interval(np.array([3]), np.array([6.0]), np.array([14.0]))
    assert all(isinstance(v, np.ndarray) for v in (mean, low, high))


def test_proportion_difference_of_single_observations():
    from scipy.stats import binomtest

    difference, low, high = proportion_difference(1, 1, 0, 1)
    a, b = binomtest(1, 1).proportion_ci(method="wilson"), binomtest(0, 1).proportion_ci(method="wilson")
    assert difference == -1.0
    assert low == pytest.approx(-1.0 - np.hypot(0.0 - b.low, a.high - 1.0))
    assert high == pytest.approx(-1.0 + np.hypot(b.high - 0.0, 1.0 - a.low))


def test_merge_sums_sorts_groups_and_takes_a_single_part():
    first = pd.DataFrame({"n": [1.0, 2.0]}, index=pd.Index([3, 1], name="g"))
    second = pd.DataFrame({"n": [4.0, 8.0]}, index=pd.Index([2, 3], name="g"))
    merged = merge_sums([{"t": first}, {"t": second}])["t"]
    assert merged.index.tolist() == [1, 2, 3] and merged["n"].tolist() == [2.0, 4.0, 9.0]
    alone = merge_sums([{"t": first}])["t"]
    assert alone.index.tolist() == [1, 3] and alone["n"].tolist() == [2.0, 1.0]


def test_histogram_quantile_of_one_observation_and_of_none():
    assert histogram_quantile([5, 9], [1, 0], 0.5) == 5.0
    assert np.isnan(histogram_quantile([], [], 0.5))
