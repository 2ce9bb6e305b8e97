"""The length abstraction's search (``lone_length``) and the solver that asks it at trick starts.

Oracles: the plain-Python minimax of the abstraction in ``scripts/lone_length_bound.py`` (written
separately in session 7, memoised, no table, no run reduction) for the numba search's answers, and the
brute force (``reference_minimax``) for the solver's counts on endings where a lone declarer holds
trumps, every team shape and leader, at trick starts and with a trick in progress.
"""

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.layout import new_mem
from analyzer.solvers.dd.lone_length import _lone_length
from analyzer.solvers.dd.quick_tricks import _lone_winners, _sure_trumps

from .reference_minimax import Rules, can_force, max_tricks

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from lone_length_bound import abstract_count  # noqa: E402


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _ending(rng, size):
    """Hands of ``size`` cards, a lone seat with its longest suit as trump, a random leader."""
    cards = rng.sample(range(52), 4 * size)
    hands = [sorted(cards[size * s:size * s + size]) for s in range(4)]
    lone = rng.randrange(4)
    trump = max(range(4), key=lambda s: sum(c // 13 == s for c in hands[lone]))
    return hands, trump, lone, rng.randrange(4)


def test_the_numba_search_answers_as_the_plain_minimax():
    rng = random.Random(20261206)
    mem = new_mem(10)
    values = []
    for _ in range(120):
        hands, trump, lone, leader = _ending(rng, 4)
        value = abstract_count(hands, trump, lone, leader)
        masks = _masks(hands)
        for need in range(1, 5):
            assert _lone_length(mem.ctypes.data, mem.shape[0], masks, leader, 1 << lone, trump, need) == (
                need <= value), (hands, trump, lone, leader, need, value)
        values.append(value)
    # Every value from none to three tricks occurs, so a search off by one somewhere is seen.
    assert {0, 1, 2, 3} <= set(values)


def _cheap_bounds(masks, trump, lone, leader):
    present = np.int64(masks[0] | masks[1] | masks[2] | masks[3])
    sure = int(_sure_trumps(masks, trump, 1 << lone, -1, True)[0])
    return max(sure, int(_lone_winners(masks, lone, leader == lone, trump, present)[0]))


def _check_lone_counts(seed, size, endings):
    """The solver's count for each ending's lone seat, checked by two brute-force questions: it makes the
    count and not one more.  Returns how many endings the abstraction proves more than the other bounds."""
    rng = random.Random(seed)
    reached = 0
    for _ in range(endings):
        hands, trump, lone, leader = _ending(rng, size)
        masks = _masks(hands)
        got = solve(masks, trump, leader, 1 << lone)
        rules = Rules(trump, [lone])
        assert can_force(rules, hands, leader, got, 99), (hands, trump, lone, leader, got)
        assert not can_force(rules, hands, leader, got + 1, 99), (hands, trump, lone, leader, got)
        reached += abstract_count(hands, trump, lone, leader) > _cheap_bounds(masks, trump, lone, leader)
    return reached


def test_lone_counts_match_the_brute_force_where_the_abstraction_decides():
    # The abstraction proves more than the solver's other trick-start bounds on some of these.
    assert _check_lone_counts(612, 3, 150) >= 10


@pytest.mark.slow
def test_lone_counts_of_larger_endings_match_the_brute_force():
    assert _check_lone_counts(613, 4, 200) >= 20


def _trick_in_progress(rng, hands, leader, played):
    trick = []
    for k in range(played):
        seat = (leader + k) % 4
        led = trick[0][1] // 13 if trick else -1
        legal = [c for c in hands[seat] if c // 13 == led] or hands[seat]
        card = rng.choice(legal)
        hands[seat].remove(card)
        trick.append((seat, card, False))
    return trick


def test_every_team_shape_and_a_trick_in_progress_match_the_brute_force():
    rng = random.Random(3190)
    shapes = [[0], [1], [2], [3], [0, 1], [0, 2], [1, 2, 3], [0, 1, 3]]
    for n in range(96):
        hands, trump, lone, leader = _ending(rng, 3)
        team = shapes[n % len(shapes)]
        played = n % 4
        trick = _trick_in_progress(rng, hands, leader, played)
        to_play = (leader + played) % 4
        got = solve(_masks(hands), trump, to_play, sum(1 << s for s in team), trick=[c for _, c, _ in trick])
        assert got == max_tricks(Rules(trump, team), hands, to_play, tuple(trick)), (hands, trump, team, leader, trick)


def test_a_count_searched_twice_searches_the_same_tree():
    # A question that runs out of its budget depends on what the abstraction's table holds; entries of an
    # earlier solve would make the same solve search a smaller tree the second time, and a count searched
    # within the solver's budget would then depend on what the process solved before.
    from analyzer.solvers.dd.api import last_tricks

    rng = random.Random(777)
    for n in range(10):
        cards = rng.sample(range(52), 52)
        masks = _masks([cards[13 * s:13 * s + 13] for s in range(4)])
        lone = n % 4
        first = solve(masks, 3, (lone + 1) % 4, 1 << lone)
        first_tricks = last_tricks()
        assert solve(masks, 3, (lone + 1) % 4, 1 << lone) == first
        assert last_tricks() == first_tricks, (n, first_tricks)


def _nine_card_questions(seed, deals):
    """Random 9-card trick starts (the most cards the search is asked with) and every ``need`` from 1 to 9."""
    rng = random.Random(seed)
    for _ in range(deals):
        hands, trump, lone, leader = _ending(rng, 9)
        for need in range(1, 10):
            yield hands, trump, lone, leader, need


def test_a_question_that_spends_its_budget_answers_no_and_is_remembered_as_no():
    from analyzer.solvers.dd.layout import A_ABORTED, A_NODES

    mem = new_mem(10)
    address, size = mem.ctypes.data, mem.shape[0]
    aborted = 0
    for hands, trump, lone, leader, need in _nine_card_questions(5, 120):
        masks = _masks(hands)
        answer = _lone_length(address, size, masks, leader, 1 << lone, trump, need)
        if not mem[A_ABORTED]:
            continue
        aborted += 1
        # A search given up proves nothing, so it must not say yes, and asking again is one table probe.
        assert not answer, (hands, trump, lone, leader, need)
        assert not _lone_length(address, size, masks, leader, 1 << lone, trump, need)
        assert mem[A_NODES] == 0 and not mem[A_ABORTED], (hands, trump, lone, leader, need)
    assert aborted >= 50


@pytest.mark.slow
def test_the_budget_gives_up_on_a_count_the_abstraction_makes():
    # The first of the questions above: the plain twin gives the lone seat 3 abstract tricks, and the search
    # spends its budget on the question "3 or more?" and answers no (a no proves nothing, so this is sound).
    from analyzer.solvers.dd.layout import A_ABORTED

    hands, trump, lone, leader, _ = next(_nine_card_questions(5, 1))
    mem = new_mem(10)
    assert not _lone_length(mem.ctypes.data, mem.shape[0], _masks(hands), leader, 1 << lone, trump, 3)
    assert mem[A_ABORTED]
    assert abstract_count(hands, trump, lone, leader) == 3
