"""Card-play policies per side and per seat: which seat plays which policy, move by move.

Expected moves come from the policies' own definitions: the random policy is one ``bounded`` draw over
the legal face-up cards in card-id order followed by the face-down leads; the heuristic is
``choose_card_heuristic`` on the position. Roles come from the contract as the rules state them (the
bidder and, in Rik, Rik Beter and Troela, his partner declare).
"""

import numpy as np
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import bounded, state_from_seed
from analyzer.games.rikken import heuristic as H
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.dd import POLICY_DD, declaring_team, playout_one_dd
from analyzer.games.rikken.experiments import Policies, bids_chunk, build_setups, declaring_seats, play_setups
from analyzer.games.rikken.kernels import (
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    apply_action,
    choose_card_heuristic,
    new_round,
    playout_batch,
    playout_one,
)
from analyzer.games.rikken.rules import Contract
from analyzer.reports.stats import paired_difference
from analyzer.solvers.dd import solve

from .test_contract_invariants import as_arrays, cut_to_ending, random_setups

FD = L.FACE_DOWN_OFFSET
PARTNERED = (Contract.RIK, Contract.RIK_BETER, Contract.TROELA)


def _declarers(setup: dict) -> set[int]:
    """Seats declaring, by the rules: every seat with a contract, and the partner of a partnered one."""
    seats = {s for s in range(4) if setup["contract_of"][s] >= 0}
    if setup["partner"] >= 0 and any(setup["contract_of"][s] in PARTNERED for s in seats):
        seats.add(setup["partner"])
    return seats


def _random_by_definition(up: int, fd: int, rng_state) -> int:
    """The random policy as documented: uniform index over face-up cards (id order), then face-down leads."""
    actions = cards_of(up) + [FD + c for c in cards_of(fd)]
    return actions[bounded(rng_state, len(actions))]


def _check_trace(setup: dict, trace, declarer_policy: int, defender_policy: int, rng_twin) -> None:
    """Replay ``trace``: each declarer move is what its policy chooses, each defender move what his draws."""
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    declarers = _declarers(setup)
    params = H.default_params()
    for seat, action, up, fd in trace:
        policy = declarer_policy if seat in declarers else defender_policy
        if policy == POLICY_HEURISTIC:
            expected = choose_card_heuristic(st, seat, up, fd, params)
        else:
            expected = _random_by_definition(int(up), int(fd), rng_twin)
        assert action == expected
        apply_action(st, seat, action)


@pytest.mark.parametrize(("declarer", "defender"), [("heuristic", "random"), ("random", "heuristic")])
def test_each_side_plays_its_own_policy_move_by_move(declarer, defender):
    setups = random_setups(240, 61)
    policies = Policies(declarer, defender)
    ids = {"heuristic": POLICY_HEURISTIC, "random": POLICY_RANDOM}
    kernel_rng, twin_rng = state_from_seed(8), state_from_seed(8)
    arrays = as_arrays(setups)
    policy_of_seat = policies.ids(arrays["contract_of"], arrays["partner"])
    face_down = 0
    for i, setup in enumerate(setups):
        tricks, trace = playout_one(**setup, policy_of_seat=policy_of_seat[i], params=H.default_params(),
                                    rng_state=kernel_rng)
        _check_trace(setup, trace, ids[declarer], ids[defender], twin_rng)
        face_down += int((trace[:, 1] >= FD).sum())
    # Blind face-down leads were drawn or chosen, so the draw order past them was checked too.
    assert face_down > 0
    # The batch kernel indexes the same per-deal rows: same tricks, same draws.
    out = np.empty((len(setups), 4), dtype=np.int64)
    playout_batch(**arrays, policy_of_seat=policy_of_seat, params=H.default_params(), rng_state=state_from_seed(8),
                  tricks_out=out)
    again_rng = state_from_seed(8)
    one_by_one = [playout_one(**s, policy_of_seat=policy_of_seat[i], params=H.default_params(),
                              rng_state=again_rng)[0] for i, s in enumerate(setups)]
    assert out.tolist() == np.array(one_by_one).tolist()


def test_declaring_seats_follow_the_contract():
    R, N, E, S, W = -1, 0, 1, 2, 3
    rows = [  # contract per seat, partner, expected declaring seats
        ([Contract.RIK, R, R, R], S, {N, S}),
        ([R, Contract.RIK_BETER, R, R], W, {E, W}),
        ([R, R, Contract.TROELA, R], N, {S, N}),
        ([Contract.RIK, R, R, R], -1, {N}),  # no callable card: alone
        ([R, R, R, Contract.ALONE_9], -1, {W}),
        ([Contract.MISERY, R, Contract.ONE_ALONE, R], -1, {N, S}),  # joined: each declarer plays his own
        ([R, Contract.OPEN_MISERY_ALL, R, R], -1, {E}),
    ]
    contract_of = np.array([[int(c) for c in r[0]] for r in rows], dtype=np.int64)
    partner = np.array([r[1] for r in rows], dtype=np.int64)
    seats = declaring_seats(contract_of, partner)
    assert [set(np.flatnonzero(row).tolist()) for row in seats] == [r[2] for r in rows]
    ids = Policies("heuristic", "random").ids(contract_of, partner)
    assert (ids == np.where(seats, POLICY_HEURISTIC, POLICY_RANDOM)).all()
    by_seat = Policies(None, None, ("random", "heuristic", "dd", "random")).ids(contract_of, partner)
    assert (by_seat == [POLICY_RANDOM, POLICY_HEURISTIC, POLICY_DD, POLICY_RANDOM]).all()


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_one_policy_everywhere_draws_as_a_single_policy_row(policy):
    # The per-deal rows must not change seeded results when every seat plays one policy.
    setups = build_setups(deal_random(30, 4), np.arange(30, dtype=np.int64) % 4)
    tricks, high = play_setups(setups, Policies.everywhere(policy), state_from_seed(5))
    assert high is None
    single = np.zeros_like(tricks)
    playout_batch(setups["hands"], setups["leader"], setups["contract_of"], setups["partner"], setups["trump"],
                  setups["called_card"], setups["blind"], np.full(4, 1 if policy == "heuristic" else 0, np.int64),
                  H.default_params(), state_from_seed(5), single)
    assert (tricks == single).all()


