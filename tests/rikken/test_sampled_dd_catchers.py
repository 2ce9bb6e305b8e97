"""Leads against an exposed misère keep the cards that can catch the declarer (``misery_playout.catchers``,
``sampled_dd.SAVE_CATCHERS``): the catchers on hand-made positions, and the play-out tie-break's choice with them."""

import numpy as np
import pytest

from analyzer.cards.deck import parse_card_list
from analyzer.cards.rng import state_from_seed
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, new_round
from analyzer.games.rikken.misery_playout import catchers
from analyzer.games.rikken.rules import Contract
from analyzer.games.rikken.sampled_dd import playout_tie_break

N, E, S, W = range(4)


def _mask(text):
    return sum(1 << c for c in parse_card_list(text))


def _after_trick_one(rest, contract=Contract.OPEN_MISERY):
    """N declares ``contract`` and leads D2 to trick 1, which W takes with DA (E D3, S D4); ``rest``: each seat's
    cards after it."""
    first = {N: "D2", E: "D3", S: "D4", W: "DA"}
    hands = [_mask(rest[s]) | _mask(first[s]) for s in range(4)]
    st = new_round(hands, N, [int(contract), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    for s in range(4):
        apply_action(st, s, parse_card_list(first[s])[0])
    assert st[L.TRICK_NO] == 1 and st[L.TURN] == W
    return st


@pytest.mark.parametrize("rest, seat, expected", [
    # N's lowest club C5, heart H8, spade S9, no diamond: W's C2 C4 (under C5) and H3 (under H8); not C6, not
    # the diamonds (he has none to be caught with), not SJ.
    ({N: "C5 C9 H8 S9", E: "C3 H2 H4 D9", S: "C7 C8 H5 D5", W: "C2 C4 C6 H3 D8 SJ"}, W, "C2 C4 H3"),
    # E: C3 (under C5) and H2 H4 (under H8).
    ({N: "C5 C9 H8 S9", E: "C3 H2 H4 D9", S: "C7 C8 H5 D5", W: "C2 C4 C6 H3 D8 SJ"}, E, "C3 H2 H4"),
    # S: every card above N's lowest of its suit, or in a suit he lacks: none.
    ({N: "C5 C9 H8 S9", E: "C3 H2 H4 D9", S: "C7 C8 HT D5", W: "C2 C4 C6 H3 D8 SJ"}, S, ""),
])
def test_the_catchers_are_the_cards_under_the_declarers_lowest_of_their_suit(rest, seat, expected):
    assert catchers(_after_trick_one(rest), seat, N) == _mask(expected)


def test_no_catchers_while_the_declarers_hand_is_hidden():
    rest = {N: "C5 C9", E: "C3 H2", S: "C7 H5", W: "C2 H3"}
    assert catchers(_after_trick_one(rest, Contract.MISERY), W, N) == 0  # a closed misère: nothing shown


def _card(text):
    return parse_card_list(text)[0]


def _tie_break(catches, own, spare, monkeypatch):
    """The tie-break among C2, H3 and SJ, every class tied in the solved worlds, with scripted play-outs:
    ``catches`` per class, the weight of worlds where its play-out beats N."""
    monkeypatch.setattr(sampled_dd, "playout_values", lambda *args: np.array(catches, dtype=float))
    actions = [_card("C2"), _card("H3"), _card("SJ")]
    tied = (np.array([1.0, 1.0, 1.0]), np.array([1.0, 1.0, 1.0]))
    drawn = [(1.0, None, None, None, None, None)]
    return playout_tie_break(drawn, tied, _card(own), actions, W, N, default_params(), state_from_seed(1), (),
                             _mask(spare))


def test_the_tie_break_leads_a_card_that_is_not_a_catcher_where_the_play_outs_tie(monkeypatch):
    # Every class beats N in every play-out: own's C2 is a catcher, so the first class that is not, H3... unless
    # H3 is one too: then SJ.
    assert _tie_break([1, 1, 1], "C2", "C2", monkeypatch) == _card("H3")
    assert _tie_break([1, 1, 1], "C2", "C2 H3", monkeypatch) == _card("SJ")
    # Own's class stays first among the classes that are not catchers.
    assert _tie_break([1, 1, 1], "SJ", "C2", monkeypatch) == _card("SJ")
    # Nothing to keep: own's card as before.
    assert _tie_break([1, 1, 1], "C2", "", monkeypatch) == _card("C2")


def test_the_play_outs_still_rank_the_classes_first(monkeypatch):
    # The play-outs prefer C2, a catcher: it is led.
    assert _tie_break([1, 0.5, 0.5], "SJ", "C2", monkeypatch) == _card("C2")
    # Only catchers tie at the top: among them as before (own's class, else the first).
    assert _tie_break([1, 1, 0.5], "SJ", "C2 H3", monkeypatch) == _card("C2")
    assert _tie_break([1, 1, 0.5], "H3", "C2 H3", monkeypatch) == _card("H3")
