"""Reports of one run, or a side-by-side comparison of several: a self-contained HTML file, or Markdown
with its images and CSVs in a folder beside it.

A report reads top to bottom: what was run (command, seed, size, settings, time) and the findings in a
few sentences, a table of contents, the charts with captions, the summary tables (rounded, sortable,
long ones shortened with the full table and its CSV at hand) and a glossary of their columns. What a
report knows about an experiment (its findings, column glossary, chart captions, which rows of a long
table to show first) comes from a :class:`ReportSpec` the experiment's game supplies; the CLI passes
the specs in, so this module knows no game. This module assembles a report; its parts live beside it:
the spec types (:mod:`.report_spec`), the statistics of a comparison (:mod:`.comparison`), number and
table formatting (:mod:`.formatting`), and the two writers (:mod:`.html_writer`, :mod:`.markdown_writer`).

Comparisons use the summary CSVs' column conventions, unless a :class:`TableSpec` names the measures:

- key columns (what a row is about) are the non-numeric ones; rows are matched on them;
- a rate column ``rate`` / ``<x>_rate`` with a count column ``n`` / ``<x>_n`` is compared as a
  difference of proportions with Newcombe's hybrid score interval (from the Wilson intervals);
- a mean column ``mean``, ``<x>_mean`` or ``mean_<x>`` with interval columns ``lo``/``hi`` or
  ``<x>_lo``/``<x>_hi`` is compared as a difference of independent means (standard errors from the
  intervals).
"""

import shlex
from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd

from analyzer.errors import InputError
from analyzer.reports.catalog import RunInfo, describe_run, figure_files, format_size, summary_tables
from analyzer.reports.comparison import (
    COMPARISON_GLOSSARY,
    MIN_SAMPLE,
    compare_tables,
    excludes_zero,
    significant_differences,
)
from analyzer.reports.formatting import (
    MISSING,
    MISSING_REASON,
    display_texts,
    format_number,
    format_percent,
    interval_triplets,
    is_rate,
)
from analyzer.reports.headings import column_headings
from analyzer.reports.html_writer import HtmlWriter
from analyzer.reports.markdown_writer import MarkdownWriter
from analyzer.reports.report_spec import Report, ReportSpec, TableSpec

FORMATS = ("html", "md")
# Tables longer than this show their first rows (or the spec's headline rows); the rest are a click away.
SHOWN_ROWS = 20
# Findings name at most this many significant differences per compared measure.
FINDINGS_PER_MEASURE = 2


def reproduce_command(run: RunInfo) -> str:
    """The shell command that reproduces the run (same arguments, hence same seed and outputs)."""
    if not run.command:
        return "(not recorded)"
    return "analyzer " + shlex.join(run.command)


# Options whose value is a run's size, with the unit they count.
_SIZE_OPTIONS = {"--deals": "deals", "-n": "", "--rounds": "rounds", "--games": "games", "--matches": "matches"}


# Counts a manifest may record, with the unit they count, for a command whose size is not spelled out.
_COUNTS = ("deals", "rounds", "games", "matches")


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


