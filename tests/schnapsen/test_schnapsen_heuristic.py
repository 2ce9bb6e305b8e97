"""The heuristic's rules on hand-built positions worked out by hand, the sure-points count of closing
against a brute force over every opponent hand and defence, the exact endgame against the
perfect-information solver, the classic preset, and (slow) the duel against the classic heuristic."""

from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import (OFF, HeuristicParams, _endgame_search, _endgame_workspace,
                                           exact_endgame_values, heuristic_action, opponent_possible, sure_points)
from analyzer.games.schnapsen.experiments import match_task, parse_bot
from analyzer.games.schnapsen.kernels import apply_action, init_round, legal_actions, shuffle_deck, signed_result
from analyzer.games.schnapsen.search import new_workspace, values_in_world
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.games.schnapsen.summary import match_sums, summarize_matches

DEFAULT = HeuristicParams()
BUF = np.zeros(16, dtype=np.int64)


def choice(text: str, params: HeuristicParams = DEFAULT) -> str:
    """The heuristic's action in the position ``text``, by name."""
    st = SchnapsenState.from_text(text)
    return R.action_name(int(heuristic_action(st.to_array(), params.to_array(), BUF)))


def sure(text: str) -> int:
    st = SchnapsenState.from_text(text)
    return int(sure_points(st.to_array(), st.to_move))


# Spades trump, face-up SQ, a stock of four; six cards played (CJ CQ DQ DA HQ HA). Player 0 to lead holds
# SA ST CA DJ HJ; player 1 SK SJ CT DT HT; face down in the stock CK DK HK.
# Player 0's view of player 1's possible cards: SK SJ CT DT HT CK DK HK (not the face-up SQ). His two
# possible trumps SK SJ are below SA ST, so after SA and ST he has no trump: SA, ST and CA (above CT and
# CK) win, 32 points, and he throws at least his three cheapest possible cards, SJ and two kings: 10.
DRAWN_TRUMPS = ("hand0=SA ST CA DJ HJ; hand1=SK SJ CT DT HT; stock=CK DK HK SQ; leader=0; points={},9; "
                "tricks=2,1")


def test_sure_points_count_side_masters_once_the_trumps_are_drawn():
    assert sure(DRAWN_TRUMPS.format(20)) == 20 + 32 + 10


def test_sure_points_leave_out_the_face_up_trump():
    """Face-up SJ instead: player 1 may hold SK SQ only (two trumps below SA ST), so CA still counts;
    his cheapest three are SQ and two kings (11). Were SJ counted as his, he could hold three trumps and
    ruff CA: 20 + 21 + 2 + 3."""
    text = "hand0=SA ST CA DJ HJ; hand1=SK SQ CT DT HT; stock=CK DK HK SJ; leader=0; points=20,9; tricks=2,1"
    assert sure(text) == 20 + 32 + 11


def test_sure_points_count_only_the_top_trumps_while_the_opponent_may_keep_one():
    """Player 1 may hold ST SK SJ: only SA is above them all, and after it he may still trump CA. SA wins
    11 plus at least SJ's 2."""
    text = "hand0=SA CA CK DJ HJ; hand1=ST SK SJ DT HT; stock=CT DK HK SQ; leader=0; points=20,9; tricks=2,1"
    assert sure(text) == 20 + 11 + 2


# First trick lost with the diamonds marriage announced: player 0 has no trick and 20 pending, holds the
# hearts marriage (spades trump). Player 1 may hold ST SK SJ (SQ is face up).
PENDING = ("hand0={} HK HQ CJ DJ; hand1=ST SK DQ DK DT; stock=CQ CK DA HJ HT HA {} SQ; leader=0; points=0,21; "
           "pending=20,0; tricks=0,1")


def test_pending_and_marriage_points_count_once_a_sure_trick_is_there():
    # SA is above all his possible trumps: its trick (11 + his cheapest possible card, a jack) credits the
    # 20 pending and lets the hearts marriage be announced: 13 + 20 + 20
    assert sure(PENDING.format("SA", "SJ")) == 13 + 20 + 20
    # with SJ instead of SA no trick is sure: no trick, no pending points, no marriage
    assert sure(PENDING.format("SJ", "SA")) == 0


