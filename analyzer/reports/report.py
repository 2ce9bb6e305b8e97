"""Reports of one run, or a side-by-side comparison of several: a self-contained HTML file, or Markdown
with its images and CSVs in a folder beside it.

A report reads top to bottom: what was run (command, seed, size, settings, time) and the findings in a
few sentences, a table of contents, the charts with captions, the summary tables (rounded, sortable,
long ones shortened with the full table and its CSV at hand) and a glossary of their columns. What a
report knows about an experiment (its findings, column glossary, chart captions, which rows of a long
table to show first) comes from a :class:`ReportSpec` the experiment's game supplies; the CLI passes
the specs in, so this module knows no game.

Comparisons use the summary CSVs' column conventions, unless a :class:`TableSpec` names the measures:

- key columns (what a row is about) are the non-numeric ones; rows are matched on them;
- a rate column ``rate`` / ``<x>_rate`` with a count column ``n`` / ``<x>_n`` is compared as a
  difference of proportions with Newcombe's hybrid score interval (from the Wilson intervals);
- a mean column ``mean``, ``<x>_mean`` or ``mean_<x>`` with interval columns ``lo``/``hi`` or
  ``<x>_lo``/``<x>_hi`` is compared as a difference of independent means (standard errors from the
  intervals).
"""

import base64
import html
import math
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.reports.catalog import RunInfo, describe_run, figure_files, format_size, summary_tables
from analyzer.reports.stats import Z95, proportion_difference

FORMATS = ("html", "md")
# Tables longer than this show their first rows (or the spec's headline rows); the rest are a click away.
SHOWN_ROWS = 20
# Findings name at most this many significant differences per compared measure.
FINDINGS_PER_MEASURE = 2
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


@dataclass(frozen=True)
class RateMeasure:
    """A rate column compared as a difference of proportions: successes are ``rate * count``."""

    column: str
    count: str


@dataclass(frozen=True)
class MeanMeasure:
    """A mean column compared as a difference of independent means, from its 95% interval columns;
    ``count`` names the sample-size column shown beside it, if the table has one."""

    column: str
    low: str
    high: str
    count: str | None = None


@dataclass(frozen=True)
class TableSpec:
    """What a report knows about one summary table (a CSV of the run, by file stem).

    Attributes
    ----------
    description : str
        One sentence on what a row is.
    headline : callable, optional
        The rows to show first when the table is long (e.g. each contract overall); the full table
        follows behind a click and in the embedded CSV.
    keys : tuple of str
        Columns that say what a row is about, matched between runs (default: the non-numeric ones).
    measures : tuple of RateMeasure or MeanMeasure
        Columns compared between runs (default: the column conventions of :func:`compare_tables`).
    """

    description: str = ""
    headline: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    keys: tuple[str, ...] = ()
    measures: tuple = ()


@dataclass(frozen=True)
class ReportSpec:
    """What a report knows about one experiment, supplied by its game.

    Attributes
    ----------
    findings : callable, optional
        ``findings(tables, manifest) -> list[str]``: a few sentences from the run's summary tables
        (by CSV stem) and its manifest.
    glossary : mapping
        Column name (or ``"table.column"`` for one table's) -> what it means.
    captions : mapping
        Chart file stem -> what the chart shows.
    tables : mapping
        Table name -> :class:`TableSpec`; these tables come first, in this order.
    settings : callable, optional
        ``settings(params) -> params``: the manifest's parameters as a reader reads them (seat numbers
        as letters, say) for the "What was run" line.
    """

    findings: Callable[[dict[str, pd.DataFrame], dict], list[str]] | None = None
    glossary: Mapping[str, str] = field(default_factory=dict)
    captions: Mapping[str, str] = field(default_factory=dict)
    tables: Mapping[str, TableSpec] = field(default_factory=dict)
    settings: Callable[[dict], dict] | None = None


@dataclass
class Report:
    """A rendered report: its text, and for Markdown the files it links (path relative to the text)."""

    text: str
    files: dict[str, bytes] = field(default_factory=dict)


def difference_of_proportions(k_a, n_a, k_b, n_b, z: float = Z95):
    """``p_b - p_a`` with Newcombe's hybrid score interval: see :func:`analyzer.reports.stats.proportion_difference`."""
    return proportion_difference(k_a, n_a, k_b, n_b, z)


