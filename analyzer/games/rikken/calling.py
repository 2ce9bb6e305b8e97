"""Which card a Rik / Rik Beter bidder calls (docs/rules.md section 1, "Before play").

The bidder calls an ace he does not hold, not of the trump suit, of a suit he holds; failing that a
*blind* ace of a suit he is void in; holding all four aces he calls a king by the same rules; if no
card qualifies he plays alone (``(-1, False)``).
"""

import numpy as np

from analyzer.cards.deck import N_RANKS, N_SUITS, SUIT_MASKS, card_id
from analyzer.cards.masks import popcounts

ACE = 12
KING = 11
# Milton high-card points by rank: A 4, K 3, Q 2, J 1.
MILTON = {12: 4, 11: 3, 10: 2, 9: 1}
NO_CALL = (-1, False)


def suit_length(hand: int, suit: int) -> int:
    """Number of cards of ``suit`` in ``hand``."""
    return bin(int(hand) & int(SUIT_MASKS[suit])).count("1")


def _suit_points(hand: int, suit: int) -> int:
    """Milton high-card points (A 4, K 3, Q 2, J 1) of ``hand`` in ``suit``."""
    held = int(hand) >> (suit * N_RANKS)
    return sum(points for rank, points in MILTON.items() if held >> rank & 1)


def _call_rank(hand: int) -> int:
    """Aces are called, unless the bidder holds all four: then kings."""
    aces = sum(int(hand) >> card_id(s, ACE) & 1 for s in range(N_SUITS))
    return KING if aces == N_SUITS else ACE


def call_candidates(hand: int, trump: int) -> tuple[list[int], list[int]]:
    """Suits whose card could be called: (suits the bidder holds, suits he is void in).

    Parameters
    ----------
    hand : int
        The bidder's card mask.
    trump : int
        Trump suit 0..3, or 4 for no trump.

    Returns
    -------
    (list of int, list of int)
        Suits, in suit order, whose card of the calling rank (ace, or king with four aces) the bidder
        does not hold and which are not trumps: first those he holds cards in, then those he is void in.
    """
    rank = _call_rank(hand)
    open_suits = [s for s in range(N_SUITS) if s != trump and not int(hand) >> card_id(s, rank) & 1]
    held = [s for s in open_suits if suit_length(hand, s) > 0]
    void = [s for s in open_suits if suit_length(hand, s) == 0]
    return held, void


def choose_call(hand: int, trump: int, prefer_long: bool = True) -> tuple[int, bool]:
    """Choose the card a Rik / Rik Beter bidder calls.

    Among several suits he holds, the bidder prefers his longest one (or shortest with
    ``prefer_long=False``: hoping to ruff it later), then the one with more high-card points in it,
    then the lowest suit id. Among void suits (a blind call) the lowest suit id is taken: they are alike.

    Parameters
    ----------
    hand : int
        The bidder's card mask.
    trump : int
        Trump suit 0..3 (4 = no trump).
    prefer_long : bool
        Preference among the suits the bidder holds (``BiddingParams.call_longest``).

    Returns
    -------
    (int, bool)
        The called card id and whether the call is blind; ``(-1, False)`` if no card can be called
        and the bidder plays alone.
    """
    held, void = call_candidates(hand, trump)
    rank = _call_rank(hand)
    if held:
        sign = 1 if prefer_long else -1
        best = max(held, key=lambda s: (sign * suit_length(hand, s), _suit_points(hand, s), -s))
        return card_id(best, rank), False
    if void:
        return card_id(void[0], rank), True
    return NO_CALL


def suit_points_batch(hands: np.ndarray) -> np.ndarray:
    """``int64[n, 4]`` Milton points per suit (C D H S) of ``int64[n]`` hands."""
    hands = np.asarray(hands, dtype=np.int64)
    points = np.zeros((len(hands), N_SUITS), dtype=np.int64)
    for suit in range(N_SUITS):
        for rank, value in MILTON.items():
            points[:, suit] += value * (hands >> card_id(suit, rank) & 1)
    return points


def choose_call_batch(hands: np.ndarray, trumps: np.ndarray, prefer_long: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised ``choose_call``: element ``i`` equals ``choose_call(hands[i], trumps[i], prefer_long)``.

    Parameters
    ----------
    hands : int64[n]
    trumps : int64[n]
    prefer_long : bool

    Returns
    -------
    (int64[n], bool[n])
        Called card (-1: none) and blind flag.
    """
    hands = np.asarray(hands, dtype=np.int64)
    trumps = np.asarray(trumps, dtype=np.int64)
    lengths = popcounts(hands[:, None] & SUIT_MASKS[None, :])
    all_aces = np.all([(hands >> card_id(s, ACE) & 1) == 1 for s in range(N_SUITS)], axis=0)
    rank = np.where(all_aces, KING, ACE)
    suits = np.arange(N_SUITS)[None, :]
    cards = suits * N_RANKS + rank[:, None]
    open_card = (suits != trumps[:, None]) & ((hands[:, None] >> cards & 1) == 0)
    sign = 1 if prefer_long else -1
    # Lexicographic keys packed in one integer: held suits above void ones, then the length
    # preference, then points, then the lower suit; -1 marks a card that cannot be called.
    held_key = 100_000 + sign * lengths * 1_000 + suit_points_batch(hands) * 10 + (N_SUITS - 1 - suits)
    key = np.where(open_card, np.where(lengths > 0, held_key, N_SUITS - 1 - suits), -1)
    best = np.argmax(key, axis=1)
    rows = np.arange(len(hands))
    found = key[rows, best] >= 0
    return np.where(found, cards[rows, best], -1), found & (lengths[rows, best] == 0)
