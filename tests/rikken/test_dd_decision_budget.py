"""The dd policy's card-by-card decisions within a budget: a card not proved optimal is always counted.

Expected cards come from the solver without a budget, asked after each legal card: the optimal cards are
those that keep the declarer's result (made for him, beaten for the defenders), all of them when none does.
"""

import numpy as np
import pandas as pd
import pytest

from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.cards.tricks import NO_TRUMP
from analyzer.errors import InputError
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken import dd, rules
from analyzer.games.rikken.dd import POLICY_DD, playout_batch_dd, playout_one_dd
from analyzer.games.rikken.experiments import Policies, play_chunk
from analyzer.games.rikken.findings import play_findings
from analyzer.games.rikken.kernels import POLICY_HEURISTIC, apply_action, new_round
from analyzer.games.rikken.summary import (contract_summary, merge_rounds_moments, rounds_moments,
                                           undecided_rounds)
from analyzer.solvers.dd import solve
from analyzer.solvers.dd.api import judge_moves, last_tricks

from .test_contract_invariants import as_arrays, cut_to_ending, random_setups

FD = L.FACE_DOWN_OFFSET


def _lone_misery_endings(n: int, seed: int, size: int) -> list[dict]:
    """Endings of Misery / 1 Alone rounds with one declarer (one question per turn)."""
    rng = np.random.default_rng(seed)
    setups = [s for s in random_setups(4 * n, seed, ("misery",)) if sum(c >= 0 for c in s["contract_of"]) == 1]
    return [cut_to_ending(s, size, rng) for s in setups[:n]]


def _optimal(st, seat, up, fd, declarer, kind, trick) -> list[int]:
    """The legal actions that keep the result the mover's side can force, all of them when none does."""
    goal, target = ("le", 0) if kind == rules.Kind.MISERY else ("eq", 1)
    legal = cards_of(int(up)) + [FD + c for c in cards_of(int(fd))]
    keeps = []
    for action in legal:
        after = st.copy()
        cards = trick + [action % FD]
        if apply_action(after, seat, action) >= 0:
            cards = []
        won = int(after[L.TRICKS + declarer])
        if not after[L.HAND:L.HAND + 4].any() or won > target:
            reachable = won == target
        else:
            reachable = solve(after[L.HAND:L.HAND + 4], NO_TRUMP, int(after[L.TURN]), 1 << declarer, goal,
                              target - won, trick=cards)
        keeps.append(reachable == (seat == declarer))
    return [a for a, k in zip(legal, keeps) if k] or legal


def _not_optimal_cards(setup: dict, row, trace) -> int:
    """How many of the dd seats' cards in ``trace`` were not optimal."""
    declarer = int(np.argmax(setup["contract_of"]))
    kind = rules.KIND[setup["contract_of"][declarer]]
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    trick, wrong = [], 0
    for seat, action, up, fd in trace:
        won = int(st[L.TRICKS + declarer])
        open_question = won <= (0 if kind == rules.Kind.MISERY else 1)
        if row[seat] == POLICY_DD and open_question:
            wrong += action not in _optimal(st, seat, up, fd, declarer, kind, trick)
        trick = trick + [action % FD]
        if apply_action(st, seat, action) >= 0:
            trick = []
    return wrong


def test_a_budgeted_turn_plays_a_proved_optimal_card_or_is_counted_undecided():
    setups = _lone_misery_endings(30, 23, 5)
    rng_state = state_from_seed(4)
    undecided_rounds = wrong_total = 0
    for setup in setups:
        declarer = int(np.argmax(setup["contract_of"]))
        row = np.array([POLICY_HEURISTIC if s == declarer else POLICY_DD for s in range(4)], dtype=np.int64)
        count = np.zeros(1, dtype=np.int64)
        # A budget of one completed trick stops nearly every search before its first move is decided.
        _, trace = playout_one_dd(**setup, rng_state=rng_state, policy_of_seat=row, budget=1, undecided_out=count)
        wrong = _not_optimal_cards(setup, row, trace)
        assert wrong <= count[0]
        undecided_rounds += count[0] > 0
        wrong_total += wrong
    # The check bites: the budget stopped turns, and cards not proved optimal were played at some of them.
    assert undecided_rounds > 10 and wrong_total > 0