def difference_of_means(mean_a, low_a, high_a, mean_b, low_b, high_b, z: float = Z95):
    """``mean_b - mean_a`` for independent samples, each given with its symmetric ``z`` interval."""
    se_a = (np.asarray(high_a, dtype=np.float64) - low_a) / (2 * z)
    se_b = (np.asarray(high_b, dtype=np.float64) - low_b) / (2 * z)
    difference = np.asarray(mean_b, dtype=np.float64) - mean_a
    half = z * np.sqrt(se_a ** 2 + se_b ** 2)
    return difference, difference - half, difference + half


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


def _excludes_zero(low, high) -> np.ndarray:
    """Whether each interval lies wholly above or below zero and has a width: a zero-width interval comes
    from a degenerate sample (one value, or all alike), not from evidence."""
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    return ((low > 0) | (high < 0)) & (high > low)


def significant_differences(comparison: pd.DataFrame) -> pd.DataFrame:
    """The rows of a :func:`compare_tables` result whose 95% interval excludes zero (and has a width: a
    degenerate sample proves nothing), measure by measure (in the order the measures appear) and, within
    a measure, largest difference first."""
    chosen = comparison[_excludes_zero(comparison["lo"], comparison["hi"])]
    order = {name: i for i, name in enumerate(dict.fromkeys(comparison["measure"]))}
    ranked = chosen.assign(_measure=chosen["measure"].map(order), _size=-chosen["B - A"].abs())
    return ranked.sort_values(["_measure", "_size"], kind="stable").drop(columns=["_measure", "_size"]).reset_index(
        drop=True)


def format_number(value, digits: int = 3) -> str:
    """A number for a sentence: ``digits`` significant digits, fixed notation, thousands separated;
    ``1234.6`` -> ``"1,235"``, ``0.0123`` -> ``"0.0123"``, ``5.6e-17`` -> ``"0"``, NaN -> ``"n/a"``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    value = float(value)
    if abs(value) < 1e-12:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return _clean_zero(f"{value:,.{decimals}f}")


def format_percent(rate, digits: int = 1) -> str:
    """A rate as a percentage for a sentence: ``0.5913`` -> ``"59.1%"``, ``0.00048`` -> ``"0.048%"``."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "n/a"
    percent = 100 * float(rate)
    if percent == 0:
        return "0%"
    if abs(percent) < 10 ** -digits * 5:  # too small for the decimals: two significant digits instead
        return f"{format_number(percent, 2)}%"
    return _clean_zero(f"{percent:.{digits}f}") + "%"


def _clean_zero(text: str) -> str:
    """``-0.00`` -> ``0.00``: a negative number that rounds to zero prints without its sign."""
    return text[1:] if text.startswith("-") and not re.search(r"[1-9]", text) else text


def column_decimals(values) -> int | None:
    """Decimals that show a float column's typical magnitude (the median of its magnitudes, float noise
    left out) with three significant digits (at most 6), or None when the column holds only whole
    numbers (shown as integers)."""
    x = np.abs(np.asarray(values, dtype=np.float64))
    x = x[np.isfinite(x)]
    if x.size == 0 or np.all(x == np.rint(x)):
        return None
    x = x[x > 1e-9 * x.max()]
    return int(min(6, max(0, 2 - math.floor(math.log10(float(np.median(x)))))))


def _cell_text(value: float, decimals: int, largest: float) -> str:
    """One float cell: the column's decimals, or more (up to 6) to keep two significant digits of a small
    value; float noise (under 1e-9 of the column's largest magnitude) prints as zero."""
    if abs(value) <= 1e-9 * largest:
        value = 0.0
    if value != 0.0:
        decimals = max(decimals, min(6, 1 - math.floor(math.log10(abs(value)))))
    return _clean_zero(f"{value:,.{decimals}f}")


