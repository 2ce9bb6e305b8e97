"""Reference play engine: hand-built endings and deals whose outcome is forced, worked out by hand."""

import random

import pytest

from analyzer.cards.deck import parse_card, parse_card_list
from analyzer.cards.pbn import parse_deal
from analyzer.errors import InputError
from analyzer.games.rikken.auction import run_auction, setup_round
from analyzer.games.rikken.rules import NO_TRUMP, ScoringMode
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.state import RoundSetup, RoundState, trick_winner

N, E, S, W = 0, 1, 2, 3
C, D, H, SP = 0, 1, 2, 3
NONE = -1


def make(deal: str, leader: int, contract_of, partner=NONE, trump=NO_TRUMP, called=None, blind=False) -> RoundState:
    """A round from a PBN deal (any equal hand size) and the setup fields; ``called`` is a card name."""
    hands = tuple(int(h) for h in parse_deal(deal, hand_size=None))
    called_card = parse_card(called) if called else NONE
    return RoundState(RoundSetup(hands, leader, tuple(contract_of), partner, trump, called_card, blind))


def names(text: str) -> list[tuple[int, bool]]:
    """Face-up actions from a card list."""
    return [(c, False) for c in sorted(parse_card_list(text))]


def play_all(state: RoundState, text: str) -> None:
    """Play the listed cards face up in turn order."""
    for card in parse_card_list(text):
        state.play(card)


# ---------------------------------------------------------------- trick winner

def test_trick_winner_trump_beats_led_suit_and_face_down_never_wins():
    sa, h2, h9, s2, hk = parse_card_list("SA H2 H9 S2 HK")
    # Hearts led, spades trump: S2 ruffs and beats the HK.
    assert trick_winner([(0, h2, False), (1, h9, False), (2, s2, False), (3, hk, False)], SP, H) == 2
    # No trump: highest heart wins, the S2 discard does not.
    assert trick_winner([(0, h2, False), (1, h9, False), (2, s2, False), (3, hk, False)], NO_TRUMP, H) == 3
    # A face-down SA led "as hearts" with spades trump never wins; HK is the best heart.
    assert trick_winner([(0, sa, True), (1, h9, False), (2, h2, False), (3, hk, False)], SP, H) == 3


# ---------------------------------------------------------------- following suit

def test_follow_suit_else_any_card():
    # N leads a club; E has clubs so must follow; S is void and may play anything.
    state = make("N:..2.A2 ..3.K3 .A4.4. 5...Q4", N, [K.ALONE_8, NONE, NONE, NONE], trump=SP)
    state.play(parse_card("C2"))
    assert state.legal_actions() == names("C3 CK")
    state.play(parse_card("CK"))
    assert state.legal_actions() == names("H4 HA D4")
    state.play(parse_card("D4"))
    assert state.legal_actions() == names("C4 CQ")
    state.play(parse_card("C4"))
    # CK is the highest club, no trump played: E wins and leads.
    assert state.tricks == [0, 1, 0, 0] and state.turn == E


# ---------------------------------------------------------------- the called card

# N bids Rik with spade trumps and calls the HA, held by E.
CALLED_DEAL = "N:K.K2.A. 2.A5.2. 3.Q3.3. 4.J4.4."


def test_holder_must_play_called_card_when_its_suit_is_first_led():
    state = make(CALLED_DEAL, N, [K.RIK, NONE, NONE, NONE], partner=E, trump=SP, called="HA")
    state.play(parse_card("H2"))
    # E holds HA and H5: the first heart lead forces the HA.
    assert state.legal_actions() == [(parse_card("HA"), False)]
    play_all(state, "HA H3 H4")
    assert state.tricks == [0, 1, 0, 0]
    # E leads again; the called card is gone, nothing is forced any more.
    assert state.legal_actions() == names("S2 H5 D2")


def test_holder_leading_the_called_suit_must_lead_the_called_card():
    state = make(CALLED_DEAL, E, [K.RIK, NONE, NONE, NONE], partner=E, trump=SP, called="HA")
    # E may lead spades or diamonds or the HA, but not the H5.
    assert state.legal_actions() == names("S2 HA D2")
    with pytest.raises(InputError):
        state.play(parse_card("H5"))


