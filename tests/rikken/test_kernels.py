"""Play-out kernel against the engine's plain-Python ``RoundState`` on seeded random legal setups.

Random policy: a Python twin (uniform index into ``RoundState.legal_actions`` drawn with the same
``bounded`` PRNG) must reproduce the kernel's every move. Heuristic policy: the njit policy drives
``RoundState`` one move at a time while the kernel state follows; legal sets, hands and trick winners
must agree at every step and the final tricks must equal the batch kernel's.
"""

import numpy as np
import pytest

from analyzer.cards.masks import cards_of
from analyzer.cards.rng import bounded, state_from_seed
from analyzer.errors import InputError
from analyzer.games.rikken import heuristic as H
from analyzer.games.rikken.kernels import (
    POLICY_HEURISTIC, POLICY_RANDOM, apply_action, choose_card_heuristic, legal_actions, new_round,
    playout_batch, playout_one,
)
from analyzer.games.rikken.rules import Contract
from analyzer.games.rikken.state import RoundSetup, RoundState
from analyzer.reports.stats import paired_difference

from .test_contract_invariants import as_arrays, random_setups

FD = H.FACE_DOWN_OFFSET


def _round_state(setup: dict) -> RoundState:
    return RoundState(RoundSetup(tuple(setup["hands"]), setup["leader"], tuple(setup["contract_of"]),
                                 setup["partner"], setup["trump"], setup["called_card"], bool(setup["blind"])))


def _as_pair(action: int) -> tuple[int, bool]:
    return (action - FD, True) if action >= FD else (action, False)


def _python_random_round(setup: dict, rng_state) -> tuple[list[int], list[tuple[int, bool]]]:
    """Random play on the reference engine: index drawn with ``bounded`` over its legal-action list."""
    state = _round_state(setup)
    moves = []
    while not state.is_over:
        actions = state.legal_actions()
        move = actions[bounded(rng_state, len(actions))]
        moves.append(move)
        state.play(*move)
    return state.tricks, moves


def test_random_policy_matches_the_reference_move_for_move():
    setups = random_setups(160, 31)
    kernel_rng, python_rng = state_from_seed(99), state_from_seed(99)
    face_down_leads = 0
    for setup in setups:
        tricks, trace = playout_one(**setup, policy_of_seat=np.zeros(4, np.int64), params=H.default_params(),
                                    rng_state=kernel_rng)
        ref_tricks, ref_moves = _python_random_round(setup, python_rng)
        assert [_as_pair(a) for a in trace[:, 1]] == ref_moves
        assert list(tricks) == ref_tricks
        face_down_leads += sum(1 for a in trace[:, 1] if a >= FD)
    # The blind face-down lead was exercised, not just allowed.
    assert face_down_leads > 0


def test_random_batch_matches_the_reference_deal_by_deal():
    setups = random_setups(80, 5)
    arrays = as_arrays(setups)
    out = np.empty((len(setups), 4), dtype=np.int64)
    playout_batch(**arrays, policy_of_seat=np.full(4, POLICY_RANDOM, np.int64), params=H.default_params(),
                  rng_state=state_from_seed(3), tricks_out=out)
    python_rng = state_from_seed(3)
    for i, setup in enumerate(setups):
        assert list(out[i]) == _python_random_round(setup, python_rng)[0]


def _drive_heuristic(setup: dict, policies) -> list[int]:
    """Play the reference engine with the njit policies, checking the kernel state at every move."""
    state = _round_state(setup)
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    params = H.default_params()
    rng_state = state_from_seed(1)
    while not state.is_over:
        seat = state.turn
        assert st[H.TURN] == seat
        assert list(st[H.HAND:H.HAND + 4]) == state.hands
        up, fd = legal_actions(st, seat)
        assert [(c, False) for c in cards_of(up)] + [(c, True) for c in cards_of(fd)] == state.legal_actions()
        if policies[seat] == POLICY_HEURISTIC:
            action = choose_card_heuristic(st, seat, up, fd, params)
        else:
            action = FD + cards_of(fd)[0] if fd else cards_of(up)[bounded(rng_state, len(cards_of(up)))]
        state.play(*_as_pair(action))
        winner = apply_action(st, seat, action)
        if winner >= 0:
            assert winner == state.history[-1][1]
    assert list(st[H.TRICKS:H.TRICKS + 4]) == state.tricks
    return state.tricks


