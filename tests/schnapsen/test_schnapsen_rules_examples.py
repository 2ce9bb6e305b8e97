"""Hand-worked rule examples, each run through the Python state and the numba kernels.

Every expectation below is worked out by hand from docs/rules.md section 2; the comment says why.
"""

import pytest
from schnapsen_helpers import card, cards, view

from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.state import SchnapsenState

M = R.MARRIAGE_OFFSET


def last_trick(points, tricks, extra=""):
    # Stock exhausted, one card each: player 0 leads SA, player 1 must play SK (strict, same suit),
    # SA wins and player 0 gains 11 + 4 = 15 points.
    return f"hand0=SA; hand1=SK; stock=; trump=H; leader=0; points={points}; tricks={tricks}{extra}"


@pytest.mark.parametrize("points,tricks,expected", [
    ("60,0", "4,0", 3),   # 75 >= 66 and the loser has no trick: 3
    ("60,20", "3,1", 2),  # loser has a trick but 20 < 33: 2
    ("60,32", "3,1", 2),  # 32 < 33 still counts as under 33: 2
    ("60,33", "3,1", 1),  # loser at 33: 1
])
def test_game_points_on_reaching_66(engine, points, tricks, expected):
    e = engine(last_trick(points, tricks))
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points) == (0, expected)


def test_last_trick_scores_one_when_nobody_reaches_66(engine):
    # 40 + 15 = 55 < 66 and the stock was not closed: the last trick's winner scores 1,
    # even though the opponent has more points (60).
    e = engine(last_trick("40,60", "4,5"))
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points, st.points[0]) == (0, 1, 55)


@pytest.mark.parametrize("closed,expected", [
    ("0,0,0", 3),   # opponent had no trick when closed: 3
    ("0,20,1", 2),  # opponent had 20 < 33 at closing (now 40): 2, judged at closing time
    ("0,40,1", 1),  # opponent had 40 at closing: 1
])
def test_closer_success_scored_by_state_at_closing(engine, closed, expected):
    e = engine(last_trick("60,40", "3,2", f"; closed={closed}"))
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points) == (0, expected)


@pytest.mark.parametrize("closed,expected", [("0,20,1", 2), ("0,0,0", 3)])
def test_closer_failure_gives_opponent_2_or_3(engine, closed, expected):
    # Closer 0 ends on 40 + 15 = 55 < 66 with no cards left: failure, the opponent scores 2,
    # or 3 if he had no trick at closing (his trick count now does not matter).
    e = engine(last_trick("40,40", "3,2", f"; closed={closed}"))
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points) == (1, expected)


def test_opponent_reaching_66_after_closing(engine):
    # Player 1 closed (his opponent 0 had 10 points and a trick); 0 now wins SA+SK: 55 + 15 = 70.
    # The closer failed, the opponent had a trick at closing: 2.
    e = engine(last_trick("55,50", "2,3", "; closed=1,10,1"))
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points) == (0, 2)


FRESH = "hand0=HJ SA SK SQ CJ; hand1=DA DT DK DQ DJ; stock=CQ CK CT CA HQ HK HT ST SJ HA; leader=0"


def test_exchange_swaps_trump_jack_for_face_up_card(engine):
    e = engine(FRESH)
    assert R.EXCHANGE in e.legal_actions()  # on lead, stock open, holds HJ (hearts are trump)
    e.apply(R.EXCHANGE)
    st = view(e)
    assert st.hands[0] == cards("HA SA SK SQ CJ")
    assert st.stock[-1] == card("HJ")
    assert st.shown[0] == cards("HA")  # the opponent saw the exchange
    assert R.EXCHANGE not in e.legal_actions()  # the jack is gone


def test_no_exchange_when_closed_or_following(engine):
    e = engine(FRESH)
    e.apply(R.CLOSE)
    assert R.EXCHANGE not in e.legal_actions()
    e = engine("hand0=SA SK SQ CJ; hand1=HJ DA DT DK DQ; stock=CQ CK CT CA HQ HK HT ST SJ HA; leader=0; trick=DJ")
    assert R.EXCHANGE not in e.legal_actions()


