"""The misère bounds (``misery_bounds``) against the brute-force minimax.

On random no-trump endings, whichever seat leads, the bounds' claims are checked against the
reference's answer to "can the declarer take no more tricks": a claimed duck of every trick must be
possible, a claimed forced trick impossible.  Each kind of claim must come up often, so a bound
that claims too much where one card's rank decides it is caught.  Inside a trick, a claimed forced
trick is checked against a one-trick brute force (he cannot avoid taking the trick in progress)
and the whole ending's answer.
"""

from functools import lru_cache

import numpy as np
import pytest

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.misery_bounds import _below_in_order, _caught_in_trick, _entry_catch, _guarded, _lone_ducks

from .reference_minimax import Rules, can_force

NO_TRUMP = 4


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _deal(rng, size):
    """Hands of ``size`` cards and a lone declarer: cards from two or three suits, so that suits are
    often shared and voids are common, the declarer often dealt mostly low or mostly high cards."""
    suits = rng.permutation(4)[: int(rng.integers(2, 4))]
    pool = [int(13 * s + r) for s in suits for r in range(13)]
    cards = [pool[i] for i in rng.permutation(len(pool))[: 4 * size]]
    declarer = int(rng.integers(4))
    slant = int(rng.integers(3))
    if slant:
        # A third of the time each, the declarer is dealt mostly low cards (he can often duck
        # everything) or mostly high ones (he often takes the trick he leads).
        cards.sort(key=lambda c: (c % 13 if slant == 1 else -(c % 13)) + 7 * int(rng.integers(2)))
    hands = [[] for _ in range(4)]
    hands[declarer] = sorted(cards[:size])
    rest = cards[size:]
    for seat in (s for s in range(4) if s != declarer):
        hands[seat], rest = sorted(rest[:size]), rest[size:]
    return hands, declarer


@lru_cache(maxsize=None)
def _cases(size):
    """(hands, declarer, leader, verdict, whether the declarer can take no trick) on random endings."""
    rng = np.random.default_rng(size)
    cases = []
    for _ in range(400):
        hands, declarer = _deal(rng, size)
        leader = int(rng.integers(4))
        verdict, _ = _lone_ducks(_masks(hands), leader, declarer)
        ducks = can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0)
        cases.append((hands, declarer, leader, int(verdict), ducks))
    return cases