def test_heuristic_policy_drives_the_reference_engine_like_the_batch_kernel():
    setups = random_setups(200, 17)
    arrays = as_arrays(setups)
    out = np.empty((len(setups), 4), dtype=np.int64)
    policies = np.full(4, POLICY_HEURISTIC, np.int64)
    playout_batch(**arrays, policy_of_seat=policies, params=H.default_params(), rng_state=state_from_seed(0),
                  tricks_out=out)
    for i, setup in enumerate(setups):
        assert list(out[i]) == _drive_heuristic(setup, policies)


def test_mixed_policies_keep_kernel_and_reference_in_step():
    for setup in random_setups(60, 23):
        _drive_heuristic(setup, [POLICY_HEURISTIC, POLICY_RANDOM, POLICY_HEURISTIC, POLICY_RANDOM])


def _decisions(setup: dict, tamper) -> list[int]:
    """Heuristic actions along a heuristic game, each also asked of a tampered copy of the state.

    Returns the positions where the tampered copy decided differently.
    """
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    params = H.default_params()
    differ = []
    for move in range(52):
        seat = int(st[H.TURN])
        up, fd = legal_actions(st, seat)
        action = choose_card_heuristic(st, seat, up, fd, params)
        other = st.copy()
        if tamper(other, seat):
            if choose_card_heuristic(other, seat, up, fd, params) != action:
                differ.append(move)
        apply_action(st, seat, action)
    return differ


def test_partner_seat_is_not_read_before_the_called_card_shows():
    def move_partner(st, seat):
        # Only for seats that may not know the partner yet: the bidder and the defenders.
        if st[H.PARTNER_PUBLIC] or st[H.PARTNER] == seat:
            return False
        st[H.PARTNER] = next(s for s in range(4) if s not in (seat, st[H.PARTNER], st[H.BIDDER]))
        return True

    setups = [s for s in random_setups(400, 41, families=("trick", "blind")) if s["called_card"] >= 0]
    assert len(setups) > 100
    for setup in setups:
        assert _decisions(setup, move_partner) == []


def test_hidden_hands_are_not_read():
    def reshuffle_hidden(st, seat):
        # Swap one card between two hands the player cannot see (same sizes, same public history).
        hidden = [s for s in range(4) if H.visible_hand(st, seat, s) < 0 and st[H.HAND + s] != 0]
        if len(hidden) < 2:
            return False
        a, b = hidden[0], hidden[1]
        ca = cards_of(st[H.HAND + a])[-1]
        cb = cards_of(st[H.HAND + b])[0]
        if st[H.CALLED_OUT] and st[H.CALLED] in (ca, cb):
            return False
        st[H.HAND + a] ^= (1 << ca) | (1 << cb)
        st[H.HAND + b] ^= (1 << ca) | (1 << cb)
        return True

    for setup in random_setups(200, 43):
        assert _decisions(setup, reshuffle_hidden) == []


