"""LIN files (Bridge Base Online's hand records) read as PBN games, so ``solve`` and ``replay`` take them too,
and written from plain deals (``rikken deal --lin``).

A LIN file is a flat list of ``key|value|`` pairs. A board is the deal of an ``md`` pair,
``md|<dealer><south>,<west>,<north>,<east>|``: the dealer a digit (1 South, 2 West, 3 North, 4 East), each
hand its suits with their ranks (``SAKQHJT2D5CA987``), the last hand often left out (it holds the cards
left). Its name is the ``ah|Board 7|`` that follows it, else its position in the file. Only deals and
board names are read (auctions and play are skipped); like a PBN file, a LIN file is data, nothing in it
is run.
"""

import re
import numpy as np

from analyzer.cards.pbn import SEAT_LETTERS, format_deal, format_hand, parse_hand
from analyzer.cards.record_file import read_record_text
from analyzer.errors import InputError

# The hands of an ``md`` value in the order LIN lists them (South, West, North, East), as seats N E S W.
_LIN_SEATS = (2, 3, 0, 1)
_LIN_SUITS = re.compile(r"^S([^SHDC]*)H([^SHDC]*)D([^SHDC]*)C([^SHDC]*)$")
_FULL = (1 << 52) - 1


def parse_lin(text: str, source: str = "LIN") -> list[dict[str, str]]:
    """The boards of LIN ``text`` as PBN games: ``Board``, ``Dealer`` and ``Deal`` tags.

    Raises
    ------
    InputError
        On a malformed ``md`` value: a dealer digit other than 1-4, a hand not written as S..H..D..C..,
        a card twice, or hands that do not share out the deck.
    """
    pieces = text.replace("\r", "").replace("\n", "").split("|")
    games = []
    for position in range(0, len(pieces) - 1, 2):
        key, value = pieces[position].strip().lower(), pieces[position + 1].strip()
        if key == "md":
            games.append(_board(value, str(len(games) + 1), source))
        elif key == "ah" and games and value.lower().startswith("board "):
            games[-1]["Board"] = value[6:].strip()
    return games


def _board(value: str, number: str, source: str) -> dict[str, str]:
    where = f"{source}: board {number}"
    if not value or value[0] not in "1234":
        raise InputError(f"{where}: md|{value[:12]}...| does not start with a dealer digit 1-4 (S, W, N, E)")
    hands = np.zeros(4, dtype=np.int64)
    texts = value[1:].split(",")
    for seat, hand in zip(_LIN_SEATS, texts[:4]):
        hand = hand.strip().upper()
        if not hand:
            continue
        suits = _LIN_SUITS.match(hand)
        if suits is None:
            raise InputError(f"{where}: hand {hand!r} is not written as S..H..D..C..")
        hands[seat] = parse_hand(".".join(suits.groups()))
    missing = [seat for seat, hand in zip(_LIN_SEATS, (texts + [""] * 4)[:4]) if not hand.strip()]
    taken = int(np.bitwise_or.reduce(hands))
    if sum(bin(int(hand)).count("1") for hand in hands) != bin(taken).count("1"):
        raise InputError(f"{where}: a card is dealt twice")
    if len(missing) == 1:
        hands[missing[0]] = _FULL & ~taken
    if int(np.bitwise_or.reduce(hands)) != _FULL or any(bin(int(hand)).count("1") != 13 for hand in hands):
        raise InputError(f"{where}: the hands do not share out the 52 cards, 13 each")
    dealer = _LIN_SEATS[int(value[0]) - 1]
    return {"Board": number, "Dealer": SEAT_LETTERS[dealer], "Deal": format_deal(hands)}


def read_lin(path) -> list[dict[str, str]]:
    """The boards of the LIN file ``path`` (see :func:`parse_lin`), read as ``record_file.read_record_text``
    reads a hand record."""
    return parse_lin(read_record_text(path, "LIN"), str(path))


def format_lin(deals, dealer: int) -> str:
    """LIN text of plain deals (seat masks N E S W), one board a line, numbered from 1, all dealt by ``dealer``:
    ``pn|,,,|st||md|<dealer digit><S>,<W>,<N>,<E>|rh||ah|Board 1|sv|o|pg||`` (a BBO hand record: no player
    names, no auction, vulnerability none), every hand written; BBO's viewers and :func:`parse_lin` read it."""
    digit = _LIN_SEATS.index(dealer) + 1
    lines = []
    for board, masks in enumerate(deals, start=1):
        hands = ",".join(_lin_hand(int(masks[seat])) for seat in _LIN_SEATS)
        lines.append(f"pn|,,,|st||md|{digit}{hands}|rh||ah|Board {board}|sv|o|pg||")
    return "\n".join(lines) + "\n"


def _lin_hand(mask: int) -> str:
    return "".join(suit + ranks for suit, ranks in zip("SHDC", format_hand(mask).split(".")))
