"""Comparing the summary tables of two runs: differences of proportions and of means with their
intervals, matched on the tables' key columns (see :mod:`analyzer.reports.report` for the conventions)."""

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.reports.report_spec import MeanMeasure, RateMeasure, TableSpec
from analyzer.reports.stats import Z95, proportion_difference

# A difference is named (in the findings, atop a Differences table) only when both runs measured it on at
# least this many items: a row of three hands can exclude zero by the coarseness of its rates alone.
MIN_SAMPLE = 30

# Columns of a comparison table, as the glossary explains them.
COMPARISON_GLOSSARY = {
    "measure": "the summary column compared",
    "A": "its value in the baseline run (run A)",
    "B": "its value in the compared run",
    "B - A": "the difference, compared run minus baseline",
    "lo": "lower end of the 95% interval of the difference",
    "hi": "upper end of the 95% interval of the difference",
    "n A": "the sample size behind A (hands, deals, matches: the table's count column)",
    "n B": "the sample size behind B",
}


def difference_of_proportions(k_a, n_a, k_b, n_b, z: float = Z95):
    """``p_b - p_a`` with Newcombe's hybrid score interval: see :func:`analyzer.reports.stats.proportion_difference`."""
    return proportion_difference(k_a, n_a, k_b, n_b, z)


def difference_of_means(mean_a, low_a, high_a, mean_b, low_b, high_b):
    """``mean_b - mean_a`` for independent samples, each given with its interval (both of one level, which
    the difference's interval keeps).

    A symmetric interval is sampling error alone, and two of them combine in quadrature. One that
    reaches further on one side also carries a bound (a dd run's stopped counts: the mean is the low
    end's, the interval reaches up to the high end's), and from the interval alone its sampling part
    cannot be told from its bound on either side (the high end's sampling error may be the smaller).
    So where either input carries a bound, the half-widths are added, not combined in quadrature:
    the sum is at least the bound plus the sampling errors in quadrature, and the difference is never
    more certain than its inputs."""
    mean_a, low_a, high_a, mean_b, low_b, high_b = (np.asarray(v, dtype=np.float64) for v in
                                                    (mean_a, low_a, high_a, mean_b, low_b, high_b))
    below_a, above_a, below_b, above_b = mean_a - low_a, high_a - mean_a, mean_b - low_b, high_b - mean_b
    bounded = ~(np.isclose(below_a, above_a) & np.isclose(below_b, above_b))
    difference = mean_b - mean_a
    down = np.where(bounded, below_b + above_a, np.sqrt(below_b ** 2 + above_a ** 2))
    up = np.where(bounded, above_b + below_a, np.sqrt(above_b ** 2 + below_a ** 2))
    return difference, difference - down, difference + up


def _prefix(column: str, word: str) -> str | None:
    """The prefix of a column's companions: ``"win_rate"`` -> ``"win_"``, ``"rate"`` -> ``""``,
    ``"mean_score"`` -> ``"score_"`` (for ``word="mean"``), anything else -> None."""
    if column == word:
        return ""
    if column.endswith("_" + word):
        return column[: -len(word)]
    if word == "mean" and column.startswith("mean_"):
        return column[len("mean_"):] + "_"
    return None


def _conventional_measures(baseline: pd.DataFrame, other: pd.DataFrame, keys: list[str]) -> list:
    """The measures the column conventions find in both tables (see the module docstring)."""
    shared = [c for c in baseline.columns if c in other.columns]
    measures = []
    for column in shared:
        if column in keys or column.split("_")[-1] in ("lo", "hi"):
            continue
        rate_prefix, mean_prefix = _prefix(column, "rate"), _prefix(column, "mean")
        if rate_prefix is not None:
            count = next((c for c in (f"{rate_prefix}n", "n") if c in shared), None)
            if count is not None:
                measures.append(RateMeasure(column, count))
        elif mean_prefix is not None and f"{mean_prefix}lo" in shared and f"{mean_prefix}hi" in shared:
            count = next((c for c in (f"{mean_prefix}n", "n") if c in shared), None)
            measures.append(MeanMeasure(column, f"{mean_prefix}lo", f"{mean_prefix}hi", count))
    return measures


