"""How numbers, tables and names read in a report: rounding by column, percentages, anchors and file names."""

import math
import re
import textwrap
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd


def fixed(value: float, decimals: int, sign: bool = False) -> str:
    """``value`` with ``decimals`` decimals, thousands separated, a half rounded away from zero as the number
    reads (``1.075`` -> ``"1.08"``; ``format`` gives ``1.07``, the float being 1.07499...), ``-0.00`` as
    ``0.00``; with ``sign`` a ``+`` before a positive value. Every number a report or the terminal shows is
    rounded here, so a sentence and a table agree."""
    if not math.isfinite(value):
        return str(value)
    exact = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return _clean_zero(f"{exact:{'+' if sign else ''},.{decimals}f}")


def format_number(value, digits: int = 3) -> str:
    """A number for a sentence: ``digits`` significant digits, fixed notation, thousands separated;
    ``1234.6`` -> ``"1,235"``, ``0.0123`` -> ``"0.0123"``, ``5.6e-17`` -> ``"0"``, NaN -> ``"n/a"``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    value = float(value)
    if abs(value) < 1e-12:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return fixed(value, decimals)


def mean_with_interval(mean: float, low: float, high: float) -> str:
    """``0.242 (95% 0.205 to 0.278)``: a mean and its interval for a sentence, the three with the same decimals:
    three significant digits of the largest, more where the mean would read as a bound (``7.41 (95% 7.38 to
    7.44)``, not ``7.4 (95% 7.4 to 7.4)``; ``1.00 (95% -0.07 to 2.07)``, not ``-0.0735``); an undefined bound
    as ``n/a``."""
    values = [float(x) if x is not None else math.nan for x in (mean, low, high)]
    if not all(math.isfinite(x) for x in values):
        return f"{format_number(mean)} (95% {format_number(low)} to {format_number(high)})"
    largest = max(abs(x) for x in values)
    decimals = max(0, 2 - math.floor(math.log10(largest))) if largest > 1e-12 else 0
    decimals = interval_decimals(*values, decimals)
    return "{} (95% {} to {})".format(*(fixed(x, decimals) for x in values))


def rate_with_interval(rate: float, low: float, high: float) -> str:
    """``58.0% (95% 51.0% to 65.0%)``: a rate and its interval for a sentence."""
    return f"{format_percent(rate)} (95% {format_percent(low)} to {format_percent(high)})"


def paired_difference_text(a: str, b: str, mean: float, low: float, high: float, unit: str) -> str:
    """``heuristic minus random: +2.15 game points a deal (95% +1.43 to +2.87)``: a paired difference with its
    signed interval, which reads one way whichever side is ahead; ``the same ...`` when every pair tied."""
    if mean == low == high == 0:
        return f"{a} and {b} scored the same {unit} on every pair"
    return f"{a} minus {b}: {_signed(mean)} {unit} (95% {_signed(low)} to {_signed(high)})"


def _signed(value: float) -> str:
    text = format_number(value)
    return text if text.startswith("-") or not re.search(r"[1-9]", text) else f"+{text}"


def format_percent(rate, digits: int = 1) -> str:
    """A rate as a percentage for a sentence: ``0.5913`` -> ``"59.1%"``, ``0.00048`` -> ``"0.048%"``."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "n/a"
    percent = 100 * float(rate)
    if percent == 0:
        return "0%"
    if abs(percent) < 10 ** -digits * 5:  # too small for the decimals: two significant digits instead
        return f"{format_number(percent, 2)}%"
    while percent < 100 and round(percent, digits) >= 100 and digits < MAX_PERCENT_DECIMALS:
        digits += 1  # 7,999 of 8,000 is not "100.0%"
    return fixed(percent, digits) + "%"


def format_bounds(low, high) -> str:
    """A whole number known exactly (``"3"``) or only to lie between two bounds (``"[2, 3]"``, the brackets
    every table puts round an interval), e.g. a trick count a search budget left undecided."""
    return str(low) if low == high else f"[{low}, {high}]"


def _clean_zero(text: str) -> str:
    """``-0.00`` -> ``0.00``: a negative number that rounds to zero prints without its sign."""
    return text[1:] if text[:1] in "-+" and not re.search(r"[1-9]", text) else text


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


def interval_decimals(value, low, high, decimals: int) -> int:
    """At least ``decimals``, and as many more (at most 6) as it takes for each value to print apart from
    the ends of its interval wherever they differ: a mean of 7.41 in [7.38, 7.44] does not read 7.4 [7.4, 7.4]."""
    value, low, high = (np.asarray(x, dtype=np.float64) for x in (value, low, high))
    for d in range(decimals, 6):
        shown = np.round(value, d)
        apart = (((low >= value) | (np.round(low, d) != shown)) & ((high <= value) | (np.round(high, d) != shown)))
        if apart[np.isfinite(value) & np.isfinite(low) & np.isfinite(high)].all():
            return d
    return max(decimals, 6)