def test_closes_exactly_when_the_sure_points_reach_66_plus_the_margin():
    threshold = R.WIN_POINTS + DEFAULT.close_margin
    assert choice(DRAWN_TRUMPS.format(threshold - 42)) == "close"
    assert choice(DRAWN_TRUMPS.format(threshold - 43)) != "close"
    # the classic heuristic closes only with 46 points
    assert choice(DRAWN_TRUMPS.format(threshold - 42), HeuristicParams.classic()) != "close"
    # OFF as the points floor never closes (the honest "play on" uses that)
    assert choice(DRAWN_TRUMPS.format(threshold - 42), replace(DEFAULT, close_points=OFF)) != "close"


def opponent_hands(st: SchnapsenState, player: int):
    """Every hand the opponent may hold as ``player`` sees it (itertools): his shown cards plus any of the
    unplayed cards not in ``player``'s hand, not the face-up trump, not shown, not ruled out by strict play."""
    opp = 1 - player
    face_up = 1 << st.stock[-1] if st.stock else 0
    hidden = R.FULL_MASK & ~st.hands[player] & ~st.played & ~face_up & ~st.shown[opp] & ~st.not_held[opp]
    need = st.hands[opp].bit_count() - st.shown[opp].bit_count()
    for cards in combinations(R.cards_of(hidden), need):
        yield st.shown[opp] | R.mask_of(cards)


def redealt(st: SchnapsenState, player: int, rnd: np.random.Generator, count: int):
    """Up to ``count`` copies of ``st`` that ``player`` cannot tell from it: another opponent hand he
    cannot rule out (:func:`opponent_hands`), the other hidden cards face down in the stock in a random
    order."""
    hands = list(opponent_hands(st, player))
    pool = st.hands[1 - player] | R.mask_of(st.stock[:-1])
    for k in rnd.choice(len(hands), size=min(len(hands), count), replace=False):
        world = st.copy()
        world.hands[1 - player] = hands[k]
        world.stock = [int(c) for c in rnd.permutation(R.cards_of(pool & ~hands[k]))] + st.stock[-1:]
        yield world


def closer_always_wins(st: SchnapsenState, closer: int, params: np.ndarray) -> bool:
    """True if the closer, playing the heuristic, wins against every defence (all legal replies)."""
    if st.is_over:
        return st.winner == closer
    if st.to_move == closer:
        child = st.copy()
        child.apply(int(heuristic_action(st.to_array(), params, BUF)))
        return closer_always_wins(child, closer, params)
    for action in st.legal_actions():
        child = st.copy()
        child.apply(action)
        if not closer_always_wins(child, closer, params):
            return False
    return True


def test_sure_points_of_66_win_against_every_hand_and_every_defence():
    """Positions from heuristic play where closing is legal and the sure points reach 66 (no margin):
    closing and then playing the heuristic wins in every world the closer cannot rule out (every hand of
    the opponent from his view; the closed stock's order does not matter), whatever the opponent plays."""
    params = DEFAULT.to_array()
    rng = state_from_seed(8)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    checked = 0
    deal = 0
    while checked < 25:
        shuffle_deck(rng, deck)
        init_round(deck, deal % 2, s)
        deal += 1
        st = SchnapsenState.from_array(s)
        while not st.is_over:
            p = st.to_move
            if R.CLOSE in st.legal_actions() and sure_points(st.to_array(), p) >= R.WIN_POINTS:
                hands = list(opponent_hands(st, p))
                if len(hands) <= 300:
                    pool = st.hands[1 - p] | R.mask_of(st.stock[:-1])
                    for hand in hands:
                        world = st.copy()
                        world.hands[1 - p] = hand
                        rest = R.cards_of(pool & ~hand)
                        world.stock = rest + world.stock[-1:]
                        world.apply(R.CLOSE)
                        assert closer_always_wins(world, p, params), (st.to_text(), R.format_cards(R.cards_of(hand)))
                    checked += 1
                    break
            st.apply(int(heuristic_action(st.to_array(), params, BUF)))
    assert deal < 2000