def test_marriage_points_pending_until_first_trick(engine):
    e = engine(FRESH)
    assert card("SQ") + M in e.legal_actions() and card("SK") + M in e.legal_actions()
    e.apply(card("SQ") + M)  # spades are not trump: 20, pending since player 0 has no trick
    st = view(e)
    assert (st.points, st.pending) == ([0, 0], [20, 0])
    assert st.shown[0] == cards("SK")
    e.apply(card("DJ"))  # free play: DJ does not follow, is not trump: SQ wins 3 + 2
    st = view(e)
    assert (st.points, st.pending, st.tricks) == ([25, 0], [0, 0], [1, 0])


def test_marriage_stays_pending_if_the_trick_is_lost(engine):
    e = engine(FRESH)
    e.apply(card("SQ") + M)
    e.apply(card("DA"))  # not spades, not trump: SQ still wins...
    e = engine("hand0=HJ SA SK SQ CJ; hand1=DA DT DK DQ HQ; stock=CQ CK CT CA DJ HK HT ST SJ HA; leader=0")
    e.apply(card("SQ") + M)
    e.apply(card("HQ"))  # ...but a trump takes it: player 1 wins 3 + 3 = 6, 20 stays pending for 0
    st = view(e)
    assert (st.points, st.pending) == ([0, 6], [20, 0])


def test_trump_marriage_after_a_trick_reaches_66_at_once(engine):
    # 30 points and a trick: announcing the trump marriage (40) makes 70 immediately; the opponent
    # has a trick and 40 points: 1 game point.
    e = engine("hand0=HK HQ SA SK CJ; hand1=DA DT DK DQ DJ; stock=CQ CK CT CA HJ SQ HT ST SJ HA; "
               "leader=0; points=30,40; tricks=1,2")
    e.apply(card("HK") + M)
    st = view(e)
    assert (st.winner, st.game_points, st.points[0]) == (0, 1, 70)


def test_closing_before_first_lead(engine):
    e = engine(FRESH)
    assert R.CLOSE in e.legal_actions()
    e.apply(R.CLOSE)
    st = view(e)
    assert (st.closer, st.close_opp_points, st.close_opp_trick) == (0, 0, False)
    assert R.CLOSE not in e.legal_actions()
    e.apply(card("SA"))
    # Strict play: player 1 holds no spade; hearts (trump) none either -> any card.
    assert e.legal_actions() == sorted(R.parse_cards("DA DT DK DQ DJ"))
    e.apply(card("DJ"))
    st = view(e)
    assert st.hands[0] == cards("HJ SK SQ CJ")  # no drawing once closed
    assert st.stock == R.parse_cards("CQ CK CT CA HQ HK HT ST SJ HA")