def _cell_text(value: float, decimals: int, largest: float) -> str:
    """One float cell: the column's decimals, or more (up to 6) to keep two significant digits of a small
    value; float noise (under 1e-9 of the column's largest magnitude) prints as zero."""
    if abs(value) <= 1e-9 * largest:
        value = 0.0
    if value != 0.0:
        decimals = max(decimals, min(6, 1 - math.floor(math.log10(abs(value)))))
    return fixed(value, decimals)


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
    triplets = [t for t in interval_triplets(list(frame.columns))
                if all(pd.api.types.is_numeric_dtype(frame[c]) for c in t)]
    together = (*together, *triplets)
    partners = {column: [c for c in names if c in frame.columns] for names in together for column in names}
    interval_of = {column: triplet for triplet in triplets for column in triplet}
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
            if decimals is not None and column in interval_of:
                value, low, high = (frame[c].to_numpy(dtype=np.float64)[rows] for c in interval_of[column])
                decimals = interval_decimals(value, low, high, decimals)
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


def display_texts(frame: pd.DataFrame) -> dict[str, list[str]]:
    """A report table's cell texts by the columns shown: as the terminal shows them (:func:`table_cells`:
    rates in % with their interval in one cell), except a comparison's, whose rows are rounded per measure,
    its values and its differences each with one set of decimals, every column its own."""
    if "measure" not in frame.columns:
        return table_cells(frame)
    texts = formatted_columns(frame, frame["measure"], together=(("A", "B"), ("B - A", "lo", "hi")))
    return dict(zip(frame.columns, texts, strict=True))


