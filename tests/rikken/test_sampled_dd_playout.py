"""The Open Misery play-out tie-break (``misery_playout``, ``sampled_dd.playout_tie_break``): the defenders' rule
on hand-made positions, play-outs of hand-worked endings, and the tie-break's choice."""

import numpy as np
import pytest

from analyzer.cards.deck import parse_card_list
from analyzer.cards.rng import state_from_seed
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.games.rikken.misery_playout import (
    defender_card,
    exposed_misery_declarer,
    plays_out_beaten,
    playout_values,
)
from analyzer.games.rikken.rules import Contract
from analyzer.games.rikken.sampled_dd import playout_tie_break

N, E, S, W = range(4)


def _card(text):
    return parse_card_list(text)[0]


def _mask(text):
    return sum(1 << c for c in parse_card_list(text))


def _position(rest, winner, trick=(), contract=Contract.OPEN_MISERY):
    """N declares ``contract`` and leads D2 to trick 1, which ``winner`` takes with DA (the others play D3 D4 D5);
    then ``winner`` leads trick 2 and ``trick`` is played. ``rest``: each seat's cards after trick 1."""
    first = {N: "D2"}
    spare = iter(["D3", "D4", "D5"])
    for s in (E, S, W):
        first[s] = "DA" if s == winner else next(spare)
    hands = [_mask(rest[s]) | _mask(first[s]) for s in range(4)]
    st = new_round(hands, N, [int(contract), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    for s in range(4):
        apply_action(st, s, _card(first[s]))
    assert st[L.TRICK_NO] == 1 and st[L.TURN] == winner
    for text in trick:
        apply_action(st, int(st[L.TURN]), _card(text))
    return st


def _rule(st):
    seat = int(st[L.TURN])
    up, _ = legal_actions(st, seat)
    return defender_card(st, seat, int(up), N)


@pytest.mark.parametrize("rest, winner, trick, expected", [
    # W leads (cards nobody holds here count as unseen, as in a full deal): above N's lowest heart (HK) one unseen
    # heart, above his lowest club (C5) eight: H2.
    ({N: "C5 C9 HK", E: "C6 C7 D9", S: "H3 H4 D8", W: "C3 C4 H2"}, W, (), "H2"),
    # Above N's lowest club (CQ) one unseen club, above his lowest heart (H3) ten: clubs, the highest club under
    # CQ (C4, keeping C3).
    ({N: "CQ CK H3", E: "C2 CA D9", S: "H9 HT D8", W: "C3 C4 H2"}, W, (), "C4"),
    # S leads C2, W plays before N (C5 C9): the highest club that stays under C5.
    ({N: "C5 C9 H8", E: "H2 H3 H4", S: "C2 D8 D9", W: "C3 C4 CK"}, S, ("C2",), "C4"),
    # S leads C6, over N's lowest club: he ducks whatever W plays, so W sheds his highest.
    ({N: "C5 C9 H8", E: "H2 H3 H4", S: "C6 D8 D9", W: "C3 C4 CK"}, S, ("C6",), "CK"),
    # W leads C2, N wins it with C9: E ducks under him with his highest club below C9.
    ({N: "C9 H8 H9", E: "C3 C7 CQ", S: "H2 H3 H4", W: "C2 D8 D9"}, W, ("C2", "C9"), "C7"),
    # W leads CK, N is under it: E sheds his highest club.
    ({N: "C5 H8 H9", E: "C3 C7 CQ", S: "H2 H3 H4", W: "CK D8 D9"}, W, ("CK", "C5"), "CQ"),
    # E void in clubs: D9 (N has no diamond) and HK (nothing of N's above it) can never catch him; the higher, HK.
    ({N: "C9 H8 H3", E: "H2 HK D9", S: "H4 H5 H6", W: "C2 D8 DT"}, W, ("C2", "C9"), "HK"),
    # E void: D5 (N has no diamond) is thrown before HQ, ranked higher but under N's HK.
    ({N: "C9 HK H3", E: "H2 HQ D5", S: "H4 H5 H6", W: "C2 D8 DT"}, W, ("C2", "C9"), "D5"),
    # E void, every card useful (N holds a card above each): the highest-ranked, H9.
    ({N: "C9 HT S6", E: "H2 H9 S5", S: "H4 H5 H6", W: "C2 S7 S8"}, W, ("C2", "C9"), "H9"),
])
def test_the_defenders_rule_on_hand_made_positions(rest, winner, trick, expected):
    assert _rule(_position(rest, winner, trick)) == _card(expected)


def test_the_rule_has_no_lead_without_a_card_under_the_declarer_and_no_card_before_he_is_shown():
    st = _position({N: "C2 H2 S2", E: "C6 C7 D9", S: "H3 H4 D8", W: "C3 C4 H5"}, W)
    assert _rule(st) == -1  # every one of W's cards is above N's lowest of its suit
    hands = [_mask("D2 C5"), _mask("D3 C6"), _mask("D4 C7"), _mask("D5 C8")]
    st = new_round(hands, N, [int(Contract.OPEN_MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    apply_action(st, N, _card("D2"))
    up, _ = legal_actions(st, E)
    assert defender_card(st, E, int(up), N) == -1  # trick 1: N's hand not shown yet


def test_the_play_out_applies_to_defenders_of_a_shown_clean_misery_only():
    rest = {N: "C5 H8 H9", E: "C3 C7 CQ", S: "H2 H3 H4", W: "CK D8 D9"}
    st = _position(rest, W)
    assert exposed_misery_declarer(st, W) == N and exposed_misery_declarer(st, E) == N
    assert exposed_misery_declarer(st, N) == -1  # the declarer himself
    assert exposed_misery_declarer(_position(rest, W, contract=Contract.MISERY), W) == -1  # hand not shown
    assert exposed_misery_declarer(_position(rest, W, contract=Contract.OPEN_MISERY_ALL), W) == -1  # all shown
    hands = [_mask("D2 C5"), _mask("D3 C6"), _mask("D4 C7"), _mask("D5 C8")]
    st = new_round(hands, N, [int(Contract.OPEN_MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    apply_action(st, N, _card("D2"))
    assert exposed_misery_declarer(st, E) == -1  # trick 1: not shown yet
    st = _position(rest, W)
    st[L.TRICKS + N] = 1
    assert exposed_misery_declarer(st, W) == -1  # already beaten


# Hand-worked ending: W to lead with C3 or CK; N holds C5 H9.
# C3: N must play C5 (his only club), E (C4 HA) ducks under it with C4, S (D6 D7) discards: N wins, beaten.
# CK: N plays C5 under it; W leads C3 next, N discards H9 and E wins with C4: N takes no trick.
ENDING = {N: "C5 H9", E: "C4 HA", S: "D6 D7", W: "C3 CK"}


def test_a_play_out_of_a_hand_worked_ending():
    st = _position(ENDING, W)
    rng = state_from_seed(5)
    before = rng.copy()
    params = default_params()
    assert plays_out_beaten(st, W, _card("C3"), N, params, rng)
    assert not plays_out_beaten(st, W, _card("CK"), N, params, rng)
    assert np.array_equal(rng, before)
    values = playout_values([(0.25, st), (0.5, st)], W, [_card("C3"), _card("CK")], N, params, rng)
    assert values.tolist() == [0.75, 0.0]


def test_the_tie_break_takes_the_play_outs_card_among_tied_classes_only():
    st = _position(ENDING, W)
    drawn = [(1.0, None, None, None, None, st), (1.0, None, None, None, None, st)]
    actions = [_card("C3"), _card("CK")]
    params = default_params()
    rng = state_from_seed(9)
    tied = (np.array([2.0, 2.0]), np.array([2.0, 2.0]))
    assert playout_tie_break(drawn, tied, _card("CK"), actions, W, N, params, rng) == _card("C3")
    # The solved worlds prefer CK: the play-outs are not asked.
    ranked = (np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    assert playout_tie_break(drawn, ranked, _card("C3"), actions, W, N, params, rng) == _card("CK")
    # A stopped question leaves C3's value open up to CK's: both are candidates, the play-outs decide.
    open_ = (np.array([1.0, 2.0]), np.array([2.0, 2.0]))
    assert playout_tie_break(drawn, open_, _card("CK"), actions, W, N, params, rng) == _card("C3")


def test_worlds_drawn_for_the_play_outs_alone_count_with_the_solved_ones(monkeypatch):
    # Scripted play-outs: in world "a" only CK catches N, in world "b" only C3 does (each world's state is its label).
    catches = {"a": (0.0, 1.0), "b": (1.0, 0.0)}

    def scripted(worlds, seat, actions, declarer, params, rng_state):
        return sum(weight * np.array(catches[label]) for weight, label in worlds)

    monkeypatch.setattr(sampled_dd, "playout_values", scripted)
    actions = [_card("C3"), _card("CK")]
    tied = (np.array([1.0, 1.0]), np.array([1.0, 1.0]))
    drawn = [(1.0, None, None, None, None, "a")]
    extra = [(1.0, None, None, None, None, "b"), (1.0, None, None, None, None, "b")]
    args = (actions, W, N, default_params(), state_from_seed(3))
    assert playout_tie_break(drawn, tied, _card("C3"), *args) == _card("CK")
    assert playout_tie_break(drawn, tied, _card("CK"), *args, extra) == _card("C3")