def run_settings(run: RunInfo, spec: ReportSpec | None = None) -> str:
    """The run's settings in words, from its manifest's ``params`` as its experiment's ``spec.settings``
    shows them (``"policy: heuristic; contracts: all"``); runs without ``params`` give their parameters."""
    params = run.manifest.get("params") if isinstance(run.manifest.get("params"), dict) else {}
    if spec is not None and spec.settings is not None:
        params = spec.settings(params)
    settings = "; ".join(f"{key.replace('_', ' ')}: {_setting_text(value)}" for key, value in params.items())
    return settings or " ".join(run.parameters)


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
    if not size or size.replace(",", "").isdigit():  # none given, or -n N: name what it counts
        counted = next((unit for unit in _COUNTS if isinstance(manifest.get(unit), int)), None)
        items = (manifest[counted] if counted else int(size.replace(",", "")) if size
                 else sum(int(stage.get("n_items", 0)) for stage in stages.values()))
        size = f"{items:,} {counted or (spec.unit if spec is not None else 'items')}" if items else ""
    for unit in ("hands", "rounds"):
        if isinstance(manifest.get(unit), int) and unit not in size:
            size += f" ({manifest[unit]:,} {unit})"
    seconds = sum(float(stage.get("seconds", 0.0)) for stage in stages.values())
    timings = manifest.get("timings") if isinstance(manifest.get("timings"), dict) else {}
    seconds = seconds + sum(float(v) for k, v in timings.items() if isinstance(v, int | float) and "summary" in k)
    when = str(manifest.get("started", ""))
    if seconds:
        when += f" ({format_number(seconds)} s of work)"
    chunks = f", {run.chunks_done}/{run.chunks_total} chunks" if run.chunks_total else ""
    facts = [("command", reproduce_command(run)), ("experiment", run.experiment), ("seed", str(run.seed)),
             ("size", size), ("settings", run_settings(run, spec) or "(defaults)"),
             ("started", when), ("status", f"{run.status}{chunks}"),
             ("stored", f"{format_size(run.size_bytes - _report_bytes(run.path))} in {run.path}"),
             ("analyzer", str(manifest.get("analyzer_version", "")))]
    return [(label, text) for label, text in facts if text]


def _report_bytes(run_dir: Path) -> int:
    """Bytes of the reports written into a run folder (``report.html``, ``report.md`` and its files): what
    the run stores is its results, not an earlier report of them."""
    files = [run_dir / "report.html", run_dir / "report.md", *(run_dir / "report_files").rglob("*")]
    return sum(path.stat().st_size for path in files if path.is_file())


def _labels(runs: list[RunInfo]) -> list[str]:
    return [f"run {chr(ord('A') + i)}" if i < 26 else f"run {i + 1}" for i in range(len(runs))]


def _ordered_tables(tables: dict[str, pd.DataFrame], spec: ReportSpec) -> list[str]:
    return [name for name in spec.tables if name in tables] + [name for name in tables if name not in spec.tables]


def _key_text(row: pd.Series, keys: list[str]) -> str:
    return ", ".join(f"{key} {row[key]}" for key in keys)


