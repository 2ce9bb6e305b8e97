"""What ``analyzer query`` measures on the stored rows of Rikken runs: per contract (per option of an
advised hand), how often it was made and the declarer's mean money and points score."""

from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, Contract
from analyzer.reports.query import RATE, Measure, QuerySpec, Subject, quote


def _contract_measures(made: str, money: str, points: str) -> tuple[Measure, ...]:
    return (Measure("made", made, RATE), Measure("money", money), Measure("points", points))


def _bids_subjects(columns: list[str]) -> list[Subject]:
    """One subject per contract the run evaluated, over the hands that could declare it."""
    return [Subject(name, f"{quote('tricks_' + name)} <> -1",
                    _contract_measures(quote("made_" + name), quote("money_" + name), quote("points_" + name)))
            for name in CONTRACT_CLI_NAMES if f"made_{name}" in columns]


def _rounds_subjects(columns: list[str]) -> list[Subject]:
    """One subject per contract, over the declarations of it (a round with joined bids has several)."""
    return [Subject(CONTRACT_CLI_NAMES[c], f"contract = {int(c)}", _contract_measures("made", "money", "points"))
            for c in Contract]


def _advice_subjects(columns: list[str], names: list[str]) -> list[Subject]:
    """One subject per option of the advised hand (``rik-S``, ``misery`` ...), over every deal."""
    return [Subject(name, f"option_name = '{name}'", _contract_measures("made", "money", "points")) for name in names]


# Full rounds hold each seat's declaration in its own columns: one row per seat makes them queryable.
_ROUNDS_BY_SEAT = " UNION ALL ".join(
    f"SELECT *, {seat} AS seat, contract_{seat} AS contract, made_{seat} AS made, money_{seat} AS money, "
    f"points_{seat} AS points, tricks_{seat} AS tricks FROM {{parts}}" for seat in range(4))

BIDS_QUERY = QuerySpec("hands", _bids_subjects, subject_label="contract")
PLAY_QUERY = QuerySpec("rounds", _rounds_subjects, rows=_ROUNDS_BY_SEAT, subject_label="contract")
ADVISE_QUERY = QuerySpec("deals", _advice_subjects, subject_label="option", subject_column="option_name")