def test_holder_discards_called_card_when_void():
    # Spades led; E holds no spade, so any card, including the called HA.
    state = make("N:A.K.2. .AQ.3. 2.2.4. 3.3.5.", N, [K.RIK, NONE, NONE, NONE], partner=E, trump=SP, called="HA")
    state.play(parse_card("SA"))
    assert state.legal_actions() == names("HA HQ D3")


# ---------------------------------------------------------------- the blind lead

# Spades trump. N (Rik bidder) is void in clubs and called the CA blind; W holds it.
BLIND_DEAL = "N:A.2.2. .3.3.2 2..4.3 .4..A4"


def blind_round(deal=BLIND_DEAL) -> RoundState:
    return make(deal, N, [K.RIK, NONE, NONE, NONE], partner=W, trump=SP, called="CA", blind=True)


def test_blind_caller_may_lead_any_card_face_down_listed_after_face_up():
    state = blind_round()
    d2, h2, sa = parse_card_list("D2 H2 SA")
    assert state.legal_actions() == [(d2, False), (h2, False), (sa, False), (d2, True), (h2, True), (sa, True)]


def test_face_down_lead_others_follow_called_suit_and_holder_plays_called_card():
    state = blind_round()
    state.play(parse_card("SA"), face_down=True)
    assert state.led_suit() == C
    assert state.legal_actions() == names("C2")  # E must follow clubs
    state.play(parse_card("C2"))
    assert state.legal_actions() == names("C3")  # S must follow clubs, may not ruff
    state.play(parse_card("C3"))
    assert state.legal_actions() == names("CA")  # W holds CA and C4: the called card is forced
    state.play(parse_card("CA"))
    # The face-down SA (highest trump) never wins: the CA does.
    assert state.tricks == [0, 0, 0, 1] and state.turn == W
    # The called card is out of play: no more face-down leads for N later.
    assert not state.called_card_out


def test_face_down_lead_can_be_ruffed_by_a_void_defender():
    # S is void in clubs and ruffs with the S2: S wins over the CA.
    state = blind_round("N:A.2.2. .3.3.2 2.5.4. .4..A4")
    state.play(parse_card("D2"), face_down=True)
    state.play(parse_card("C2"))
    assert state.legal_actions() == names("S2 H5 D4")
    play_all(state, "S2 CA")
    assert state.tricks == [0, 0, 1, 0]


def test_no_face_down_lead_for_non_blind_call_or_other_seats():
    state = make(BLIND_DEAL, N, [K.RIK, NONE, NONE, NONE], partner=W, trump=SP, called="CA", blind=False)
    assert all(not fd for _c, fd in state.legal_actions())
    state = make(BLIND_DEAL, E, [K.RIK, NONE, NONE, NONE], partner=W, trump=SP, called="CA", blind=True)
    assert all(not fd for _c, fd in state.legal_actions())


def test_face_down_card_stays_hidden_from_the_others():
    state = blind_round()
    sa = parse_card("SA")
    state.play(sa, face_down=True)
    assert state.seen_played(N) == 1 << sa
    assert state.seen_played(E) == 0


# ---------------------------------------------------------------- forced full deals

# N: 2 3 4 of every suit and C5. S: A K Q of every suit and CJ. E and W hold the middle cards.
# Led by E (left of dealer N). Whoever leads a suit leads above all of N's cards in it and N never
# leads (he would first have to win a trick), so N takes no trick whatever anyone plays.
# S holds cards of every suit at trick 1 and all of them beat E's and W's: S wins trick 1.
MISERY_DEAL = "N:432.432.432.5432 JT98765.T98765.. AKQ.AKQ.AKQ.AKQJ .J.JT98765.T9876"

# Every seat holds one whole suit: N spades, E hearts, S diamonds, W clubs. With spade trumps, N
# ruffs every lead of the others and wins his own leads: 13 tricks whatever anyone plays.
SUITS_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def random_play(state: RoundState, seed: int) -> None:
    rng = random.Random(seed)
    while not state.is_over:
        card, face_down = rng.choice(state.legal_actions())
        state.play(card, face_down)


@pytest.mark.parametrize("seed", range(5))
def test_two_misery_bidders_forced_outcome(seed):
    state = make(MISERY_DEAL, E, [K.MISERY, NONE, K.MISERY, NONE])
    random_play(state, seed)
    assert state.tricks[N] == 0 and state.tricks[S] >= 1
    # N made (5 to N), S failed (5 to each of N, E, W): points [10, 5, 0, 5]; money N +15 +5, S -15 -5.
    assert state.scores(ScoringMode.POINTS) == [10, 5, 0, 5]
    assert state.scores(ScoringMode.MONEY) == [20, 0, -20, 0]


