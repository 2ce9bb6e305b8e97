"""Self-contained HTML or Markdown reports of one run, or a side-by-side comparison of several.

A report holds each run's command and seed (to reproduce it), its status and timings, its CSV
summaries and its charts embedded as base64 data URIs, so the file can be mailed on its own.

Comparisons use the summary CSVs' column conventions:

- key columns (what a row is about) are the non-numeric ones; rows are matched on them;
- a rate column ``rate`` / ``<x>_rate`` with a count column ``n`` / ``<x>_n`` is compared as a
  difference of proportions with Newcombe's hybrid score interval (from the Wilson intervals);
- a mean column ``mean``, ``<x>_mean`` or ``mean_<x>`` with interval columns ``lo``/``hi`` or
  ``<x>_lo``/``<x>_hi`` is compared as a difference of independent means (standard errors from the
  intervals).
"""

import base64
import html
import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.reports.catalog import RunInfo, describe_run, figure_files, format_size, summary_tables
from analyzer.reports.stats import Z95, wilson_interval

FORMATS = ("html", "md")


def difference_of_proportions(k_a, n_a, k_b, n_b, z: float = Z95):
    """``p_b - p_a`` with Newcombe's hybrid score interval (method 10 of Newcombe 1998), vectorised.

    Returns
    -------
    tuple
        ``(difference, low, high)``.
    """
    k_a, n_a, k_b, n_b = (np.asarray(v, dtype=np.float64) for v in (k_a, n_a, k_b, n_b))
    with np.errstate(invalid="ignore", divide="ignore"):
        p_a, p_b = k_a / n_a, k_b / n_b
    low_a, high_a = wilson_interval(k_a, n_a, z)
    low_b, high_b = wilson_interval(k_b, n_b, z)
    difference = p_b - p_a
    low = difference - np.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2)
    high = difference + np.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2)
    return difference, low, high


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


