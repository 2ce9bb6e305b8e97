"""The called card's obligations (``analyzer.cards.called_card``) against the rule as docs/rules.md states
it, and the one home both the Rikken engine and the double-dummy solver play by."""

import ast
import inspect

import numpy as np
import pytest

from analyzer.cards.called_card import legal_face_up, void_in_called_suit
from analyzer.cards.deck import parse_card
from analyzer.cards.masks import cards_of, mask_of
from analyzer.games.rikken import play_rules
from analyzer.solvers.dd import rules as dd_rules


def plain_legal(hand: list[int], n_played: int, led_suit: int, called: int) -> set[int]:
    """The rule in words: the called card's holder leads its suit only with it and plays it when its
    suit is led; everyone else follows suit if able."""
    holds = called in hand
    if n_played == 0:
        return {c for c in hand if not (holds and c // 13 == called // 13 and c != called)}
    if holds and led_suit == called // 13:
        return {called}
    follow = {c for c in hand if c // 13 == led_suit}
    return follow or set(hand)


def cards(text: str) -> list[int]:
    return [parse_card(card) for card in text.split()]


@pytest.mark.parametrize("hand, n_played, led, called, expected", [
    ("HA H5 S2", 0, -1, "HA", "HA S2"),      # leading the called suit means leading the called card
    ("HA H5 S2", 2, 2, "HA", "HA"),          # hearts led: the holder must play it, not H5
    ("HA H5 S2", 1, 3, "HA", "S2"),          # spades led: follow suit
    ("HA H5", 1, 0, "HA", "HA H5"),          # void in clubs: any card, the called card too
    ("H5 S2", 1, 2, "HA", "H5"),             # not the holder: follow suit
    ("H5 S2", 0, -1, "HA", "H5 S2"),
    ("H5 S2", 1, 2, "-", "H5"),              # no call
])
def test_hand_worked_positions(hand, n_played, led, called, expected):
    called_card = -1 if called == "-" else parse_card(called)
    got = legal_face_up(np.int64(mask_of(cards(hand))), n_played, led, called_card)
    assert sorted(cards_of(int(got))) == sorted(cards(expected))


def test_random_positions_match_the_rule_in_words():
    rng = np.random.default_rng(7)
    for _ in range(3000):
        # Cards of two suits, so holding the called card and following to its suit are common.
        suits = rng.permutation(4)[:2]
        pool = [13 * int(s) + r for s in suits for r in range(13)]
        hand = sorted(int(c) for c in rng.choice(pool, size=int(rng.integers(1, 8)), replace=False))
        called = int(rng.choice(pool)) if rng.random() < 0.8 else -1
        n_played = int(rng.integers(4))
        led = int(rng.choice(suits)) if n_played else -1
        got = set(cards_of(int(legal_face_up(np.int64(mask_of(hand)), n_played, led, called))))
        assert got == plain_legal(hand, n_played, led, called), (hand, n_played, led, called)
        if called >= 0:
            void = not any(c // 13 == called // 13 for c in hand)
            assert void_in_called_suit(np.int64(mask_of(hand)), called) == void


def test_the_engine_and_the_solver_play_by_this_rule():
    assert dd_rules._legal is legal_face_up
    calls = {node.func.id for node in ast.walk(ast.parse(inspect.getsource(play_rules.legal_actions)))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert {"legal_face_up", "void_in_called_suit"} <= calls
    assert play_rules.legal_face_up is legal_face_up
