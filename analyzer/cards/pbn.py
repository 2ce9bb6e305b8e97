"""PBN-style hands (``AKQ2.T93..J8765``, suits S.H.D.C) and deals (``N:hand hand hand hand``)."""

from __future__ import annotations

from analyzer.cards.deck import N_RANKS, RANK_LETTERS, SUIT_LETTERS, parse_rank
from analyzer.errors import InputError

SEAT_LETTERS = "NESW"
# PBN writes suits from spades down to clubs; our suit ids run C D H S.
PBN_SUIT_ORDER = (3, 2, 1, 0)


def parse_seat(text: str) -> int:
    """Parse a seat letter ``N E S W`` (seats 0..3, clockwise) or a digit 0..3."""
    upper = text.strip().upper()
    if upper in ("0", "1", "2", "3"):
        return int(upper)
    index = SEAT_LETTERS.find(upper) if len(upper) == 1 else -1
    if index < 0:
        raise InputError(f"unknown seat {text!r}: use N, E, S or W")
    return index


def parse_hand(text: str) -> int:
    """Parse a dotted hand ``S.H.D.C`` into a card mask.

    Raises
    ------
    InputError
        If there are not four suit fields, a rank is unknown or repeated.
    """
    fields = text.strip().split(".")
    if len(fields) != 4:
        raise InputError(f"bad hand {text!r}: write four suits S.H.D.C separated by dots")
    mask = 0
    for suit, field in zip(PBN_SUIT_ORDER, fields):
        for char in field.replace("10", "T"):
            try:
                rank = parse_rank(char)
            except InputError:
                raise InputError(f"bad hand {text!r}: unknown rank {char!r}") from None
            bit = 1 << (suit * N_RANKS + rank)
            if mask & bit:
                raise InputError(f"bad hand {text!r}: {SUIT_LETTERS[suit]}{char.upper()} appears twice")
            mask |= bit
    return mask


def format_hand(mask: int) -> str:
    """Format a card mask as a dotted ``S.H.D.C`` hand, high cards first."""
    mask = int(mask)
    fields = []
    for suit in PBN_SUIT_ORDER:
        ranks = [RANK_LETTERS[r] for r in range(N_RANKS - 1, -1, -1) if mask >> (suit * N_RANKS + r) & 1]
        fields.append("".join(ranks))
    return ".".join(fields)


def parse_deal(text: str, hand_size: int | None = 13) -> np.ndarray:
    """Parse a PBN deal ``N:hand hand hand hand`` into masks indexed by seat (N E S W = 0..3).

    Parameters
    ----------
    text : str
        The deal; the letter before the colon names the seat of the first hand, the others follow clockwise.
    hand_size : int or None
        Required number of cards per hand; ``None`` accepts any equal sizes (endings).

    Raises
    ------
    InputError
        On a malformed deal, a card held twice or hands of the wrong size.
    """
    stripped = text.strip()
    if len(stripped) < 2 or stripped[1] != ":":
        raise InputError(f"bad deal {text!r}: write it as N:hand hand hand hand")
    first = parse_seat(stripped[0])
    hands = stripped[2:].split()
    if len(hands) != 4:
        raise InputError(f"bad deal: expected 4 hands, got {len(hands)}")
    import numpy as np  # here, not at the top: the commands' help imports this module and no numpy

    masks = np.zeros(4, dtype=np.int64)
    seen = 0
    for offset, hand in enumerate(hands):
        mask = parse_hand(hand)
        seat = (first + offset) % 4
        if seen & mask:
            raise InputError(f"bad deal: {_shared_card(masks, mask, seat)}")
        seen |= mask
        masks[seat] = mask
    counts = [bin(int(m)).count("1") for m in masks]
    if hand_size is not None and set(counts) != {hand_size}:
        raise InputError(f"bad deal: every hand needs {hand_size} cards, got {counts}")
    if hand_size is None and len(set(counts)) != 1:
        raise InputError(f"bad deal: hands of {counts} cards (N E S W); an ending needs equal hands")
    if counts[0] == 0:
        raise InputError("bad deal: the hands hold no cards")
    return masks


def _shared_card(masks: np.ndarray, mask: int, seat: int) -> str:
    """Name one card of ``mask`` that an earlier hand of ``masks`` holds too, and both seats."""
    clash = next(int(m) & mask for m in masks if int(m) & mask)
    card = (clash & -clash).bit_length() - 1
    holder = next(s for s in range(4) if int(masks[s]) >> card & 1)
    name = SUIT_LETTERS[card // N_RANKS] + RANK_LETTERS[card % N_RANKS]
    return f"{name} is held twice, by {SEAT_LETTERS[holder]} and by {SEAT_LETTERS[seat]}"


def format_deal(masks, first: int = 0) -> str:
    """Format seat masks as a PBN deal starting from seat ``first``."""
    hands = [format_hand(masks[(first + i) % 4]) for i in range(4)]
    return f"{SEAT_LETTERS[first]}:" + " ".join(hands)