def compare_tables(baseline: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """Compare two summary tables of the same experiment, row by row.

    Returns
    -------
    pandas.DataFrame
        One row per (key, measure): the key columns, ``measure``, ``A`` (baseline), ``B``,
        ``B - A`` and its interval ``lo``, ``hi``. Empty if the tables share no comparable column.

    Raises
    ------
    InputError
        If the tables have no key columns and different numbers of rows.
    """
    keys = [c for c in baseline.columns if c in other.columns and not pd.api.types.is_numeric_dtype(baseline[c])]
    if keys:
        merged = baseline.merge(other, on=keys, how="inner", suffixes=(" A", " B"))
    else:
        if len(baseline) != len(other):
            raise InputError("tables without key columns must have the same number of rows to be compared")
        merged = baseline.add_suffix(" A").join(other.add_suffix(" B"))
    blocks = []
    for column in baseline.columns:
        if column not in other.columns or column in keys or column.split("_")[-1] in ("lo", "hi"):
            continue
        rate_prefix, mean_prefix = _prefix(column, "rate"), _prefix(column, "mean")
        a, b = merged[f"{column} A"], merged[f"{column} B"]
        if rate_prefix is not None:
            n_column = next((c for c in (f"{rate_prefix}n", "n") if c in baseline.columns and c in other.columns), None)
            if n_column is None:
                continue
            n_a, n_b = merged[f"{n_column} A"], merged[f"{n_column} B"]
            difference, low, high = difference_of_proportions(np.rint(a * n_a), n_a, np.rint(b * n_b), n_b)
        elif mean_prefix is not None:
            low_name, high_name = f"{mean_prefix}lo", f"{mean_prefix}hi"
            if not all(c in baseline.columns and c in other.columns for c in (low_name, high_name)):
                continue
            difference, low, high = difference_of_means(a, merged[f"{low_name} A"], merged[f"{high_name} A"],
                                                        b, merged[f"{low_name} B"], merged[f"{high_name} B"])
        else:
            continue
        block = merged[keys].copy()
        block["measure"] = column
        block["A"], block["B"], block["B - A"], block["lo"], block["hi"] = a, b, difference, low, high
        blocks.append(block)
    if not blocks:
        return pd.DataFrame(columns=[*keys, "measure", "A", "B", "B - A", "lo", "hi"])
    return pd.concat(blocks, ignore_index=True)


def reproduce_command(run: RunInfo) -> str:
    """The shell command that reproduces the run (same arguments, hence same seed and outputs)."""
    if not run.command:
        return "(not recorded)"
    return "analyzer " + shlex.join(run.command)


def build_report(run_dirs, fmt: str = "html") -> str:
    """Render a report of one or several runs.

    Parameters
    ----------
    run_dirs : sequence of path-like
        Run directories; with several runs of the same experiment, the first is the baseline of a
        side-by-side comparison.
    fmt : {"html", "md"}
        Output format.

    Returns
    -------
    str
        The report text.
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown report format {fmt!r}: use html or md")
    if not run_dirs:
        raise InputError("give at least one run directory")
    runs = [describe_run(path) for path in run_dirs]
    writer = _HtmlWriter() if fmt == "html" else _MarkdownWriter()
    title = runs[0].experiment if len({r.experiment for r in runs}) == 1 else "several experiments"
    writer.heading(1, f"Report: {title}")
    if len(runs) > 1:
        _write_comparison(writer, runs)
    for label, run in zip(_labels(runs), runs):
        _write_run(writer, label, run)
    return writer.finish(f"Report: {title}")


def _labels(runs: list[RunInfo]) -> list[str]:
    return [f"run {chr(ord('A') + i)}" if i < 26 else f"run {i + 1}" for i in range(len(runs))]


def _write_comparison(writer, runs: list[RunInfo]) -> None:
    writer.heading(2, "Comparison")
    if len({run.experiment for run in runs}) > 1:
        writer.paragraph("The runs come from different experiments, so they are shown one by one without a comparison.")
        return
    labels = _labels(runs)
    settings = pd.DataFrame({"run": labels, "directory": [str(r.path) for r in runs],
                             "parameters": [" ".join(r.parameters) or "(defaults)" for r in runs],
                             "status": [r.status for r in runs]})
    writer.table(settings)
    writer.paragraph(f"Differences are against {labels[0]} (B - A), with 95% intervals: differences of proportions "
                     "by Newcombe's hybrid score method, differences of means from the runs' own intervals.")
    baseline_tables = summary_tables(runs[0].path)
    for label, run in zip(labels[1:], runs[1:]):
        tables = summary_tables(run.path)
        for name, baseline in baseline_tables.items():
            if name not in tables:
                continue
            comparison = compare_tables(baseline, tables[name])
            if comparison.empty:
                continue
            writer.heading(3, f"{name}: {label} against {labels[0]}")
            writer.table(comparison)


def _write_run(writer, label: str, run: RunInfo) -> None:
    writer.heading(2, f"{label}: {run.path}")
    manifest = run.manifest
    facts = pd.DataFrame({"": ["experiment", "status", "seed", "analyzer version", "started", "updated",
                               "chunks", "runner seconds", "size"],
                          "value": [run.experiment, run.status, str(run.seed), str(manifest.get("analyzer_version", "")),
                                    str(manifest.get("started", "")), run.updated,
                                    f"{run.chunks_done}/{run.chunks_total}" if run.chunks_total else "",
                                    str(manifest.get("timings", {}).get("batch_seconds", "")),
                                    format_size(run.size_bytes)]})
    writer.table(facts)
    writer.paragraph("Reproduce with:")
    writer.code(reproduce_command(run))
    for name, table in summary_tables(run.path).items():
        writer.heading(3, name)
        writer.table(table)
    for path in figure_files(run.path):
        writer.heading(3, path.stem)
        writer.image(path)


def _format_cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return "" if np.isnan(value) else f"{value:.4g}"
    return str(value)


def _data_uri(path: Path) -> str:
    mime = "image/svg+xml" if path.suffix == ".svg" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


class _HtmlWriter:
    def __init__(self):
        self.parts: list[str] = []

    def heading(self, level: int, text: str) -> None:
        self.parts.append(f"<h{level}>{html.escape(text)}</h{level}>")

    def paragraph(self, text: str) -> None:
        self.parts.append(f"<p>{html.escape(text)}</p>")

    def code(self, text: str) -> None:
        self.parts.append(f"<pre><code>{html.escape(text)}</code></pre>")

    def table(self, frame: pd.DataFrame) -> None:
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
        rows = "".join("<tr>" + "".join(f"<td>{html.escape(_format_cell(v))}</td>" for v in row) + "</tr>"
                       for row in frame.itertuples(index=False))
        self.parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")

    def image(self, path: Path) -> None:
        self.parts.append(f'<img alt="{html.escape(path.stem)}" src="{_data_uri(path)}">')

    def finish(self, title: str) -> str:
        style = ("body{font-family:sans-serif;max-width:70em;margin:2em auto}table{border-collapse:collapse;"
                 "margin:0.5em 0}td,th{border:1px solid #bbb;padding:0.2em 0.6em;text-align:right}"
                 "th{background:#eee}pre{background:#f4f4f4;padding:0.5em}img{max-width:100%}")
        body = "\n".join(self.parts)
        return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
                f"<style>{style}</style></head><body>\n{body}\n</body></html>\n")


class _MarkdownWriter:
    def __init__(self):
        self.parts: list[str] = []

    def heading(self, level: int, text: str) -> None:
        self.parts.append(f"{'#' * level} {text}")

    def paragraph(self, text: str) -> None:
        self.parts.append(text)

    def code(self, text: str) -> None:
        self.parts.append(f"```bash\n{text}\n```")

    def table(self, frame: pd.DataFrame) -> None:
        def row(cells) -> str:
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        lines = [row(frame.columns), row(["---"] * len(frame.columns))]
        lines += [row(_format_cell(v) for v in values) for values in frame.itertuples(index=False)]
        self.parts.append("\n".join(lines))

    def image(self, path: Path) -> None:
        self.parts.append(f"![{path.stem}]({_data_uri(path)})")

    def finish(self, title: str) -> str:
        return "\n\n".join(self.parts) + "\n"
