"""The expert card-play policy: it reads no hidden card, plays legal rounds reproducibly, and its parts
(distinct cards, settled contracts, the score of a finished world) follow the rules.

The invariance check plays rounds with the expert at every seat; at each expert decision it builds a
second state in which two hidden hands exchange cards of one suit (the called card included, the
partner moving with it) and asks the policy again from the same generator state: the action and the
generator state after it must be the same.
"""

import numpy as np
import pytest

from analyzer.cards.deck import parse_card_list
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.expert import (
    all_decided,
    choose_expert,
    distinct_actions,
    expert_params,
    visible_seats,
    world_score,
)
from analyzer.games.rikken.kernels import (
    POLICY_EXPERT,
    POLICY_HEURISTIC,
    apply_action,
    choose_action,
    legal_actions,
    new_round,
    playout_batch,
    playout_one,
)
from analyzer.games.rikken.experiments import Policies, bids_chunk, played_for, shared_play
from analyzer.games.rikken.replay import replay_run_round
from analyzer.games.rikken.rules import Contract
from analyzer.games.rikken.state import RoundSetup, RoundState

from .test_contract_invariants import as_arrays, random_setups

FD = L.FACE_DOWN_OFFSET
FAST = expert_params(samples=2, first_trick=1)


def _mask(text: str) -> int:
    return sum(1 << c for c in parse_card_list(text))


