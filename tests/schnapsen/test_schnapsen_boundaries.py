"""Exact rule boundaries (RULES.md section 2) on hand-built positions, through both engines.

Hearts are trump throughout. Points, tricks and pending marriage points are set directly in the
notation, so a position need not be reachable from a real deal; every expectation is worked out by
hand in the test's docstring or comments.
"""

import pytest
from schnapsen_helpers import card, cards, view

from analyzer.games.schnapsen import rules as R

M = R.MARRIAGE_OFFSET

# Stock open (4 cards, face-up HA). Player 0 has led SA; player 1 answers CJ, which neither follows
# nor trumps, so SA wins and player 0 gains 11 + 2 = 13 points.
OPEN_TRICK = "hand0=SK SQ DJ DQ; hand1=CJ CQ CK DK DT; stock=HJ DA CT HA; leader=0; trick=SA"


@pytest.mark.parametrize("opponent,expected", [
    ("points=53,33; tricks=2,1", 1),  # loser at exactly 33: 1
    ("points=53,32; tricks=2,1", 2),  # loser at 32, under 33: 2
    ("points=53,0; tricks=2,0", 3),   # loser without a trick: 3
])
def test_exactly_66_after_a_trick_ends_the_deal_at_once(engine, opponent, expected):
    """53 + 13 = 66 ends the deal before anyone draws or leads; game points by the loser's state."""
    e = engine(f"{OPEN_TRICK}; {opponent}")
    e.apply(card("CJ"))
    st = view(e)
    assert (st.winner, st.game_points, st.points[0]) == (0, expected, 66)
    assert st.stock == R.parse_cards("HJ DA CT HA")  # nobody drew
    assert st.hands == [cards("SK SQ DJ DQ"), cards("CQ CK DK DT")]
    assert e.legal_actions() == []  # the next trick is not played


def test_65_after_a_trick_does_not_end_the_deal(engine):
    """52 + 13 = 65: play goes on, the trick's winner draws HJ, the loser DA, and the winner leads."""
    e = engine(f"{OPEN_TRICK}; points=52,33; tricks=2,1")
    e.apply(card("CJ"))
    st = view(e)
    assert (st.winner, st.points, st.to_move) == (-1, [65, 33], 0)
    assert st.hands == [cards("SK SQ DJ DQ HJ"), cards("CQ CK DK DT DA")]
    assert st.stock == R.parse_cards("CT HA")
    assert R.parse_card("SK") in e.legal_actions()


# Player 0 is on lead without a trick and with 20 pending marriage points (in a real deal a player
# without a trick leads only the first trick). He now announces the trump marriage.
PENDING = ("hand0=HQ HK DJ DK CJ; hand1=SJ ST CT DQ HJ; stock=SQ SK DA DT HT HA; leader=0; "
           "points=0,29; pending=20,0; tricks=0,2")


@pytest.mark.parametrize("follow,points,winner,game_points", [
    ("DQ", 66, 0, 2),   # HQ wins 3 + 3, plus 60 credited = 66: ends at once; loser has 29 < 33: 2
    ("HJ", 65, -1, 0),  # HQ beats HJ: 3 + 2 + 60 = 65: play goes on
])
def test_pending_marriages_credited_with_the_first_trick(engine, follow, points, winner, game_points):
    """Pending points count only from the first won trick, and then count towards 66 at once."""
    e = engine(PENDING)
    e.apply(card("HQ") + M)  # 40 in trumps: pending 60, still not counted, the deal goes on
    st = view(e)
    assert (st.winner, st.points, st.pending) == (-1, [0, 29], [60, 0])
    e.apply(card(follow))
    st = view(e)
    assert (st.winner, st.game_points, st.points[0], st.pending[0], st.tricks[0]) == (
        winner, game_points, points, 0, 1)


# Player 0 holds the spade marriage (20, not trump) and has won a trick.
MARRIAGE = ("hand0=SK SQ DJ CJ HJ; hand1=DA DT DK CQ CK; stock=HQ HK HT SJ ST HA; leader=0; "
            "tricks=1,2")


@pytest.mark.parametrize("points,winner,game_points", [
    ("46,33", 0, 1),    # 46 + 20 = 66 on announcing: wins before the trick is played; loser at 33: 1
    ("46,32", 0, 2),    # the same, loser at 32: 2
    ("45,33", -1, 0),   # 45 + 20 = 65: the opponent answers the lead
])
def test_marriage_reaching_66_with_a_trick_ends_the_deal_at_once(engine, points, winner, game_points):
    """A player with a trick counts an announced marriage at once; 66 that way ends the deal."""
    e = engine(f"{MARRIAGE}; points={points}")
    e.apply(card("SQ") + M)
    st = view(e)
    assert (st.winner, st.game_points, st.pending) == (winner, game_points, [0, 0])
    assert st.points[0] == int(points.split(",")[0]) + 20
    assert (e.legal_actions() == []) == (winner == 0)


# Closed stock: two cards each left, the closed stock still holds DJ and the face-up HJ. Player 0
# leads SA, player 1 must follow with SK (strict play, spades); SA wins 11 + 4 = 15.
CLOSED = "hand0=SA DK; hand1=SK DQ; stock=DJ HJ; leader=0; tricks=3,2"