def slug(text: str, taken: dict[str, int]) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, and
    ``-1``, ``-2`` ... on repeats."""
    base = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    count = taken.get(base, 0)
    taken[base] = count + 1
    return base if count == 0 else f"{base}-{count}"


def file_name(text: str) -> str:
    """``text`` as a safe file name: runs of other characters than letters, digits, ``.`` and ``-`` become ``-``."""
    return re.sub(r"[^\w.-]+", "-", text).strip("-")


#: the terminal width console prose (headlines, legends) is wrapped to
CONSOLE_WIDTH = 80


def fill_console(text: str, width: int = CONSOLE_WIDTH, **options) -> str:
    """``text`` wrapped to ``width`` columns as console prose: ``textwrap.fill`` with ``options``, never breaking
    at a hyphen, so that option names (``rik-beter``, ``open-misery-all``, ``--policy sampled-dd``) stay whole."""
    return textwrap.fill(text, width, break_on_hyphens=False, **options)


#: what a user sees for a value that is not defined (a rate of no cases, an interval of one sample)
MISSING = "–"
#: why, said once under a table (or in a report's glossary) that shows it
MISSING_REASON = "none, or not defined: a rate or mean over no cases (a contract never declared, say)"


def is_rate(name: str) -> bool:
    """Whether a column (or a compared measure) of this name is a rate, shown in %."""
    # ``per_round``: the share of rounds in which a contract was declared (its findings and chart say % too);
    # ``close_win``, ``playon_win``: the share of the worlds won by closing, by playing on
    return name.endswith(("rate", "success", "share", "prob", "probability", "per_round", "_win"))


def _is_rate_difference(name: str) -> bool:
    """A paired difference of two rates (``win_diff``: of the win shares), shown in percentage points."""
    stem = name.removesuffix("_diff")
    return stem != name and (stem == "win" or is_rate(stem))


def interval_triplets(columns: list[str]) -> list[tuple[str, str, str]]:
    """``(value, lo, hi)`` column triplets: a ``lo``/``<x>_lo``/``low`` column right after the value it
    bounds and followed by its ``hi``/``<x>_hi``/``high``."""
    triplets = []
    for i in range(1, len(columns) - 1):
        low, high = columns[i], columns[i + 1]
        prefix = low[:-2] if low.endswith("lo") else low[:-3] if low.endswith("low") else None
        if prefix is not None and high in (prefix + "hi", prefix + "high"):
            triplets.append((columns[i - 1], low, high))
    return triplets


# Most decimals a percentage cell takes to show a bound apart from 0% or 100%.
MAX_PERCENT_DECIMALS = 6


def _percent_interval(value: float, low: float, high: float) -> str:
    """``59.2% [59.0, 59.3]``: the rate as :func:`format_percent` writes it, its bounds with as many decimals."""
    text = format_percent(value) if value != 0 else "0.0%"
    decimals = len(text.rstrip("%").partition(".")[2])
    # A rate or bound that rounds onto 0% or 100% while it is not certain would read as certainty
    # (0 of 8,000 is 0.0% [0.0, 0.048]; 7,999 of 8,000 is not 100.0% [99.9, 100.0]): such a cell gets the
    # decimals that show it apart.
    shown = decimals
    while shown < MAX_PERCENT_DECIMALS and (
            any(x > 0 and round(100 * x, shown) == 0 for x in (value, high))
            or any(x < 1 and round(100 * x, shown) == 100 for x in (low, value, high))):
        shown += 1
    if shown != decimals:
        text = fixed(100 * value, shown) + "%"
    return f"{text} [{fixed(100 * low, shown)}, {fixed(100 * high, shown)}]"


def console_table(frame: pd.DataFrame, width: int = CONSOLE_WIDTH, headings: dict[str, str] | None = None) -> str:
    """A table as every command prints it (:func:`table_cells`), its columns headed ``headings[column]`` where
    given (a stored run's field names, ``headings.heading``); one wider than ``width`` is printed in blocks of
    columns, each repeating the row names (the fewest leading columns that tell the rows apart, such as
    ``contract`` and ``aces`` of a query by aces) so that every row keeps its name."""
    if frame.empty:
        return "(no rows)"
    cells = pd.DataFrame(table_cells(frame)).rename(columns=headings or {})
    whole = cells.to_string(index=False)
    if max(map(len, whole.splitlines())) <= width or cells.shape[1] < 3:
        return whole
    names = _row_names(cells)
    rest = [column for column in cells.columns if column not in names]
    blocks, block = [], []
    for column in rest:
        wider = cells[[*names, *block, column]].to_string(index=False)
        if block and max(map(len, wider.splitlines())) > width:
            blocks.append(block)
            block = []
        block.append(column)
    blocks.append(block)
    return "\n\n".join(cells[[*names, *columns]].to_string(index=False) for columns in blocks)


def _row_names(cells: pd.DataFrame) -> list[str]:
    """The fewest leading columns (at most all but two) whose values tell every row apart; the first alone
    when none do."""
    for count in range(1, cells.shape[1] - 1):
        names = list(cells.columns[:count])
        if not cells.duplicated(subset=names).any():
            return names
    return list(cells.columns[:1])


def table_cells(frame: pd.DataFrame) -> dict[str, list[str]]:
    """A table's cells as the terminal and the reports show them, by the columns shown: a rate with its 95%
    interval as one cell ``59.2% [59.0, 59.3]`` (a ``*rate`` or ``*success`` column followed by its ``lo``
    and ``hi`` columns, which are not shown apart; a ``*share`` or ``*prob`` column too, with or without an
    interval), a difference of two rates (``win_diff``) in percentage points ``33.5 pp [30.9, 36.1]``, any
    other value with its interval as ``0.242 [0.205, 0.278]`` (value and bounds to the same decimals), whole
    numbers as integers, others in fixed notation with three significant digits, and an undefined value as
    ``–``."""
    if frame.empty:
        return {column: [] for column in frame.columns}
    columns = list(frame.columns)
    triplets = interval_triplets(columns)
    texts = dict(zip(columns, formatted_columns(frame), strict=True))
    shown: dict[str, list[str]] = {}
    bounds = {column for _, low, high in triplets for column in (low, high)}
    starts = {value: (low, high) for value, low, high in triplets}
    for column in columns:
        if column in bounds:
            continue
        cells = [MISSING if text == "" and pd.isna(raw) else text for text, raw in zip(texts[column], frame[column],
                                                                                       strict=True)]
        if column in starts:
            low, high = starts[column]
            rows = zip(frame[column], frame[low], frame[high], cells, texts[low], texts[high], strict=True)
            if is_rate(column):
                cells = [MISSING if pd.isna(v) else v_text if pd.isna(lo) or pd.isna(hi)
                         else _percent_interval(v, lo, hi) for v, lo, hi, v_text, _, _ in rows]
            else:
                scale, unit = (100, " pp") if _is_rate_difference(column) else (1, "")
                pooled = scale * frame[[column, low, high]].to_numpy(dtype=np.float64).ravel()
                decimals = interval_decimals(scale * frame[column], scale * frame[low], scale * frame[high],
                                             column_decimals(pooled) or 0)
                cells = [v_text if v_text == MISSING or pd.isna(lo) or pd.isna(hi)
                         else "{}{} [{}, {}]".format(fixed(scale * v, decimals), unit,
                                                     *(fixed(scale * x, decimals) for x in (lo, hi)))
                         for v, lo, hi, v_text, _, _ in rows]
        elif is_rate(column):
            cells = [MISSING if pd.isna(raw) else format_percent(raw) for raw in frame[column]]
        shown[column] = cells
    return shown
