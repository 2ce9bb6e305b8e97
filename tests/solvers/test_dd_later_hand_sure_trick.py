"""Third and fourth hand's sure trick (``_sure_trick_cards``) against the brute-force minimax.

On random endings with two or three cards of a trick already played, whatever the trump and
whether the team is a lone declarer or a pair, the cut-off's claim is checked: when it names a
card, the mover's side can take the trick in progress whatever the others play.  Then the search's
use of it: when that trick is all one side still needs, the answer is the side's, so the solver's
answers to "does the team make k" with k at the edge (the team needs one trick, or the others do)
must equal the reference's.  The claim must fire for both sides often enough that a cut-off also
taken one trick too early is caught.
"""

from functools import lru_cache

import numpy as np
import pytest

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.rules import start_winner
from analyzer.solvers.dd.sure_trick import _sure_trick_cards

from .reference_minimax import Rules, can_force

NO_TRUMP = 4
SIZE = 3


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _side_takes_trick(rules, hands, seat, trick, side):
    """Whether ``side`` (a set of seats) can take the trick in progress whatever the others play."""
    if len(trick) == 4:
        return rules.winner(trick) in side
    outcomes = []
    for card, down in rules.plays(hands, seat, trick):
        rest = list(hands)
        rest[seat] = tuple(c for c in hands[seat] if c != card)
        outcomes.append(_side_takes_trick(rules, tuple(rest), (seat + 1) % 4, trick + ((seat, card, down),), side))
    return any(outcomes) if seat in side else all(outcomes)


def _position(rng):
    """Hands of ``SIZE`` cards with two or three cards of a trick played (legally), its leader and trump."""
    trump = int(rng.integers(5))
    suits = rng.permutation(4)[: int(rng.integers(2, 4))]
    pool = [int(13 * s + r) for s in suits for r in range(13)]
    cards = [pool[i] for i in rng.permutation(len(pool))[: 4 * SIZE]]
    hands = [tuple(sorted(cards[SIZE * s:SIZE * s + SIZE])) for s in range(4)]
    leader = int(rng.integers(4))
    played = int(rng.integers(2, 4))
    rules = Rules(trump, [])
    trick = ()
    for step in range(played):
        seat = (leader + step) % 4
        plays = rules.plays(hands, seat, trick)
        card = plays[int(rng.integers(len(plays)))][0]
        hands = tuple(tuple(c for c in h if c != card) if i == seat else h for i, h in enumerate(hands))
        trick += ((seat, card, False),)
    return hands, trick, leader, trump


@lru_cache(maxsize=None)
def _cases():
    """(hands, trick, leader, trump, team, mover, claimed, takes) where the cut-off's claim was asked."""
    rng = np.random.default_rng(2024)
    cases = []
    for _ in range(400):
        hands, trick, leader, trump = _position(rng)
        lone = int(rng.integers(4))
        team = 1 << lone if rng.integers(2) else (1 << lone) | (1 << ((lone + 1 + int(rng.integers(3))) % 4))
        mover = (leader + len(trick)) % 4
        masks = _masks(hands)
        played = np.full(4, -1, dtype=np.int64)
        played[: len(trick)] = [card for _, card, _ in trick]
        present = masks[0] | masks[1] | masks[2] | masks[3]
        for card in played[: len(trick)]:
            present |= np.int64(1) << int(card)
        win_seat, win_card = start_winner(played, leader, len(trick), False, trump, -1)
        sure, _ = _sure_trick_cards(masks, mover, len(trick), trick[0][1] // 13, win_seat, win_card, present, trump,
                                    team)
        side = {s for s in range(4) if (team >> s & 1) == (team >> mover & 1)}
        takes = _side_takes_trick(Rules(trump, []), hands, mover, trick, side)
        cases.append((hands, trick, leader, trump, team, mover, int(sure) >= 0, takes))
    return cases


def test_claimed_trick_is_taken_and_the_claim_is_common():
    cases = _cases()
    assert all(takes for *_, claimed, takes in cases if claimed)
    claims = [c for c in cases if c[6]]
    assert len(claims) >= len(cases) // 4
    assert sum(team >> mover & 1 for _, _, _, _, team, mover, _, _ in claims) >= 30
    assert sum(not team >> mover & 1 for _, _, _, _, team, mover, _, _ in claims) >= 30


@pytest.mark.parametrize("side_needing_one", ["team", "others"])
def test_solver_matches_reference_when_the_side_to_move_needs_only_this_trick(side_needing_one):
    checked = 0
    for hands, trick, leader, trump, team, mover, claimed, _ in _cases():
        if (team >> mover & 1 == 1) != (side_needing_one == "team"):
            continue
        left = SIZE
        k = 1 if side_needing_one == "team" else left
        rules = Rules(trump, [s for s in range(4) if team >> s & 1])
        expected = can_force(rules, hands, mover, k, 99, trick)
        cards = [card for _, card, _ in trick]
        assert solve(_masks(hands), trump, mover, team, goal="ge", k=k, trick=cards) == expected
        checked += claimed
    assert checked >= 30