@pytest.mark.parametrize("hand1,lead,legal", [
    ("SA SJ HQ CJ DJ", "SQ", "SA"),        # must follow and win: SA is the only higher spade
    ("SJ ST HQ CJ DJ", "SA", "SJ ST"),     # cannot beat SA: any spade
    ("HQ CJ DJ DQ DK", "SA", "HQ"),        # void in spades: must trump (hearts)
    ("CJ CQ DJ DQ DK", "SA", "CJ CQ DJ DQ DK"),  # void in spades and trumps: anything
    ("HJ HA CJ DJ DQ", "HK", "HA"),        # trump led: head it
])
def test_strict_play_after_closing(engine, hand1, lead, legal):
    # Player 0 closed, then led; he holds four of the other cards, and two more (a heart last, face
    # up) stay in the closed stock, so strict play comes from the closing, not from an empty stock.
    rest = R.cards_of(R.FULL_MASK & ~cards(f"{hand1} {lead}"))
    hearts = [c for c in rest if c // 5 == 2]
    others = [c for c in rest if c // 5 != 2]
    stock = [others[0], hearts[0]]
    hand0 = [c for c in rest if c not in stock][:4]
    e = engine(f"hand0={R.format_cards(hand0)}; hand1={hand1}; stock={R.format_cards(stock)}; leader=0; "
               f"trick={lead}; closed=0,0,0")
    assert e.legal_actions() == sorted(R.parse_cards(legal))


def test_free_play_allows_any_card(engine):
    e = engine("hand0=SA SK SQ CJ; hand1=HJ DA DT DK DQ; stock=CQ CK CT CA HQ HK HT ST SJ HA; leader=0; trick=DJ")
    assert e.legal_actions() == sorted(R.parse_cards("HJ DA DT DK DQ"))


def test_deal_order_and_stock():
    # Dealer 1: cards 0-2 to player 0, 3-5 to the dealer, card 6 face up, 7-8 to 0, 9-10 to 1.
    order = list(range(20))
    st = SchnapsenState.deal(order, dealer=1)
    assert st.hands == [R.mask_of([0, 1, 2, 7, 8]), R.mask_of([3, 4, 5, 9, 10])]
    assert st.stock == list(range(11, 20)) + [6]
    assert (st.trump, st.leader, st.to_move) == (1, 0, 0)


def test_notation_round_trip_and_errors():
    st = SchnapsenState.from_text(FRESH)
    st.apply(R.EXCHANGE)
    st.apply(card("SQ") + M)
    again = SchnapsenState.from_text(st.to_text())
    assert again.to_array().tolist() == st.to_array().tolist()
    for bad in ["hand0=SA", "hand0=SA SA; hand1=SK", "hand0=XX; hand1=SK; trump=H", "hand0=SA; hand1=SK",
                "hand0=SA; hand1=SK; trump=H; color=1"]:
        with pytest.raises(InputError):
            SchnapsenState.from_text(bad)



LACKS = ("hand0=SA DJ CK HJ SQ; hand1=CJ CQ DA DQ DK; stock=SJ SK ST HQ HK HT CT CA DT HA; leader=0; "
         "closed=0,0,0")


def test_strict_play_records_what_the_follower_lacks(engine):
    e = engine(LACKS)  # closed before the first lead, hearts trump
    e.apply(card("SA"))
    e.apply(card("CJ"))  # no spade, and not trumping: player 1 holds no spade and no heart
    assert view(e).not_held == [0, int(R.SUIT_MASKS[3] | R.SUIT_MASKS[2])]
    e.apply(card("DJ"))
    e.apply(card("DQ"))  # heading the lead reveals nothing
    assert view(e).not_held == [0, int(R.SUIT_MASKS[3] | R.SUIT_MASKS[2])]
    e.apply(card("DK"))  # player 1 won and leads DK
    e.apply(card("HJ"))  # player 0 trumps: he holds no diamond (any trump would do)
    assert view(e).not_held[0] == int(R.SUIT_MASKS[1])
    e.apply(card("CK"))
    e.apply(card("CQ"))  # following lower: player 1 holds nothing above CK in clubs
    assert view(e).not_held[1] == int(R.SUIT_MASKS[3] | R.SUIT_MASKS[2]) | cards("CT CA")


def test_sampled_worlds_respect_revealed_voids():
    import numpy as np

    from analyzer.cards.rng import state_from_seed
    from analyzer.games.schnapsen.search import sample_world

    st = SchnapsenState.from_text(LACKS)
    st.apply(card("SA"))
    st.apply(card("CJ"))
    s = st.to_array()
    rng = state_from_seed(1)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    lacks = int(R.SUIT_MASKS[3] | R.SUIT_MASKS[2])
    hands = set()
    for _ in range(200):
        sample_world(s, 0, rng, pool, world)
        assert int(world[R.HAND0 + 1]) & lacks == 0
        hands.add(int(world[R.HAND0 + 1]))
    # player 1's four cards come from the 7 hidden clubs and diamonds (CQ CT CA DT DA DQ DK; the
    # spades and hearts must be in the stock): C(7, 4) = 35 possible hands, 200 draws see most
    assert len(hands) > 25
