"""Adapter: our Schnapsen bots playing inside the ``schnapsen`` PyPI package's engine (a test dependency).

The package plays Schnapsen without closing the stock; a marriage always leads the king and its points
wait (as pending points) until the announcer wins a trick, even one he already has tricks for; a deal won
counts as one "game" won. :func:`perspective_to_state` turns the package's ``PlayerPerspective`` into our
flat kernel state from what that player sees (the hidden cards are placed arbitrarily; our sampling bots
redraw them), with our player 0 the bot to move. Where the rules differ, the state is the nearest one of
ours: a player with a trick has his waiting marriage points counted, capped at 65 so that his next trick
won (worth at least 4) wins the deal, as it does in the package. :class:`AnalyzerBot` offers only the
package's moves (no closing, king-led marriages).
"""

import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np
from schnapsen.deck import Card, Rank, Suit
from schnapsen.game import Bot, GamePhase, Marriage, RegularMove, TrumpExchange

from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.kernels import legal_actions

_SUITS = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
_RANKS = {Rank.JACK: R.JACK, Rank.QUEEN: R.QUEEN, Rank.KING: R.KING, Rank.TEN: R.TEN, Rank.ACE: R.ACE}
_CARDS = {R.card_of(s, r): Card.get_card(rank, suit) for suit, s in _SUITS.items() for rank, r in _RANKS.items()}
_IDS = {card: c for c, card in _CARDS.items()}


def card_id(card: Card) -> int:
    """Our card id of a package card."""
    return _IDS[card]


def _mask(cards) -> int:
    return R.mask_of(card_id(c) for c in cards)


def _score_fields(score, tricks: int) -> tuple[int, int]:
    """(points, pending) of ours for a package score: waiting marriage points count once the player has
    a trick, capped at 65 (his next trick then wins, as in the package)."""
    if tricks == 0:
        return score.direct_points, score.pending_points
    return min(score.direct_points + score.pending_points, R.WIN_POINTS - 1), 0


