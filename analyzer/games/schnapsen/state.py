"""Plain-Python Schnapsen position: the rules written for clarity, plus the text notation.

This is the slow twin of the numba kernels (tests compare them move by move) and the object the
CLI uses to describe a position. Convert with :meth:`SchnapsenState.to_array` /
:meth:`SchnapsenState.from_array` for the kernels and the search.

Notation: ``;``-separated ``key=value`` fields, e.g.::

    hand0=SA ST SK HQ CJ; hand1=DA DT DK DQ DJ; stock=CQ CK CT CA HJ HK HT HA SJ SQ; leader=0

What the player to move cannot see may be written ``?``: ``hand1=?`` (the opponent's hand) and
``?`` stock cards, e.g. ``stock=? ? ? ? ? ? ? ? ? SQ``; the cards played so far must then be listed
in ``history=`` so the hidden cards are known as a set.

``stock`` lists the stock in draw order; its last card is the face-up trump card. Optional fields:
``trump`` (suit letter; required once the stock is empty), ``points=a,b`` (counted points),
``pending=a,b`` (marriage points waiting for a first trick), ``tricks=a,b``, ``trick=CARD`` (card led
to the current trick), ``closed=P,OPP_POINTS,OPP_HAD_TRICK`` (e.g. ``closed=0,12,1``), ``shown=CARDS|CARDS``
(cards of each hand known to the other player; once the stock is exhausted both whole hands are, and the
field is left out), ``nothold=CARDS|CARDS`` (cards each player has shown
he does not hold, by strict play), ``history=CARDS`` (cards played, in order). Cards
not named anywhere count as played.
"""

from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R