def comparison_findings(name: str, comparison: pd.DataFrame, significant: pd.DataFrame, label: str,
                        headline: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> list[str]:
    """Sentences on one compared table: how many values differ, and the best-evidenced differences per
    measure (among the headline rows, when the table has them).

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
    small = int(excludes_zero(comparison["lo"], comparison["hi"]).sum()) - len(significant)
    small_note = (f" {small:,} more exclude zero on fewer than {MIN_SAMPLE} items in a run and are not named."
                  if small else "")
    if significant.empty:
        return [(f"{name}: none of the {total:,} compared values differs between run A and {label} with a 95% "
                 f"interval excluding zero.{small_note}")]
    sentences = [(f"{name}: {len(significant):,} of {total:,} compared values differ between run A and {label} with "
                 f"a 95% interval excluding zero (about {format_number(0.05 * total, 2)} would by chance alone if "
                 f"nothing differed).{small_note}")]
    named = significant if headline is None else headline(significant)
    if headline is not None:
        sentences.append(f"Among the headline rows, {len(named):,} differ"
                         + (" (the largest below)." if len(named) else "."))
    for measure, rows in named.groupby("measure", sort=False):
        for _, row in rows.head(FINDINGS_PER_MEASURE).iterrows():
            where = _key_text(row, keys)
            a, b, difference, low, high = (row[c] for c in ("A", "B", "B - A", "lo", "hi"))
            if is_rate(measure):  # in % and percentage points, as the tables show a rate
                a, b = format_percent(a), format_percent(b)
                difference, low, high = (format_number(100 * x) for x in (difference, low, high))
                difference, high = difference + " pp", high + " pp"
            else:
                a, b, difference, low, high = (format_number(x) for x in (a, b, difference, low, high))
            sentences.append(f"{measure}{' for ' + where if where else ''}: {a} in run A, {b} in {label} (B - A "
                             f"{difference}, 95% interval {low} to {high}).")
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
    writer = HtmlWriter() if fmt == "html" else MarkdownWriter(assets)
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
            shared = spec.shared_deals(runs[0].path, run.path) if spec.shared_deals is not None else None
            if shared:
                sentences.append(shared)
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
                         "taken as independent samples). Highlighted: the interval excludes zero and both runs "
                         f"measured the row on at least {MIN_SAMPLE} items (green: B higher, red: B lower). Each table "
                         "lists those first, within each measure the difference furthest from zero in units of its "
                         "interval first.")
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
        table = without_idle_bounds(tables[name])
        table_spec = spec.tables.get(name, TableSpec())
        writer.heading(4 if prefix else 3, f"{prefix}{name}")
        if table_spec.description:
            writer.paragraph(table_spec.description)
        file_name = f"{prefix.rstrip(': ').replace(' ', '-')}-{name}" if prefix else name
        visible, shown, notes = table_as_shown(table, table_spec)
        if any(MISSING in cells for cells in display_texts(visible).values()):
            glossary[MISSING] = MISSING_REASON
        headings = column_headings(table.columns, run.experiment)
        writer.table(shown, file_name, note="; ".join(notes), full=table, headings=headings)
        if len(shown) < len(visible):
            writer.more(visible, f"all {len(table):,} rows", headings=headings)
        starts = {value: (low, high) for value, low, high in interval_triplets(list(table.columns))}
        bounds = {bound for pair in starts.values() for bound in pair}
        for column in visible.columns:  # the glossary explains what the page shows
            text = None if column in bounds else _describe_column(column, name, table.columns, spec)
            if text is None:
                continue
            if headings[column] != column:  # the CSV and ``query`` name it by its field name
                text += f" (CSV column {column})"
            if column in starts:  # its bounds are shown in its cell, not apart
                text += "; in brackets its 95% interval (in the CSV {} and {})".format(*starts[column])
            key = headings[column]
            glossary.setdefault(key if glossary.get(key, text) == text else f"{key} ({name})", text)


def table_as_shown(table: pd.DataFrame, table_spec: TableSpec) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """A summary table as a report (and ``runs show``) shows it.

    Parameters
    ----------
    table : pandas.DataFrame
        The summary table without its idle bounds (:func:`without_idle_bounds`).
    table_spec : TableSpec
        Its report settings: the columns kept only in the CSV, the headline rows of a long table.

    Returns
    -------
    visible : pandas.DataFrame
        Every row, without the columns kept only in the CSV.
    shown : pandas.DataFrame
        The rows on the page: all of ``visible``, or its headline rows (else its first ``SHOWN_ROWS``) when the
        table is longer.
    notes : list of str
        What was left out, one phrase each.
    """
    groups = [[c for c in table.columns if c.startswith(prefix)] for prefix in table_spec.hidden]
    groups = [group for group in groups if group]
    hidden = [c for group in groups for c in group]
    visible = shown = table.drop(columns=hidden)
    spans = [", ".join(group) if len(group) <= 3 else f"{group[0]} to {group[-1]}" for group in groups]
    notes = [f"{', '.join(spans)} only in the CSV"] if spans else []
    if len(table) > SHOWN_ROWS:
        headline = table_spec.headline is not None
        shown = table_spec.headline(visible) if headline else visible.head(SHOWN_ROWS)
        notes.insert(0, f"{'headline' if headline else 'first'} rows: {len(shown):,} of {len(table):,}")
    return visible, shown, notes


def without_idle_bounds(table: pd.DataFrame) -> pd.DataFrame:
    """The table as a report shows it: without its ``bounded`` count and the ``*_high`` columns of the bounded
    rows' high ends when no row is bounded (they then repeat the means beside them); the CSV keeps them."""
    if "bounded" not in table.columns or pd.to_numeric(table["bounded"], errors="coerce").fillna(0).any():
        return table
    return table.drop(columns=["bounded", *(c for c in table.columns if c.endswith("_high"))])


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


