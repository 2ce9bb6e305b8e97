"""Interval estimates against textbook values."""

import numpy as np
import pytest

from analyzer.reports.stats import mean_interval, paired_difference, wilson_interval


def test_wilson_matches_published_example():
    # Newcombe (1998), Table I: 81 successes of 263 -> 95% Wilson interval 0.2553 .. 0.3662.
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)


def test_wilson_edges_and_vectorised():
    low, high = wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert low[0] == 0.0 and 0.0 < high[0] < 0.35
    assert high[1] == pytest.approx(1.0) and 0.65 < low[1] < 1.0


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
