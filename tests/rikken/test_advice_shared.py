"""Advice with sampled-dd: every option of a deal from the deal's own stream (``advice._play_by_deal``) and the
solver's verdicts shared among them (``shared_verdicts``).

Oracles: plain minimax on small endings (``reference_minimax``, no code shared with the solver) for every
verdict the sharing returns; the streams each option's round starts from, spawned here from the seed; and the
same advice chunk with the sharing off.
"""

import contextlib

import numpy as np
import pytest

from analyzer.cards.pbn import parse_hand
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import advice, shared_verdicts
from analyzer.games.rikken.advice import advice_chunk, hand_options, option_params
from analyzer.games.rikken.rules import Contract as K
from analyzer.solvers.dd import api
from tests.solvers.reference_minimax import Rules, can_force, max_tricks

SPADES = 3


def _deal(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
    return hands, np.array([sum(1 << c for c in hand) for hand in hands], dtype=np.int64)


def _keeps(rules, hands, leader, goal, k):
    """The cards of the leader's hand that keep the best result its side can force (plain minimax)."""
    on_team = leader in rules.team
    if goal == "max":
        value = max_tricks(rules, hands, leader)
        window = (value, 99) if on_team else (value + 1, 99)
    else:
        window = {"ge": (k, 99), "le": (-99, k), "eq": (k, k)}[goal]
    keeps = 0
    for card, _ in rules.plays(hands, leader, ()):  # the called card's holder may not lead another of its suit
        after = [list(h) for h in hands]
        after[leader].remove(card)
        if can_force(rules, after, (leader + 1) % 4, *window, ((leader, card, False),)) == on_team:
            keeps |= 1 << card
    return keeps


def test_shared_verdicts_answer_every_question_as_minimax_does():
    """Each ending is asked several questions twice over (hits), differing only in the goal or its k: a key
    missing any of them would hand one question another's verdicts."""
    rng = np.random.default_rng(39120)
    hits = 0
    with shared_verdicts.sharing():
        for case in range(12):
            hands, masks = _deal(rng, 3)
            declarer, trump, leader = int(rng.integers(4)), int(rng.integers(5)), int(rng.integers(4))
            rules = Rules(trump, [declarer])
            questions = [("max", 0), ("ge", 1), ("ge", 2), ("le", 0), ("eq", 1)]
            for goal, k in questions + questions:
                before = len(shared_verdicts._shared)
                got = shared_verdicts.judge_moves(masks, trump, leader, 1 << declarer, goal, k, generations={})
                hits += len(shared_verdicts._shared) == before
                assert got.complete
                assert got.keep_up == _keeps(rules, hands, leader, goal, k), (case, goal, k)
    assert hits >= 12 * len(questions), "the second round of questions must be answered from the shared verdicts"


def test_an_unfinished_verdict_is_not_shared():
    """A question the budget stopped is asked again in full, not answered with the stopped search's verdicts."""
    rng = np.random.default_rng(39121)
    hands, masks = _deal(rng, 13)
    with shared_verdicts.sharing():
        stopped = shared_verdicts.judge_moves(masks, 0, 0, 1, "max", budget=1)
        full = shared_verdicts.judge_moves(masks, 0, 0, 1, "max")
    assert not stopped.complete
    assert full.complete and full == api.judge_moves(masks, 0, 0, 1, "max")


def test_sharing_is_off_outside_its_block():
    with shared_verdicts.sharing():
        with shared_verdicts.sharing():
            assert shared_verdicts._shared == {}
        assert shared_verdicts._shared is not None
    assert shared_verdicts._shared is None


def test_every_option_of_a_deal_starts_from_the_deals_own_stream(monkeypatch):
    """``_play_by_deal`` hands each row a fresh copy of its deal's stream, inside one sharing block per deal.

    The stand-in play consumes the stream it is given (as a real play does), so a row handed its deal's stream
    itself rather than a copy would pass a worn stream to the next option."""
    seen = []

    def play(one, policies, rng_state):
        seen.append((int(one["hand"][0]) // 4, rng_state.copy(), shared_verdicts._shared))
        rng_state[:] = 0
        return np.zeros((1, 4), dtype=np.int64), None

    monkeypatch.setattr(advice, "play_setups", play)
    count, options = 3, 4
    setups = {"hand": np.tile(4 * np.arange(count), options), "leader": np.zeros(count * options, dtype=np.int64)}
    advice._play_by_deal(setups, None, np.random.SeedSequence(7), count)
    expected = [state_from_seed(stream) for stream in np.random.SeedSequence(7).spawn(count)]
    assert [deal for deal, _, _ in seen] == sorted(list(range(count)) * options)
    for deal, state, _ in seen:
        assert np.array_equal(state, expected[deal])
    # One block per deal: the same verdicts for its options, fresh ones for the next deal.
    for (deal, _, block), (previous, _, before) in zip(seen[1:], seen):
        assert block is not None and (block is before) == (deal == previous)


def _sampled_params(hand: str, contracts):
    options = hand_options(parse_hand(hand), contracts)
    return {"policy": "sampled-dd", "declarer_policy": "sampled-dd", "defender_policy": "sampled-dd",
            "dealing": "random", "seat": 0, "dealer": 3, "options": option_params(options), "worlds": 4,
            "constraints": {"hand": [f"N={hand}"]}}, options


@pytest.mark.slow
def test_sharing_leaves_the_advice_as_it_was(monkeypatch):
    """The same chunk with the sharing off: every row the same; and an option's rows do not depend on which
    other options the run plays (each starts from its deal's stream)."""
    # A flat 12-count: Rik and the Alone contracts are made on some deals and not others, and 8 and 9 Alone in
    # spades share their trick counts.
    params, options = _sampled_params("KQ87.A965.QJ4.73", [K.RIK, K.ALONE_8, K.ALONE_9])
    options = [o for o in options if o.trump == SPADES]
    params["options"] = option_params(options)
    shared = advice_chunk(params, 0, 2, np.random.SeedSequence(3912))
    with monkeypatch.context() as patch:
        patch.setattr(shared_verdicts, "sharing", contextlib.nullcontext)
        alone = advice_chunk(params, 0, 2, np.random.SeedSequence(3912))
    assert shared.equals(alone)
    last = {**params, "options": params["options"][-1:]}
    by_itself = advice_chunk(last, 0, 2, np.random.SeedSequence(3912))
    columns = ["tricks", "made", "money", "points"]
    ours = shared[shared["option"] == len(options) - 1][columns].reset_index(drop=True)
    assert ours.equals(by_itself[columns].reset_index(drop=True))


def test_shared_table_answers_every_call_trump_and_team_as_minimax_does():
    """One block, one set of table generations, many questions on the same endings that differ only in the call
    (the table's generation key leaves it out), the trump or the team: every verdict as plain minimax's."""
    rng = np.random.default_rng(39130)
    with shared_verdicts.sharing():
        for case in range(10):
            hands, masks = _deal(rng, 3)
            declarer, leader = int(rng.integers(4)), int(rng.integers(4))
            others = [c for seat in range(4) if seat != declarer for c in hands[seat]]
            for trump in (int(rng.integers(4)), 4):
                for called in [-1, *map(int, rng.choice(others, 2, replace=False))]:
                    partner = next((s for s in range(4) if called in hands[s]), None)
                    seats = [declarer] + ([partner] if partner is not None else [])
                    rules = Rules(trump, seats, called)
                    team = sum(1 << s for s in seats)
                    for goal, k in (("max", 0), ("ge", 2), ("le", 0)):
                        got = shared_verdicts.judge_moves(masks, trump, leader, team, goal, k, called_card=called,
                                                          generations={})
                        assert got.keep_up == _keeps(rules, hands, leader, goal, k), (case, trump, called, goal)


def test_a_block_keeps_one_generation_per_trump_team_and_kind_of_goal():
    """Inside a sharing block the solver's table generation of a (trump, team, kind of goal) is taken once, and
    the round's own ``generations`` are not used; with ``table=False`` each round's own are."""
    rng = np.random.default_rng(39131)
    _, masks = _deal(rng, 4)

    def fresh_generations(table, rounds):
        before = api._generation
        with shared_verdicts.sharing(table=table):
            for k in range(1, rounds + 1):  # one kind of goal, no verdict asked twice; each round its own dict
                shared_verdicts.judge_moves(masks, 0, 0, 1, "ge", k, generations={})
        return api._generation - before

    assert fresh_generations(True, 4) == 1
    assert fresh_generations(False, 4) == 4