def formatted_columns(frame: pd.DataFrame, groups: pd.Series | None = None,
                      together: tuple[tuple[str, ...], ...] = ()) -> list[list[str]]:
    """Every cell of ``frame`` as display text, column by column: whole-number columns as integers
    with thousands separators, float columns rounded to :func:`column_decimals`, NaN as empty.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    groups : pandas.Series, optional
        A label per row: decimals are chosen within each label (e.g. per measure of a comparison).
    together : tuple of tuple of str
        Sets of columns that share their decimals (e.g. a comparison's ``A`` and ``B``).
    """
    labels = np.zeros(len(frame), dtype=np.int64) if groups is None else pd.factorize(groups)[0]
    partners = {column: [c for c in names if c in frame.columns] for names in together for column in names}
    columns = []
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
            columns.append(["" if pd.isna(v) else str(v) for v in values])
            continue
        numbers = values.to_numpy(dtype=np.float64)
        pooled = frame[partners.get(column, [column])].to_numpy(dtype=np.float64)
        texts = [""] * len(numbers)
        for label in np.unique(labels):
            rows = np.flatnonzero(labels == label)
            decimals = column_decimals(pooled[rows].ravel())
            finite = numbers[rows][np.isfinite(numbers[rows])]
            largest = float(np.abs(finite).max()) if finite.size else 0.0
            for i in rows:
                v = numbers[i]
                if not np.isfinite(v):
                    texts[i] = "" if np.isnan(v) else str(v)
                else:
                    texts[i] = f"{v:,.0f}" if decimals is None else _cell_text(v, decimals, largest)
        columns.append(texts)
    return columns


def _display_texts(frame: pd.DataFrame) -> list[list[str]]:
    """A table's cell texts; a comparison's rows are rounded per measure, its values and its
    differences each with one set of decimals."""
    if "measure" not in frame.columns:
        return formatted_columns(frame)
    return formatted_columns(frame, frame["measure"], together=(("A", "B"), ("B - A", "lo", "hi")))


def reproduce_command(run: RunInfo) -> str:
    """The shell command that reproduces the run (same arguments, hence same seed and outputs)."""
    if not run.command:
        return "(not recorded)"
    return "analyzer " + shlex.join(run.command)


# Options whose value is a run's size, with the unit they count.
_SIZE_OPTIONS = {"--deals": "deals", "-n": "", "--rounds": "rounds", "--games": "games", "--matches": "matches"}


def _setting_text(value) -> str:
    if isinstance(value, dict):
        name = value.get("name")
        # A named setting (a policy, say) shows its scalar options; an unnamed one (constraints) all of them.
        rest = ", ".join(f"{k} {_setting_text(v)}" for k, v in value.items()
                         if k != "name" and (name is None or not isinstance(v, dict | list)))
        return f"{name} ({rest})" if name is not None and rest else str(name) if name is not None else rest
    if isinstance(value, list):
        return f"{len(value)} values" if len(value) > 8 else ", ".join(_setting_text(v) for v in value)
    return str(value)


def run_facts(run: RunInfo, spec: ReportSpec | None = None) -> list[tuple[str, str]]:
    """What was run, as (label, text) pairs: command, seed, size, settings (as ``spec.settings`` shows
    them), time, status."""
    manifest = run.manifest
    stages = manifest.get("stages") if isinstance(manifest.get("stages"), dict) else {}
    size = ""
    for position, arg in enumerate(run.command):
        name, _, value = arg.partition("=")
        if name in _SIZE_OPTIONS:
            value = value or (run.command[position + 1] if position + 1 < len(run.command) else "")
            if value.isdigit():
                size = f"{int(value):,} {_SIZE_OPTIONS[name]}".strip()
                break
    if not size:
        items = sum(int(stage.get("n_items", 0)) for stage in stages.values())
        size = f"{items:,} items" if items else ""
    for unit in ("hands", "rounds"):
        if isinstance(manifest.get(unit), int) and unit not in size:
            size += f" ({manifest[unit]:,} {unit})"
    params = manifest.get("params") if isinstance(manifest.get("params"), dict) else {}
    if spec is not None and spec.settings is not None:
        params = spec.settings(params)
    settings = "; ".join(f"{key.replace('_', ' ')}: {_setting_text(value)}" for key, value in params.items())
    seconds = sum(float(stage.get("seconds", 0.0)) for stage in stages.values())
    timings = manifest.get("timings") if isinstance(manifest.get("timings"), dict) else {}
    seconds = seconds + sum(float(v) for k, v in timings.items() if isinstance(v, int | float) and "summary" in k)
    when = str(manifest.get("started", ""))
    if seconds:
        when += f" ({format_number(seconds)} s of work)"
    chunks = f", {run.chunks_done}/{run.chunks_total} chunks" if run.chunks_total else ""
    facts = [("command", reproduce_command(run)), ("experiment", run.experiment), ("seed", str(run.seed)),
             ("size", size), ("settings", settings or " ".join(run.parameters) or "(defaults)"),
             ("started", when), ("status", f"{run.status}{chunks}"),
             ("stored", f"{format_size(run.size_bytes)} in {run.path}"),
             ("analyzer", str(manifest.get("analyzer_version", "")))]
    return [(label, text) for label, text in facts if text]


