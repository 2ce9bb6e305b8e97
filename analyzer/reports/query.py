"""Questions to a stored run, answered from its row dataset with DuckDB (embedded, no server).

A game describes, per experiment, which dataset holds the rows and what is measured on them
(:class:`QuerySpec`): *subjects* (for example one per Rikken contract) with a condition selecting
their rows and *measures* — 0/1 outcomes reported as a rate with a Wilson interval, numbers reported
as a mean with a normal interval. The user adds a filter (``--where``, a condition over the columns
checked by :mod:`analyzer.reports.safe_sql`) and grouping columns (``--by``). Only counts, sums and sums of
squares come back from DuckDB, so a question over tens of millions of rows needs little memory. A run
is answered only when complete and every part matches its checksum (a missing part would silently
shrink the answer).
"""

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.reports.integrity import verified_parts
from analyzer.reports.manifest import read_manifest
from analyzer.reports.stats import moments_interval, wilson_interval
from analyzer.reports.safe_sql import checked_condition, locked_connection, register_parts

RATE = "rate"
MEAN = "mean"


@dataclass(frozen=True)
class Measure:
    """One quantity measured on every selected row: ``sql`` is an expression over the columns."""

    name: str
    sql: str
    kind: str = MEAN


@dataclass(frozen=True)
class Subject:
    """A named part of the rows (``where``: an SQL condition, empty for all rows) and its measures."""

    name: str
    where: str
    measures: tuple[Measure, ...]


@dataclass(frozen=True)
class QuerySpec:
    """What ``analyzer query`` measures on one experiment's rows.

    Parameters
    ----------
    dataset : str
        Name of the dataset folder in the run directory.
    subjects : callable
        ``subjects(columns)``: the subjects the stored columns allow (a run may hold a subset of contracts).
    rows : str
        SQL giving the rows, with ``{parts}`` standing for the table of the dataset's parts; reshapes wide
        rows into long ones where a row holds several subjects (e.g. one column group per seat).
    subject_label : str
        Name of the subject column in the answer (e.g. ``contract``).
    subject_column : str, optional
        A column whose distinct values name the subjects (runs whose subjects are only known from their
        rows, e.g. a hand's options); ``subjects`` is then called as ``subjects(columns, values)``.
    """

    dataset: str
    subjects: Callable[..., list[Subject]]
    rows: str = "SELECT * FROM {parts}"
    subject_label: str = "subject"
    subject_column: str | None = None


def quote(column: str) -> str:
    """A column name as an SQL identifier (names such as ``made_9-alone`` need quotes)."""
    return '"' + column.replace('"', '""') + '"'


