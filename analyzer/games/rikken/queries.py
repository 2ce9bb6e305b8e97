"""What ``analyzer query`` measures on the stored rows of Rikken runs: per contract (per option of an
advised hand), how often it was made and the declarer's mean money and points score.

Rows of double-dummy runs carry bounds on each trick count (``exact``, ``*_high`` columns, see
``experiments.result_columns``): their answers add how many rows are bounded (``bounded``, a rate) and
the means at the rows' high ends (``money_high``, ``points_high``); ``money`` and ``points`` are then
the low ends, and the score lies between the two."""

from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, Contract
from analyzer.reports.query import RATE, Measure, QuerySpec, Subject, quote


def _contract_measures(made: str, money: str, points: str, bounds: tuple[str, str, str] | None = None
                       ) -> tuple[Measure, ...]:
    """Made, money and points; with ``bounds`` (the exact, money-high and points-high columns) also the
    bounded rows and the high ends."""
    measures = (Measure("made", made, RATE), Measure("money", money), Measure("points", points))
    if bounds is None:
        return measures
    exact, money_high, points_high = bounds
    return (*measures, Measure("bounded", f"NOT {exact}", RATE), Measure("money_high", money_high),
            Measure("points_high", points_high))


def _bids_subjects(columns: list[str]) -> list[Subject]:
    """One subject per contract the run evaluated, over the hands that could declare it."""
    def bounds(name: str):
        return tuple(quote(f"{key}_{name}") for key in ("exact", "money_high", "points_high")) \
            if f"exact_{name}" in columns else None

    return [Subject(name, f"{quote('tricks_' + name)} <> -1",
                    _contract_measures(quote("made_" + name), quote("money_" + name), quote("points_" + name),
                                       bounds(name)))
            for name in CONTRACT_CLI_NAMES if f"made_{name}" in columns]


def _rounds_subjects(columns: list[str]) -> list[Subject]:
    """One subject per contract, over the declarations of it (a round with joined bids has several)."""
    return [Subject(CONTRACT_CLI_NAMES[c], f"contract = {int(c)}", _contract_measures("made", "money", "points"))
            for c in Contract]


def _advice_subjects(columns: list[str], names: list[str]) -> list[Subject]:
    """One subject per option of the advised hand (``rik-S``, ``misery`` ...), over every deal."""
    bounds = ("exact", "money_high", "points_high") if "exact" in columns else None
    # The names come from the stored rows: quoted as SQL strings, so a quote in one cannot change the query.
    return [Subject(name, "option_name = '{}'".format(name.replace("'", "''")),
                    _contract_measures("made", "money", "points", bounds)) for name in names]


# Full rounds hold each seat's declaration in its own columns: one row per seat makes them queryable.
_ROUNDS_BY_SEAT = " UNION ALL ".join(
    f"SELECT *, {seat} AS seat, contract_{seat} AS contract, made_{seat} AS made, money_{seat} AS money, "
    f"points_{seat} AS points, tricks_{seat} AS tricks FROM {{parts}}" for seat in range(4))

BIDS_QUERY = QuerySpec("hands", _bids_subjects, subject_label="contract")
PLAY_QUERY = QuerySpec("rounds", _rounds_subjects, rows=_ROUNDS_BY_SEAT, subject_label="contract")
ADVISE_QUERY = QuerySpec("deals", _advice_subjects, subject_label="option", subject_column="option_name")