@pytest.mark.parametrize("closed,expected", [
    ("0,33,1", 1),  # opponent had exactly 33 when the stock was closed: 1
    ("0,32,1", 2),  # opponent had 32 at closing: 2
    ("0,0,0", 3),   # opponent had no trick at closing (he has two now): 3
])
def test_closer_reaching_exactly_66(engine, closed, expected):
    """51 + 15 = 66 for the closer: he wins at once (cards still in hand), scored as at closing."""
    e = engine(f"{CLOSED}; points=51,50; closed={closed}")
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points, st.points[0]) == (0, expected, 66)
    assert e.legal_actions() == []


@pytest.mark.parametrize("closed,expected", [("0,33,1", 2), ("0,0,0", 3)])
def test_closer_at_65_fails(engine, closed, expected):
    """The closer ends on 65: he failed, the opponent scores 2, or 3 if he had no trick at closing."""
    # SA + SK: 50 + 15 = 65 for the closer. He leads DQ and player 1 must head it with DK (strict):
    # 50 + 7 = 57 for player 1, the last trick, nobody at 66.
    e = engine(f"hand0=SA DQ; hand1=SK DK; stock=DJ HJ; leader=0; tricks=3,2; points=50,50; closed={closed}")
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.points[0]) == (-1, 65)
    e.apply(card("DQ"))
    e.apply(card("DK"))
    st = view(e)
    assert (st.winner, st.game_points, st.points) == (1, expected, [65, 57])


@pytest.mark.parametrize("closed,expected", [("1,0,0", 3), ("1,20,1", 2)])
def test_opponent_of_the_closer_reaching_66_first(engine, closed, expected):
    """Player 1 closed; player 0 reaches 51 + 15 = 66 first: 3 if he had no trick at closing, else 2."""
    e = engine(f"{CLOSED}; points=51,40; closed={closed}")
    e.apply(card("SA"))
    e.apply(card("SK"))
    st = view(e)
    assert (st.winner, st.game_points) == (0, expected)


# Stock open (4 cards), player 1 on lead with five cards.
TO_CLOSE = "hand0=SK SQ DJ DQ CJ; hand1=CQ CK DK DT SA; stock=HJ DA CT HA; leader=1"


@pytest.mark.parametrize("state,opp_points,opp_trick", [
    ("points=30,41; tricks=2,3", 30, True),
    ("points=0,41; pending=20,0; tricks=0,3", 0, False),  # pending points are not counted points
])
def test_closing_records_the_opponents_state(engine, state, opp_points, opp_trick):
    """Closing stores the opponent's counted points and whether he has a trick, not the closer's."""
    e = engine(f"{TO_CLOSE}; {state}")
    e.apply(R.CLOSE)
    st = view(e)
    assert (st.closer, st.close_opp_points, st.close_opp_trick) == (1, opp_points, opp_trick)


@pytest.mark.parametrize("hand1,lead,legal", [
    ("SA SJ HQ CJ DJ", "SQ", "SA"),          # follow and win: SA is the only higher spade
    ("SK SA SJ HQ CJ", "SQ", "SK SA"),       # any higher spade
    ("SJ ST HQ CJ DJ", "SA", "SJ ST"),       # cannot beat SA: follow lower, although HQ would win
    ("HQ HJ CJ DJ DQ", "SA", "HJ HQ"),       # void in spades: any trump
    ("CJ CQ DJ DQ DK", "SA", "CJ CQ DJ DQ DK"),  # void in spades and trumps: anything
    ("HJ HA CJ DJ DQ", "HK", "HA"),          # trump led: head it
    ("HJ HK CJ DJ DQ", "HA", "HJ HK"),       # trump led, cannot head it: any trump
])
def test_strict_play_once_the_stock_is_exhausted(engine, hand1, lead, legal):
    """Stock empty, not closed: the follower plays strictly. Player 0 led and holds four of the other cards."""
    rest = R.cards_of(R.FULL_MASK & ~cards(f"{hand1} {lead}"))
    e = engine(f"hand0={R.format_cards(rest[:4])}; hand1={hand1}; stock=; trump=H; leader=0; trick={lead}")
    assert e.legal_actions() == sorted(R.parse_cards(legal))


def test_free_play_with_the_last_two_stock_cards(engine):
    """Two cards left in the stock: still open, so the follower may play any card."""
    e = engine("hand0=CA CT DA DK; hand1=SJ ST HQ CJ DJ; stock=SK HJ; leader=0; trick=SA")
    assert e.legal_actions() == sorted(R.parse_cards("SJ ST HQ CJ DJ"))


def test_lead_options_with_two_stock_cards_and_with_an_exhausted_stock(engine):
    """Two stock cards: exchange and close are still allowed; stock exhausted: only cards and marriages."""
    hand = "HJ HQ HK SA CJ"
    two = engine(f"hand0={hand}; hand1=SJ ST CQ DJ DQ; stock=SK HA; leader=0")
    cards_and_marriages = sorted(R.parse_cards(hand) + [card("HQ") + M, card("HK") + M])
    assert two.legal_actions() == cards_and_marriages + [R.EXCHANGE, R.CLOSE]
    empty = engine(f"hand0={hand}; hand1=SJ ST CQ DJ DQ; stock=; trump=H; leader=0")
    assert empty.legal_actions() == cards_and_marriages


def test_last_trick_won_by_the_follower_scores_one(engine):
    """Stock exhausted, not closed, nobody reaches 66: the last trick's winner (the follower) scores 1."""
    e = engine("hand0=SK; hand1=SA; stock=; trump=H; leader=0; points=50,30; tricks=5,4")
    e.apply(card("SK"))
    e.apply(card("SA"))  # 30 + 15 = 45 < 66
    st = view(e)
    assert (st.winner, st.game_points, st.points) == (1, 1, [50, 45])