def _dd_optimal(st, seat, up, fd, team, setup, trick, trick_blind) -> list[int]:
    """The dd policy's candidates by definition: the legal actions after which the declaring side's
    tricks (won plus double-dummy rest) are the most (a side member moving) or the fewest (an opponent)."""
    legal = cards_of(int(up)) + [FD + c for c in cards_of(int(fd))]
    values = []
    for action in legal:
        after = st.copy()
        cards, blind_lead = trick + [action % FD], trick_blind or action >= FD
        if apply_action(after, seat, action) >= 0:
            cards, blind_lead = [], False
        value = sum(int(after[L.TRICKS + s]) for s in range(4) if team >> s & 1)
        if after[L.HAND:L.HAND + 4].any():
            value += solve(after[L.HAND:L.HAND + 4], setup["trump"], int(after[L.TURN]), team, trick=cards,
                           called_card=setup["called_card"], blind_call=bool(setup["blind"]), trick_blind=blind_lead)
        values.append(value)
    best = max(values) if team >> seat & 1 else min(values)
    return [a for a, v in zip(legal, values) if v == best]


@pytest.mark.parametrize(("declarer", "defender"), [("dd", "heuristic"), ("dd", "random"), ("random", "dd")])
def test_double_dummy_seats_mixed_with_kernel_policies(declarer, defender):
    rng = np.random.default_rng(71)
    ids = {"dd": POLICY_DD, "heuristic": POLICY_HEURISTIC, "random": POLICY_RANDOM}
    rng_state, twin = state_from_seed(2), state_from_seed(2)
    checked = 0
    for setup in random_setups(45, 71, families=("trick", "troela", "blind")):
        setup = cut_to_ending(setup, 4, rng)
        bidder = int(np.argmax(setup["contract_of"]))
        team = declaring_team(bidder, setup["contract_of"][bidder], setup["partner"])
        value = solve(setup["hands"], setup["trump"], setup["leader"], team, called_card=setup["called_card"],
                      blind_call=bool(setup["blind"]))
        row = np.where([team >> s & 1 for s in range(4)], ids[declarer], ids[defender]).astype(np.int64)
        tricks, trace = playout_one_dd(**setup, rng_state=rng_state, policy_of_seat=row)
        side = sum(int(tricks[s]) for s in range(4) if team >> s & 1)
        # A perfect side takes at least (declaring) or concedes at most (defending) its double-dummy value.
        assert side >= value if declarer == "dd" else side <= value
        # Every seat plays its own policy, all drawing from one stream in move order.
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        trick, trick_blind = [], False
        for seat, action, up, fd in trace:
            if row[seat] == POLICY_HEURISTIC:
                expected = choose_card_heuristic(st, seat, up, fd, H.default_params())
            elif row[seat] == POLICY_RANDOM:
                expected = _random_by_definition(int(up), int(fd), twin)
            else:
                optimal = _dd_optimal(st, seat, up, fd, team, setup, trick, trick_blind)
                expected = optimal[bounded(twin, len(optimal))]
            assert action == expected
            trick, trick_blind = trick + [action % FD], trick_blind or action >= FD
            if apply_action(st, seat, action) >= 0:
                trick, trick_blind = [], False
        checked += 1
    assert checked == 45


def _make_rate_difference(declarer_a: str, defender_a: str, declarer_b: str, defender_b: str, deals: int):
    """Paired Rik make-rate difference B - A over the same hands (``bids_chunk`` with each mix)."""
    made = []
    for declarer, defender in ((declarer_a, defender_a), (declarer_b, defender_b)):
        params = {**Policies(declarer, defender).params(), "dealing": "random", "contracts": [int(Contract.RIK)]}
        frame = bids_chunk(params, 0, deals, np.random.SeedSequence(19))
        made.append(frame["made_rik"].to_numpy())
    return paired_difference(made[1], made[0])


def test_heuristic_declarers_make_rik_more_often_against_random_defence():
    # 1,500 deals = 6,000 Rik hands, paired: the heuristic declaring side is worth clearly more than random.
    mean, lo, _ = _make_rate_difference("random", "random", "heuristic", "random", 1500)
    assert lo > 0.05, mean
    # And the reverse: heuristic defenders beat random declarers more often than random defenders do.
    mean, _, hi = _make_rate_difference("random", "random", "random", "heuristic", 1500)
    assert hi < -0.05, mean
