"""Double-dummy card play (``rikken play --policy dd``): perfect play by both sides ends on the DD value.

Most checks run on endings (the setups of ``random_setups`` cut to a few cards per hand, the called
card kept by its holder), where a solve takes milliseconds; a few run on full 13-card rounds.
Every play-out is replayed on the plain-Python reference engine, which must accept every card.
"""

import numpy as np
import pandas as pd
import pytest
from rikken.test_contract_invariants import as_arrays, cut_to_ending, random_setups

from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.experiments.runner import run_chunks
from analyzer.games.rikken import rules
from analyzer.games.rikken.dd import playout_batch_dd, playout_one_dd
from analyzer.games.rikken.experiments import Policies, play_chunk, simulate_rounds
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET
from analyzer.games.rikken.state import RoundSetup, RoundState
from analyzer.solvers.dd import solve

from .reference_minimax import Rules, can_force, max_tricks

FAMILIES = ("trick", "troela", "misery", "blind", "king", "nocall")


def _endings(n: int, seed: int, size: int, families=FAMILIES) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [cut_to_ending(s, size, rng) for s in random_setups(n, seed, families)]


def _replay(setup: dict, trace) -> list[int]:
    """Play the trace on the reference engine (which refuses illegal cards); return its tricks per seat."""
    state = RoundState(RoundSetup(tuple(setup["hands"]), setup["leader"], tuple(setup["contract_of"]),
                                  setup["partner"], setup["trump"], setup["called_card"], bool(setup["blind"])))
    for seat, action, up, fd in trace:
        assert seat == state.turn
        legal = [(c, False) for c in cards_of(up)] + [(c, True) for c in cards_of(fd)]
        assert legal == state.legal_actions()
        state.play(int(action) % FACE_DOWN_OFFSET, bool(action >= FACE_DOWN_OFFSET))
    assert state.is_over
    return state.tricks


def _team(setup: dict, declarer: int) -> int:
    contract = setup["contract_of"][declarer]
    team = 1 << declarer
    if setup["partner"] >= 0 and rules.SIDE[contract] != rules.Side.ALONE:
        team |= 1 << setup["partner"]
    return team


def _dd_question(setup: dict, declarer: int):
    """What perfect play must give the declarer's side: ``(kind, DD value or makeable)``."""
    kind = rules.KIND[setup["contract_of"][declarer]]
    args = (setup["hands"], setup["trump"], setup["leader"], _team(setup, declarer))
    call = {"called_card": setup["called_card"], "blind_call": bool(setup["blind"])}
    if kind == rules.Kind.TRICKS:
        return kind, solve(*args, **call)
    if kind == rules.Kind.MISERY:
        return kind, solve(*args, goal="le", k=0, **call)
    return kind, solve(*args, goal="eq", k=1, **call)


def _side_tricks(tricks, team: int) -> int:
    return sum(int(tricks[s]) for s in range(4) if team >> s & 1)


def _check_against_dd(setup: dict, tricks) -> None:
    declarers = [s for s in range(4) if setup["contract_of"][s] >= 0]
    for declarer in declarers:
        kind, answer = _dd_question(setup, declarer)
        won = _side_tricks(tricks, _team(setup, declarer))
        if kind == rules.Kind.TRICKS:
            assert won == answer
            continue
        made = won == (0 if kind == rules.Kind.MISERY else 1)
        if len(declarers) == 1:
            assert made == answer
        elif answer:
            # Against several declarers the others chase their own goals, but a forced contract is kept.
            assert made


@pytest.mark.parametrize("size, seed", [(4, 1), (4, 2), (5, 3), (6, 4)])
def test_endings_end_on_the_double_dummy_value_with_legal_cards(size, seed):
    rng_state = state_from_seed(seed)
    for setup in _endings(12, 100 + seed, size):
        tricks, trace = playout_one_dd(**setup, rng_state=rng_state)
        assert len(trace) == 4 * size
        assert _replay(setup, trace) == list(tricks)
        _check_against_dd(setup, tricks)


