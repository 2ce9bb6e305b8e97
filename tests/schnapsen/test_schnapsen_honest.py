"""Honest evaluation: the worlds a player cannot tell apart, enumerated exactly; known hands once the stock
is exhausted; both choices played forward by one bot; hand-built positions worked out by hand."""

import json
import random
from itertools import combinations, permutations

import numpy as np
import pytest
from schnapsen_helpers import card, view
from typer.testing import CliRunner

from analyzer.cards.rng import state_from_seed
from analyzer.cli.schnapsen import app
from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import heuristic_action
from analyzer.games.schnapsen.advice import advise
from analyzer.games.schnapsen.experiments import (
    closing_row,
    closing_task,
    honest_outcomes,
    parse_bot,
)
from analyzer.games.schnapsen.search import (
    list_actions,
    new_workspace,
    pimc_values,
    sample_world,
    world_at,
    world_count,
)
from analyzer.games.schnapsen.state import SchnapsenState

runner = CliRunner()


def python_worlds(st: SchnapsenState, player: int) -> list[tuple[int, tuple]]:
    """Every deal ``player`` cannot tell apart, written out with itertools (the oracle of world_count and
    world_at): the opponent's hand and the stock in draw order.

    Hidden: the cards that are not in the player's hand, not played, not shown by the opponent and not
    the face-up trump. The opponent holds his shown cards plus any of the hidden cards he has not shown
    he lacks; the face-down stock holds the rest, in every order while the stock is open, in card order
    once it is closed (nobody draws again, so the order is no part of the world).
    """
    opp = 1 - player
    shown = st.shown[opp] & st.hands[opp]
    visible = st.hands[player] | st.played | shown | (1 << st.stock[-1] if st.stock else 0)
    hidden = [c for c in range(R.N_CARDS) if not (visible >> c) & 1]
    allowed = [c for c in hidden if not (st.not_held[opp] >> c) & 1]
    n = st.hands[opp].bit_count() - shown.bit_count()
    out = []
    for hand in combinations(allowed, n):
        rest = [c for c in hidden if c not in hand]
        orders = permutations(rest) if st.closer < 0 and st.stock else [tuple(rest)]
        for order in orders:
            out.append((shown | R.mask_of(hand), tuple(order) + tuple(st.stock[-1:])))
    return out


def kernel_worlds(st: SchnapsenState, player: int) -> list[tuple[int, tuple]]:
    s = st.to_array()
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    out = []
    for i in range(world_count(s, player)):
        world_at(s, player, i, pool, world)
        w = SchnapsenState.from_array(world)
        # everything the player sees stays as it was
        assert w.hands[player] == st.hands[player] and w.played == st.played and w.points == st.points
        out.append((w.hands[1 - player], tuple(w.stock)))
    return out


def random_positions(seed: int, count: int, max_worlds: int = 3000):
    """Running positions from random play (random deals, random legal actions), kept when small enough to
    write out every world: open stocks of 2 or 4 cards, closed stocks, exhausted stocks."""
    rnd = random.Random(seed)
    found = []
    while len(found) < count:
        order = list(range(R.N_CARDS))
        rnd.shuffle(order)
        st = SchnapsenState.deal(order, dealer=rnd.randrange(2))
        while not st.is_over:
            s = st.to_array()
            if world_count(s, st.to_move) <= max_worlds and rnd.random() < 0.3:
                found.append(st.copy())
            st.apply(rnd.choice(st.legal_actions()))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_world_enumeration_matches_the_itertools_oracle(seed):
    kinds = set()
    for st in random_positions(seed, 40):
        want = python_worlds(st, st.to_move)
        got = kernel_worlds(st, st.to_move)
        assert len(got) == len(set(got)), "each world once"
        assert sorted(got) == sorted(want), st.to_text()
        assert st.hands[1 - st.to_move] in {hand for hand, _ in got}  # the true hand is one of them
        kinds.add("closed" if st.closer >= 0 else "exhausted" if not st.stock else f"open {len(st.stock)}")
    assert {"closed", "exhausted", "open 2"} <= kinds


