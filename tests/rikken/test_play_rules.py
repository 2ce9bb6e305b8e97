"""Rules of play on hand-built tricks, in both engines at once: the reference ``RoundState`` and the kernel.

Each situation is dealt to both; at every move the legal actions must be the ones worked out by hand
and the same in both engines, and each engine must give the trick to the seat worked out by hand.
"""

import pytest

from analyzer.cards.deck import parse_card, parse_card_list
from analyzer.cards.masks import cards_of
from analyzer.cards.pbn import parse_deal
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.games.rikken.rules import NO_TRUMP
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.state import RoundSetup, RoundState

N, E, S, W = 0, 1, 2, 3
SPADES = 3
NONE = -1
FD = L.FACE_DOWN_OFFSET


class Both:
    """One round dealt to the reference engine and to the kernel state, played move by move in both."""

    def __init__(self, deal: str, leader: int, contract_of, partner=NONE, trump=NO_TRUMP, called=None,
                 blind=False):
        hands = parse_deal(deal, hand_size=None)
        called_card = parse_card(called) if called else NONE
        self.ref = RoundState(RoundSetup(tuple(int(h) for h in hands), leader, tuple(contract_of), partner, trump,
                                         called_card, blind))
        self.st = new_round(hands, leader, contract_of, partner, trump, called_card, int(blind))

    def legal(self) -> list[tuple[int, bool]]:
        """Legal ``(card, face_down)`` actions of the seat to move; both engines must list the same."""
        seat = self.ref.turn
        assert self.st[L.TURN] == seat
        up, fd = legal_actions(self.st, seat)
        kernel = [(c, False) for c in cards_of(up)] + [(c, True) for c in cards_of(fd)]
        assert kernel == self.ref.legal_actions()
        return kernel

    def play(self, card_text: str, face_down: bool = False) -> int:
        """Play a card in both engines; return the trick's winner once it is complete, else -1."""
        card = parse_card(card_text)
        seat = self.ref.turn
        assert (card, face_down) in self.legal()
        self.ref.play(card, face_down)
        winner = int(apply_action(self.st, seat, FD + card if face_down else card))
        assert winner == (self.ref.history[-1][1] if not self.ref.trick else -1)
        return winner

    def winning_seat(self) -> int:
        """The kernel's seat winning the trick in progress."""
        return int(self.st[L.WIN_SEAT])


def face_up(text: str) -> list[tuple[int, bool]]:
    return [(c, False) for c in sorted(parse_card_list(text))]


# N (8 Alone, spade trumps) leads H2. E, void in hearts, ruffs with S5; S must follow with his HA;
# W, void in hearts too, holds S9 and S3.
RUFF_DEAL = "N:.2..2 5...3 .A..4 93..."


@pytest.mark.parametrize(("last", "winner"), [("S9", W), ("S3", E)])
def test_a_higher_trump_overruffs_and_a_lower_one_does_not(last, winner):
    game = Both(RUFF_DEAL, N, [K.ALONE_8, NONE, NONE, NONE], trump=SPADES)
    assert game.play("H2") == -1
    assert game.legal() == face_up("S5 C3")  # void in hearts: any card
    game.play("S5")
    assert game.winning_seat() == E  # the ruff beats the H2
    assert game.legal() == face_up("HA")  # S must follow suit
    game.play("HA")
    assert game.winning_seat() == E  # the led suit's ace does not beat a trump
    assert game.legal() == face_up("S9 S3")
    # S9 over S5 takes the trick; S3 under S5 leaves it with E.
    assert game.play(last) == winner
    assert game.ref.tricks == [1 if s == winner else 0 for s in range(4)] and game.ref.turn == winner
    assert game.st[L.TRICKS + winner] == 1 and game.st[L.LEADER] == winner


# N bids Rik with spade trumps and calls the HA, which E holds with the H5.
CALLED_DEAL = "N:K.K2.A. 2.A5.2. 3.Q3.3. 4.J4.4."


def test_holder_on_lead_may_lead_the_called_suit_only_with_the_called_card():
    game = Both(CALLED_DEAL, E, [K.RIK, NONE, NONE, NONE], partner=E, trump=SPADES, called="HA")
    assert game.legal() == face_up("S2 HA D2")


def test_holder_must_drop_the_called_card_when_its_suit_is_led():
    game = Both(CALLED_DEAL, N, [K.RIK, NONE, NONE, NONE], partner=E, trump=SPADES, called="HA")
    game.play("H2")
    assert game.legal() == face_up("HA")
    game.play("HA")
    assert game.legal() == face_up("HQ H3")
    game.play("H3")
    assert game.play("H4") == E
    # The called card is gone: E may now lead any card.
    assert game.legal() == face_up("S2 H5 D2")


def blind_game(deal: str) -> Both:
    """N bid Rik with spade trumps and called the CA blind (void in clubs); W holds it."""
    return Both(deal, N, [K.RIK, NONE, NONE, NONE], partner=W, trump=SPADES, called="CA", blind=True)


def test_face_down_lead_is_overruffed():
    # N leads the D2 face down "as clubs". E and S are void in clubs: E ruffs S3, S overruffs S7,
    # W must drop the called CA. S wins.
    game = blind_game("N:.2.2. 3.3.. 7.4.. ...A4")
    assert game.legal() == face_up("H2 D2") + [(parse_card("D2"), True), (parse_card("H2"), True)]
    game.play("D2", face_down=True)
    assert game.winning_seat() == NONE  # a face-down card is never winning
    assert game.legal() == face_up("S3 H3")
    game.play("S3")
    assert game.winning_seat() == E
    game.play("S7")
    assert game.winning_seat() == S
    assert game.legal() == face_up("CA")
    assert game.play("CA") == S


def test_face_down_trump_lead_loses_to_the_called_ace():
    # N puts his SA (the top trump) face down as clubs; E and S follow with small clubs, W with the CA:
    # the face-down card never wins, so the CA does.
    game = blind_game("N:A.2.. .3..2 .4..3 ...A4")
    game.play("SA", face_down=True)
    assert game.legal() == face_up("C2")
    game.play("C2")
    assert game.winning_seat() == E
    game.play("C3")
    assert game.winning_seat() == S
    assert game.play("CA") == W


def test_discard_to_a_face_down_lead_does_not_win():
    # N leads the D2 face down as clubs. E, void in clubs, discards the H3: it is neither a club nor a
    # trump, so nobody is winning yet. S follows with the C3 and is winning; W's forced CA takes the trick.
    game = blind_game("N:.2.2. 3.3.. .4..3 ...A4")
    game.play("D2", face_down=True)
    assert game.legal() == face_up("S3 H3")
    game.play("H3")
    assert game.winning_seat() == NONE
    assert game.legal() == face_up("C3")
    game.play("C3")
    assert game.winning_seat() == S
    assert game.play("CA") == W


def test_no_face_down_lead_once_the_called_card_is_out():
    # Trick 1: N leads the H2 face down, E and S follow with small clubs, W's forced CA wins. W leads
    # the C4 and N, void in clubs, ruffs with the SA: back on lead with the CA gone, N may only lead
    # face up.
    game = blind_game("N:A.2.2. .3.3.2 .4.4.3 ..5.A4")
    game.play("H2", face_down=True)
    game.play("C2")
    game.play("C3")
    assert game.play("CA") == W
    game.play("C4")
    assert game.legal() == face_up("SA D2")
    game.play("SA")
    game.play("D3")
    assert game.play("D4") == N
    assert game.legal() == face_up("D2")