def test_announces_a_marriage_that_reaches_66_rather_than_closing():
    """30 points and a trick, SK SQ of trumps (spades): announcing makes 70 at once. Closing would be sure
    too (SA is above player 1's only possible trump ST, so SA SK SQ win, and the 40 counts), and is what
    the heuristic does without the rule, but the announcement ends the deal now."""
    text = "hand0=SK SQ SA CJ DJ; hand1=ST CT DT HT CA; stock=CK DK HK SJ; leader=0; points=30,14; tricks=1,2"
    assert choice(text) == "SQ+marriage"
    st = SchnapsenState.from_text(text)
    st.apply(R.MARRIAGE_OFFSET + R.parse_card("SQ"))
    assert (st.winner, st.points[0]) == (0, 70)
    assert choice(text, replace(DEFAULT, win_deal=0)) == "close"


# Following while the stock is open (spades trump, a stock of four, face-up SQ unless said otherwise).
def test_takes_the_trick_that_reaches_66_with_the_cheapest_card_that_does():
    """Player 1 at 60 follows CJ (2): CQ would take it for 65, SJ for 64, CA for 73: CA. Without the rule
    the cheapest higher club, CQ, takes it (with take_dear off) and the deal goes on."""
    text = "hand0=CT DA HA ST; hand1=CA CQ SJ DJ HJ; stock=DK HK HQ SQ; trick=CJ; leader=0; points=40,60; tricks=2,2"
    assert choice(text) == "CA"
    assert choice(text, replace(DEFAULT, win_deal=0, take_dear=0)) == "CQ"


def test_takes_the_trick_the_leader_would_reach_66_with():
    """Player 0 at 62 leads HJ; player 1 has no heart. Throwing his cheapest card, DJ, gives player 0
    62 + 2 + 2 = 66: he trumps with SJ instead (a 2-point lead is below trump_min otherwise)."""
    text = "hand0=HA HT CA DA; hand1=SJ DJ CK CQ DQ; stock=DK HK ST SQ; trick=HJ; leader=0; points=62,20; tricks=3,1"
    assert choice(text) == "SJ"
    # (player 1 holds the clubs marriage: the trump for it is switched off too)
    assert choice(text, replace(DEFAULT, win_deal=0, trump_for_marriage=0)) == "DJ"


def test_trumps_a_ten_but_not_a_queen():
    """No club, the lowest trump SJ: a led CT (10) is trumped; a led CQ (3) is not (it throws a jack),
    as the play-outs' heuristic (trump_min 3) would trump it."""
    text = "hand0=CJ CK DK ST; hand1=DJ HJ HQ DA SJ; stock=CA {} HT SQ; trick={}; leader=0; points=20,20; tricks=1,2"
    assert choice(text.format("CQ", "CT")) == "SJ"
    assert choice(text.format("CT", "CQ")) in ("DJ", "HJ")
    assert choice(text.format("CT", "CQ"), HeuristicParams.playout()) == "SJ"


def test_keeps_the_trump_ten_and_ace_for_leads_worth_ten():
    """HQ (3) led, no heart, trumps ST SA only: it throws CJ rather than spend a ten-point trump; with a
    lower bar (trump_min 3 as in the play-outs, trump_high_min 0) it would trump with ST."""
    text = "hand0=HK HA CK DK; hand1=ST SA CJ DJ DQ; stock=CQ DT HT SQ; trick=HQ; leader=0; points=20,20; tricks=1,2"
    assert choice(text) == "CJ"
    assert choice(text, replace(DEFAULT, trump_min=3, trump_high_min=0)) == "ST"


