"""Parse ``--hand``, ``--cards``, ``--hcp``, ``--aces`` and ``--length`` deal constraints."""

from analyzer.cards.dealing import SeatConstraint
from analyzer.cards.deck import parse_card_list, parse_suit
from analyzer.cards.masks import mask_of
from analyzer.cards.pbn import parse_hand, parse_seat
from analyzer.errors import InputError


def _split(text: str, option: str) -> tuple[str, str]:
    if "=" not in text:
        raise InputError(f"bad {option} {text!r}: write SEAT=VALUE, e.g. N=12-15")
    left, right = text.split("=", 1)
    return left.strip(), right.strip()


def _range(text: str, option: str) -> tuple[int, int]:
    parts = text.split("-")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise InputError(f"bad {option} range {text!r}: write LOW-HIGH or a single number") from None
    if len(values) == 1:
        return values[0], values[0]
    if len(values) != 2:
        raise InputError(f"bad {option} range {text!r}: write LOW-HIGH or a single number")
    return values[0], values[1]


def build_constraints(hands: list[str], cards: list[str], hcp: list[str], aces: list[str],
                      lengths: list[str]) -> list[SeatConstraint]:
    """Turn the option strings into four ``SeatConstraint`` objects (N E S W).

    Examples of accepted values: ``--hand N=AKQ2.T93..J8765``, ``--cards E=SA,SK``, ``--hcp S=12-15``,
    ``--aces W=2-4``, ``--length N:S=5-13`` (seat, suit, range).
    """
    seats = [SeatConstraint() for _ in range(4)]
    for text in hands:
        seat, value = _split(text, "--hand")
        mask = parse_hand(value)
        if bin(mask).count("1") != 13:
            raise InputError(f"--hand {text!r} must hold 13 cards")
        seats[parse_seat(seat)].fixed |= mask
    for text in cards:
        seat, value = _split(text, "--cards")
        index = parse_seat(seat)
        mask = mask_of(parse_card_list(value))
        if seats[index].fixed & mask:
            raise InputError(f"--cards {text!r} repeats a card already fixed for that seat")
        seats[index].fixed |= mask
    for text in hcp:
        seat, value = _split(text, "--hcp")
        seats[parse_seat(seat)].hcp = _range(value, "--hcp")
    for text in aces:
        seat, value = _split(text, "--aces")
        seats[parse_seat(seat)].aces = _range(value, "--aces")
    for text in lengths:
        key, value = _split(text, "--length")
        if ":" not in key:
            raise InputError(f"bad --length {text!r}: write SEAT:SUIT=LOW-HIGH, e.g. N:S=5-13")
        seat, suit = key.split(":", 1)
        index = parse_seat(seat)
        bounds = list(seats[index].suit_lengths)
        bounds[parse_suit(suit)] = _range(value, "--length")
        seats[index].suit_lengths = bounds
    return seats