@pytest.mark.parametrize("seed", range(3))
def test_thirteen_alone_with_all_trumps(seed):
    state = make(SUITS_DEAL, E, [K.ALONE_13, NONE, NONE, NONE], trump=SP)
    random_play(state, seed)
    assert state.tricks == [13, 0, 0, 0]
    assert state.scores(ScoringMode.POINTS) == [15, 0, 0, 0]
    assert state.scores(ScoringMode.MONEY) == [45, -15, -15, -15]


def test_one_suit_each_no_trump_misery_for_north_fails_only_if_he_leads():
    # Misery, no trump, one suit each, E leads: a heart lead can be followed by no one, so E wins
    # every trick he leads and keeps the lead: E takes all 13, N none.
    state = make(SUITS_DEAL, E, [K.MISERY, NONE, NONE, NONE])
    random_play(state, 0)
    assert state.tricks == [0, 13, 0, 0]
    assert state.scores(ScoringMode.POINTS) == [5, 0, 0, 0]


# ---------------------------------------------------------------- open contracts and knowledge

@pytest.mark.parametrize(("contract", "exposed"), [
    (K.MISERY, []), (K.OPEN_MISERY, [N]), (K.OPEN_ONE_ALONE, [N]), (K.OPEN_ALONE_13, [N]),
    (K.OPEN_MISERY_ALL, [N, E, S, W]), (K.OPEN_ONE_ALONE_ALL, [N, E, S, W]),
])
def test_hands_exposed_after_trick_one(contract, exposed):
    state = make(MISERY_DEAL, E, [contract, NONE, NONE, NONE], trump=SP if contract == K.OPEN_ALONE_13 else NO_TRUMP)
    assert state.exposed_seats() == []
    assert state.visible_hands(E) == [None, state.hands[E], None, None]
    for _ in range(4):
        state.play(*state.legal_actions()[0])
    assert state.exposed_seats() == exposed
    shown = set(exposed) | {E}
    assert state.visible_hands(E) == [state.hands[s] if s in shown else None for s in range(4)]


def test_several_open_misery_bidders_are_all_exposed():
    state = make(MISERY_DEAL, E, [K.OPEN_MISERY, NONE, K.OPEN_ONE_ALONE, NONE])
    for _ in range(4):
        state.play(*state.legal_actions()[0])
    assert state.exposed_seats() == [N, S]


def test_partner_revealed_by_the_called_card():
    state = make(CALLED_DEAL, N, [K.RIK, NONE, NONE, NONE], partner=E, trump=SP, called="HA")
    assert [state.partner_known_to(v) for v in range(4)] == [NONE, E, NONE, NONE]
    play_all(state, "H2 HA H3 H4")
    assert [state.partner_known_to(v) for v in range(4)] == [E, E, E, E]


def test_troela_partner_is_public():
    state = make(CALLED_DEAL, N, [K.TROELA, NONE, NONE, NONE], partner=E, trump=SP)
    assert [state.partner_known_to(v) for v in range(4)] == [E, E, E, E]


# ---------------------------------------------------------------- bad setups and moves

def test_bad_setups_raise_input_error():
    with pytest.raises(InputError):
        make("N:A.2.2. .3.3.2 2..4.3 .4..A", N, [K.RIK, NONE, NONE, NONE])  # unequal hands
    with pytest.raises(InputError):
        make(BLIND_DEAL, N, [K.RIK, NONE, NONE, NONE], partner=E, trump=SP, called="CA")  # E lacks the CA


def test_playing_out_of_turn_or_an_unheld_card_is_rejected():
    state = blind_round()
    with pytest.raises(InputError):
        state.legal_actions(E)
    with pytest.raises(InputError):
        state.play(parse_card("C2"))


def test_misery_status_is_decided_by_the_first_trick_taken():
    # S (Misery) takes trick 1 (see MISERY_DEAL): failed at once; N stays open until the end, then made.
    state = make(MISERY_DEAL, E, [K.MISERY, NONE, K.MISERY, NONE])
    for _ in range(4):
        state.play(*state.legal_actions()[0])
    assert state.tricks[S] == 1
    assert (state.status(N), state.status(S)) == (0, -1)
    random_play(state, 1)
    assert (state.status(N), state.status(S)) == (1, -1)