@dataclass
class SchnapsenState:
    """A Schnapsen position with both hands and the stock order known.

    Attributes mirror the rules: ``hands`` (two masks), ``stock`` (draw order, last card face up),
    ``trump`` (suit), ``points``/``pending``/``tricks`` (per player), ``leader``, ``to_move``,
    ``lead_card`` (-1 if none), ``closer`` (-1 if not closed) with the opponent's state at closing,
    ``played`` (mask), ``shown`` (cards of each hand the opponent knows), ``not_held`` (cards each
    player is known not to hold, from strict play: void in the led suit or trumps, nothing higher
    in the led suit), ``winner`` (-1 while
    running), ``game_points``, ``history`` (action codes in order) and ``hidden_filled`` (True when
    parsed from notation with ``?`` cards, placed arbitrarily: only sampling bots may use it).
    """

    hands: list
    stock: list
    trump: int
    points: list = field(default_factory=lambda: [0, 0])
    pending: list = field(default_factory=lambda: [0, 0])
    tricks: list = field(default_factory=lambda: [0, 0])
    leader: int = 0
    to_move: int = 0
    lead_card: int = -1
    closer: int = -1
    close_opp_points: int = 0
    close_opp_trick: bool = False
    played: int = 0
    shown: list = field(default_factory=lambda: [0, 0])
    not_held: list = field(default_factory=lambda: [0, 0])
    winner: int = -1
    game_points: int = 0
    history: list = field(default_factory=list)
    hidden_filled: bool = False

    # ------------------------------------------------------------------ construction
    @classmethod
    def deal(cls, order, dealer: int = 1) -> "SchnapsenState":
        """Deal from a shuffled deck ``order`` (20 card ids, top first) the traditional way.

        The dealer gives 3 cards to the opponent then 3 to himself, turns the next card up as trump,
        gives 2 and 2, and stacks the other 9 cards on the trump card (a stock of 10, trump last).
        The non-dealer leads.
        """
        order = [int(c) for c in order]
        if sorted(order) != list(range(R.N_CARDS)):
            raise InputError("a Schnapsen deal needs each of the 20 cards exactly once")
        if dealer not in (0, 1):
            raise InputError("dealer must be 0 or 1")
        other = 1 - dealer
        hands = [0, 0]
        hands[other] = R.mask_of(order[0:3] + order[7:9])
        hands[dealer] = R.mask_of(order[3:6] + order[9:11])
        stock = order[11:20] + [order[6]]
        return cls(hands=hands, stock=stock, trump=order[6] // 5, leader=other, to_move=other)

    def copy(self) -> "SchnapsenState":
        """Return an independent copy."""
        return SchnapsenState(
            hands=list(self.hands), stock=list(self.stock), trump=self.trump, points=list(self.points),
            pending=list(self.pending), tricks=list(self.tricks), leader=self.leader, to_move=self.to_move,
            lead_card=self.lead_card, closer=self.closer, close_opp_points=self.close_opp_points,
            close_opp_trick=self.close_opp_trick, played=self.played, shown=list(self.shown),
            not_held=list(self.not_held), winner=self.winner, game_points=self.game_points, history=list(self.history))

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        """True once the deal has a winner."""
        return self.winner >= 0

    @property
    def strict(self) -> bool:
        """True when strict play applies (stock closed or exhausted)."""
        return self.closer >= 0 or not self.stock

    def has(self, player: int, card: int) -> bool:
        """True if ``player`` holds ``card``."""
        return bool((self.hands[player] >> card) & 1)

    def legal_actions(self) -> list[int]:
        """Return the legal action codes for the player to move, in increasing order."""
        if self.is_over:
            return []
        p = self.to_move
        hand = R.cards_of(self.hands[p])
        if self.lead_card < 0:
            actions = list(hand)
            for c in hand:
                rank = c % 5
                partner = c + 1 if rank == R.QUEEN else c - 1
                if rank in (R.QUEEN, R.KING) and self.has(p, partner):
                    actions.append(c + R.MARRIAGE_OFFSET)
            stock_open = self.closer < 0 and len(self.stock) >= 2
            if stock_open and self.has(p, R.card_of(self.trump, R.JACK)):
                actions.append(R.EXCHANGE)
            if stock_open and len(hand) == R.HAND_SIZE:
                actions.append(R.CLOSE)
            return sorted(actions)
        if not self.strict:
            return hand
        led = self.lead_card
        same = [c for c in hand if c // 5 == led // 5]
        if same:
            higher = [c for c in same if c % 5 > led % 5]
            return higher or same
        trumps = [c for c in hand if c // 5 == self.trump]
        return trumps or hand

    def trick_winner(self, lead: int, follow: int) -> int:
        """Return 0 if the leader wins the trick ``lead``/``follow``, 1 if the follower does."""
        if follow // 5 == lead // 5:
            return 1 if follow % 5 > lead % 5 else 0
        return 1 if follow // 5 == self.trump else 0

    # ------------------------------------------------------------------ moves
    def apply(self, action: int) -> None:
        """Play one legal action in place.

        Raises
        ------
        InputError
            If the action is not legal here.
        """
        if action not in self.legal_actions():
            raise InputError(f"illegal action {R.action_name(action)} in this position")
        self.history.append(action)
        p = self.to_move
        if action == R.EXCHANGE:
            jack = R.card_of(self.trump, R.JACK)
            face_up = self.stock[-1]
            self.hands[p] = (self.hands[p] & ~(1 << jack)) | (1 << face_up)
            self.stock[-1] = jack
            self.shown[p] |= 1 << face_up
            return
        if action == R.CLOSE:
            self.closer = p
            self.close_opp_points = self.points[1 - p]
            self.close_opp_trick = self.tricks[1 - p] > 0
            return
        card = action % R.MARRIAGE_OFFSET if action < R.EXCHANGE else action
        if self.lead_card >= 0 and self.strict:
            self._note_not_held(p, self.lead_card, card)
        self.hands[p] &= ~(1 << card)
        self.shown[p] &= self.hands[p]
        self.played |= 1 << card
        if self.lead_card < 0:
            self.lead_card = card
            self.to_move = 1 - p
            if action >= R.MARRIAGE_OFFSET:
                partner = card + 1 if card % 5 == R.QUEEN else card - 1
                self.shown[p] |= 1 << partner
                value = R.marriage_value(card, self.trump)
                if self.tricks[p] > 0:
                    self.points[p] += value
                    if self.points[p] >= R.WIN_POINTS:
                        self._finish(p)
                        return
                else:
                    self.pending[p] += value
            return
        self._finish_trick(card)

    def _note_not_held(self, p: int, led: int, card: int) -> None:
        # Strict play reveals what the follower lacks; no card is drawn afterwards, so it stays true.
        suit = led // 5
        if card // 5 != suit:
            self.not_held[p] |= int(R.SUIT_MASKS[suit])
            if card // 5 != self.trump:
                self.not_held[p] |= int(R.SUIT_MASKS[self.trump])
        elif card < led:
            self.not_held[p] |= int(R.SUIT_MASKS[suit]) & ~((1 << (led + 1)) - 1)

    def _finish_trick(self, follow: int) -> None:
        lead = self.lead_card
        w = self.leader if self.trick_winner(lead, follow) == 0 else 1 - self.leader
        self.points[w] += int(R.CARD_POINTS[lead] + R.CARD_POINTS[follow])
        self.tricks[w] += 1
        if self.tricks[w] == 1:
            self.points[w] += self.pending[w]
            self.pending[w] = 0
        self.lead_card = -1
        self.leader = w
        self.to_move = w
        if self.points[w] >= R.WIN_POINTS:
            self._finish(w)
            return
        if self.closer < 0 and self.stock:
            self.hands[w] |= 1 << self.stock.pop(0)
            face_up = self.stock.pop(0)
            self.hands[1 - w] |= 1 << face_up
            if not self.stock:
                # all 20 cards are accounted for: each player knows the other's hand
                self.shown = list(self.hands)
        if self.hands[0] == 0 and self.hands[1] == 0:
            if self.closer >= 0:
                self._finish(1 - self.closer)
            else:
                self.winner = w
                self.game_points = 1

    def _finish(self, w: int) -> None:
        loser = 1 - w
        self.winner = w
        self.game_points = R.deal_game_points(
            winner_is_closer=(w == self.closer), closed=self.closer >= 0, loser_points=self.points[loser],
            loser_has_trick=self.tricks[loser] > 0, opp_points_at_close=self.close_opp_points,
            opp_trick_at_close=self.close_opp_trick)

    # ------------------------------------------------------------------ conversion
    def to_array(self) -> np.ndarray:
        """Return the flat int64 state used by the kernels (see ``rules`` for the layout)."""
        s = np.zeros(R.STATE_SIZE, dtype=np.int64)
        s[R.HAND0:R.HAND0 + 2] = self.hands
        drawn = R.STOCK_SIZE - len(self.stock)
        s[R.STOCK:R.STOCK + R.STOCK_SIZE] = -1
        s[R.STOCK + drawn:R.STOCK + R.STOCK_SIZE] = self.stock
        s[R.DRAWN] = drawn
        s[R.TRUMP] = self.trump
        s[R.POINTS0:R.POINTS0 + 2] = self.points
        s[R.PENDING0:R.PENDING0 + 2] = self.pending
        s[R.TRICKS0:R.TRICKS0 + 2] = self.tricks
        s[R.LEADER] = self.leader
        s[R.TO_MOVE] = self.to_move
        s[R.LEAD_CARD] = self.lead_card
        s[R.CLOSER] = self.closer
        s[R.CLOSE_OPP_POINTS] = self.close_opp_points
        s[R.CLOSE_OPP_TRICK] = int(self.close_opp_trick)
        s[R.PLAYED] = self.played
        s[R.WINNER] = self.winner
        s[R.GAME_POINTS] = self.game_points
        s[R.SHOWN0:R.SHOWN0 + 2] = self.shown
        s[R.NOT_HELD0:R.NOT_HELD0 + 2] = self.not_held
        return s

    @classmethod
    def from_array(cls, s: np.ndarray) -> "SchnapsenState":
        """Build a state from the flat kernel layout (the history is not part of it)."""
        drawn = int(s[R.DRAWN])
        return cls(
            hands=[int(s[R.HAND0]), int(s[R.HAND0 + 1])],
            stock=[int(c) for c in s[R.STOCK + drawn:R.STOCK + R.STOCK_SIZE]], trump=int(s[R.TRUMP]),
            points=[int(x) for x in s[R.POINTS0:R.POINTS0 + 2]], pending=[int(x) for x in s[R.PENDING0:R.PENDING0 + 2]],
            tricks=[int(x) for x in s[R.TRICKS0:R.TRICKS0 + 2]], leader=int(s[R.LEADER]), to_move=int(s[R.TO_MOVE]),
            lead_card=int(s[R.LEAD_CARD]), closer=int(s[R.CLOSER]), close_opp_points=int(s[R.CLOSE_OPP_POINTS]),
            close_opp_trick=bool(s[R.CLOSE_OPP_TRICK]), played=int(s[R.PLAYED]), shown=[int(s[R.SHOWN0]), int(s[R.SHOWN0 + 1])],
            not_held=[int(s[R.NOT_HELD0]), int(s[R.NOT_HELD0 + 1])], winner=int(s[R.WINNER]), game_points=int(s[R.GAME_POINTS]))

    # ------------------------------------------------------------------ notation
    def to_text(self) -> str:
        """Format the position in the notation described in the module docstring."""
        fields = [
            f"hand0={R.format_cards(R.cards_of(self.hands[0]))}",
            f"hand1={R.format_cards(R.cards_of(self.hands[1]))}",
            f"stock={R.format_cards(self.stock)}",
            f"trump={R.SUIT_LETTERS[self.trump]}",
            f"leader={self.leader}",
        ]
        if self.lead_card >= 0:
            fields.append(f"trick={R.card_name(self.lead_card)}")
        fields.append(f"points={self.points[0]},{self.points[1]}")
        if any(self.pending):
            fields.append(f"pending={self.pending[0]},{self.pending[1]}")
        fields.append(f"tricks={self.tricks[0]},{self.tricks[1]}")
        if self.closer >= 0:
            fields.append(f"closed={self.closer},{self.close_opp_points},{int(self.close_opp_trick)}")
        if any(self.shown) and self.stock:
            fields.append("shown=" + "|".join(R.format_cards(R.cards_of(m)) for m in self.shown))
        if any(self.not_held):
            fields.append("nothold=" + "|".join(R.format_cards(R.cards_of(m)) for m in self.not_held))
        played = [a % R.MARRIAGE_OFFSET for a in self.history if a < R.EXCHANGE]
        if played:
            fields.append(f"history={R.format_cards(played)}")
        return "; ".join(fields)

    @classmethod
    def from_text(cls, text: str) -> "SchnapsenState":
        """Parse the notation described in the module docstring.

        Raises
        ------
        InputError
            On unknown fields, bad cards, duplicated or impossible card counts.
        """
        known = {"hand0", "hand1", "stock", "trump", "leader", "trick", "points", "pending", "tricks",
                 "closed", "shown", "nothold", "history"}
        values = {}
        for part in text.split(";"):
            if not part.strip():
                continue
            if "=" not in part:
                raise InputError(f"state field without '=': {part.strip()!r}")
            key, value = (x.strip() for x in part.split("=", 1))
            key = key.lower()
            if key not in known:
                raise InputError(f"unknown state field {key!r} (known: {', '.join(sorted(known))})")
            values[key] = value
        for key in ("hand0", "hand1"):
            if key not in values:
                raise InputError(f"state needs {key}=CARDS (or {key}=? for the hand of the player not to move)")
        unknown = [values[k].strip() == "?" for k in ("hand0", "hand1")]
        hands = [[] if unknown[i] else R.parse_cards(values[f"hand{i}"]) for i in (0, 1)]
        tokens = [t for t in values.get("stock", "").replace(",", " ").split() if t != "-"]
        stock = [None if t == "?" else R.parse_card(t) for t in tokens]
        lead = R.parse_cards(values.get("trick", ""))
        if len(lead) > 1:
            raise InputError("trick= takes one card (the card led)")
        history = R.parse_cards(values["history"]) if "history" in values else []
        named = hands[0] + hands[1] + [c for c in stock if c is not None] + lead
        if len(set(named)) != len(named) or set(named) & (set(history) - set(lead)):
            raise InputError("a card appears twice in the state")
        if len(stock) % 2 or len(stock) > R.STOCK_SIZE:
            raise InputError("the stock holds an even number of cards, at most 10")
        if stock and stock[-1] is None:
            raise InputError("the last stock card is face up: name it")
        if "trump" in values:
            t = values["trump"].upper()
            if len(t) != 1 or t not in R.SUIT_LETTERS:
                raise InputError(f"trump must be one of C D H S, not {values['trump']!r}")
            trump = R.SUIT_LETTERS.index(t)
            if stock and stock[-1] // 5 != trump:
                raise InputError("the last stock card (face up) must be a trump")
        elif stock:
            trump = stock[-1] // 5
        else:
            raise InputError("trump=SUIT is needed once the stock is empty")
        leader = _parse_player(values.get("leader", "0"), "leader")
        mover = 1 - leader if lead else leader
        hidden = any(unknown) or None in stock
        if unknown[mover]:
            raise InputError("the player to move must name his hand")
        shown = [0, 0]
        if "shown" in values:
            parts = values["shown"].split("|")
            if len(parts) != 2:
                raise InputError("shown= takes two card lists separated by '|'")
            shown = [R.mask_of(R.parse_cards(x)) for x in parts]
        if hidden:
            hands, stock = _fill_hidden(hands, stock, unknown, mover, lead, history, shown)
        pair = {k: _parse_pair(values.get(k, "0,0"), k) for k in ("points", "pending", "tricks")}
        st = cls(hands=[R.mask_of(h) for h in hands], stock=stock, trump=trump, points=pair["points"],
                 pending=pair["pending"], tricks=pair["tricks"], leader=leader, to_move=leader)
        st.hidden_filled = hidden
        if lead:
            st.lead_card = lead[0]
            st.to_move = 1 - leader
        if "closed" in values:
            parts = values["closed"].split(",")
            if len(parts) != 3:
                raise InputError("closed= takes CLOSER,OPP_POINTS,OPP_HAD_TRICK, e.g. closed=0,12,1")
            st.closer = _parse_player(parts[0], "closer")
            st.close_opp_points = _parse_int(parts[1], "closed points")
            st.close_opp_trick = _parse_int(parts[2], "closed trick flag") != 0
        st.shown = [shown[i] & st.hands[i] for i in (0, 1)]
        if not stock:
            # stock exhausted: both hands are known, and a '?' hand is the only one the cards allow
            st.shown = list(st.hands)
            st.hidden_filled = False
        if "nothold" in values:
            parts = values["nothold"].split("|")
            if len(parts) != 2:
                raise InputError("nothold= takes two card lists separated by '|'")
            st.not_held = [R.mask_of(R.parse_cards(x)) for x in parts]
            if any(st.not_held[i] & st.hands[i] for i in (0, 1)):
                raise InputError("nothold= names a card that player holds")
        st.played = R.FULL_MASK & ~R.mask_of(hands[0] + hands[1] + stock)
        st.history = history
        st._validate(len(hands[0]), len(hands[1]))
        return st

    def _validate(self, n0: int, n1: int) -> None:
        on_lead = n0 if self.leader == 0 else n1
        other = n1 if self.leader == 0 else n0
        expect_leader = other - 1 if self.lead_card >= 0 else other
        if on_lead != expect_leader:
            raise InputError("hand sizes do not match the leader and the trick on the table")
        if other > R.HAND_SIZE or (self.closer < 0 and self.stock and other != R.HAND_SIZE):
            raise InputError("while the stock is open each player holds 5 cards")
        if sum(self.points) + sum(self.pending) > 120 + 4 * 40 or min(self.points + self.pending) < 0:
            raise InputError("impossible points in the state")
        if n0 + n1 == 0:
            raise InputError("the deal is over: no cards left in the hands")


def _fill_hidden(hands, stock, unknown, mover, lead, history, shown):
    """Place the cards the player to move cannot see: the opponent's hand given as ``?`` (less the
    cards he has shown) and ``?`` stock cards get the unplayed cards named nowhere, in card order.
    Any placement is as good as another: PIMC resamples them and ``perfect`` refuses such states."""
    other = 1 - mover
    hands = [list(hands[0]), list(hands[1])]
    n_other = len(hands[mover]) - (1 if lead else 0)
    named = set(hands[0] + hands[1] + [c for c in stock if c is not None] + lead)
    if unknown[other]:
        hands[other] = R.cards_of(shown[other])
        if named & set(hands[other]):
            raise InputError("a card shown by the opponent is also named elsewhere")
        named |= set(hands[other])
    pool = [c for c in range(R.N_CARDS) if c not in named and c not in history]
    need = (n_other - len(hands[other]) if unknown[other] else 0) + stock.count(None)
    if len(pool) != need:
        raise InputError(f"{len(pool)} cards are neither named nor in history=, but {need} are hidden "
                         "(list the played cards in history=)")
    if unknown[other]:
        take = n_other - len(hands[other])
        hands[other] += pool[:take]
        pool = pool[take:]
    stock = [pool.pop(0) if c is None else c for c in stock]
    return hands, stock


def _parse_int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(f"{what} must be an integer, not {text.strip()!r}") from None


def _parse_player(text: str, what: str) -> int:
    v = _parse_int(text, what)
    if v not in (0, 1):
        raise InputError(f"{what} must be 0 or 1")
    return v


def _parse_pair(text: str, what: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise InputError(f"{what}= takes two comma-separated integers")
    return [_parse_int(parts[0], what), _parse_int(parts[1], what)]