def test_takes_a_cheap_lead_with_a_ten():
    """CJ led: CT takes it (12 points and the lead); the classic heuristic uses a ten only on a ten."""
    text = "hand0=CQ CK DK ST; hand1=CT HJ HQ DJ SJ; stock=CA DT HT SQ; trick=CJ; leader=0; points=20,20; tricks=1,2"
    assert choice(text) == "CT"
    assert choice(text, HeuristicParams.classic()) == "DJ"


def test_trumps_low_rather_than_throw_a_ten():
    """DJ led, no diamond, plain cards CT CA HT HA: throwing one gives away 10 or 11, so the lowest trump
    SJ takes the trick (without the rule: CT)."""
    text = "hand0=DQ DK ST SK; hand1=CT CA HT HA SJ; stock=CJ HJ DT SQ; trick=DJ; leader=0; points=30,20; tricks=2,1"
    assert choice(text) == "SJ"
    assert choice(text, replace(DEFAULT, save_tens=0)) == "CT"


# Leading while the stock is open.
def test_leads_a_trump_that_wins_the_deal():
    """54 points, SA above every trump player 1 may hold (ST SK; SQ is face up): SA plus his cheapest
    possible card (a king, 4) makes at least 69 whatever he plays. Without the rule it closes (also sure)."""
    text = "hand0=SA CJ DJ HJ CQ; hand1=ST SK CT DT HT; stock=CK DK HK SQ; leader=0; points=54,20; tricks=2,1"
    assert choice(text) == "SA"
    for reply in ("ST", "SK", "CT", "DT", "HT"):
        st = SchnapsenState.from_text(text)
        st.apply(R.parse_card("SA"))
        st.apply(R.parse_card(reply))
        assert st.winner == 0
    assert choice(text, replace(DEFAULT, win_deal=0)) == "close"


def test_leads_a_side_ten_whose_ace_is_gone():
    """CA is played: CT can only be taken by a trump. It is led instead of the cheapest plain card, CJ."""
    text = "hand0=CT CJ DJ HJ DQ; hand1=CQ CK DA HA ST; stock=DK HK HT SA; leader=0; points=20,20; tricks=1,2"
    assert choice(text) == "CT"
    assert choice(text, replace(DEFAULT, lead_masters=0)) == "CJ"


# Leading under strict play (stock exhausted: both hands known).
def test_strict_play_leads_the_master_the_opponent_must_follow():
    """HA and CK are both masters, but player 1 has no heart and holds the trump SJ. HA: he trumps,
    61 + 13 = 74 and wins. CK: he must follow with CQ, 59 + 7 = 66 and player 0 wins. The classic
    heuristic leads the dearer master, HA."""
    text = "hand0=HA CK; hand1=SJ CQ; stock=; trump=S; leader=0; points=59,61; tricks=4,4"
    assert choice(text) == "CK"
    assert choice(text, HeuristicParams.classic()) == "HA"
    st = SchnapsenState.from_text(text)
    st.apply(R.parse_card("CK"))
    st.apply(R.parse_card("CQ"))
    assert st.winner == 0


def test_strict_play_announces_the_marriage_on_its_master_king():
    """SA ST are gone, player 1's only trump is SJ: SK and SQ both win, the king is the dearer, and it is
    led announcing the marriage (the classic heuristic announces with the queen)."""
    text = "hand0=SK SQ CJ; hand1=SJ CQ DJ; stock=; trump=S; leader=0; points=10,50; tricks=1,5"
    assert choice(text) == "SK+marriage"
    assert choice(text, HeuristicParams.classic()) == "SQ+marriage"


def test_the_classic_preset_is_reachable_by_name():
    classic = parse_bot("heuristic:classic")
    assert classic.params == HeuristicParams.classic() and classic.label == "heuristic:classic"
    assert parse_bot("heuristic").params == DEFAULT and parse_bot("heuristic").label == "heuristic"
    assert type(classic).from_dict(classic.as_dict()) == classic