def test_open_misery_defenders_use_the_exposed_hand():
    # Contrast to the test above: once the Open Misery hand is shown, defenders' leads may depend on it,
    # so tampering with the exposed hand must change some decision over many deals.
    def reshuffle_exposed(st, seat):
        declarer = next(s for s in range(4) if st[H.KIND + s] >= 0)
        if seat == declarer or H.visible_hand(st, seat, declarer) < 0 or st[H.N_IN_TRICK] != 0:
            return False
        other = next(s for s in range(4) if s not in (seat, declarer) and st[H.HAND + s])
        mine = cards_of(st[H.HAND + declarer])
        theirs = cards_of(st[H.HAND + other])
        if not mine or not theirs:
            return False
        st[H.HAND + declarer] ^= (1 << mine[0]) | (1 << theirs[-1])
        st[H.HAND + other] ^= (1 << mine[0]) | (1 << theirs[-1])
        return True

    setups = []
    for s in random_setups(120, 47, families=("misery",)):
        s["contract_of"] = [-1] * 4
        s["contract_of"][s["leader"]] = int(Contract.OPEN_MISERY)
        setups.append(s)
    assert sum(len(_decisions(s, reshuffle_exposed)) for s in setups) > 0


def _make_rates(setups, declarer_policy: int, defender_policy: int) -> np.ndarray:
    """Per-deal 1.0 / 0.0 'contract made' for the single declarer (with his partner) of each setup."""
    made = np.empty(len(setups))
    rng_state = state_from_seed(9)
    for i, setup in enumerate(setups):
        declarer = int(np.argmax(setup["contract_of"]))
        partner = setup["partner"]
        policies = np.full(4, defender_policy, np.int64)
        policies[declarer] = declarer_policy
        if partner >= 0:
            policies[partner] = declarer_policy
        tricks, _trace = playout_one(**setup, policy_of_seat=policies, params=H.default_params(),
                                     rng_state=rng_state)
        taken = tricks[declarer] + (tricks[partner] if partner >= 0 else 0)
        made[i] = taken == 0 if setup["contract_of"][declarer] == Contract.MISERY else taken >= 8
    return made


@pytest.mark.parametrize("contract", [Contract.RIK, Contract.ALONE_8, Contract.MISERY])
def test_heuristic_declarers_make_more_than_random_ones(contract):
    setups = []
    for s in random_setups(3000, 53, families=("trick",)):
        d = int(np.argmax(s["contract_of"]))
        if contract == Contract.MISERY:
            s.update(contract_of=[-1] * 4, partner=-1, trump=4, called_card=-1, blind=0)
            s["contract_of"][d] = int(Contract.MISERY)
        elif contract == Contract.ALONE_8:
            s.update(partner=-1, called_card=-1, blind=0)
            s["contract_of"][d] = int(Contract.ALONE_8)
        elif s["contract_of"][d] != Contract.RIK:
            continue
        setups.append(s)
    heuristic = _make_rates(setups, POLICY_HEURISTIC, POLICY_HEURISTIC)
    random = _make_rates(setups, POLICY_RANDOM, POLICY_HEURISTIC)
    mean, lo, hi = paired_difference(heuristic, random)
    # Same deals, same defenders: the heuristic declaring side must make clearly more contracts.
    assert lo > 0, (mean, lo, hi)


def test_playout_batch_rejects_bad_input():
    arrays = as_arrays(random_setups(4, 1))
    out = np.empty((4, 4), dtype=np.int64)
    policies = np.zeros(4, np.int64)
    bad_hands = arrays["hands"].copy()
    bad_hands[0, 0] = bad_hands[0, 1]
    with pytest.raises(InputError):
        playout_batch(**{**arrays, "hands": bad_hands}, policy_of_seat=policies, params=H.default_params(),
                      rng_state=state_from_seed(0), tricks_out=out)
    bad_partner = arrays["partner"].copy()
    rows = np.flatnonzero(arrays["called_card"] >= 0)
    bad_partner[rows] = (bad_partner[rows] + 1) % 4
    if rows.size:
        with pytest.raises(InputError):
            playout_batch(**{**arrays, "partner": bad_partner}, policy_of_seat=policies,
                          params=H.default_params(), rng_state=state_from_seed(0), tricks_out=out)
    with pytest.raises(InputError):
        playout_batch(**{**arrays, "leader": arrays["leader"][:2]}, policy_of_seat=policies,
                      params=H.default_params(), rng_state=state_from_seed(0), tricks_out=out)
