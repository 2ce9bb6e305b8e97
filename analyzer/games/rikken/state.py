"""Plain-Python reference engine for the play of one Rikken round (docs/rules.md section 1, "Play").

Slow and obviously correct: the kernels are checked against it. An *action* is ``(card, face_down)``;
``face_down=True`` is the blind lead (the bidder of a blind call puts any card face down "as the
called suit"). ``legal_actions`` lists the face-up cards in card-id order, then the face-down options
in card-id order, so a random policy drawing an index from that list is reproducible elsewhere.
"""

from dataclasses import dataclass

from analyzer.cards.deck import N_RANKS, SUIT_MASKS, card_name
from analyzer.cards.masks import cards_of
from analyzer.errors import InputError
from analyzer.games.rikken.rules import EXPOSURE, NO_TRUMP, SIDE, Exposure, ScoringMode, Side
from analyzer.games.rikken.scoring import contract_status, score_round

N_SEATS = 4


@dataclass(frozen=True)
class RoundSetup:
    """Everything fixed before the first card of a round (the *round setup* shared with the kernels).

    Attributes
    ----------
    hands : tuple of int
        Card mask per seat (0..3 = N E S W).
    leader : int
        Seat leading to trick 1 (left of the dealer).
    contract_of : tuple of int
        Contract id declared by each seat, -1 for seats that declared nothing.
    partner : int
        Seat of the called-card holder or Troela partner, -1 if none.
    trump : int
        Trump suit 0..3 (C D H S) or 4 (no trump).
    called_card : int
        The called card id, -1 if none.
    blind : bool
        The call was blind (the bidder is void in the called suit).
    """

    hands: tuple[int, int, int, int]
    leader: int
    contract_of: tuple[int, int, int, int]
    partner: int = -1
    trump: int = NO_TRUMP
    called_card: int = -1
    blind: bool = False


def suit_of(card: int) -> int:
    """Suit 0..3 of a card id."""
    return card // N_RANKS


def trick_winner(plays: list[tuple[int, int, bool]], trump: int, led_suit: int) -> int:
    """Seat winning a complete trick.

    Parameters
    ----------
    plays : list of (seat, card, face_down)
        The four plays in order.
    trump : int
        Trump suit, 4 for none.
    led_suit : int
        The suit led (for a face-down lead: the called suit).

    Returns
    -------
    int
        The seat of the highest trump, else of the highest card of the led suit; face-down cards never win.
    """
    face_up = [(seat, card) for seat, card, face_down in plays if not face_down]
    trumps = [(card, seat) for seat, card in face_up if suit_of(card) == trump]
    if trumps:
        return max(trumps)[1]
    return max((card, seat) for seat, card in face_up if suit_of(card) == led_suit)[1]


def _validate(setup: RoundSetup) -> None:
    """Raise InputError on an inconsistent setup."""
    hands = [int(h) for h in setup.hands]
    if len(hands) != N_SEATS or len(setup.contract_of) != N_SEATS:
        raise InputError("a round needs four hands and four contract entries")
    sizes = [bin(h).count("1") for h in hands]
    union = hands[0] | hands[1] | hands[2] | hands[3]
    if len(set(sizes)) != 1 or sum(sizes) != bin(union).count("1"):
        raise InputError("hands must be disjoint and of equal size")
    if not 0 <= setup.leader < N_SEATS or setup.trump not in range(NO_TRUMP + 1):
        raise InputError("leader must be a seat 0..3 and trump a suit 0..4")
    if setup.called_card >= 0 and setup.partner >= 0 and not hands[setup.partner] >> setup.called_card & 1:
        raise InputError(f"partner seat {setup.partner} does not hold the called card {card_name(setup.called_card)}")