def perspective_to_state(perspective, leader_move) -> np.ndarray:
    """Our kernel state (player 0 to move) for what the package's ``perspective`` shows its bot.

    Parameters
    ----------
    perspective : schnapsen.game.PlayerPerspective
        The view of the bot to move.
    leader_move : schnapsen.game.Move or None
        The move led to this trick when the bot follows.
    """
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    trump = _SUITS[perspective.get_trump_suit()]
    hand = _mask(perspective.get_hand().get_cards())
    won = (_mask(perspective.get_won_cards().get_cards()), _mask(perspective.get_opponent_won_cards().get_cards()))
    tricks = [won[0].bit_count() // 2, won[1].bit_count() // 2]
    lead = -1
    opp_shown = _mask(perspective.get_known_cards_of_opponent_hand().get_cards())
    opp_score = perspective.get_opponent_score()
    marriage_points = 0
    if leader_move is not None:
        if leader_move.is_marriage():
            m = leader_move.as_marriage()
            lead = card_id(m.king_card)
            opp_shown |= 1 << card_id(m.queen_card)
            # the package credits the marriage once the trick is complete; ours at the lead
            marriage_points = R.marriage_value(lead, trump)
        else:
            lead = card_id(leader_move.as_regular_move().card)
        opp_shown &= ~(1 << lead)
    played = won[0] | won[1] | (1 << lead if lead >= 0 else 0)
    talon = perspective.get_talon_size()
    face_up = perspective.get_trump_card()
    visible = hand | played | opp_shown | (1 << card_id(face_up) if face_up is not None else 0)
    hidden = R.cards_of(R.FULL_MASK & ~visible)
    n_opp = hand.bit_count() - (1 if lead >= 0 else 0)
    opp_hand = opp_shown | R.mask_of(hidden[:n_opp - opp_shown.bit_count()])
    stock = hidden[n_opp - opp_shown.bit_count():] + ([card_id(face_up)] if face_up is not None else [])
    if len(stock) != talon:
        raise AssertionError(f"adapter: {len(stock)} stock cards placed for a talon of {talon}")
    s[R.HAND0] = hand
    s[R.HAND0 + 1] = opp_hand
    drawn = R.STOCK_SIZE - talon
    s[R.STOCK:R.STOCK + R.STOCK_SIZE] = -1
    s[R.STOCK + drawn:R.STOCK + R.STOCK_SIZE] = stock
    s[R.DRAWN] = drawn
    s[R.TRUMP] = trump
    own = _score_fields(perspective.get_my_score(), tricks[0])
    opp_pending = type(opp_score)(opp_score.direct_points, opp_score.pending_points + marriage_points)
    opp = _score_fields(opp_pending, tricks[1])
    s[R.POINTS0], s[R.PENDING0] = own
    s[R.POINTS0 + 1], s[R.PENDING0 + 1] = opp
    s[R.TRICKS0], s[R.TRICKS0 + 1] = tricks
    s[R.LEADER] = 0 if leader_move is None else 1
    s[R.TO_MOVE] = 0
    s[R.LEAD_CARD] = lead
    s[R.CLOSER] = -1
    s[R.PLAYED] = played
    s[R.WINNER] = -1
    if talon == 0:
        s[R.SHOWN0], s[R.SHOWN0 + 1] = hand, opp_hand
    else:
        # the cards of my hand the opponent has seen: the ones taken in an exchange or shown in a marriage
        seen_by_opp = hand & _mask(c for p, t in perspective.get_game_history() if t is not None for c in t.cards)
        s[R.SHOWN0], s[R.SHOWN0 + 1] = seen_by_opp, opp_shown
    return s


def package_actions(s: np.ndarray) -> list[int]:
    """Our legal actions in ``s`` that the package knows: no closing, a marriage only with the king led."""
    buf = np.zeros(16, dtype=np.int64)
    n = legal_actions(s, buf)
    out = []
    for a in (int(x) for x in buf[:n]):
        if a == R.CLOSE or (R.MARRIAGE_OFFSET <= a < R.EXCHANGE and a % 5 != R.KING):
            continue
        out.append(a)
    return out


def action_to_move(action: int, trump: int):
    """The package move for one of :func:`package_actions`."""
    if action == R.EXCHANGE:
        return TrumpExchange(_CARDS[R.card_of(trump, R.JACK)])
    if action >= R.MARRIAGE_OFFSET:
        king = action - R.MARRIAGE_OFFSET
        return Marriage(_CARDS[king - 1], _CARDS[king])
    return RegularMove(_CARDS[action])


class AnalyzerBot(Bot):
    """A package bot that asks one of ours: ``decide(state, allowed_actions) -> action``.

    Checks at every move that our legal moves, restricted to the package's, are the package's valid
    moves; records the CPU seconds of each decision with more than one valid move in ``times``.
    """

    def __init__(self, decide, name: str | None = None) -> None:
        super().__init__(name)
        self.decide = decide
        self.times: list[float] = []

    def get_move(self, perspective, leader_move):
        s = perspective_to_state(perspective, leader_move)
        allowed = package_actions(s)
        valid = perspective.valid_moves()
        moves = {a: action_to_move(a, int(s[R.TRUMP])) for a in allowed}
        if len(moves) != len(valid) or any(m not in valid for m in moves.values()):
            raise AssertionError(f"adapter: our moves {list(moves.values())} are not the package's {valid}")
        if len(allowed) == 1:
            return moves[allowed[0]]
        start = time.process_time()
        action = self.decide(s, allowed)
        self.times.append(time.process_time() - start)
        return moves[int(action)]


class PhaseTwoAlphaBeta(Bot):
    """The package opponent: ``RdeepBot`` while the talon has cards, the package's ``AlphaBetaBot`` after."""

    def __init__(self, first_phase: Bot) -> None:
        from schnapsen.bots import AlphaBetaBot

        super().__init__("rdeep+alphabeta")
        self.first_phase = first_phase
        self.second_phase = AlphaBetaBot()

    def get_move(self, perspective, leader_move):
        if perspective.get_phase() == GamePhase.TWO:
            return self.second_phase.get_move(perspective, leader_move)
        return self.first_phase.get_move(perspective, leader_move)
