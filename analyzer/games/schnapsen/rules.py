"""Schnapsen rules as data (docs/rules.md section 2): card numbering, points, action codes, the state layout.

Cards use their own 20-card numbering ``card = suit * 5 + rank`` with suits C D H S = 0..3 and
ranks J Q K T A = 0..4 (low to high). A set of cards is an int64 bit mask (bit ``card``), so the
cards of one suit are one AND with ``SUIT_MASKS[suit]``.

The numba kernels and the search work on one flat ``int64[STATE_SIZE]`` array per position; the
indices below name its fields. The Python ``SchnapsenState`` converts to and from this layout.
"""

import numpy as np

from analyzer.errors import InputError

SUIT_LETTERS = "CDHS"
RANK_LETTERS = "JQKTA"
N_CARDS = 20
RANK_POINTS = (2, 3, 4, 10, 11)
CARD_POINTS = np.array([RANK_POINTS[c % 5] for c in range(N_CARDS)], dtype=np.int64)
SUIT_MASKS = np.array([0b11111 << (5 * s) for s in range(4)], dtype=np.int64)
FULL_MASK = (1 << N_CARDS) - 1
JACK, QUEEN, KING, TEN, ACE = range(5)

#: points needed to win a deal, and the loser's points below which the winner scores 2
WIN_POINTS = 66
SCHNEIDER_POINTS = 33
#: a Bummerl starts at this many game points for each player and counts down to 0
MATCH_POINTS = 7
STOCK_SIZE = 10
HAND_SIZE = 5

# Action codes: 0..19 play a card, 20..39 lead a king or queen announcing its marriage,
# 40 exchange the trump jack for the face-up trump card, 41 close the stock.
MARRIAGE_OFFSET = 20
EXCHANGE = 40
CLOSE = 41

# Flat state layout (int64 array).
HAND0 = 0            # hand masks of player 0 and 1 (HAND0 + p)
STOCK = 2            # 10 stock cards in draw order; STOCK + 9 is the face-up trump card
DRAWN = 12           # stock cards already drawn (10 = exhausted)
TRUMP = 13           # trump suit
POINTS0 = 14         # counted points (tricks + credited marriages), POINTS0 + p
PENDING0 = 16        # marriage points waiting for the player's first trick, PENDING0 + p
TRICKS0 = 18         # tricks won, TRICKS0 + p
LEADER = 20          # player on lead for the current trick
TO_MOVE = 21         # player who acts next
LEAD_CARD = 22       # card led to the current trick, -1 if none yet
CLOSER = 23          # player who closed the stock, -1 if not closed
CLOSE_OPP_POINTS = 24  # opponent's counted points when the stock was closed
CLOSE_OPP_TRICK = 25   # 1 if the opponent had won a trick when the stock was closed
PLAYED = 26          # mask of cards played to tricks (including a led card on the table)
WINNER = 27          # winner of the deal, -1 while it runs
GAME_POINTS = 28     # game points the winner scores
SHOWN0 = 29          # cards of player p's hand known to the opponent (SHOWN0 + p)
NOT_HELD0 = 31       # cards player p has shown he cannot hold, by strict play (NOT_HELD0 + p)
TO_GO0 = 33          # game points player p still needs to win the Bummerl (TO_GO0 + p); 0 outside a Bummerl
STATE_SIZE = 35


def card_of(suit: int, rank: int) -> int:
    """Return the card id for a suit index (C D H S) and rank index (J Q K T A)."""
    return suit * 5 + rank


def card_name(card: int) -> str:
    """Return the two-letter name of a card, e.g. ``"SA"``."""
    return SUIT_LETTERS[card // 5] + RANK_LETTERS[card % 5]


def parse_card(text: str) -> int:
    """Parse ``"SA"``, ``"h10"`` or ``"DT"`` into a card id.

    Raises
    ------
    InputError
        If the text is not a Schnapsen card.
    """
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in SUIT_LETTERS:
        raise InputError(f"not a Schnapsen card: {text!r} (suit C D H S + rank J Q K T A)")
    rank = t[1:]
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in RANK_LETTERS:
        raise InputError(f"not a Schnapsen card: {text!r} (suit C D H S + rank J Q K T A)")
    return card_of(SUIT_LETTERS.index(t[0]), RANK_LETTERS.index(rank))


def parse_cards(text: str) -> list[int]:
    """Parse a space- or comma-separated card list (``"SA SK,HT"``); ``"-"`` or empty is no cards."""
    parts = [p for p in text.replace(",", " ").split() if p != "-"]
    return [parse_card(p) for p in parts]


def format_cards(cards) -> str:
    """Format cards as a space-separated list, or ``"-"`` if there are none."""
    names = [card_name(c) for c in cards]
    return " ".join(names) if names else "-"


def mask_of(cards) -> int:
    """Return the bit mask of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[int]:
    """Return the card ids in a mask, lowest id first."""
    return [c for c in range(N_CARDS) if (int(mask) >> c) & 1]


def marriage_value(card: int, trump: int) -> int:
    """Points of the marriage announced by leading ``card``: 40 in trumps, else 20."""
    return 40 if card // 5 == trump else 20


def action_name(action: int) -> str:
    """Human name of an action code: ``"SA"``, ``"SQ+marriage"``, ``"exchange"``, ``"close"``."""
    if action == EXCHANGE:
        return "exchange"
    if action == CLOSE:
        return "close"
    if MARRIAGE_OFFSET <= action < MARRIAGE_OFFSET + N_CARDS:
        return card_name(action - MARRIAGE_OFFSET) + "+marriage"
    if 0 <= action < N_CARDS:
        return card_name(action)
    raise InputError(f"not a Schnapsen action code: {action}")


def deal_game_points(winner_is_closer: bool, closed: bool, loser_points: int, loser_has_trick: bool,
                     opp_points_at_close: int, opp_trick_at_close: bool) -> int:
    """Game points for a deal won by reaching 66 (or by the closer failing).

    Parameters
    ----------
    winner_is_closer : bool
        True if the stock was closed by the winner (only meaningful when ``closed``).
    closed : bool
        True if the stock was closed.
    loser_points, loser_has_trick : int, bool
        The loser's counted points and whether he has a trick now (used when not closed).
    opp_points_at_close, opp_trick_at_close : int, bool
        The closer's opponent's state at the moment of closing (used when closed).
    """
    if not closed:
        if not loser_has_trick:
            return 3
        return 2 if loser_points < SCHNEIDER_POINTS else 1
    if winner_is_closer:
        if not opp_trick_at_close:
            return 3
        return 2 if opp_points_at_close < SCHNEIDER_POINTS else 1
    return 2 if opp_trick_at_close else 3
