"""Parse ``--hand``, ``--cards``, ``--hcp``, ``--aces`` and ``--length`` deal constraints."""

from analyzer.cards.dealing import SeatConstraint
from analyzer.cards.deck import card_name, parse_card_list, parse_suit
from analyzer.cards.masks import cards_of, mask_of
from analyzer.cards.pbn import SEAT_LETTERS, parse_hand, parse_seat
from analyzer.errors import InputError


def _split(text: str, option: str) -> tuple[str, str]:
    if "=" not in text:
        raise InputError(f"bad {option} {text!r}: write SEAT=VALUE, e.g. N=12-15")
    left, right = text.split("=", 1)
    return left.strip(), right.strip()


# The largest value each range option can take in one 13-card hand, and how to say so.
_LIMITS = {"--hcp": (37, "HCP are 0..37 per hand"), "--aces": (4, "a hand holds 0..4 aces"),
           "--length": (13, "a suit holds 0..13 cards of a hand")}


def _range(text: str, value: str, option: str) -> tuple[int, int]:
    """Parse ``LOW-HIGH`` or ``N`` of ``option`` (``text`` is the whole option value, for messages)."""
    try:
        values = [int(p) for p in value.split("-")]
    except ValueError:
        values = []
    if len(values) not in (1, 2):
        raise InputError(f"bad {option} range {value!r}: write LOW-HIGH or a single number")
    low, high = values[0], values[-1]
    top, limit = _LIMITS[option]
    if not (0 <= low <= top and 0 <= high <= top):
        raise InputError(f"bad {option} {text!r}: {limit}")
    if low > high:
        raise InputError(f"bad {option} {text!r}: {low} is above {high}; write LOW-HIGH")
    return low, high


def _fix(seats: list[SeatConstraint], index: int, mask: int, option: str, text: str) -> None:
    """Fix cards for one seat; a card fixed already is an error naming it and its seats."""
    for other, seat in enumerate(seats):
        clash = seat.fixed & mask
        if clash:
            card = card_name(cards_of(clash)[0])
            if other == index:
                raise InputError(f"{option} {text!r} repeats {card}, already fixed for {SEAT_LETTERS[index]}")
            raise InputError(f"{option} {text!r}: {card} is fixed for both {SEAT_LETTERS[other]} and "
                             f"{SEAT_LETTERS[index]}")
    seats[index].fixed |= mask


def build_constraints(hands: list[str], cards: list[str], hcp: list[str], aces: list[str],
                      lengths: list[str]) -> list[SeatConstraint]:
    """Turn the option strings into four ``SeatConstraint`` objects (N E S W).

    Examples of accepted values: ``--hand N=AKQ2.T93.K4.J876``, ``--cards E=SA,SK``, ``--hcp S=12-15``,
    ``--aces W=2-4``, ``--length N:S=5-13`` (seat, suit, range).
    """
    seats = [SeatConstraint() for _ in range(4)]
    for text in hands:
        seat, value = _split(text, "--hand")
        mask = parse_hand(value)
        if bin(mask).count("1") != 13:
            raise InputError(f"--hand {text!r} must hold 13 cards, not {bin(mask).count('1')}")
        _fix(seats, parse_seat(seat), mask, "--hand", text)
    for text in cards:
        seat, value = _split(text, "--cards")
        if not value.strip():
            raise InputError(f"--cards {text!r} names no cards: give some, e.g. E=SA,SK, or leave the option out")
        _fix(seats, parse_seat(seat), mask_of(parse_card_list(value)), "--cards", text)
    for text in hcp:
        seat, value = _split(text, "--hcp")
        seats[parse_seat(seat)].hcp = _range(text, value, "--hcp")
    for text in aces:
        seat, value = _split(text, "--aces")
        seats[parse_seat(seat)].aces = _range(text, value, "--aces")
    for text in lengths:
        key, value = _split(text, "--length")
        if ":" not in key:
            raise InputError(f"bad --length {text!r}: write SEAT:SUIT=LOW-HIGH, e.g. N:S=5-13")
        seat, suit = key.split(":", 1)
        index = parse_seat(seat)
        bounds = list(seats[index].suit_lengths)
        bounds[parse_suit(suit)] = _range(text, value, "--length")
        seats[index].suit_lengths = bounds
    return seats