def _slug(text: str, taken: dict[str, int]) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, and
    ``-1``, ``-2`` ... on repeats."""
    base = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    count = taken.get(base, 0)
    taken[base] = count + 1
    return base if count == 0 else f"{base}-{count}"


def _labels(runs: list[RunInfo]) -> list[str]:
    return [f"run {chr(ord('A') + i)}" if i < 26 else f"run {i + 1}" for i in range(len(runs))]


def _ordered_tables(tables: dict[str, pd.DataFrame], spec: ReportSpec) -> list[str]:
    return [name for name in spec.tables if name in tables] + [name for name in tables if name not in spec.tables]


def _key_text(row: pd.Series, keys: list[str]) -> str:
    return ", ".join(f"{key} {row[key]}" for key in keys)


def comparison_findings(name: str, comparison: pd.DataFrame, significant: pd.DataFrame, label: str,
                        headline: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> list[str]:
    """Sentences on one compared table: how many values differ, and the largest differences per measure
    (among the headline rows, when the table has them).

    Parameters
    ----------
    name : str
        The table's name.
    comparison : pandas.DataFrame
        Its :func:`compare_tables` result.
    significant : pandas.DataFrame
        Its :func:`significant_differences`.
    label : str
        The compared run's label (``run B``).
    headline : callable, optional
        The table's headline rows (:class:`TableSpec`): the sentences name differences among these.
    """
    keys = [c for c in comparison.columns if c not in COMPARISON_GLOSSARY]
    total = int(comparison["B - A"].notna().sum())
    if significant.empty:
        return [(f"{name}: none of the {total:,} compared values differs between run A and {label} with a 95% "
                "interval excluding zero.")]
    sentences = [(f"{name}: {len(significant):,} of {total:,} compared values differ between run A and {label} with "
                 f"a 95% interval excluding zero (about {format_number(0.05 * total, 2)} would by chance alone if "
                 "nothing differed).")]
    named = significant if headline is None else headline(significant)
    if headline is not None:
        sentences.append(f"Among the headline rows, {len(named):,} differ"
                         + (" (the largest below)." if len(named) else "."))
    for measure, rows in named.groupby("measure", sort=False):
        for _, row in rows.head(FINDINGS_PER_MEASURE).iterrows():
            where = _key_text(row, keys)
            sentences.append(f"{measure}{' for ' + where if where else ''}: {format_number(row['A'])} in run A, "
                             f"{format_number(row['B'])} in {label} (B - A {format_number(row['B - A'])}, 95% "
                             f"interval {format_number(row['lo'])} to {format_number(row['hi'])}).")
    return sentences


def _setting_differences(baseline: RunInfo, other: RunInfo, label: str, spec: ReportSpec) -> str | None:
    a, b = dict(run_facts(baseline, spec)), dict(run_facts(other, spec))
    changed = [f"{key} {a.get(key, '-')} in run A, {b.get(key, '-')} in {label}"
               for key in ("seed", "size") if a.get(key) != b.get(key)]
    settings_a, settings_b = (dict(item.partition(": ")[::2] for item in facts.get("settings", "").split("; "))
                              for facts in (a, b))
    changed += [f"{key} {settings_a.get(key, '-')} in run A, {settings_b.get(key, '-')} in {label}"
                for key in dict.fromkeys([*settings_a, *settings_b]) if settings_a.get(key) != settings_b.get(key)]
    return f"{label} differs from run A in: " + "; ".join(changed) + "." if changed else None


def build_report(run_dirs, fmt: str = "html", specs: Mapping[str, ReportSpec] | None = None,
                 assets: str = "report_files") -> Report:
    """Render a report of one or several runs.

    Parameters
    ----------
    run_dirs : sequence of path-like
        Run directories; with several runs of the same experiment, the first is the baseline of a
        side-by-side comparison.
    fmt : {"html", "md"}
        Output format: one self-contained HTML file, or Markdown linking its images and CSVs.
    specs : mapping, optional
        Experiment name (as its manifest records it) -> :class:`ReportSpec`; an experiment without
        one gets a report without findings, captions or headline rows.
    assets : str
        Markdown only: the folder, relative to the Markdown file, its images and CSVs go into.

    Returns
    -------
    Report
        The text and (Markdown) the files to write beside it (:func:`write_report`).
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown report format {fmt!r}: use html or md")
    if not run_dirs:
        raise InputError("give at least one run directory")
    specs = specs or {}
    runs = [describe_run(path) for path in run_dirs]
    writer = _HtmlWriter() if fmt == "html" else _MarkdownWriter(assets)
    labels = _labels(runs)
    same = len({r.experiment for r in runs}) == 1
    title = runs[0].experiment if same else "several experiments"
    writer.heading(1, f"Report: {title}" if len(runs) == 1 else f"Comparison: {title}, {len(runs)} runs")
    run_tables = [summary_tables(run.path) for run in runs]
    glossary: dict[str, str] = {}
    if len(runs) == 1:
        _write_top(writer, runs[0], run_tables[0], specs.get(runs[0].experiment, ReportSpec()))
        _write_run(writer, runs[0], run_tables[0], specs.get(runs[0].experiment, ReportSpec()), glossary, "")
    else:
        _write_comparison(writer, runs, labels, run_tables, specs, same, glossary)
    if glossary:
        writer.heading(2, "Glossary")
        writer.glossary(glossary)
    return writer.finish(f"Report: {title}")