def test_without_a_budget_or_with_a_large_one_every_card_is_proved_optimal():
    setups = _lone_misery_endings(12, 31, 5)
    for budget in (0, 10 ** 9):
        rng_state = state_from_seed(8)
        for setup in setups:
            declarer = int(np.argmax(setup["contract_of"]))
            row = np.array([POLICY_HEURISTIC if s == declarer else POLICY_DD for s in range(4)], dtype=np.int64)
            count = np.full(1, -1, dtype=np.int64)
            _, trace = playout_one_dd(**setup, rng_state=rng_state, policy_of_seat=row, budget=budget,
                                      undecided_out=count)
            assert count[0] == 0
            assert _not_optimal_cards(setup, row, trace) == 0


def test_batch_counts_each_rounds_undecided_turns_and_a_budget_must_be_recorded():
    setups = _lone_misery_endings(6, 41, 5)
    arrays = as_arrays(setups)
    rows = np.full((len(setups), 4), POLICY_DD, dtype=np.int64)
    out, counts = np.zeros((len(setups), 4), dtype=np.int64), np.full(len(setups), -1, dtype=np.int64)
    playout_batch_dd(**arrays, rng_state=state_from_seed(2), tricks_out=out, policy_of_seat=rows, budget=1,
                     undecided_out=counts)
    rng_state = state_from_seed(2)
    for d, setup in enumerate(setups):
        count = np.zeros(1, dtype=np.int64)
        tricks, _ = playout_one_dd(**setup, rng_state=rng_state, policy_of_seat=rows[d], budget=1,
                                   undecided_out=count)
        assert (tricks == out[d]).all() and count[0] == counts[d]
    with pytest.raises(InputError, match="undecided"):
        playout_one_dd(**setups[0], rng_state=state_from_seed(2), budget=5)
    with pytest.raises(InputError, match="undecided"):
        playout_batch_dd(**arrays, rng_state=state_from_seed(2), tricks_out=out, budget=5)


def test_a_turns_solver_calls_together_stay_within_the_budget(monkeypatch):
    # Full deals: trick contracts (each turn solves the value, then asks its question) and Misery / 1 Alone
    # (questions from 13 cards, which without a budget search far more than this).
    setups = random_setups(6, 53, ("trick", "misery"))
    budget = 4000
    spent, turns = [0], []
    for name in ("judge_moves", "solve_bounds", "solve"):
        call = getattr(dd, name)

        def counted(*args, _call=call, **kwargs):
            result = _call(*args, **kwargs)
            spent[0] += last_tricks()
            return result

        monkeypatch.setattr(dd, name, counted)
    draw = dd.choose_card_random

    def one_turn_ends(*args):
        turns.append(spent[0])
        spent[0] = 0
        return draw(*args)

    monkeypatch.setattr(dd, "choose_card_random", one_turn_ends)
    rng_state = state_from_seed(6)
    undecided = 0
    for setup in setups:
        count = np.zeros(1, dtype=np.int64)
        playout_one_dd(**setup, rng_state=rng_state, budget=budget, undecided_out=count)
        undecided += count[0]
    # The limit fires when a search completes its budget-th trick: one trick over at most per solver call.
    assert len(turns) == 6 * 52 and max(turns) <= budget + 4
    # The check bites: some turns spent nearly all of it, so unbudgeted calls would have gone past it.
    assert max(turns) > budget // 2 and undecided > 0


# ------------------------------------------------------------------ the budget in `rikken play` rows
def _chunk_rows(params: dict, seed: int, count: int):
    # Chunk 0 of a run of seed ``seed``, as the runner seeds it (a fresh SeedSequence: spawning advances it).
    return play_chunk(params, 0, count, np.random.SeedSequence(seed).spawn(1)[0])


def _dd_params(budget: int, dealing: str = "random") -> dict:
    return {**Policies.everywhere("dd").with_turn_budget(budget).params(), "dealing": dealing}