@pytest.mark.parametrize("size", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_claims_hold_against_the_reference(size):
    cases = _cases(size)
    for hands, declarer, leader, verdict, ducks in cases:
        if verdict >= 0:
            assert ducks == (verdict == 1), (hands, declarer, leader, verdict)
    # Every kind of claim is exercised: ducking everything with a defender or the declarer on lead,
    # taking a trick on lead, being made to take one at once or through an entry.
    assert sum(v == 1 and leader != declarer for _, declarer, leader, v, _ in cases) >= 15
    assert sum(v == 1 and leader == declarer for _, declarer, leader, v, _ in cases) >= 10
    assert sum(v == 0 and leader == declarer for _, declarer, leader, v, _ in cases) >= 10
    entries = sum(v == 0 and leader != declarer and _entry_catch(_masks(hands), leader, declarer) != 0
                  for hands, declarer, leader, v, _ in cases)
    assert sum(v == 0 and leader != declarer for _, declarer, leader, v, _ in cases) - entries >= 20
    assert entries >= 5


@pytest.mark.parametrize("size", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_entry_catches_hold_against_the_reference(size):
    """Every entry catch the search could meet (any defender on lead), not only where the one-trick catch fails."""
    rng = np.random.default_rng(100 + size)
    claims = 0
    for _ in range(400):
        hands, declarer = _deal(rng, size)
        leader = int((declarer + rng.integers(1, 4)) % 4)
        if _entry_catch(_masks(hands), leader, declarer) != 0:
            claims += 1
            assert not can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0), (hands, declarer, leader)
    assert claims >= 30


def _failing_suits(masks, declarer):
    """The suits where the declarer's ``j``-th lowest card is not below the defenders' ``j``-th lowest."""
    failing = []
    for suit in range(4):
        mine = (int(masks[declarer]) >> (13 * suit)) & 8191
        others = 0
        for seat in range(4):
            if seat != declarer:
                others |= (int(masks[seat]) >> (13 * suit)) & 8191
        if mine and not _below_in_order(mine, others, 0):
            failing.append(suit)
    return failing


@pytest.mark.parametrize("size,deals", [(4, 600), pytest.param(5, 120, marks=pytest.mark.slow)])
def test_guarded_suits_hold_against_the_reference(size, deals):
    """A guard claimed in the one suit where the ``j``-th rule fails: the declarer ducks every trick left.

    Counted apart: claims where a defender could discard the guard's cards (the guard is void in a
    suit the declarer holds), and where the declarer holds two cards of the guarded suit or more.
    """
    rng = np.random.default_rng(400 + size)
    claims = discards = longer = 0
    for _ in range(deals):
        hands, declarer = _deal(rng, size)
        leader = int((declarer + rng.integers(1, 4)) % 4)
        masks = _masks(hands)
        failing = _failing_suits(masks, declarer)
        if len(failing) != 1 or not _guarded(masks, declarer, failing[0]):
            continue
        claims += 1
        suit = failing[0]
        shapes = [[sum(c // 13 == u for c in hand) for u in range(4)] for hand in hands]
        guards = [g for g in range(4) if g != declarer and shapes[g][suit]
                  and min(c for c in hands[g] if c // 13 == suit) > max(c for c in hands[declarer] if c // 13 == suit)]
        discards += any(shapes[declarer][u] > shapes[g][u] for g in guards for u in range(4) if u != suit)
        longer += shapes[declarer][suit] >= 2
        assert can_force(Rules(NO_TRUMP, [declarer]), hands, leader, 0, 0), (hands, declarer, leader)
    assert claims >= 5 * deals // 100 and discards >= claims // 4 and longer >= claims // 10, (claims, discards, longer)


@pytest.mark.parametrize("size,deals", [(4, 600), pytest.param(5, 150, marks=pytest.mark.slow)])
def test_guarded_suits_after_the_declarers_lead_hold_against_the_reference(size, deals):
    """The declarer on lead claimed to duck everything; counted apart where the guard was needed."""
    rng = np.random.default_rng(500 + size)
    claims = 0
    for _ in range(deals):
        hands, declarer = _deal(rng, size)
        masks = _masks(hands)
        verdict, _ = _lone_ducks(masks, declarer, declarer)
        if verdict != 1:
            continue
        assert can_force(Rules(NO_TRUMP, [declarer]), hands, declarer, 0, 0), (hands, declarer)
        # The guard was needed when two suits fail, or one where he has no lead some defender must overtake.
        failing = _failing_suits(masks, declarer)
        covers = [max(min(c for c in hand if c // 13 == suit) for seat, hand in enumerate(hands)
                      if seat != declarer and any(c // 13 == suit for c in hand)) for suit in failing]
        claims += len(failing) >= 2 or (len(failing) == 1 and min(
            c for c in hands[declarer] if c // 13 == failing[0]) > covers[0])
    assert claims >= deals // 50, claims


def _random_trick(rng, rules, hands, leader, pos):
    """The first ``pos`` cards of a trick led by ``leader``, random legal plays taken out of ``hands``."""
    trick = ()
    for step in range(pos):
        seat = (leader + step) % 4
        options = [card for card, _ in rules.plays(hands, seat, trick)]
        card = options[int(rng.integers(len(options)))]
        hands[seat] = [c for c in hands[seat] if c != card]
        trick += ((seat, card, False),)
    return trick


def _takes_trick(rules, hands, trick, declarer):
    """Whether the defenders can make ``declarer`` take the trick in progress (plain brute force)."""
    seat = (trick[-1][0] + 1) % 4
    if len(trick) == 4:
        return rules.winner(trick) == declarer
    outcomes = [_takes_trick(rules, [tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(hands)],
                             trick + ((seat, card, False),), declarer)
                for card, _ in rules.plays(hands, seat, trick)]
    return all(outcomes) if seat == declarer else any(outcomes)


@pytest.mark.parametrize("size", [3, 4])
def test_caught_in_trick_against_the_reference(size):
    rng = np.random.default_rng(200 + size)
    claims = {True: 0, False: 0}
    for _ in range(500):
        hands, declarer = _deal(rng, size)
        rules = Rules(NO_TRUMP, [declarer])
        leader = int(rng.integers(4))
        pos = int(rng.integers(1, 4))
        trick = _random_trick(rng, rules, hands, leader, pos)
        winner = trick[0]
        for seat, card, _ in trick[1:]:
            if card // 13 == winner[1] // 13 and card > winner[1]:
                winner = (seat, card, False)
        masks = _masks(hands)
        present = int(masks[0] | masks[1] | masks[2] | masks[3]) | sum(1 << c for _, c, _ in trick)
        caught = _caught_in_trick(masks, leader, pos, trick[0][1] // 13, winner[0], winner[1], declarer, present)
        takes = _takes_trick(rules, hands, trick, declarer)
        if caught != 0:
            assert takes, (hands, trick, declarer)
            to_play = (leader + pos) % 4
            assert not can_force(rules, hands, to_play, 0, 0, trick), (hands, trick, declarer)
        claims[declarer in {s for s, _, _ in trick}] += caught != 0
        # The claim is exact for the trick in progress: it misses no forced trick.
        assert takes == (caught != 0), (hands, trick, declarer)
    assert claims[True] >= 20 and claims[False] >= 20


@pytest.mark.parametrize("size", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_misery_and_one_alone_answers_match_the_reference(size):
    for hands, declarer, leader, _, ducks in _cases(size)[:150]:
        team = 1 << declarer
        assert solve(_masks(hands), NO_TRUMP, leader, team, goal="le", k=0) == ducks
        rules = Rules(NO_TRUMP, [declarer])
        assert solve(_masks(hands), NO_TRUMP, leader, team, goal="eq", k=1) == can_force(rules, hands, leader, 1, 1)


def test_answers_in_a_trick_match_the_reference():
    """Misery and 1 Alone asked with one to three cards of a trick played, five cards a hand."""
    rng = np.random.default_rng(5)
    for _ in range(60):
        hands, declarer = _deal(rng, 5)
        rules = Rules(NO_TRUMP, [declarer])
        leader = int(rng.integers(4))
        pos = int(rng.integers(1, 4))
        trick = _random_trick(rng, rules, hands, leader, pos)
        to_play = (leader + pos) % 4
        played = [c for _, c, _ in trick]
        for goal, k in (("le", 0), ("eq", 1)):
            expected = can_force(rules, hands, to_play, k, k, trick) if goal == "eq" else can_force(
                rules, hands, to_play, 0, 0, trick)
            assert solve(_masks(hands), NO_TRUMP, to_play, 1 << declarer, goal=goal, k=k, trick=played) == expected
