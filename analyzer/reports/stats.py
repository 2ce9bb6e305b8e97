"""Interval estimates used in every summary table."""

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(successes, n, z: float = Z95):
    """Wilson score interval for a binomial rate (vectorised; n = 0 gives NaN bounds).

    Returns
    -------
    tuple of numpy.ndarray or float
        ``(low, high)``.
    """
    k = np.asarray(successes, dtype=np.float64)
    total = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / total
        denom = 1.0 + z * z / total
        centre = (p + z * z / (2.0 * total)) / denom
        half = z * np.sqrt(p * (1.0 - p) / total + z * z / (4.0 * total * total)) / denom
    low, high = centre - half, centre + half
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


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
