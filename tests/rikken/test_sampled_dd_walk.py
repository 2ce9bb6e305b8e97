"""The budgeted judge of ``scripts/rikken_sdd_walk.py`` (``first_given_up``) against plain minimax.

Oracle: ``reference_minimax.can_force`` on random four-card Misery endings played at random: the first
defender card after which the declarer can force his misère while before it he could not, and the defender's
cards there after which he could not.
"""

import sys
from pathlib import Path

import numpy as np

from analyzer.cards.masks import cards_of
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.games.rikken.rules import Contract

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from rikken_sdd_walk import first_given_up  # noqa: E402

from tests.solvers.reference_minimax import Rules, can_force  # noqa: E402


def _random_round(rng, size=4):
    """A Misery ending (N declares, E leads) and a random legal play of it: the setup row and the plays."""
    cards = rng.permutation(52)[:4 * size]
    hands = np.array([sum(1 << int(c) for c in cards[size * s:size * (s + 1)]) for s in range(4)], dtype=np.int64)
    row = {"hands": hands, "leader": 1, "contract_of": np.array([int(Contract.MISERY), -1, -1, -1]), "partner": -1,
           "trump": NO_TRUMP, "called_card": -1, "blind": 0}
    st = new_round(hands, 1, row["contract_of"], -1, NO_TRUMP, -1, 0)
    plays = []
    for _ in range(4 * size):
        seat = int(st[L.TURN])
        up, _ = legal_actions(st, seat)
        card = int(rng.choice(cards_of(int(up))))
        plays.append((seat, card))
        apply_action(st, seat, card)
    return row, plays


def _oracle(row, plays):
    """The first defender move after which N can force no trick while before it he could not; None if none."""
    rules = Rules(NO_TRUMP, [0])
    st = new_round(row["hands"], 1, row["contract_of"], -1, NO_TRUMP, -1, 0)
    trick = []

    def forced(mover):
        hands = [tuple(cards_of(int(st[L.HAND + s]))) for s in range(4)]
        return can_force(rules, hands, mover, 0, 0, tuple(trick))

    for i, (seat, card) in enumerate(plays):
        if int(st[L.TRICKS]) > 0:
            return None  # N has taken a trick: nothing left to give up
        before = seat != 0 and forced(seat)
        trick.append((seat, card, False))
        if apply_action(st, seat, card) >= 0:
            trick = []
        if seat != 0 and not before and int(st[L.TRICKS]) == 0 and forced(int(st[L.TURN])):
            return i
    return None


def _keeping(row, plays, move):
    """The cards of the defender at ``move`` after which N can no longer force his misère (brute force)."""
    rules = Rules(NO_TRUMP, [0])
    st = new_round(row["hands"], 1, row["contract_of"], -1, NO_TRUMP, -1, 0)
    trick = []
    for seat, card in plays[:move]:
        trick.append((seat, card, False))
        if apply_action(st, seat, card) >= 0:
            trick = []
    seat = plays[move][0]
    keeping = 0
    for card in cards_of(int(legal_actions(st, seat)[0])):
        after = st.copy()
        done = apply_action(after, seat, card) >= 0
        hands = [tuple(cards_of(int(after[L.HAND + s]))) for s in range(4)]
        left = () if done else (*trick, (seat, card, False))
        if int(after[L.TRICKS]) > 0 or not can_force(rules, hands, int(after[L.TURN]), 0, 0, left):
            keeping |= 1 << card
    return keeping


def test_the_walks_judge_names_the_first_defender_card_that_gave_the_misere_up():
    rng = np.random.default_rng(20261206)
    found = 0
    for _ in range(20):
        row, plays = _random_round(rng)
        want = _oracle(row, plays)
        got, undecided, keeping = first_given_up(row, plays, lambda seat: seat != 0, 0)
        assert (got, undecided) == (want, None)
        assert keeping == (None if want is None else (_keeping(row, plays, want), 0))
        found += want is not None
    assert 0 < found < 20  # both kinds of round were checked