@pytest.mark.slow
def test_heuristic_wins_70_percent_of_bummerls_against_the_classic_and_its_closes_win():
    """2,000 seat-swapped match pairs on a seed used for neither tuning nor the README figures: the
    Bummerl win rate's 95% interval lies above 70%, and that of its closes won above 90%."""
    rows = match_task({"a": parse_bot("heuristic").as_dict(), "b": parse_bot("heuristic:classic").as_dict()}, 0,
                      2000, np.random.SeedSequence(2026))
    tables = summarize_matches(match_sums(rows), "heuristic", "heuristic:classic")
    overall = tables["overall"].iloc[0]
    assert overall["a_win_lo"] > 0.70, overall
    new = tables["per_bot"].iloc[0]
    assert new["closes"] > 1000 and new["close_lo"] > 0.90, new


def test_the_heuristic_decides_only_from_what_its_player_sees():
    """Positions from heuristic play: dealing the cards the player to move cannot see differently (any
    opponent hand he cannot rule out, the rest face down in the stock in another order) never changes
    the heuristic's action."""
    params = DEFAULT.to_array()
    rnd = np.random.default_rng(12)
    rng = state_from_seed(13)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    positions = 0
    for deal in range(60):
        shuffle_deck(rng, deck)
        init_round(deck, deal % 2, s)
        st = SchnapsenState.from_array(s)
        while not st.is_over:
            p = st.to_move
            action = int(heuristic_action(st.to_array(), params, BUF))
            for world in redealt(st, p, rnd, 8):
                assert int(heuristic_action(world.to_array(), params, BUF)) == action, st.to_text()
            positions += 1
            st.apply(action)
    assert positions > 500


# Following while the stock is open, issue 41's rules (spades trump, face-up SQ).
def test_trumps_a_cheap_lead_to_announce_a_marriage():
    """DJ (2) led, no diamond, the clubs marriage in hand: the lower trump SJ takes the lead for the
    marriage; without the rule a 2-point lead is not worth a trump and HJ is thrown."""
    text = "hand0=DA DK CA CT; hand1=CK CQ SJ ST HJ; stock=DT HT HK SQ; trick=DJ; leader=0; points=20,20; tricks=1,2"
    assert choice(text) == "SJ"
    assert choice(text, replace(DEFAULT, trump_for_marriage=0)) == "HJ"


def test_trumps_for_the_trump_marriage_only_with_a_third_trump():
    """The trump marriage SK SQ: with SJ beside it SJ takes the lead; with the marriage as its only trumps
    it keeps them and throws a jack."""
    base = "hand0=DA DK CA CT; hand1={}; stock=DT HT HK {}; trick=DJ; leader=0; points=20,20; tricks=1,2"
    assert choice(base.format("SK SQ SJ HJ HA", "ST")) == "SJ"
    assert choice(base.format("SK SQ CJ HJ HA", "ST")) in ("CJ", "HJ")


def test_takes_the_trick_in_suit_rather_than_trump_for_a_marriage():
    """DJ led, DQ in hand: following with DQ wins the lead as well, so no trump is spent."""
    text = "hand0=DA DK CA CT; hand1=CK CQ SJ DQ HA; stock=DT HT HK SQ; trick=DJ; leader=0; points=20,20; tricks=1,2"
    assert choice(text) == "DQ"


def test_throws_a_king_of_a_suit_the_opponent_cannot_hold_before_a_jack():
    """DJ led, no diamond or trump: CJ CQ CT are played and CA is in hand, so the opponent can hold no
    club and CK is thrown (a club lead or discard later wins nothing from him); the cheapest card is HJ."""
    text = "hand0=DA DK DQ HT; hand1=HJ HK CK CA HA; stock=DT ST SK SQ; trick=DJ; leader=0; points=20,20; tricks=3,0"
    assert choice(text) == "CK"
    assert choice(text, replace(DEFAULT, discard_order=0)) == "HJ"


def test_throws_a_king_whose_queen_is_played_before_a_queen_whose_king_is_out():
    """HJ led, no heart or trump: CK's CQ is played, DQ's DK is still out (player 0 holds it). CK goes;
    the cheapest card would be DQ, keeping a king that can no longer marry."""
    text = "hand0=HA HK HQ DK; hand1=CK DQ DA CA DT; stock=CT HT SK SQ; trick=HJ; leader=0; points=20,20; tricks=3,0"
    assert choice(text) == "CK"
    assert choice(text, replace(DEFAULT, discard_order=0)) == "DQ"