def run_query(run_dir, spec: QuerySpec, where: str | None = None, by: tuple[str, ...] = (),
              subject: str | None = None) -> pd.DataFrame:
    """Answer one question from a run's stored rows.

    Parameters
    ----------
    run_dir : path-like
        The run directory.
    spec : QuerySpec
        What the experiment's rows hold and what is measured.
    where : str, optional
        Condition over the columns, e.g. ``trumps >= 6 and aces == 2`` (see :mod:`analyzer.reports.safe_sql`).
    by : tuple of str
        Columns to group by.
    subject : str, optional
        Only this subject (e.g. one contract).

    Returns
    -------
    pandas.DataFrame
        One row per subject and group: ``n`` and, per measure, the count and rate with its 95% Wilson
        interval (rates) or the mean with its 95% interval (means).

    Raises
    ------
    InputError
        If the run is not complete, has no such dataset or a missing or damaged part, a column or the
        condition is bad, or the subject is unknown.
    """
    import duckdb

    files = verified_parts(run_dir, spec.dataset, read_manifest(run_dir))
    connection = locked_connection()
    register_parts(connection, "stored_parts", files)
    rows = f"({spec.rows.format(parts='stored_parts')})"
    try:
        columns = [name for name, *_ in connection.execute(f"DESCRIBE SELECT * FROM {rows}").fetchall()]
    except duckdb.Error as exc:
        raise InputError(f"{run_dir}: cannot read its {spec.dataset}/ rows: {str(exc).splitlines()[0]}") from None
    if where is not None and where.strip():
        try:
            where = checked_condition(where, columns)
        except InputError as exc:
            raise InputError(f"{exc}; columns: {column_list(columns)}") from None
    unknown = [column for column in by if column not in columns]
    if unknown:
        raise InputError(f"unknown column {unknown[0]!r} in --by; columns: {column_list(columns)}")
    if spec.subject_column is None:
        subjects = spec.subjects(columns)
    else:
        column = quote(spec.subject_column)
        values = [v for (v,) in connection.execute(f"SELECT DISTINCT {column} FROM {rows} ORDER BY 1").fetchall()]
        subjects = spec.subjects(columns, values)
    if subject is not None:
        known = subjects
        subjects = [s for s in subjects if s.name == subject]
        if not subjects:
            raise InputError(f"this run has no {spec.subject_label} {subject!r}; it has: "
                             f"{', '.join(s.name for s in known)}")
    answers = []
    for part in subjects:
        try:
            raw = connection.execute(_sql(rows, part, where, by)).df()
        except duckdb.Error as exc:
            message = str(exc).strip().splitlines()[0]
            raise InputError(f"bad --where {where!r}: {message}; columns: {column_list(columns)}") from None
        answers.append(_answer(raw, part, by))
    answer = pd.concat(answers, ignore_index=True) if answers else pd.DataFrame(columns=["subject", "n"])
    answer = answer[answer["n"] > 0].reset_index(drop=True)
    return answer.rename(columns={"subject": spec.subject_label})


def column_list(columns: list[str]) -> str:
    """The columns for an error message; families such as ``made_rik, made_9-alone, ...`` shortened."""
    families: dict[str, list[str]] = {}
    for column in columns:
        families.setdefault(column.split("_")[0] + "_*" if "_" in column else column, []).append(column)
    shown = []
    for name, members in families.items():
        shown += [f"{name} ({len(members)} columns)"] if len(members) >= 4 else members
    return ", ".join(shown)


def _sql(rows: str, subject: Subject, where: str | None, by: tuple[str, ...]) -> str:
    """One subject's counts, sums and sums of squares per group."""
    conditions = [f"({c})" for c in (subject.where, where) if c and c.strip()]
    sums = []
    for index, measure in enumerate(subject.measures):
        value = f"CAST(({measure.sql}) AS DOUBLE)"
        sums += [f"sum({value}) AS s{index}", f"sum({value} * {value}) AS q{index}"]
    groups = ", ".join(quote(c) for c in by)
    return (f"SELECT {groups + ', ' if by else ''}count(*) AS n, {', '.join(sums)} FROM {rows} AS r"
            f"{' WHERE ' + ' AND '.join(conditions) if conditions else ''}"
            f"{' GROUP BY ' + groups + ' ORDER BY ' + groups if by else ''}")


def _answer(raw: pd.DataFrame, subject: Subject, by: tuple[str, ...]) -> pd.DataFrame:
    """Rates with Wilson intervals and means with normal intervals from the sums of :func:`_sql`."""
    out = pd.DataFrame({"subject": subject.name, **{c: raw[c] for c in by}, "n": raw["n"].astype(np.int64)})
    n = out["n"].to_numpy()
    for index, measure in enumerate(subject.measures):
        total = raw[f"s{index}"].fillna(0.0).to_numpy()
        if measure.kind == RATE:
            low, high = wilson_interval(total, n)
            out[measure.name] = total.astype(np.int64)
            out[f"{measure.name}_rate"] = total / np.where(n > 0, n, np.nan)
            out[f"{measure.name}_lo"], out[f"{measure.name}_hi"] = low, high
        else:
            mean, low, high = moments_interval(n, total, raw[f"q{index}"].fillna(0.0).to_numpy())
            out[f"{measure.name}_mean"], out[f"{measure.name}_lo"], out[f"{measure.name}_hi"] = mean, low, high
    return out