def _write_top(writer, run: RunInfo, tables: dict[str, pd.DataFrame], spec: ReportSpec) -> None:
    writer.heading(2, "What was run", toc=False)
    writer.facts(run_facts(run, spec))
    writer.heading(2, "Findings", toc=False)
    findings = spec.findings(tables, run.manifest) if spec.findings is not None and tables else []
    writer.bullets(findings or [("No findings: this experiment has no findings function, or the run wrote no "
                                "summary tables yet.")])
    writer.contents()


def _write_comparison(writer, runs, labels, run_tables, specs, same: bool, glossary: dict) -> None:
    writer.heading(2, "What was run", toc=False)
    facts = [dict(run_facts(run, specs.get(run.experiment))) for run in runs]
    rows = ["command", "seed", "size", "settings", "started", "status"]
    writer.table(pd.DataFrame({"": rows, **{label: [f.get(row, "") for row in rows]
                                            for label, f in zip(labels, facts)}}), "runs", sortable=False)
    writer.heading(2, "Findings", toc=False)
    spec = specs.get(runs[0].experiment, ReportSpec())
    comparisons = []
    if not same:
        writer.bullets(["The runs come from different experiments, so they are shown one by one without a comparison."])
    else:
        sentences = []
        for label, run, tables in zip(labels[1:], runs[1:], run_tables[1:]):
            note = _setting_differences(runs[0], run, label, spec)
            if note:
                sentences.append(note)
            for name in _ordered_tables(run_tables[0], spec):
                if name not in tables:
                    continue
                comparison = compare_tables(run_tables[0][name], tables[name], spec.tables.get(name))
                if comparison.empty:
                    continue
                significant = significant_differences(comparison)
                headline = spec.tables[name].headline if name in spec.tables else None
                sentences += comparison_findings(name, comparison, significant, label, headline)
                comparisons.append((name, label, comparison, significant))
        if not comparisons:
            sentences.append("The runs share no summary column with an interval, so nothing is compared.")
        writer.bullets(sentences)
    writer.contents()
    if comparisons:
        writer.heading(2, "Differences")
        writer.paragraph("Differences are against run A (B - A), with 95% intervals: differences of proportions by "
                         "Newcombe's hybrid score method, differences of means from the runs' own intervals (runs "
                         "taken as independent samples). Highlighted: the interval excludes zero (green: B higher, "
                         "red: B lower). Each table lists those first, largest first within each measure.")
        glossary.update(COMPARISON_GLOSSARY)
        for name, label, comparison, significant in comparisons:
            writer.heading(3, f"{name}: {label} against run A")
            file_name = f"{name}-{label}-against-run-A".replace(" ", "-")
            if significant.empty:
                writer.paragraph("No difference with an interval excluding zero.")
                shown = comparison.head(SHOWN_ROWS)
                note = f"first {len(shown):,} of {len(comparison):,} compared values"
            else:
                shown = significant.groupby("measure", sort=False).head(SHOWN_ROWS)  # the largest of each measure
                cut = ("" if len(shown) == len(significant) else
                       f"the largest {SHOWN_ROWS} per measure: {len(shown):,} of ")
                note = (f"{cut}{len(significant):,} values whose interval excludes zero, out of "
                        f"{int(comparison['B - A'].notna().sum()):,} compared")
            writer.table(shown, file_name, highlight=True, full=comparison, note=note)
            writer.more(comparison, f"all {len(comparison):,} compared values", highlight=True)
    for label, run, tables in zip(labels, runs, run_tables):
        run_spec = specs.get(run.experiment, ReportSpec())
        writer.heading(2, f"{label}: {run.path}")
        findings = run_spec.findings(tables, run.manifest) if run_spec.findings is not None and tables else []
        if findings:
            writer.bullets(findings)
        _write_run(writer, run, tables, run_spec, glossary, f"{label}: ")