def test_keep_marriage_leads_a_ten_rather_than_a_king_whose_queen_is_out():
    """Spades trump, no card of player 0 above all the opponent's of its suit (CA, DA, HA out): the
    discard order leads CK (its CQ still out); keep_marriage keeps it for the marriage and leads a ten."""
    text = "hand0=CK DT HT SA SQ; hand1=CA DJ HJ DK HK; stock=CQ DA HA ST; leader=0; points=20,9; tricks=2,1"
    assert choice(text) == "CK"
    assert choice(text, replace(DEFAULT, keep_marriage=1)) in ("DT", "HT")


def test_params_parse_names_and_values():
    assert HeuristicParams.parse("discard_order=0, close_margin=-8") == replace(DEFAULT, discard_order=0, close_margin=-8)
    assert HeuristicParams.parse("") == DEFAULT
    with pytest.raises(ValueError, match="unknown heuristic parameter"):
        HeuristicParams.parse("nonsense=1")


def test_takes_a_lead_with_a_ten_rather_than_break_a_marriage():
    """HJ led, HQ HK HT in hand: HT takes it and the hearts marriage stays; the cheapest card above HJ
    is HQ, which breaks it (with take_dear off; with it the dearest, HT, takes it anyway)."""
    text = "hand0=HA DK DQ CT; hand1=HQ HK HT CJ DJ; stock=DT ST SK SQ; trick=HJ; leader=0; points=20,20; tricks=1,2"
    assert choice(text) == "HT"
    assert choice(text, replace(DEFAULT, save_marriage=0, take_dear=0)) == "HQ"


# The stock exhausted, every card known (clubs trump): player 1 leads with CA DT, player 0 holds CJ CQ,
# 47 points each, nobody reaches 66. CA draws a club (60 or 61), but player 0 trumps DT with his other
# club and wins the last trick: -1. DT is trumped (59 or 60), the club he leads falls to CA and player 1
# wins the last trick: +1. The rules lead CA, the trump above all of his.
LAST_TRICK = "hand0=CJ CQ; hand1=CA DT; stock=-; trump=C; leader=1; points=47,47; tricks=5,3"


def test_exact_endgame_keeps_the_top_trump_for_the_last_trick():
    assert choice(LAST_TRICK) == "DT"
    assert choice(LAST_TRICK, replace(DEFAULT, exact_endgame=0)) == "CA"


def test_exact_endgame_values_by_hand():
    st = SchnapsenState.from_text(LAST_TRICK)
    acts = np.array([R.parse_card("CA"), R.parse_card("DT")], dtype=np.int64)
    vals = np.zeros(2, dtype=np.int64)
    exact_endgame_values(st.to_array(), acts, 2, vals)
    assert list(vals) == [-1, 1]


def exhausted_positions(seed: int, count: int):
    """Up to ``count`` positions from heuristic self-play (the rules alone) once the stock is exhausted,
    with a choice to make."""
    params = replace(DEFAULT, exact_endgame=0).to_array()
    rng = state_from_seed(seed)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    found = []
    deal = 0
    while len(found) < count and deal < 2000:
        shuffle_deck(rng, deck)
        init_round(deck, deal % 2, s)
        deal += 1
        st = SchnapsenState.from_array(s)
        while not st.is_over:
            if st.closer < 0 and not st.stock and len(st.legal_actions()) > 1:
                found.append(st.copy())
            st.apply(int(heuristic_action(st.to_array(), params, BUF)))
    return found[:count]