# ---------------------------------------------------------------- engine contract over random games

def random_round(seed: int) -> RoundState:
    """The first random deal drawn from ``seed`` that the default auction does not pass out, set up for play."""
    deal_rng = random.Random(seed)
    dealer = seed % 4
    while True:
        cards = list(range(52))
        deal_rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)]
        result = run_auction(hands, dealer)
        if not result.passed_out:
            return RoundState(setup_round(hands, dealer, result.contract_of))


@pytest.mark.parametrize("seed", range(40))
def test_random_games_keep_the_engine_contract(seed):
    state = random_round(seed)
    rng = random.Random(seed)
    start = list(state.hands)
    while not state.is_over:
        actions = state.legal_actions()
        assert actions and all(state.hands[state.turn] >> card & 1 for card, _fd in actions)
        state.play(*rng.choice(actions))
    assert len(state.history) == 13 and sum(state.tricks) == 13
    for trick, winner in state.history:
        assert sorted(seat for seat, _c, _fd in trick) == [0, 1, 2, 3] and 0 <= winner < 4
    played = [card for trick, _w in state.history for _s, card, _fd in trick]
    assert sorted(played) == list(range(52))
    for seat in range(4):
        assert {c for trick, _w in state.history for s, c, _fd in trick if s == seat} == {
            c for c in range(52) if start[seat] >> c & 1}
    assert sum(state.scores(ScoringMode.MONEY)) == 0
    assert all(state.status(s) != 0 for s in range(4) if state.setup.contract_of[s] >= 0)


def blind_random_round(seed: int) -> RoundState:
    """N holds SA HA DA and no club, so his Rik calls the CA blind; the rest of the deal is random."""
    rng = random.Random(seed)
    aces = parse_card_list("SA HA DA")
    others = [c for c in range(13, 52) if c not in aces]
    rng.shuffle(others)
    north = aces + others[:10]
    rest = [c for c in range(52) if c not in north]
    rng.shuffle(rest)
    hands = [sum(1 << c for c in north)] + [sum(1 << c for c in rest[13 * i:13 * i + 13]) for i in range(3)]
    setup = setup_round(hands, W, [K.RIK, NONE, NONE, NONE])
    assert setup.blind and setup.called_card == parse_card("CA")
    return RoundState(setup)


@pytest.mark.parametrize("seed", range(30))
def test_random_blind_games_respect_the_face_down_rules(seed):
    state = blind_random_round(seed)
    rng = random.Random(seed)
    while not state.is_over:
        actions = state.legal_actions()
        # Prefer the face-down lead when offered, so that most games use it.
        face_down = [a for a in actions if a[1]]
        state.play(*(rng.choice(face_down) if face_down else rng.choice(actions)))
    face_down_tricks = [(trick, winner) for trick, winner in state.history if trick[0][2]]
    # N leads trick 1 (dealer W) with the CA still out, so exactly the first trick is led face down.
    assert len(face_down_tricks) == 1 and state.history[0][0][0][2]
    for trick, winner in face_down_tricks:
        # The face-down card never wins; the holder played the called card into this very trick.
        assert winner != trick[0][0]
        assert (state.setup.partner, state.setup.called_card, False) in trick
    assert sorted(c for trick, _w in state.history for _s, c, _fd in trick) == list(range(52))
    assert sum(state.scores(ScoringMode.MONEY)) == 0


def test_status_counts_the_trick_in_progress():
    # Rik by N with partner E and 3 tricks left in this ending: after 1 card, no trick is decided.
    # Target 8 with 0 tricks and 3 to play: out of reach already -> failed (-1).
    state = make(CALLED_DEAL, N, [K.RIK, NONE, NONE, NONE], partner=E, trump=SP, called="HA")
    state.play(parse_card("H2"))
    assert state.status(N) == -1
    # 1 Alone by N in the same 4-card ending: one trick in progress counts as still to play.
    state = make(CALLED_DEAL, N, [K.ONE_ALONE, NONE, NONE, NONE])
    play_all(state, "H2 HA H3 H4 S2 S3 S4 SK")
    # E won the hearts, N won the spades with SK: one trick, two tricks left -> still open.
    assert state.tricks[N] == 1 and state.status(N) == 0
    state.play(parse_card("HK"))
    assert state.status(N) == 0
