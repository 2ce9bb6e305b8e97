"""Interval estimates used in every summary table.

Rates take their intervals from statsmodels (Wilson score; Newcombe's hybrid score for a difference
of two rates). The means' normal intervals from counts, sums and sums of squares are this module's
own: no library takes merged moments.
"""

import warnings

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def _alpha(z: float) -> float:
    """The two-sided error level of a ``z`` interval (``Z95`` -> 0.05)."""
    from scipy.stats import norm

    return float(2.0 * norm.sf(z))


def _scalar_or_array(*values):
    if all(np.ndim(value) == 0 for value in values):
        return tuple(float(v) for v in values)
    return tuple(np.asarray(v, dtype=np.float64) for v in values)


def wilson_interval(successes, n, z: float = Z95):
    """Wilson score interval for a binomial rate (vectorised; n = 0 gives NaN bounds), by statsmodels.

    Returns
    -------
    tuple of numpy.ndarray or float
        ``(low, high)``.
    """
    from statsmodels.stats.proportion import proportion_confint

    k = np.asarray(successes, dtype=np.float64)
    total = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # n = 0: statsmodels' bounds are NaN, as wanted
        low, high = proportion_confint(k, total, alpha=_alpha(z), method="wilson")
    # k = n and k = 0 have the bound 1 and 0 exactly; the float formula gives 0.9999999999999999 for many n,
    # which a table would show as a rate short of certain
    high = np.where((k == total) & (total > 0), 1.0, high)
    low = np.where((k == 0) & (total > 0), 0.0, low)
    return _scalar_or_array(low, high)


def proportion_difference(k_a, n_a, k_b, n_b, z: float = Z95):
    """``p_b - p_a`` of two independent rates with Newcombe's hybrid score interval (method 10 of
    Newcombe 1998), vectorised, by statsmodels; NaN where either sample is empty.

    Returns
    -------
    tuple
        ``(difference, low, high)``.
    """
    from statsmodels.stats.proportion import confint_proportions_2indep

    k_a, n_a, k_b, n_b = (np.asarray(v, dtype=np.float64) for v in (k_a, n_a, k_b, n_b))
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an empty sample: statsmodels' bounds are NaN
        low, high = confint_proportions_2indep(k_b, n_b, k_a, n_a, method="newcomb", compare="diff", alpha=_alpha(z))
        rate_a, rate_b = k_a / n_a, k_b / n_b
    difference = np.where((n_a > 0) & (n_b > 0), rate_b - rate_a, np.nan)
    return _scalar_or_array(difference, low, high)


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation confidence interval: ``(mean, low, high)``."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(x.mean())
    if x.size == 1:
        return mean, float("nan"), float("nan")
    half = z * float(x.std(ddof=1)) / np.sqrt(x.size)
    return mean, mean - half, mean + half


def paired_difference(a, b, z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired observations (same deals) with its interval."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("paired samples must have the same shape")
    return mean_interval(x - y, z)


def moments_interval(n, total, squares, z: float = Z95):
    """Mean with a normal-approximation interval from a sample's count, sum and sum of squares.

    The merge-friendly form of :func:`mean_interval` (vectorised): chunk summaries add up their
    ``(n, total, squares)`` and the interval is taken once at the end. Sums of integer-valued
    scores stay exact in float64 far beyond any run size, so the variance needs no streaming update.

    Returns
    -------
    tuple of numpy.ndarray or float
        ``(mean, low, high)``; NaN bounds where ``n < 2``, NaN everything where ``n == 0``.
    """
    n = np.asarray(n, dtype=np.float64)
    total = np.asarray(total, dtype=np.float64)
    squares = np.asarray(squares, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        variance = np.maximum(squares - n * mean * mean, 0.0) / (n - 1)
        half = np.where(n > 1, z * np.sqrt(variance / n), np.nan)
    low, high = mean - half, mean + half
    if np.ndim(mean) == 0:
        return float(mean), float(low), float(high)
    return mean, low, high


def group_moments(codes, values: dict, size: int) -> dict:
    """Per integer code ``0 .. size-1``: the count and, for each named value array, its sum and sum of
    squares (``<name>_sum``, ``<name>_sq``), as float64 arrays of length ``size``."""
    codes = np.asarray(codes, dtype=np.int64)
    out = {"n": np.bincount(codes, minlength=size).astype(np.float64)}
    for name, value in values.items():
        value = np.asarray(value, dtype=np.float64)
        out[f"{name}_sum"] = np.bincount(codes, weights=value, minlength=size)
        out[f"{name}_sq"] = np.bincount(codes, weights=value * value, minlength=size)
    return out


def merge_sums(parts: list[dict]) -> dict:
    """Add up per-chunk aggregates given as dicts of frames indexed by group.

    Parameters
    ----------
    parts : list of dict of str to pandas.DataFrame
        One aggregate per chunk, all with the same names; each frame holds counts and sums (never
        means), indexed by its group key, so rows of the same group add up.

    Returns
    -------
    dict of str to pandas.DataFrame
        Per name, one row per group seen in any part (sorted by the index) with the summed columns.
    """
    merged = {}
    for name in parts[0]:
        frames = [part[name] for part in parts]
        levels = list(range(frames[0].index.nlevels))
        merged[name] = pd.concat(frames).groupby(level=levels, sort=True).sum()
    return merged


def histogram_quantile(values, counts, q: float) -> float:
    """Quantile ``q`` of a sample given as a histogram of its distinct values, with the linear
    interpolation of ``numpy.quantile`` (pandas' default), so a histogram gives the quantile of the
    sample it counts; NaN for an empty sample.

    Parameters
    ----------
    values : array_like
        The distinct values, in any order.
    counts : array_like
        How often each value occurs.
    q : float
        Quantile in ``[0, 1]``.
    """
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    order = np.argsort(values)
    values, ends = values[order], np.cumsum(counts[order])
    n = int(ends[-1]) if ends.size else 0
    if n == 0:
        return float("nan")
    position = (n - 1) * q
    below = int(np.floor(position))
    # Value of the k-th smallest observation (0-based): the first value whose running count exceeds k.
    low = values[np.searchsorted(ends, below, side="right")]
    high = values[np.searchsorted(ends, min(below + 1, n - 1), side="right")]
    return float(low + (high - low) * (position - below))
