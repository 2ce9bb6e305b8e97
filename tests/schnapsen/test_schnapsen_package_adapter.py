"""The adapter that lets our bots play in the ``schnapsen`` PyPI package's engine (scripts/)."""

import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("schnapsen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from schnapsen.bots import RandBot
from schnapsen.game import SchnapsenGamePlayEngine
from schnapsen_package_adapter import (
    AnalyzerBot,
    card_id,
    package_actions,
    perspective_to_state,
)

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import package_decider, parse_bot
from analyzer.games.schnapsen.search import new_workspace


class CheckingBot(RandBot):
    """Plays at random and checks every state the adapter builds against the package's true game state
    (read here through the perspective's private field, which no playing bot may do)."""

    def __init__(self, rng):
        super().__init__(rng)
        self.checked = 0
        self.marriages_seen = 0

    def get_move(self, perspective, leader_move):
        s = perspective_to_state(perspective, leader_move)
        true = perspective._PlayerPerspective__game_state
        me, opp = (true.leader, true.follower) if perspective.am_i_leader() else (true.follower, true.leader)
        mine = R.mask_of(card_id(c) for c in me.hand.get_cards())
        theirs = R.mask_of(card_id(c) for c in opp.hand.get_cards())
        lead = -1
        if leader_move is not None:
            lead_card = leader_move.as_marriage().king_card if leader_move.is_marriage() else leader_move.card
            lead = card_id(lead_card)
            theirs &= ~(1 << lead)
            self.marriages_seen += leader_move.is_marriage()
        drawn = int(s[R.DRAWN])
        stock = [int(c) for c in s[R.STOCK + drawn:R.STOCK + 10]]
        assert int(s[R.HAND0]) == mine
        assert int(s[R.HAND0 + 1]).bit_count() == theirs.bit_count()
        assert int(s[R.LEAD_CARD]) == lead
        assert len(stock) == len(true.talon)
        # every card is in exactly one place: a hand, the stock or played
        places = [int(s[R.HAND0]), int(s[R.HAND0 + 1]), R.mask_of(stock), int(s[R.PLAYED])]
        assert sum(m.bit_count() for m in places) == 20
        assert places[0] | places[1] | places[2] | places[3] == R.FULL_MASK
        # what the adapter says the opponent showed is really in his hand; once the talon is empty all is
        assert int(s[R.SHOWN0 + 1]) & ~theirs == 0
        if len(true.talon) == 0:
            assert int(s[R.HAND0 + 1]) == theirs and int(s[R.SHOWN0 + 1]) == theirs
        else:
            assert stock[-1] == card_id(true.talon.trump_card())
        tricks = len(me.won_cards) // 2
        assert int(s[R.TRICKS0]) == tricks
        want = (me.score.direct_points, me.score.pending_points) if tricks == 0 else (
            min(me.score.direct_points + me.score.pending_points, 65), 0)
        assert (int(s[R.POINTS0]), int(s[R.PENDING0])) == want
        # our legal actions, less closing and queen-led marriages, are the package's valid moves
        assert len(package_actions(s)) == len(perspective.valid_moves())
        self.checked += 1
        return super().get_move(perspective, leader_move)


def test_adapter_states_match_the_package_game():
    engine = SchnapsenGamePlayEngine()
    rng = random.Random(5)
    bots = [CheckingBot(rng), CheckingBot(rng)]
    for _ in range(40):
        engine.play_game(bots[0], bots[1], rng)
    assert bots[0].checked + bots[1].checked > 400
    assert bots[0].marriages_seen + bots[1].marriages_seen > 0


@pytest.mark.parametrize("name", ["pimc:4", "pimc_plus:4", "rollout:1", "hybrid:2"])
def test_our_bot_plays_whole_package_games(name):
    """A few games against the package's random bot: the adapter checks at every move that the moves it
    offers are the package's valid moves; a search bot should win most of them."""
    engine = SchnapsenGamePlayEngine()
    rng = random.Random(7)
    ours = AnalyzerBot(package_decider(parse_bot(name), state_from_seed(3), new_workspace(tt_bits=12, package_rules=True)))
    wins = 0
    for i in range(8):
        first, second = (ours, RandBot(rng)) if i % 2 == 0 else (RandBot(rng), ours)
        winner, _, _ = engine.play_game(first, second, rng)
        wins += winner is ours
    assert len(ours.times) > 0 and np.all(np.array(ours.times) >= 0)
    assert wins >= 5


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pimc_plus", "hybrid"])
def test_wins_most_games_against_the_package_bot(name):
    """The issue's bar: at least 60% of 500 games against RdeepBot(64, 8) then AlphaBetaBot, each deal
    played twice with the seats swapped, at a mean of at most 60 CPU ms per decision (about an hour)."""
    from schnapsen_package_duel import duel

    r = duel(parse_bot(name), 250, seed=41)
    assert r["wins"] / r["games"] >= 0.6, r["wins"]
    assert r["times"].mean() <= 0.060, r["times"].mean()
