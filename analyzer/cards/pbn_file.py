"""PBN files: the tag pairs of each game read and written, so deals travel to and from bridge tools.

A PBN file (Portable Bridge Notation 2.1) is a list of games separated by empty lines; each game is a list
of tag pairs ``[Name "value"]`` followed by optional sections (auction, play) that this module skips.
``;`` comments run to the end of the line, ``{...}`` comments may span lines, lines starting with ``%`` are
escapes, and a value ``#`` repeats the previous game's value of that tag. Only the tags are read: a PBN
file is data, nothing in it is run.
"""

import re
from pathlib import Path

from analyzer.cards.lin_file import read_lin
from analyzer.cards.pbn import SEAT_LETTERS, format_deal, parse_deal, parse_seat
from analyzer.cards.record_file import read_record_text
from analyzer.errors import InputError

# The mandatory tag set of PBN 2.1, in its export order.
ROSTER = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
          "Scoring", "Declarer", "Contract", "Result")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]')
_UNESCAPE = re.compile(r"\\(.)")


def parse_pbn(text: str, source: str = "PBN") -> list[dict[str, str]]:
    """The tag pairs of every game of a PBN text, in file order.

    Parameters
    ----------
    text : str
        The file's text.
    source : str
        Named in error messages (the file's path).

    Returns
    -------
    list of dict
        One ``{tag: value}`` per game (``#`` values replaced by the previous game's).

    Raises
    ------
    InputError
        On a malformed tag pair or an unclosed ``{`` comment (with the line number).
    """
    games: list[dict[str, str]] = []
    game: dict[str, str] = {}
    previous: dict[str, str] = {}
    pos, line, line_blank = 0, 1, True
    while pos < len(text):
        char = text[pos]
        if char == "\n":
            if line_blank and game:
                games.append(game)
                previous, game = game, {}
            line, line_blank, pos = line + 1, True, pos + 1
        elif char.isspace():
            pos += 1
        elif char == ";" or (char == "%" and line_blank):
            end = text.find("\n", pos)
            pos, line_blank = (len(text) if end < 0 else end), False
        elif char == "{":
            end = text.find("}", pos)
            if end < 0:
                raise InputError(f"{source}: line {line}: a {{ comment is never closed")
            line += text.count("\n", pos, end)
            pos, line_blank = end + 1, False
        elif char == "[":
            match = _TAG.match(text, pos)
            if match is None:
                raise InputError(f"{source}: line {line}: a tag must read [Name \"value\"]")
            name, value = match.group(1), _UNESCAPE.sub(r"\1", match.group(2))
            game[name] = previous.get(name, "") if value == "#" else value
            pos, line_blank = match.end(), False
        else:  # section data (auction, play, notes): skipped a token at a time
            while pos < len(text) and not text[pos].isspace() and text[pos] not in "[{;":
                pos += 1
            line_blank = False
    if game:
        games.append(game)
    return games


def read_pbn(path) -> list[dict[str, str]]:
    """The games of the PBN file ``path`` (see :func:`parse_pbn`); see ``record_file.read_record_text`` for the
    reading."""
    return parse_pbn(read_record_text(path, "PBN"), str(path))


def game_deal(game: dict[str, str], source: str = "PBN"):
    """The seat masks of a game's ``Deal`` tag (N E S W) and its dealer (a seat, or None without the tag).

    Raises
    ------
    InputError
        Without a ``Deal`` tag, or on a malformed deal or dealer.
    """
    if not game.get("Deal"):
        raise InputError(f"{source}: board {game.get('Board', '?')} has no Deal tag")
    dealer = game.get("Dealer", "").strip()
    try:
        seat = parse_seat(dealer) if dealer else None
    except InputError:
        raise InputError(f"{source}: board {game.get('Board', '?')} has Dealer tag {dealer!r}: use N, E, S or W") from None
    return parse_deal(game["Deal"], hand_size=None), seat


def _quoted(value: str) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_pbn(games: list[dict[str, str]]) -> str:
    """PBN text of ``games``: the roster tags first (empty where a game has none), then its others."""
    blocks = []
    for game in games:
        names = [*ROSTER, *(name for name in game if name not in ROSTER)]
        blocks.append("\n".join(f"[{name} {_quoted(game.get(name, ''))}]" for name in names))
    return "% PBN 2.1\n% EXPORT\n\n" + "\n\n".join(blocks) + "\n"


def deal_games(deals, event: str, dealer: int) -> list[dict[str, str]]:
    """PBN games of plain deals (seat masks N E S W), numbered from board 1, all with ``dealer``."""
    return [{"Event": event, "Site": "", "Date": "????.??.??", "Board": str(board), "Dealer": SEAT_LETTERS[dealer],
             "Vulnerable": "None", "Deal": format_deal(masks)} for board, masks in enumerate(deals, start=1)]


def board_deal(path, board: str | None):
    """The deal and dealer of one board of a PBN file (or a LIN file, ``.lin``: :mod:`lin_file`): the game
    whose ``Board`` tag is ``board``, or the file's only game when ``board`` is None.

    Raises
    ------
    InputError
        On an unreadable file, no games, several games and no ``board``, or no game with that board.
    """
    if Path(path).suffix.lower() == ".lin":
        games = read_lin(path)
        if not games:
            raise InputError(f"{path}: no boards (a board is an md|...| pair)")
    else:
        games = read_pbn(path)
        if not games:
            raise InputError(f"{path}: no games (a game is a list of [Tag \"value\"] lines)")
    if board is None:
        if len(games) > 1:
            raise InputError(f"{path} holds {len(games)} boards: pick one with --board")
        return game_deal(games[0], str(path))
    chosen = [game for game in games if game.get("Board", "").strip() == board.strip()]
    if not chosen:
        raise InputError(f"{path}: no board {board!r} (boards {', '.join(g.get('Board', '?') for g in games[:10])}"
                         f"{', ...' if len(games) > 10 else ''})")
    return game_deal(chosen[0], str(path))