def test_exact_endgame_values_equal_the_perfect_solver():
    """The endgame search against the project's perfect-information solver (MTD(f) with a transposition
    table, an independent search) on positions from play, every legal action."""
    ws = new_workspace()
    positions = exhausted_positions(21, 150)
    assert len(positions) == 150
    for st in positions:
        s = st.to_array()
        acts = np.zeros(16, dtype=np.int64)
        n = legal_actions(s, acts)
        ours = np.zeros(n, dtype=np.int64)
        exact_endgame_values(s, acts, n, ours)
        theirs = np.zeros(n, dtype=np.int64)
        values_in_world(s, st.to_move, ws.stack, ws.moves, ws.tt, ws.gen, acts[:n].copy(), n, theirs)
        assert list(ours) == list(theirs), st.to_text()


def every_line_value(s, p) -> int:
    """Game points for ``p`` of the running deal ``s``, every card known, by plain minimax over every line
    of play (no pruning, every legal action): the oracle of the alpha-beta search."""
    acts = np.zeros(16, dtype=np.int64)
    n = legal_actions(s, acts)
    values = []
    for a in acts[:n]:
        child = s.copy()
        apply_action(child, a)
        values.append(signed_result(child, p) if child[R.WINNER] >= 0 else every_line_value(child, p))
    return max(values) if s[R.TO_MOVE] == p else min(values)


def test_endgame_search_agrees_with_every_line_in_every_window():
    """Fail-soft alpha-beta: the exact value inside the window, a bound on the right side outside it, for
    every window from the full one to one point wide; positions of up to four cards a hand (five-card ones
    are checked against the solver above)."""
    ws = _endgame_workspace()
    checked = 0
    for st in exhausted_positions(23, 120):
        s = st.to_array()
        p = st.to_move
        s[R.HAND0 + 1 - p] = opponent_possible(s, p)
        if bin(int(s[R.HAND0 + p])).count("1") > 4:
            continue
        truth = every_line_value(s, p)
        for alpha in range(-4, 4):
            for beta in range(alpha + 1, 5):
                got = _endgame_search(s, p, alpha, beta, ws)
                if truth <= alpha:
                    assert got <= alpha, (st.to_text(), alpha, beta, got, truth)
                elif truth >= beta:
                    assert got >= beta, (st.to_text(), alpha, beta, got, truth)
                else:
                    assert got == truth, (st.to_text(), alpha, beta, got, truth)
        checked += 1
    assert checked >= 60


def test_exact_endgame_values_by_every_line_with_marriages():
    """Leads with a marriage in hand, where the search leaves out the king or queen led without its
    announcement: every action's value equals plain minimax over every line."""
    checked = 0
    for st in exhausted_positions(24, 1500):
        s = st.to_array()
        acts = np.zeros(16, dtype=np.int64)
        n = legal_actions(s, acts)
        if not any(a >= R.MARRIAGE_OFFSET for a in acts[:n]) or bin(int(s[R.HAND0 + st.to_move])).count("1") > 4:
            continue
        ours = np.zeros(n, dtype=np.int64)
        exact_endgame_values(s, acts, n, ours)
        p = st.to_move
        full = s.copy()
        full[R.HAND0 + 1 - p] = opponent_possible(s, p)
        for a, v in zip(acts[:n], ours):
            child = full.copy()
            apply_action(child, a)
            assert v == (signed_result(child, p) if child[R.WINNER] >= 0 else every_line_value(child, p)), st.to_text()
        checked += 1
    assert checked >= 20, checked


def test_exact_endgame_plays_the_rules_action_when_it_is_among_the_best():
    """On positions from play: the rules' action whenever the solver rates it best, else a best action;
    among them positions where the rules' action is best but not the first best listed, and positions
    where the rules' action is not best."""
    ws = new_workspace()
    rules = replace(DEFAULT, exact_endgame=0).to_array()
    kept = changed = 0
    for st in exhausted_positions(22, 300):
        s = st.to_array()
        acts = np.zeros(16, dtype=np.int64)
        n = legal_actions(s, acts)
        vals = np.zeros(n, dtype=np.int64)
        values_in_world(s, st.to_move, ws.stack, ws.moves, ws.tt, ws.gen, acts[:n].copy(), n, vals)
        value = dict(zip(acts[:n].tolist(), vals.tolist()))
        rule = int(heuristic_action(s, rules, BUF))
        action = int(heuristic_action(s, DEFAULT.to_array(), BUF))
        assert value[action] == max(value.values()), st.to_text()
        best = [a for a, v in value.items() if v == max(value.values())]
        if rule in best:
            assert action == rule, st.to_text()
            kept += int(rule != best[0])
        else:
            changed += 1
    assert kept > 0 and changed > 0, (kept, changed)


