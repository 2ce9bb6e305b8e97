"""Move generation's bit work (``analyzer.solvers.dd.moves``) against plain twins.

- ``_touching``: a card is left out exactly when the next higher card of its suit still out is in
  the same hand (the two are then equivalent).
- ``_gen_moves``: the candidates are the legal cards less the touching ones, each once; the left-out
  cards are the legal touching ones.
- ``_move_key`` with ``_next_move``: moves come out by weight, larger first, ties lowest card first.
"""

import numpy as np

from analyzer.solvers.dd.layout import M_MOVES, MAX_MOVES, new_mem, set_context
from analyzer.solvers.dd.moves import _cutoff_slot, _gen_moves, _move_key, _next_move, _touching
from analyzer.solvers.dd.rules import _legal
from analyzer.solvers.dd.tables import MODE_MAX


def _touching_by_rank(held, present):
    """Plain twin: cards of ``held`` whose next higher card still out belongs to ``held``."""
    out = 0
    for card in range(52):
        if not held >> card & 1:
            continue
        above = next((c for c in range(card + 1, 13 * (card // 13 + 1)) if present >> c & 1), None)
        if above is not None and held >> above & 1:
            out |= 1 << card
    return out


def _random_hands(rng):
    deck = [int(c) for c in rng.permutation(52)]
    size = int(rng.integers(1, 14))
    return [sum(1 << c for c in deck[size * s:size * (s + 1)]) for s in range(4)]


def test_touching_cards_match_the_rank_by_rank_rule():
    rng = np.random.default_rng(23)
    left_out = 0
    for _ in range(500):
        hands = _random_hands(rng)
        present = hands[0] | hands[1] | hands[2] | hands[3]
        for hand in hands:
            got = int(_touching(np.int64(hand), np.int64(present)))
            assert got == _touching_by_rank(hand, present), (hand, present)
            left_out += bin(got).count("1")
    assert left_out >= 500


def test_candidates_are_the_legal_cards_less_the_touching_ones():
    rng = np.random.default_rng(24)
    mem = new_mem(10)
    for i in range(300):
        hands = _random_hands(rng)
        trump = int(rng.integers(5))
        set_context(mem, trump, 0b0101, MODE_MAX, -1, -1, 1)
        present = hands[0] | hands[1] | hands[2] | hands[3]
        seat = int(rng.integers(4))
        masks = np.array(hands, dtype=np.int64)
        key = _cutoff_slot(mem, masks, seat, 0, -1, np.int64(present), -1, -1, trump)
        n, pruned, _, _ = _gen_moves(mem, masks, seat, 0, -1, np.int64(present), -1, -1, -1, 0, trump, 0b0101,
                                     MODE_MAX, -1, -1, False, key, False)
        candidates = [int(_next_move(mem, M_MOVES, j, n)) for j in range(n)]
        legal = int(_legal(np.int64(hands[seat]), 0, -1, -1))
        expected = legal & ~_touching_by_rank(hands[seat], present)
        assert sorted(candidates) == [c for c in range(52) if expected >> c & 1], i
        assert int(pruned) == legal & _touching_by_rank(hands[seat], present)


def test_moves_come_out_by_weight_then_lowest_card():
    rng = np.random.default_rng(25)
    mem = np.zeros(MAX_MOVES, dtype=np.int64)
    for _ in range(200):
        n = int(rng.integers(1, 14))
        cards = [int(c) for c in rng.permutation(52)[:n]]
        scores = [int(s) for s in rng.integers(-200, 200, size=n)]
        for j, (card, score) in enumerate(zip(cards, scores)):
            mem[j] = _move_key(score, card)
        got = [int(_next_move(mem, 0, j, n)) for j in range(n)]
        assert got == [card for _, card in sorted(zip(scores, cards), key=lambda sc: (-sc[0], sc[1]))]