def _describe_column(column: str, table: str, columns, spec: ReportSpec) -> str | None:
    """The glossary text of a column: the spec's, else what the interval conventions say."""
    for key in (f"{table}.{column}", column):
        if key in spec.glossary:
            return spec.glossary[key]
    for suffix, end in (("_lo", "lower"), ("_hi", "upper"), ("low", "lower"), ("high", "upper"), ("lo", "lower"),
                        ("hi", "upper")):
        if column.endswith(suffix):
            stem = column[: -len(suffix)].rstrip("_")
            names = ([stem, f"{stem}_rate", f"mean_{stem}", f"{stem}_mean", f"{stem}_prob", f"{stem}_diff"] if stem
                     else ["mean", "rate"])
            base = next((c for c in names if c in columns), None)
            return f"{end} end of the 95% interval of {base}" if base else f"{end} end of a 95% interval"
    return None


def _write_run(writer, run: RunInfo, tables: dict[str, pd.DataFrame], spec: ReportSpec, glossary: dict,
               prefix: str) -> None:
    figures = figure_files(run.path)
    order = {stem: i for i, stem in enumerate(spec.captions)}
    figures.sort(key=lambda path: (order.get(path.stem, len(order)), path.stem))
    if figures:
        writer.heading(3 if prefix else 2, f"{prefix}Charts")
        for path in figures:
            writer.figure(path, spec.captions.get(path.stem, path.stem.replace("_", " ")), f"{prefix}{path.stem}")
    if tables:
        writer.heading(3 if prefix else 2, f"{prefix}Tables")
    for name in _ordered_tables(tables, spec):
        table = tables[name]
        table_spec = spec.tables.get(name, TableSpec())
        writer.heading(4 if prefix else 3, f"{prefix}{name}")
        if table_spec.description:
            writer.paragraph(table_spec.description)
        file_name = f"{prefix.rstrip(': ').replace(' ', '-')}-{name}" if prefix else name
        if len(table) > SHOWN_ROWS:
            shown = table_spec.headline(table) if table_spec.headline is not None else table.head(SHOWN_ROWS)
            what = "headline rows" if table_spec.headline is not None else "first rows"
            writer.table(shown, file_name, note=f"{what}: {len(shown):,} of {len(table):,}", full=table)
            writer.more(table, f"all {len(table):,} rows")
        else:
            writer.table(table, file_name)
        for column in table.columns:
            text = _describe_column(column, name, table.columns, spec)
            if text is not None:
                glossary.setdefault(column if glossary.get(column, text) == text else f"{column} ({name})", text)


def write_report(report: Report, out) -> Path:
    """Write a report's text to ``out`` and its files (Markdown images and CSVs) beside it.

    Raises
    ------
    InputError
        If a file cannot be written.
    """
    out = Path(out)
    try:
        for relative, content in report.files.items():
            target = out.parent / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        out.write_text(report.text)
    except OSError as exc:
        raise InputError(f"cannot write {exc.filename or out}: {exc.strerror}") from None
    return out


def _data_uri(content: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(content).decode('ascii')}"


def _mime(path: Path) -> str:
    return "image/svg+xml" if path.suffix == ".svg" else "image/png"


