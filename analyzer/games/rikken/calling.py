"""Which card a Rik / Rik Beter bidder calls (RULES.md section 1, "Before play").

The bidder calls an ace he does not hold, not of the trump suit, of a suit he holds; failing that a
*blind* ace of a suit he is void in; holding all four aces he calls a king by the same rules; if no
card qualifies he plays alone (``(-1, False)``).
"""

from analyzer.cards.deck import N_RANKS, N_SUITS, SUIT_MASKS, card_id

ACE = 12
KING = 11
NO_CALL = (-1, False)


def suit_length(hand: int, suit: int) -> int:
    """Number of cards of ``suit`` in ``hand``."""
    return bin(int(hand) & int(SUIT_MASKS[suit])).count("1")


def _suit_points(hand: int, suit: int) -> int:
    """Milton high-card points (A 4, K 3, Q 2, J 1) of ``hand`` in ``suit``."""
    held = int(hand) >> (suit * N_RANKS)
    return sum(points for rank, points in ((12, 4), (11, 3), (10, 2), (9, 1)) if held >> rank & 1)


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