def test_sampled_worlds_are_among_the_enumerated_ones():
    rng = state_from_seed(4)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    for st in random_positions(3, 15, max_worlds=40):
        s = st.to_array()
        p = st.to_move
        allowed = set(kernel_worlds(st, p))
        seen = set()
        for _ in range(600):
            sample_world(s, p, rng, pool, world)
            w = SchnapsenState.from_array(world)
            hand, stock = w.hands[1 - p], tuple(w.stock)
            if st.closer >= 0:  # the closed stock's order is no part of the world
                stock = tuple(sorted(stock[:-1])) + stock[-1:]
            assert (hand, stock) in allowed
            seen.add((hand, stock))
        assert seen == allowed  # at most 40 worlds, 600 draws: every one is drawn


def test_exhausted_stock_makes_both_hands_known(engine):
    # Player 0 wins HJ/HQ (hearts trump) and draws SA; player 1 takes the face-up HA: the stock is empty.
    e = engine("hand0=HJ CJ CQ DJ DQ; hand1=HQ CK DK SJ SQ; stock=SA HA; trump=H; leader=0; points=40,30; "
               "tricks=2,2; history=CA CT DA DT ST SK HK HT")
    e.apply(card("HJ"))
    e.apply(card("CK"))
    st = view(e)
    assert not st.stock and st.shown == st.hands
    s = st.to_array()
    assert world_count(s, st.to_move) == 1
    ws = new_workspace(tt_bits=10)
    _, worlds = pimc_values(s, 12, state_from_seed(0), ws, list_actions(s, ws))
    assert worlds == 1  # one world solved, not 12 copies of it


# Exhausted stock, hearts trump, player 0 to lead with 58 points, player 1 on 55; both have tricks.
# Player 0: HA SJ; player 1: HK ST; the 16 other cards are played (16 cards, 93 points, plus one 20 marriage).
# - HA: player 1 must follow with the lower trump HK; player 0 takes 11 + 4 -> 73 >= 66 and wins; player 1
#   has 55 >= 33 and the stock was not closed: +1.
# - SJ: player 1 must beat it with ST; he takes 2 + 10 -> 67 >= 66 and wins: -1 for player 0.
# Every card is accounted for, so there is one world and it is exact, whatever the bot.
PLAYED = "CJ CQ CK CT CA DJ DQ DK DT DA SQ SK SA HJ HQ HT"
EXHAUSTED = f"hand0=HA SJ; hand1=?; trump=H; leader=0; points=58,55; tricks=4,4; history={PLAYED}"


