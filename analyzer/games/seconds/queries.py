"""What ``analyzer query`` measures on the stored rows of Sloppy Seconds runs (group them with ``--by``,
e.g. ``--by policy`` or ``--by trump_rule,minimum_rule``)."""

from analyzer.reports.query import RATE, Measure, QuerySpec, Subject


def _game_subjects(columns: list[str]) -> list[Subject]:
    """Games won (a share of the seats' games) and score per deal."""
    return [Subject("all", "", (Measure("win", "win", RATE), Measure("score_per_deal", "score_per_deal")))]


def _deal_subjects(columns: list[str]) -> list[Subject]:
    """Score per seat and deal."""
    return [Subject("all", "", (Measure("score", "score"),))]


PLAY_QUERY = QuerySpec("games", _game_subjects)
VARIANTS_QUERY = QuerySpec("deals", _deal_subjects)