# Following DJ with the stock open (six cards left, face-up SJ, spades trump): player 1 holds SA ST SK CA
# HQ, no diamond. SQ is played and SJ face up, so player 0 holds no trump: after SK takes the trick
# (2 + 4), SA, ST and CA are sure (32) and he throws at least his three cheapest possible cards, CJ HJ
# DQ (7): 45 more than the counted points. With 17 counted that is 62 = 66 + the margin: take the lead
# to close. With 16 the rules throw HQ (a two-point jack is not trumped).
TRUMP_TO_CLOSE = "hand0=CJ DQ HJ HK; hand1=SA ST SK CA HQ; stock=CK CT DT DA HA SJ; trick=DJ; leader=0; points=7,{}; tricks=1,1"


def test_trumps_a_cheap_lead_when_closing_is_then_sure():
    assert DEFAULT.close_margin == -4
    assert choice(TRUMP_TO_CLOSE.format(17)) == "SK"
    assert choice(TRUMP_TO_CLOSE.format(16)) == "HQ"
    assert choice(TRUMP_TO_CLOSE.format(17), replace(DEFAULT, trump_to_close=0)) == "HQ"
    # with two cards left in the stock the stock cannot be closed after the trick: the rule stays quiet
    assert choice(TRUMP_TO_CLOSE.replace("CK CT DT DA HA SJ", "HA SJ").format(17)) == "HQ"


def test_take_dear_takes_a_cheap_lead_with_the_ten_or_ace_rather_than_the_king():
    """Spades trump, HJ led, the stock open. Player 1 holds HK HT with HA in the stock: the cheapest card
    above HJ is HK (4); with take_dear the ten (10) takes it, 12 points banked, and the king stays for
    the marriage with HQ, still in the stock. With HK HA and HT out, the ace takes it."""
    text = "hand0=CQ DA SQ ST; hand1=CK DT HK {} SA; stock=SK DJ CJ CT HQ {} CA SJ; trump=S; leader=0; trick=HJ; points=7,0; tricks=1,0"
    dear = replace(DEFAULT, take_dear=1)
    assert DEFAULT.take_dear == 1
    assert choice(text.format("HT", "HA"), replace(DEFAULT, take_dear=0)) == "HK"
    assert choice(text.format("HT", "HA"), dear) == "HT"
    assert choice(text.format("HA", "HT"), replace(DEFAULT, take_dear=0)) == "HK"
    assert choice(text.format("HA", "HT"), dear) == "HA"


def test_take_dear_2_takes_with_the_ten_when_the_ace_is_there_too():
    """HJ led, spades trump, the stock open; player 1 holds HT HA: ``take_dear=1`` takes with HA, 2 with
    HT (the ace kept, above every heart left). With HK HA and HT in the stock, 2 takes with HA as 1 does."""
    both = ("hand0=CQ DA SQ ST; hand1=CK DT HT HA SA; stock=SK DJ CJ CT HQ HK CA SJ; trump=S; leader=0; "
            "trick=HJ; points=7,0; tricks=1,0")
    assert choice(both, replace(DEFAULT, take_dear=1)) == "HA"
    assert choice(both, replace(DEFAULT, take_dear=2)) == "HT"
    ace = ("hand0=CQ DA SQ ST; hand1=CK DT HK HA SA; stock=SK DJ CJ CT HQ HT CA SJ; trump=S; leader=0; "
           "trick=HJ; points=7,0; tricks=1,0")
    assert choice(ace, replace(DEFAULT, take_dear=2)) == "HA"