class RoundState:
    """The play of one round, one action at a time.

    Parameters
    ----------
    setup : RoundSetup
        Hands, leader, contracts, partner, trump and call.
    """

    def __init__(self, setup: RoundSetup):
        _validate(setup)
        self.setup = setup
        self.hands = [int(h) for h in setup.hands]
        self.turn = setup.leader
        self.leader = setup.leader
        self.trick: list[tuple[int, int, bool]] = []
        self.history: list[tuple[list[tuple[int, int, bool]], int]] = []
        self.tricks = [0] * N_SEATS
        self.caller = next((s for s, c in enumerate(setup.contract_of) if c >= 0 and SIDE[c] == Side.CALLED), -1)

    @property
    def is_over(self) -> bool:
        """True when every card has been played."""
        return not any(self.hands)

    @property
    def called_card_out(self) -> bool:
        """True while the called card is still in some hand."""
        return self.setup.called_card >= 0 and any(h >> self.setup.called_card & 1 for h in self.hands)

    def _holds_called(self, seat: int) -> bool:
        return self.setup.called_card >= 0 and bool(self.hands[seat] >> self.setup.called_card & 1)

    def led_suit(self) -> int:
        """Suit led to the current trick (the called suit after a face-down lead), -1 before the lead."""
        if not self.trick:
            return -1
        _seat, card, face_down = self.trick[0]
        return suit_of(self.setup.called_card) if face_down else suit_of(card)

    def can_lead_face_down(self, seat: int) -> bool:
        """The blind lead: the blind caller is on lead, void in the called suit, and the called card is out."""
        called = self.setup.called_card
        return (self.setup.blind and seat == self.caller and not self.trick and self.called_card_out
                and not self.hands[seat] & int(SUIT_MASKS[suit_of(called)]))

    def _face_up_cards(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play face up now."""
        hand = self.hands[seat]
        called = self.setup.called_card
        if not self.trick:
            if self._holds_called(seat):
                # Leading the called suit means leading the called card itself.
                return hand & ~int(SUIT_MASKS[suit_of(called)]) | 1 << called
            return hand
        led = self.led_suit()
        follow = hand & int(SUIT_MASKS[led])
        if not follow:
            return hand
        if self._holds_called(seat) and suit_of(called) == led:
            return 1 << called
        return follow

    def legal_actions(self, seat: int | None = None) -> list[tuple[int, bool]]:
        """Legal ``(card, face_down)`` actions of the seat to move: face-up cards, then face-down leads.

        Raises
        ------
        InputError
            If ``seat`` is given and is not the seat to move, or the round is over.
        """
        seat = self.turn if seat is None else seat
        if self.is_over or seat != self.turn:
            raise InputError(f"seat {seat} is not to move")
        actions = [(card, False) for card in cards_of(self._face_up_cards(seat))]
        if self.can_lead_face_down(seat):
            actions += [(card, True) for card in cards_of(self.hands[seat])]
        return actions

    def play(self, card: int, face_down: bool = False) -> None:
        """Play ``card`` (face down for the blind lead) for the seat to move; finish the trick when complete.

        Raises
        ------
        InputError
            If the action is not legal.
        """
        if (card, bool(face_down)) not in self.legal_actions():
            raise InputError(f"seat {self.turn} may not play {card_name(card)}{' face down' if face_down else ''}")
        self.hands[self.turn] &= ~(1 << card)
        self.trick.append((self.turn, card, bool(face_down)))
        self.turn = (self.turn + 1) % N_SEATS
        if len(self.trick) == N_SEATS:
            self._finish_trick()

    def _finish_trick(self) -> None:
        winner = trick_winner(self.trick, self.setup.trump, self.led_suit())
        self.tricks[winner] += 1
        self.history.append((self.trick, winner))
        self.trick = []
        self.leader = self.turn = winner

    def exposed_seats(self) -> list[int]:
        """Seats whose hands everybody sees: none before trick 1 is complete, then open declarers (or all)."""
        if not self.history:
            return []
        exposure = [EXPOSURE[c] if c >= 0 else Exposure.CLOSED for c in self.setup.contract_of]
        if Exposure.ALL in exposure:
            return list(range(N_SEATS))
        return [s for s in range(N_SEATS) if exposure[s] == Exposure.BIDDER]

    def visible_hands(self, viewer: int) -> list[int | None]:
        """The remaining hands as ``viewer`` sees them: his own and the exposed ones, ``None`` for hidden."""
        shown = set(self.exposed_seats()) | {viewer}
        return [self.hands[s] if s in shown else None for s in range(N_SEATS)]

    def partner_known_to(self, viewer: int) -> int:
        """The partner's seat if ``viewer`` knows it, else -1.

        The holder knows at once; Troela's partner is public (he names trumps); otherwise the partner is
        revealed when the called card is played, or when all hands are exposed.
        """
        partner = self.setup.partner
        if partner < 0:
            return -1
        caller_contract = self.setup.contract_of[self.caller] if self.caller >= 0 else -1
        if viewer == partner or caller_contract < 0 or not self.called_card_out:
            return partner
        return partner if len(self.exposed_seats()) == N_SEATS else -1

    def seen_played(self, viewer: int) -> int:
        """Mask of the played cards ``viewer`` has seen: every face-up card, face-down ones only his own."""
        plays = [p for trick, _w in self.history for p in trick] + self.trick
        return sum(1 << card for seat, card, face_down in plays if not face_down or seat == viewer)

    def side_tricks(self, declarer: int) -> int:
        """Tricks taken so far by ``declarer`` together with his partner, if his contract has one."""
        contract = self.setup.contract_of[declarer]
        partner = self.setup.partner
        paired = contract >= 0 and SIDE[contract] != Side.ALONE and partner >= 0
        return self.tricks[declarer] + (self.tricks[partner] if paired else 0)

    def status(self, declarer: int) -> int:
        """1 if ``declarer``'s contract is already made, -1 if already failed, 0 if still open."""
        # Cards of the trick in progress have left the hands but the trick is still to be won.
        tricks_left = (sum(bin(h).count("1") for h in self.hands) + len(self.trick)) // N_SEATS
        return contract_status(self.setup.contract_of[declarer], self.side_tricks(declarer), tricks_left)

    def scores(self, mode: ScoringMode = ScoringMode.POINTS) -> list[int]:
        """Per-seat scores of the finished round."""
        if not self.is_over:
            raise InputError("the round is not over")
        return score_round(self.setup.contract_of, self.setup.partner, self.tricks, mode)
