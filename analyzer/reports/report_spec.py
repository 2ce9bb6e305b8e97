"""What a report knows about one experiment: which measures a table compares, its findings, glossary and
captions (:class:`ReportSpec`, which each game supplies), and the written :class:`Report`."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pandas as pd


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
    hidden : tuple of str
        Prefixes of columns the report's table leaves out, kept in its CSV (a distribution a chart draws,
        a column another one repeats: what would push the table past the page's width).
    """

    description: str = ""
    headline: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    keys: tuple[str, ...] = ()
    measures: tuple = ()
    hidden: tuple[str, ...] = ()


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
    unit : str
        What one item of the run is ("deals", "rounds"), for a size given as ``-n N`` or not at all.
    shared_deals : callable, optional
        ``shared_deals(run_a, run_b) -> str | None``: a sentence when two runs hold the same deals (and
        what compares them paired), for a comparison's findings.
    """

    findings: Callable[[dict[str, pd.DataFrame], dict], list[str]] | None = None
    glossary: Mapping[str, str] = field(default_factory=dict)
    captions: Mapping[str, str] = field(default_factory=dict)
    tables: Mapping[str, TableSpec] = field(default_factory=dict)
    settings: Callable[[dict], dict] | None = None
    shared_deals: Callable[[object, object], str | None] | None = None
    unit: str = "items"


@dataclass
class Report:
    """A rendered report: its text, and for Markdown the files it links (path relative to the text)."""

    text: str
    files: dict[str, bytes] = field(default_factory=dict)