def test_a_round_whose_first_turn_exceeds_the_budget_counts_undecided_turns():
    budget = 1
    row = _chunk_rows(_dd_params(budget), 0, 1).iloc[0]
    # Item 0 of seed 0: a lone Misery at no trump, led by the declarer's left-hand opponent.
    hands = np.array([row[f"cards_{s}"] for s in "nesw"], dtype=np.int64)
    declarer = next(s for s in range(4) if row[f"contract_{s}"] >= 0)
    assert rules.KIND[row[f"contract_{declarer}"]] == rules.Kind.MISERY
    leader = (int(row["dealer"]) + 1) % 4
    # The solver on its own: the opening lead's "no trick" question needs more completed tricks than the
    # budget (29 on this code), and within the budget it neither finishes nor proves a card, so the first turn
    # is undecided whatever follows.
    judge_moves(hands, NO_TRUMP, leader, 1 << declarer, "le", 0)
    assert last_tricks() > budget
    verdicts = judge_moves(hands, NO_TRUMP, leader, 1 << declarer, "le", 0, budget=budget)
    assert not verdicts.complete and not (verdicts.keep_up or verdicts.keep_down)
    assert 1 <= row["undecided"] <= 39
    assert sum(int(row[f"tricks_{s}"]) for s in range(4)) == 13


# The rows `rikken play --policy dd` gave before the budget (code of 086ab33), chunk 0 of seed 4, two rounds.
BEFORE = {
    "random": {"contract_0": [-1, -1], "contract_1": [-1, -1], "contract_2": [-1, -1], "contract_3": [1, 1],
               "tricks_0": [6, 1], "tricks_1": [1, 6], "tricks_2": [2, 2], "tricks_3": [4, 4],
               "money_0": [3, -3], "money_1": [3, 3], "money_2": [-3, -3], "money_3": [-3, 3]},
    "packets": {"contract_0": [-1, -1], "contract_1": [0, -1], "contract_2": [-1, 2], "contract_3": [-1, -1],
                "tricks_0": [2, 1], "tricks_1": [8, 1], "tricks_2": [1, 9], "tricks_3": [2, 2],
                "money_0": [-2, -2], "money_1": [2, -2], "money_2": [2, 6], "money_3": [-2, -2]}}


@pytest.mark.parametrize("dealing", ["random", "packets"])
def test_a_budget_of_0_keeps_the_rows_of_before(dealing):
    rows = _chunk_rows(_dd_params(0, dealing), 4, 2)
    assert "dd_turn_budget" not in _dd_params(0, dealing)
    for column, values in BEFORE[dealing].items():
        assert rows[column].tolist() == values, column
    assert (rows["undecided"] == 0).all()


def test_rounds_without_a_dd_seat_have_no_undecided_turns():
    params = {**Policies.everywhere("heuristic").with_turn_budget(5).params(), "dealing": "random"}
    assert "dd_turn_budget" not in params
    rows = _chunk_rows(params, 3, 400)
    # Passed-out rounds included: nobody plays a card there.
    assert rows["passed_out"].any() and (rows["undecided"] == 0).all()


def test_budgeted_rounds_do_not_depend_on_what_the_process_solved_before():
    # A budget the first question of chunk 0's round runs out of (it needs 29 completed tricks), but that a
    # table still holding that round's positions would let it finish.
    params = _dd_params(20)
    first = _chunk_rows(params, 0, 1)
    _chunk_rows(params, 5, 1)
    again = _chunk_rows(params, 0, 1)
    assert first["undecided"].iloc[0] > 0
    pd.testing.assert_frame_equal(first, again)


def test_the_summary_and_findings_count_rounds_with_undecided_turns():
    # Three rounds: N's Misery (undecided turns), E's Rik (none), passed out.
    rows = pd.DataFrame({"round": [0, 1, 2], "passed_out": [False, False, True], "undecided": [3, 0, 0]})
    misery = int(rules.Contract.MISERY)
    for seat, contracts in enumerate([(misery, -1, -1), (-1, 0, -1), (-1, -1, -1), (-1, -1, -1)]):
        rows[f"contract_{seat}"] = contracts
        rows[f"made_{seat}"] = [c >= 0 for c in contracts]
        rows[f"points_{seat}"] = 0
        rows[f"money_{seat}"] = 0
    moments = merge_rounds_moments([rounds_moments(rows.iloc[:1]), rounds_moments(rows.iloc[1:])])
    assert undecided_rounds(moments) == 1
    table = contract_summary(moments).set_index("contract")
    assert table.loc["misery", "undecided"] == 1
    assert table.loc["rik", "undecided"] == 0
    manifest = {"rounds": 3, "undecided_rounds": 1, "params": {"dd_turn_budget": 2000}}
    sentence = play_findings({}, manifest)[-1]
    assert sentence.startswith("1 of 3 rounds had a dd turn") and "2,000 completed tricks" in sentence
    assert "not perfect-play results" in sentence
    assert not any("dd turn" in s for s in play_findings({}, {**manifest, "undecided_rounds": 0}))
