"""Card ids and text notation for the 52-card deck.

A card is ``suit * 13 + rank`` with suits C D H S = 0..3 and ranks 2..A = 0..12, so one
suit is a contiguous 13-bit field of an int64 mask.
"""

from analyzer.errors import InputError

SUIT_LETTERS = "CDHS"
RANK_LETTERS = "23456789TJQKA"
N_SUITS = 4
N_RANKS = 13
N_CARDS = 52
FULL_DECK = (1 << N_CARDS) - 1


def __getattr__(name: str):
    # SUIT_MASKS (int64 array: the cards of suit s) is built on first use, so that parsing cards and the
    # commands' help import no numpy.
    if name == "SUIT_MASKS":
        import numpy as np

        value = np.array([((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS)], dtype=np.int64)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def card_id(suit: int, rank: int) -> int:
    """Return the id of the card of ``suit`` (0..3, C D H S) and ``rank`` (0..12, 2..A)."""
    return suit * N_RANKS + rank


def parse_suit(text: str) -> int:
    """Parse a suit letter (``C D H S``, any case) into 0..3."""
    index = SUIT_LETTERS.find(text.strip().upper()) if len(text.strip()) == 1 else -1
    if index < 0:
        raise InputError(f"unknown suit {text!r}: use one of C D H S")
    return index


def parse_rank(text: str) -> int:
    """Parse a rank (``2``..``9``, ``T`` or ``10``, ``J Q K A``) into 0..12."""
    upper = text.strip().upper()
    if upper == "10":
        upper = "T"
    index = RANK_LETTERS.find(upper) if len(upper) == 1 else -1
    if index < 0:
        raise InputError(f"unknown rank {text!r}: use 2-9, T (or 10), J, Q, K, A")
    return index


def parse_card(text: str) -> int:
    """Parse a card such as ``SA``, ``h10`` or ``DT`` into its id.

    Raises
    ------
    InputError
        If the text is not a suit letter followed by a rank.
    """
    stripped = text.strip()
    if len(stripped) < 2:
        raise InputError(f"bad card {text!r}: write a suit letter then a rank, e.g. SA or H10")
    try:
        return card_id(parse_suit(stripped[0]), parse_rank(stripped[1:]))
    except InputError as exc:
        raise InputError(f"bad card {text!r}: {exc}") from None


def card_name(card: int) -> str:
    """Return the two-letter name of a card id, e.g. ``SA``."""
    if not 0 <= card < N_CARDS:
        raise InputError(f"card id {card} is outside 0..51")
    return SUIT_LETTERS[card // N_RANKS] + RANK_LETTERS[card % N_RANKS]


def parse_card_list(text: str) -> list[int]:
    """Parse a space- or comma-separated list of cards (``SA SK H2``); duplicates are an error."""
    cards = [parse_card(token) for token in text.replace(",", " ").split()]
    seen = set()
    for card in cards:
        if card in seen:
            raise InputError(f"card {card_name(card)} is listed twice")
        seen.add(card)
    return cards


def format_card_list(cards) -> str:
    """Format card ids as a space-separated list of names."""
    return " ".join(card_name(int(c)) for c in cards)