def test_four_card_endings_agree_with_brute_force():
    rng_state = state_from_seed(7)
    for setup in _endings(16, 77, 4, ("trick", "misery", "blind")):
        declarers = [s for s in range(4) if setup["contract_of"][s] >= 0]
        if len(declarers) > 1:
            continue
        declarer = declarers[0]
        team = _team(setup, declarer)
        called = setup["called_card"]
        holder = next((s for s in range(4) if called >= 0 and setup["hands"][s] >> called & 1), -1)
        blind_bidder = declarer if setup["blind"] and holder >= 0 else -1
        ref = Rules(setup["trump"], [s for s in range(4) if team >> s & 1], called, blind_bidder)
        hands = [cards_of(h) for h in setup["hands"]]
        tricks, _ = playout_one_dd(**setup, rng_state=rng_state)
        won = _side_tricks(tricks, team)
        kind = rules.KIND[setup["contract_of"][declarer]]
        if kind == rules.Kind.TRICKS:
            assert won == max_tricks(ref, hands, setup["leader"])
        elif kind == rules.Kind.MISERY:
            assert (won == 0) == can_force(ref, hands, setup["leader"], -99, 0)
        else:
            assert (won == 1) == can_force(ref, hands, setup["leader"], 1, 1)


def test_every_contract_family_and_the_blind_lead_are_played():
    setups = _endings(36, 11, 5)
    kinds = {int(rules.KIND[c]) for s in setups for c in s["contract_of"] if c >= 0}
    assert kinds == {int(k) for k in rules.Kind}
    assert any(sum(c >= 0 for c in s["contract_of"]) > 1 for s in setups)
    rng_state = state_from_seed(5)
    face_down = 0
    for setup in setups:
        tricks, trace = playout_one_dd(**setup, rng_state=rng_state)
        assert _replay(setup, trace) == list(tricks)
        face_down += int((trace[:, 1] >= FACE_DOWN_OFFSET).sum())
    assert face_down > 0


def test_same_seed_same_play_and_batch_equals_one_by_one():
    setups = _endings(10, 21, 5)
    first = [playout_one_dd(**s, rng_state=state_from_seed(3)) for s in setups]
    again = [playout_one_dd(**s, rng_state=state_from_seed(3)) for s in setups]
    for (t1, trace1), (t2, trace2) in zip(first, again):
        assert (t1 == t2).all() and (trace1 == trace2).all()
    rng_one, out = state_from_seed(9), np.empty((len(setups), 4), dtype=np.int64)
    one_by_one = [playout_one_dd(**s, rng_state=rng_one)[0] for s in setups]
    playout_batch_dd(**as_arrays(setups), rng_state=state_from_seed(9), tricks_out=out)
    assert (out == np.array(one_by_one)).all()


def test_ties_are_broken_by_the_seed():
    # Among equally good cards the choice follows the run's generator: different seeds, different plays.
    setups = _endings(10, 31, 6, ("trick",))
    traces = [[playout_one_dd(**s, rng_state=state_from_seed(seed))[1][:, 1].tolist() for s in setups]
              for seed in (1, 2)]
    assert traces[0] != traces[1]


@pytest.mark.parametrize("index", [0, 3])
def test_full_rounds_end_on_the_double_dummy_value(index):
    setup = random_setups(4, 41, ("trick", "misery", "troela", "blind"))[index]
    tricks, trace = playout_one_dd(**setup, rng_state=state_from_seed(index))
    assert len(trace) == 52
    assert _replay(setup, trace) == list(tricks)
    _check_against_dd(setup, tricks)


def test_rounds_with_packets_and_same_seed():
    # Chunk 0 of seed 2 (a fresh SeedSequence each time: spawning advances it) is a quick chain of two Riks.
    dd = Policies.everywhere("dd")
    deals, arrays = simulate_rounds(2, 0, np.random.SeedSequence(2).spawn(1)[0], dd, "packets")
    again, arrays_again = simulate_rounds(2, 0, np.random.SeedSequence(2).spawn(1)[0], dd, "packets")
    assert (deals == again).all() and (arrays["tricks"] == arrays_again["tricks"]).all()
    played = ~arrays["passed_out"]
    assert (arrays["tricks"][played].sum(axis=1) == 13).all()


def test_two_workers_give_the_rounds_of_one():
    # Seed 4's six rounds take seconds (no hard Misery among them).
    params = {"policy": "dd", "dealing": "random"}
    kwargs = {"seed": 4, "chunk_size": 2, "description": "test"}
    one = pd.concat(run_chunks(play_chunk, params, 6, workers=1, **kwargs), ignore_index=True)
    two = pd.concat(run_chunks(play_chunk, params, 6, workers=2, **kwargs), ignore_index=True)
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.slow
def test_many_full_rounds_end_on_the_double_dummy_value():
    rng_state = state_from_seed(12)
    for setup in random_setups(24, 43):
        tricks, trace = playout_one_dd(**setup, rng_state=rng_state)
        assert _replay(setup, trace) == list(tricks)
        _check_against_dd(setup, tricks)
