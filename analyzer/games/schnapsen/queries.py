"""What ``analyzer query`` measures on the stored rows of Schnapsen runs."""

from analyzer.reports.query import RATE, Measure, QuerySpec, Subject


def _match_subjects(columns: list[str]) -> list[Subject]:
    """Bot A's Bummerl wins and its game-point margin per Bummerl."""
    return [Subject("A", "", (Measure("a_wins", "winner = 'A'", RATE), Measure("gp_margin", "gp_a - gp_b")))]


def _closing_subjects(columns: list[str]) -> list[Subject]:
    """Per position where closing is legal: both choices' win probability and game points, the gain, and
    how often the worlds were exact and the bot itself closed."""
    return [Subject("closing", "", (Measure("close_win", "close_win"), Measure("close_gp", "close_gp"),
                                    Measure("playon_win", "playon_win"), Measure("playon_gp", "playon_gp"),
                                    Measure("gain", "gain"), Measure("exact", "exact", RATE),
                                    Measure("bot_closed", "bot_action = 'close'", RATE)))]


def _advise_subjects(columns: list[str], names: list[str]) -> list[Subject]:
    """One subject per action of the advised position, over every world."""
    # The names come from the stored rows: quoted as SQL strings, so a quote in one cannot change the query.
    return [Subject(name, "action = '{}'".format(name.replace("'", "''")),
                    (Measure("game_points", "game_points"), Measure("won", "game_points > 0", RATE)))
            for name in names]


MATCH_QUERY = QuerySpec("matches", _match_subjects)
ADVISE_QUERY = QuerySpec("worlds", _advise_subjects, subject_label="action", subject_column="action")
CLOSING_QUERY = QuerySpec("closing_positions", _closing_subjects)