def _file_name(text: str) -> str:
    return re.sub(r"[^\w.-]+", "-", text).strip("-")


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:88em;margin:1.5em auto;padding:0 1em;
color:#1d1d1d;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;background:#f6f8fa;padding:.8em 1em;
border-radius:6px}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
ul.findings{background:#eef6ee;border-left:4px solid #3c8d40;padding:.7em 1em .7em 2.2em;border-radius:4px}
nav.toc{background:#f6f8fa;padding:.5em 1em;border-radius:6px}nav.toc ul{margin:.2em 0}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}td,th{border:1px solid #ccc;padding:.2em .6em}
td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee;position:sticky;top:0}
table.sortable th{cursor:pointer}table.sortable th:after{content:" \\2195";color:#999}
tr.up td{background:#dff3df}tr.down td{background:#f8dcdc}tbody tr:nth-child(even){background:#fafafa}
.tablewrap{max-height:40em;overflow:auto;display:inline-block;max-width:100%}
p.note{color:#555;font-size:.9em;margin:.2em 0}
figure{margin:1em 0 2em}figure img{max-width:100%;height:auto;cursor:zoom-in;border:1px solid #eee}
figure img.zoom{max-width:none;cursor:zoom-out}figure .scroll{overflow:auto}
figcaption{color:#333;margin-top:.3em;max-width:60em}
pre{background:#f4f4f4;padding:.5em;overflow:auto}code{font-size:.95em}
dl.glossary{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em}dl.glossary dt{font-weight:600}
dl.glossary dd{margin:0}
"""

_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'ascending';
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute('data-v'), y = b.cells[column].getAttribute('data-v');
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (isNaN(nx) || isNaN(ny)) ? String(x).localeCompare(String(y)) : nx - ny;
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      table.querySelectorAll('th').forEach(function (other) { other.removeAttribute('data-order'); });
      th.setAttribute('data-order', up ? 'ascending' : 'descending');
    });
  });
});
document.querySelectorAll('figure img').forEach(function (img) {
  img.addEventListener('click', function () { img.classList.toggle('zoom'); });
});
"""


class _HtmlWriter:
    def __init__(self):
        self.parts: list[str] = []
        self.headings: list[tuple[int, str, str]] = []
        self.taken: dict[str, int] = {}

    def heading(self, level: int, text: str, toc: bool = True) -> None:
        anchor = _slug(text, self.taken)
        if toc and level in (2, 3):
            self.headings.append((level, text, anchor))
        self.parts.append(f'<h{level} id="{anchor}">{html.escape(text)}</h{level}>')

    def paragraph(self, text: str) -> None:
        self.parts.append(f"<p>{html.escape(text)}</p>")

    def bullets(self, lines: list[str]) -> None:
        self.parts.append('<ul class="findings">' + "".join(f"<li>{html.escape(t)}</li>" for t in lines) + "</ul>")

    def facts(self, facts: list[tuple[str, str]]) -> None:
        items = "".join(f"<dt>{html.escape(k)}</dt><dd>{'<code>' if k == 'command' else ''}{html.escape(v)}"
                        f"{'</code>' if k == 'command' else ''}</dd>" for k, v in facts)
        self.parts.append(f'<dl class="facts">{items}</dl>')

    def contents(self) -> None:
        self.parts.append(None)  # the table of contents goes here once every heading is known

    def table(self, frame: pd.DataFrame, name: str, sortable: bool = True, highlight: bool = False, note: str = "",
              full: pd.DataFrame | None = None) -> None:
        csv = _data_uri((frame if full is None else full).to_csv(index=False).encode(), "text/csv")
        link = f' <a download="{html.escape(_file_name(name))}.csv" href="{csv}">download CSV</a>' if sortable else ""
        self.parts.append(self._table(frame, sortable, highlight) + (f'<p class="note">{html.escape(note)}{link}</p>'
                                                                     if note or link else ""))

    def more(self, frame: pd.DataFrame, note: str, highlight: bool = False) -> None:
        self.parts.append(f"<details><summary>{html.escape(note)}</summary>{self._table(frame, True, highlight)}"
                          "</details>")

    def _table(self, frame: pd.DataFrame, sortable: bool, highlight: bool) -> str:
        texts = _display_texts(frame)
        numeric = [pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
                   for c in frame.columns]
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
        body = []
        for i, row in enumerate(frame.itertuples(index=False)):
            css = ""
            if highlight and "lo" in frame.columns:
                low, high = frame["lo"].iloc[i], frame["hi"].iloc[i]
                css = "" if not _excludes_zero(low, high) else ' class="up"' if low > 0 else ' class="down"'
            cells = []
            for j, value in enumerate(row):
                raw = value if numeric[j] and pd.notna(value) else texts[j][i]
                cells.append(f'<td{" class=num" if numeric[j] else ""} data-v="{html.escape(str(raw))}">'
                             f"{html.escape(texts[j][i])}</td>")
            body.append(f"<tr{css}>{''.join(cells)}</tr>")
        return (f'<div class="tablewrap"><table{" class=sortable" if sortable else ""}><thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(body)}</tbody></table></div>")

    def figure(self, path: Path, caption: str, name: str) -> None:
        self.parts.append(f'<figure><div class="scroll"><img alt="{html.escape(name)}" '
                          f'src="{_data_uri(path.read_bytes(), _mime(path))}"></div>'
                          f"<figcaption>{html.escape(caption)} (click to enlarge)</figcaption></figure>")

    def glossary(self, entries: dict[str, str]) -> None:
        items = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in sorted(entries.items()))
        self.parts.append(f'<dl class="glossary">{items}</dl>')

    def finish(self, title: str) -> Report:
        items, depth = [], 2
        for level, text, anchor in self.headings:
            while depth < level:
                items.append("<ul>")
                depth += 1
            while depth > level:
                items.append("</ul>")
                depth -= 1
            items.append(f'<li><a href="#{anchor}">{html.escape(text)}</a></li>')
        items += ["</ul>"] * (depth - 2)
        toc = f'<nav class="toc"><strong>Contents</strong><ul>{"".join(items)}</ul></nav>' if self.headings else ""
        body = "\n".join(toc if part is None else part for part in self.parts)
        return Report(f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      f"<meta name=\"viewport\" content=\"width=device-width\"><title>{html.escape(title)}</title>"
                      f"<style>{_STYLE}</style></head><body>\n{body}\n<script>{_SCRIPT}</script></body></html>\n")


class _MarkdownWriter:
    def __init__(self, assets: str):
        self.assets = assets
        self.parts: list[str | None] = []
        self.headings: list[tuple[int, str, str]] = []
        self.taken: dict[str, int] = {}
        self.files: dict[str, bytes] = {}

    def heading(self, level: int, text: str, toc: bool = True) -> None:
        anchor = _slug(text, self.taken)
        if toc and level in (2, 3):
            self.headings.append((level, text, anchor))
        self.parts.append(f"{'#' * level} {text}")

    def paragraph(self, text: str) -> None:
        self.parts.append(text)

    def bullets(self, lines: list[str]) -> None:
        self.parts.append("\n".join(f"- {line}" for line in lines))

    def facts(self, facts: list[tuple[str, str]]) -> None:
        self.parts.append("\n".join(f"- **{k}**: `{v}`" if k == "command" else f"- **{k}**: {v}" for k, v in facts))

    def contents(self) -> None:
        self.parts.append(None)

    def _add_file(self, name: str, content: bytes) -> str:
        relative = f"{self.assets}/{_file_name(name)}"
        self.files[relative] = content
        return relative

    def table(self, frame: pd.DataFrame, name: str, sortable: bool = True, highlight: bool = False, note: str = "",
              full: pd.DataFrame | None = None) -> None:
        def row(cells) -> str:
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        texts = _display_texts(frame)
        shown = list(frame.columns)
        if highlight and "lo" in frame.columns:
            marks = ["" if not _excludes_zero(lo, hi) else "B higher" if lo > 0 else "B lower"
                     for lo, hi in zip(frame["lo"], frame["hi"])]
            texts.append(marks)
            shown.append("excludes 0")
        lines = [row(shown), row(["---"] * len(shown))]
        lines += [row(column[i] for column in texts) for i in range(len(frame))]
        if full is not None:
            link = self._add_file(f"{name}.csv", full.to_csv(index=False).encode())
            lines.append(f"\n{note}; [all {len(full):,} rows as CSV]({link})")
        elif note:
            lines.append(f"\n{note}")
        self.parts.append("\n".join(lines))

    def more(self, frame: pd.DataFrame, note: str, highlight: bool = False) -> None:
        """Markdown shows no collapsed table: the shortened one links the full CSV."""

    def figure(self, path: Path, caption: str, name: str) -> None:
        link = self._add_file(f"{name}{path.suffix}", path.read_bytes())
        self.parts.append(f"![{name}]({link})\n\n*{caption}*")

    def glossary(self, entries: dict[str, str]) -> None:
        self.parts.append("\n".join(f"- **{k}**: {v}" for k, v in sorted(entries.items())))

    def finish(self, title: str) -> Report:
        toc = "\n".join(f"{'  ' * (level - 2)}- [{text}](#{anchor})" for level, text, anchor in self.headings)
        toc = f"**Contents**\n\n{toc}" if toc else ""
        return Report("\n\n".join(toc if part is None else part for part in self.parts) + "\n", self.files)