@pytest.mark.parametrize("bot", ["pimc", "heuristic", "random"])
def test_advise_on_an_exhausted_stock_solves_one_exact_world(bot):
    result = runner.invoke(app, ["advise", EXHAUSTED, "--bot", bot, "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["worlds"] == 1 and out["exact"] and "1 world, exact" in out["method"]
    values = {row["action"]: (row["expected_gp"], row["win_probability"]) for row in out["actions"]}
    assert values == {"HA": (1.0, 1.0), "SJ": (-1.0, 0.0)}
    text = runner.invoke(app, ["advise", EXHAUSTED, "--bot", bot]).stdout
    assert text.startswith("Advice: HA,") and "1 world, exact" in text


def test_a_hand_left_as_question_mark_is_known_once_the_stock_is_exhausted():
    st = SchnapsenState.from_text(EXHAUSTED)
    assert not st.hidden_filled and st.hands[1] == R.mask_of([card("HK"), card("ST")])
    table, exact = advise(st, parse_bot("perfect"), 0)  # every card is known: perfect may solve it
    assert exact and dict(zip(table["action"], table["expected_gp"])) == {"HA": 1, "SJ": -1}


# Stock of two (one face-down card and the face-up SJ; spades trump), player 0 to move with 62 points,
# player 1 on 45; both have won tricks. Points as a history gives them: player 0 announced clubs (CQ led,
# CK kept) and hearts (HK led, HQ kept), 40, and won 22 in two tricks (DA HK DK CQ); player 1 announced
# diamonds, 20, and won 25 in two tricks (HT DT DQ DJ).
# Player 0 holds CK CT CA HJ HQ. Six cards are hidden from him: CJ SA ST SK SQ HA, five in player 1's hand
# and one face down in the stock: six worlds, one per stock card, each as likely, so the evaluation is exact.
#
# Close now (strict play from here): both bots lead a club (pimc: it wins in 5 of its 6 worlds, a heart
# lead in none; heuristic: its dearest master, CA).
# - In the 5 worlds where player 1 holds CJ he must follow with it (his only club, lower): player 0 takes
#   the trick, 62 + 11 + 2 = 75 >= 66. The closer wins and scores by player 1's state at closing: he had
#   a trick and 45 >= 33 points: +1.
# - In the world where CJ is the stock card player 1 has no club and must trump: he takes the trick and
#   every later one (four trumps and HA against CT CK HJ HQ without a trump), so the closer never reaches
#   66: player 1 scores 2 (he had a trick at closing): -2.
# Closing is worth 5/6 x 1 - 1/6 x 2 = +0.5 game points; closing success 5/6.
#
# Play on, the classic heuristic (``heuristic:classic``): player 0 leads his cheapest plain card, HJ (free
# play). Player 1's classic heuristic trumps only cards worth 10 or more and takes a led card with a higher one of its suit only when that is
# cheap or the lead is worth 10, so it throws its cheapest plain card: CJ where it holds it (5 worlds),
# and player 0 wins HJ + CJ: 62 + 4 = 66, +1 (player 1 has 45 >= 33). Where CJ is the stock card its only
# plain card is HA, which takes the trick (58); player 1 draws CJ, player 0 the SJ, and player 1 leads
# SQ announcing the trump marriage: 98, and wins: -1 (player 0 has 62 >= 33).
# Play on is worth (5 - 1)/6 = 2/3 under the classic heuristic; the paired gain of closing is 1/2 - 2/3 = -1/6.
STOCK_TWO = ("hand0=CA CT CK HJ HQ; hand1=?; stock=? SJ; leader=0; points=62,45; tricks=2,2; "
             "history=CQ HT HK DJ DQ DK DT DA")


def test_closing_with_one_losing_world_in_six_is_worth_half_a_game_point():
    s = SchnapsenState.from_text(STOCK_TWO).to_array()
    assert world_count(s, 0) == 6
    heuristic = closing_row(s, parse_bot("heuristic:classic"), 12, state_from_seed(1), new_workspace(tt_bits=12))
    assert heuristic["exact"] and heuristic["worlds"] == 6
    assert heuristic["close_win"] == pytest.approx(5 / 6) and heuristic["close_gp"] == pytest.approx(0.5)
    assert heuristic["playon_action"] == "HJ" and heuristic["playon_gp"] == pytest.approx(2 / 3)
    assert heuristic["playon_win"] == pytest.approx(5 / 6)
    assert heuristic["gain"] == pytest.approx(-1 / 6)
    assert heuristic["gain_lo"] == heuristic["gain_hi"] == heuristic["gain"]  # exact: no sampling error
    pimc = closing_row(s, parse_bot("pimc:6"), 12, state_from_seed(2), new_workspace(tt_bits=12))
    assert pimc["exact"] and pimc["worlds"] == 6
    assert pimc["close_win"] == pytest.approx(5 / 6) and pimc["close_gp"] == pytest.approx(0.5)
    # whatever the hidden cards were named as, the evaluation only sees what player 0 sees
    named = SchnapsenState.from_text(STOCK_TWO.replace("hand1=?", "hand1=SA ST SK SQ HA").replace("? SJ", "CJ SJ"))
    again = closing_row(named.to_array(), parse_bot("heuristic:classic"), 12, state_from_seed(1), new_workspace(tt_bits=12))
    assert {k: v for k, v in again.items() if k != "position"} == {k: v for k, v in heuristic.items()
                                                                   if k != "position"}


def python_rollouts(st: SchnapsenState, sequences, params) -> list[tuple]:
    """Plain-Python twin of rollout_values for the heuristic bot on the enumerated worlds: each world from
    python_worlds, each sequence applied by the Python engine, then both players' heuristic to the end."""
    p = st.to_move
    buf = np.zeros(16, dtype=np.int64)
    rows = []
    for hand, stock in python_worlds(st, p):
        world = st.copy()
        world.hands[1 - p] = hand
        world.stock = list(stock)
        row = []
        for seq in sequences:
            game = world.copy()
            for a in seq:
                game.apply(a)
            while not game.is_over:
                game.apply(int(heuristic_action(game.to_array(), params, buf)))
            row.append(game.game_points if game.winner == p else -game.game_points)
        rows.append(tuple(row))
    return sorted(rows)


def test_rollouts_match_the_python_twin_on_every_world():
    bot = parse_bot("heuristic")
    ws = new_workspace(tt_bits=10)
    checked = 0
    for st in random_positions(7, 25, max_worlds=400):
        sequences = [[a] for a in st.legal_actions()]
        outcomes, exact = honest_outcomes(st.to_array(), sequences, bot, 400, state_from_seed(0), ws)
        assert exact
        assert sorted(map(tuple, outcomes.tolist())) == python_rollouts(st, sequences, bot.params.to_array())
        checked += len(outcomes)
    assert checked > 100


def test_closing_refuses_a_bot_that_sees_hidden_cards():
    with pytest.raises(InputError):
        closing_task({"bot": parse_bot("perfect").as_dict()}, 0, 1, np.random.SeedSequence(8))
    result = runner.invoke(app, ["closing", "--bot", "perfect", "--deals", "1", "--workers", "1"])
    assert result.exit_code != 0


def test_closing_rows_are_paired_and_exact_with_few_worlds():
    rows = closing_task({"bot": parse_bot("heuristic").as_dict(), "samples": 8}, 0, 6, np.random.SeedSequence(5))
    assert len(rows) > 0
    # the gain is the mean of per-world differences on the same worlds: the difference of the means
    assert np.allclose(rows["gain"], rows["close_gp"] - rows["playon_gp"])
    assert (rows["gain_lo"] <= rows["gain"]).all() and (rows["gain"] <= rows["gain_hi"]).all()
    two = rows[rows["stock_size"] == 2]
    assert len(two) > 0 and two["exact"].all() and (two["worlds"] <= 6).all()  # at most C(6, 5) worlds
    big = rows[rows["stock_size"] >= 6]
    assert (~big["exact"]).all() and (big["worlds"] == 8).all()
    assert not rows["playon_action"].str.contains("close").any()
    # the deal went on with the bot's own choice, recorded per position
    params = parse_bot("heuristic").params.to_array()
    buf = np.zeros(16, dtype=np.int64)
    for row in rows.itertuples():
        position = SchnapsenState.from_text(row.position).to_array()
        assert row.bot_action == R.action_name(int(heuristic_action(position, params, buf)))


def test_advise_on_a_closed_stock_takes_every_hand_once():
    # Closed before the first lead (hearts trump, HA face up); SA led, CJ followed: player 1 showed he
    # holds no spade and no heart, so his 4 cards are 4 of the 7 clubs and diamonds player 0 cannot see
    # (CQ CT CA DT DA DQ DK): C(7, 4) = 35 worlds, each once; the closed stock's order does not count.
    position = ("hand0=DJ CK HJ SQ; hand1=?; stock=? ? ? ? ? ? ? ? ? HA; leader=0; points=13,0; tricks=1,0; "
                "closed=0,0,0; nothold=|SJ SQ SK ST SA HJ HQ HK HT HA; history=SA CJ")
    st = SchnapsenState.from_text(position)
    assert world_count(st.to_array(), 0) == 35 == len(python_worlds(st, 0))
    result = runner.invoke(app, ["advise", position, "--bot", "heuristic", "--samples", "5", "--json"])
    out = json.loads(result.stdout)
    assert out["worlds"] == 35 and out["exact"]
    assert {row["action"] for row in out["actions"]} == {"DJ", "CK", "HJ", "SQ"}