def compare_tables(baseline: pd.DataFrame, other: pd.DataFrame, spec: TableSpec | None = None) -> pd.DataFrame:
    """Compare two summary tables of the same experiment, row by row.

    Parameters
    ----------
    baseline, other : pandas.DataFrame
        The same summary of two runs.
    spec : TableSpec, optional
        Its key columns and measures; by default the column conventions of the module docstring.

    Returns
    -------
    pandas.DataFrame
        One row per (key, measure): the key columns, ``measure``, ``A`` (baseline), ``B``,
        ``B - A`` and its interval ``lo``, ``hi``, and the sample sizes ``n A``, ``n B`` (NaN for a
        measure that names no count; left out when none does). Empty if the tables share no comparable
        column.

    Raises
    ------
    InputError
        If the tables have no key columns and different numbers of rows.
    """
    keys = list(spec.keys) if spec is not None and spec.keys else [
        c for c in baseline.columns if c in other.columns and not pd.api.types.is_numeric_dtype(baseline[c])]
    if keys:
        merged = baseline.merge(other, on=keys, how="inner", suffixes=(" A", " B"))
    else:
        if len(baseline) != len(other):
            raise InputError("tables without key columns must have the same number of rows to be compared")
        merged = baseline.add_suffix(" A").join(other.add_suffix(" B"))
    measures = list(spec.measures) if spec is not None and spec.measures else _conventional_measures(
        baseline, other, keys)
    blocks = []
    for measure in measures:
        needed = (measure.column, measure.count) if isinstance(measure, RateMeasure) else (
            measure.column, measure.low, measure.high)
        if not all(c in baseline.columns and c in other.columns for c in needed):
            continue
        a, b = merged[f"{measure.column} A"], merged[f"{measure.column} B"]
        if isinstance(measure, RateMeasure):
            n_a, n_b = merged[f"{measure.count} A"], merged[f"{measure.count} B"]
            difference, low, high = difference_of_proportions(np.rint(a * n_a), n_a, np.rint(b * n_b), n_b)
        else:
            difference, low, high = difference_of_means(a, merged[f"{measure.low} A"], merged[f"{measure.high} A"],
                                                        b, merged[f"{measure.low} B"], merged[f"{measure.high} B"])
        block = merged[keys].copy()
        block["measure"] = measure.column
        block["A"], block["B"], block["B - A"], block["lo"], block["hi"] = a, b, difference, low, high
        has_count = measure.count is not None and measure.count in baseline.columns and measure.count in other.columns
        block["n A"] = merged[f"{measure.count} A"] if has_count else np.nan
        block["n B"] = merged[f"{measure.count} B"] if has_count else np.nan
        blocks.append(block)
    if not blocks:
        return pd.DataFrame(columns=[*keys, "measure", "A", "B", "B - A", "lo", "hi"])
    comparison = pd.concat(blocks, ignore_index=True)
    if comparison[["n A", "n B"]].isna().all().all():  # no measure names its count
        comparison = comparison.drop(columns=["n A", "n B"])
    return comparison


def excludes_zero(low, high) -> np.ndarray:
    """Whether each interval lies wholly above or below zero and has a width: a zero-width interval comes
    from a degenerate sample (one value, or all alike), not from evidence."""
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    return ((low > 0) | (high < 0)) & (high > low)


def evidence(comparison: pd.DataFrame) -> pd.Series:
    """How many half-widths of its 95% interval each difference lies from zero (1 on the interval's edge):
    a small difference measured closely outranks a larger one measured loosely."""
    half = (comparison["hi"] - comparison["lo"]) / 2
    return comparison["B - A"].abs() / half.where(half > 0)


def large_enough(comparison: pd.DataFrame, min_sample: int = MIN_SAMPLE) -> pd.Series:
    """Whether both runs measured a row on at least ``min_sample`` items (true where the table names no count)."""
    if "n A" not in comparison.columns:
        return pd.Series(True, index=comparison.index)
    counted = comparison["n A"].notna() & comparison["n B"].notna()
    return ~counted | ((comparison["n A"] >= min_sample) & (comparison["n B"] >= min_sample))


def named_differences(comparison: pd.DataFrame) -> np.ndarray:
    """Whether each row is a difference worth naming: its interval excludes zero and both runs measured it on
    at least :data:`MIN_SAMPLE` items (what the reports highlight)."""
    return excludes_zero(comparison["lo"], comparison["hi"]) & large_enough(comparison).to_numpy()


def significant_differences(comparison: pd.DataFrame, min_sample: int = MIN_SAMPLE) -> pd.DataFrame:
    """The rows of a :func:`compare_tables` result whose 95% interval excludes zero (and has a width: a
    degenerate sample proves nothing), measured on at least ``min_sample`` items in both runs, measure by
    measure (in the order the measures appear) and, within a measure, strongest evidence first
    (:func:`evidence`)."""
    chosen = comparison[excludes_zero(comparison["lo"], comparison["hi"]) & large_enough(comparison, min_sample)]
    order = {name: i for i, name in enumerate(dict.fromkeys(comparison["measure"]))}
    ranked = chosen.assign(_measure=chosen["measure"].map(order), _evidence=-evidence(chosen))
    return ranked.sort_values(["_measure", "_evidence"], kind="stable").drop(
        columns=["_measure", "_evidence"]).reset_index(drop=True)
