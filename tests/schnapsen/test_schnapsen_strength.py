"""Strength ladder on paired deals (each deal played with the seats swapped): random < heuristic:classic <
heuristic, heuristic:classic < pimc.

The bar is a 95% interval for A's mean game points per deal that lies entirely above 0. Also one
hand-built ending the heuristic must win.
"""

import numpy as np
import pytest

from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.experiments import paired_deals, parse_bot
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.reports.stats import mean_interval


def margin(a, b, n, seed):
    rows = paired_deals(parse_bot(a), parse_bot(b), n, seed)
    # Seat-swapped replays of one deal: a deal won from both seats is worth its mean to A.
    assert np.all(np.abs(rows[["a_seat0", "a_seat1"]].to_numpy()) >= 1)
    return mean_interval(rows["a_gp"])


def test_heuristic_beats_random():
    mean, lo, hi = margin("heuristic", "random", 400, seed=1)
    assert lo > 0, (mean, lo, hi)


def test_heuristic_beats_the_classic_heuristic():
    mean, lo, hi = margin("heuristic", "heuristic:classic", 400, seed=5)
    assert lo > 0, (mean, lo, hi)


def test_pimc_beats_the_classic_heuristic_small():
    # Few samples and deals keep this fast, so only the sign is checked here; the slow test below
    # asks for an interval clear of zero. (pimc:4 against today's heuristic is about even: -0.07
    # [-0.19, +0.05] game points per deal over 400 paired deals of seed 31; against the classic +0.31.)
    mean, lo, hi = margin("pimc:4", "heuristic:classic", 24, seed=2)
    assert mean > 0, (mean, lo, hi)


@pytest.mark.parametrize("stock", ["stock=; trump=H", "stock=DQ HJ; closed=0,55,1"])
def test_heuristic_takes_a_one_trick_win_under_strict_play(stock):
    """Strict play (stock exhausted, or closed), both at 55: leading SA or ST forces SK and reaches
    55 + 15 or 55 + 14 >= 66; leading CJ forces CA and gives the opponent 55 + 13 = 68. The heuristic
    must lead a spade and win the deal."""
    st = SchnapsenState.from_text(f"hand0=SA ST CJ; hand1=SK CA DJ; {stock}; leader=0; points=55,55; tricks=3,3")
    buf = np.zeros(16, dtype=np.int64)
    st.apply(int(heuristic_action(st.to_array(), HeuristicParams().to_array(), buf)))
    (reply,) = st.legal_actions()  # the opponent's answer is forced either way
    st.apply(reply)
    assert (st.winner, st.game_points) == (0, 1)


@pytest.mark.slow
def test_pimc_beats_heuristic():
    mean, lo, hi = margin("pimc", "heuristic", 300, seed=3)
    assert lo > 0, (mean, lo, hi)


@pytest.mark.slow
def test_perfect_oracle_beats_pimc():
    # perfect sees every card, so it must do better than sampling on the same deals
    mean, lo, hi = margin("perfect", "pimc", 150, seed=4)
    assert lo > 0, (mean, lo, hi)