def _swapped(st, viewer: int, rng):
    """A copy of ``st`` where two hands the viewer cannot see exchange one card of a suit both hold."""
    hidden = [s for s in range(4) if not visible_seats(st, viewer) >> s & 1]
    rng.shuffle(hidden)
    called = int(st[L.CALLED]) if st[L.CALLED_OUT] else -1
    for a in hidden:
        for b in hidden:
            if a >= b:
                continue
            for suit in rng.permutation(4):
                mine = [c for c in cards_of(int(st[L.HAND + a])) if c // 13 == suit]
                theirs = [c for c in cards_of(int(st[L.HAND + b])) if c // 13 == suit]
                if not mine or not theirs:
                    continue
                x, y = int(rng.choice(mine)), int(rng.choice(theirs))
                if called in (x, y) and int(st[L.BIDDER]) in (a, b):
                    continue  # the bidder never holds the called card
                other = st.copy()
                other[L.HAND + a] ^= (1 << x) | (1 << y)
                other[L.HAND + b] ^= (1 << x) | (1 << y)
                if called in (x, y):
                    other[L.PARTNER] = b if called == x else a
                return other
    return None


@pytest.mark.parametrize("families", [("trick", "blind", "king"), ("troela", "misery", "nocall")])
def test_decisions_do_not_depend_on_hidden_cards(families):
    rng = np.random.default_rng(3)
    compared = searched = called_moved = 0
    for setup in random_setups(6, 23 + len(families[0]), families):
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        stream = state_from_seed(len(families[0]))
        for _ in range(52):
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            other = _swapped(st, seat, rng)
            before = stream.copy()
            action = choose_expert(st, seat, up, fd, FAST, stream)
            if other is not None:
                again = before.copy()
                assert choose_expert(other, seat, up, fd, FAST, again) == action
                assert (again == stream).all()
                compared += 1
                searched += int((before != stream).any())
                called_moved += int(other[L.PARTNER] != st[L.PARTNER])
            apply_action(st, seat, action)
    assert compared > 200 and searched > 50
    assert called_moved > 0 or "trick" not in families


def test_rounds_are_legal_reproducible_and_batch_equals_one_by_one():
    setups = random_setups(8, 31)
    arrays = as_arrays(setups)
    seats = np.array([POLICY_EXPERT, POLICY_HEURISTIC, POLICY_EXPERT, POLICY_HEURISTIC], dtype=np.int64)
    rng_one = state_from_seed(4)
    one_by_one = []
    for setup in setups:
        tricks, trace = playout_one(**setup, policy_of_seat=seats, params=FAST, rng_state=rng_one)
        state = RoundState(RoundSetup(tuple(setup["hands"]), setup["leader"], tuple(setup["contract_of"]),
                                      setup["partner"], setup["trump"], setup["called_card"], bool(setup["blind"])))
        for _seat, action, _up, _fd in trace:
            state.play(int(action) % FD, bool(action >= FD))  # refuses an illegal card
        assert state.tricks == list(tricks)
        one_by_one.append(tricks)
    out = np.empty((len(setups), 4), dtype=np.int64)
    playout_batch(**arrays, policy_of_seat=seats, params=FAST, rng_state=state_from_seed(4), tricks_out=out)
    assert (out == np.array(one_by_one)).all()
    # choose_action dispatches to the same policy, and other seeds draw other worlds.
    st = new_round(**{k: setups[0][k] for k in ("hands", "leader", "contract_of", "partner", "trump", "called_card",
                                                 "blind")})
    seat = int(st[L.TURN])
    up, fd = legal_actions(st, seat)
    assert choose_action(st, seat, up, fd, POLICY_EXPERT, FAST, state_from_seed(1)) == \
        choose_expert(st, seat, up, fd, FAST, state_from_seed(1))


def test_touching_cards_are_one_choice_and_the_called_card_its_own():
    # N holds C2 C3 C5 and H9 HT; C4 has been played, so C2..C5 touch; H9 HT touch; HJ is out.
    hands = [_mask("C2 C3 C5 H9 HT HJ"), _mask("C6 C7 C8 H2 H3 H4"), _mask("C9 CT CJ H5 H6 H7"),
             _mask("CQ CK CA HQ HK HA")]
    contract_of = [-1, int(Contract.RIK), -1, -1]
    st = new_round(hands, 0, contract_of, 0, 3, parse_card_list("HJ")[0], 0)
    st[L.PLAYED] = _mask("C4")
    reps = np.empty(26, dtype=np.int64)
    n = distinct_actions(st, 0, np.int64(_mask("C2 C3 C5 H9 HT HJ")), np.int64(0), reps)
    # HJ is the called card (N the partner): a class of its own, though it touches HT.
    assert reps[:n].tolist() == parse_card_list("C2 H9 HJ")
    st[L.PLAYED] = 0
    n = distinct_actions(st, 0, np.int64(_mask("C2 C3 C5")), np.int64(0), reps)
    assert reps[:n].tolist() == parse_card_list("C2 C5")


def test_a_card_of_the_trick_in_progress_splits_touching_cards():
    # W holds SJ SQ SA, E led SK and S followed S8: SA wins the trick, SJ and SQ do not, so SK (played,
    # but to this trick) does not make SQ and SA one choice. Once the trick is over it does.
    hands = [_mask("C2 C3 C6"), _mask("SK C4 C7"), _mask("S8 C5 C9"), _mask("SJ SQ SA")]
    st = new_round(hands, 1, [int(Contract.MISERY), -1, -1, -1], -1, 4, -1, 0)
    for seat, card in ((1, "SK"), (2, "S8")):
        apply_action(st, seat, parse_card_list(card)[0])
    reps = np.empty(26, dtype=np.int64)
    n = distinct_actions(st, 3, np.int64(_mask("SJ SQ SA")), np.int64(0), reps)
    assert reps[:n].tolist() == parse_card_list("SJ SA")
    st[L.TRICK:L.TRICK + 4] = -1
    n = distinct_actions(st, 3, np.int64(_mask("SJ SQ SA")), np.int64(0), reps)
    assert reps[:n].tolist() == parse_card_list("SJ")


def test_settled_contracts_and_world_scores():
    hands = [_mask("C2 C3"), _mask("C4 C5"), _mask("C6 C7"), _mask("C8 C9")]
    st = new_round(hands, 0, [int(Contract.ALONE_8), -1, -1, -1], -1, 0, -1, 0)
    st[L.TRICKS:L.TRICKS + 4] = [8, 1, 1, 1]
    assert all_decided(st, 1)  # 8 tricks made
    st[L.TRICKS:L.TRICKS + 4] = [7, 2, 1, 1]
    assert not all_decided(st, 1)  # 7 with 2 to play
    st[L.TRICKS:L.TRICKS + 4] = [5, 4, 1, 1]
    assert all_decided(st, 1)  # 5 + 2 < 8
    # Finished worlds: declarer 8 of 13 -> made; a defender's value is the contract beaten.
    st[L.TRICKS:L.TRICKS + 4] = [8, 2, 2, 1]
    assert world_score(st, 0) == pytest.approx(1 + 8 / 32)
    assert world_score(st, 1) == pytest.approx(-8 / 32)
    st[L.CONTRACT] = int(Contract.MISERY)
    st[L.KIND] = 1
    st[L.TRICKS:L.TRICKS + 4] = [0, 5, 4, 4]
    assert world_score(st, 0) == pytest.approx(1.0) and world_score(st, 2) == pytest.approx(0.0)
    st[L.TRICKS:L.TRICKS + 4] = [2, 5, 3, 3]
    # Misery scores no undertricks: 2 tricks or 5, failed is failed.
    assert world_score(st, 0) == pytest.approx(0.0) and world_score(st, 2) == pytest.approx(1.0)


def test_expert_runs_play_each_contract_for_its_own_target_and_replay():
    expert, heuristic = Policies.everywhere("expert"), Policies.everywhere("heuristic")
    alone = [Contract.ALONE_8, Contract.ALONE_9, Contract.ALONE_13]
    assert played_for(alone, shared_play(heuristic)) == [int(Contract.ALONE_8)]
    assert played_for(alone, shared_play(expert)) == [int(c) for c in alone]
    params = {**expert.params(), "dealing": "random", "contracts": [int(c) for c in alone]}
    frame = bids_chunk(params, 0, 3, np.random.SeedSequence(2))
    assert len(frame) == 12 and (frame["tricks_9-alone"] >= 0).all()
    # A full-round run with expert declarers replays card for card (the replay checks the tricks).
    mixed = Policies("expert", "heuristic")
    replay = replay_run_round(1, 4, mixed, chunk_size=6)
    assert replay.source["policies"] == mixed.label()
