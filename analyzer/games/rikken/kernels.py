"""Rikken play-out kernels (numba): the rules of play, the policy dispatch and the batch loop.

A round is held in one int64 state array (layout in ``round_layout.py``). ``init_round`` fills it from a
round setup, ``legal_actions`` lists what a seat may play, ``apply_action`` plays it (all three live in
``play_rules.py`` and are re-exported here). The batch kernel and a Python driver (tests, slow
exploratory code) use these same three functions, so a policy can be called one move at a time with
exactly the decisions the batch kernel makes.

Actions are card ids 0..51, or ``52 + card`` for leading ``card`` face down after a blind call.
The kernel bots, chosen per deal and seat by id (``POLICY_IDS``; the names, help and Python bots are
in the registry ``bots.py``): 0 random (uniform over the legal actions in card-id order, face-down
leads after them, one ``bounded`` draw per decision even when forced), 1 heuristic (deterministic, no
draw), 3 expert (sampled worlds and heuristic rollouts, ``expert.py``); the random and expert seats of a
batch share one xoshiro stream, drawn in move order. :func:`choose_action` is their one dispatch: the
batch loop, ``play_round`` and the Python drivers all call it.
"""

from functools import cache
from types import SimpleNamespace

import numpy as np
from numba import njit

from analyzer.cards.rng import bounded
from analyzer.errors import InputError
from analyzer.games.kernel_sets import compile_set, set_label
from analyzer.games.rikken import rules
from analyzer.games.rikken.expert import choose_expert
from analyzer.games.rikken.heuristic import choose_heuristic
from analyzer.games.rikken.play_rules import apply_action, init_round, legal_actions
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET, STATE_SIZE, TRICKS, TURN
from analyzer.games.trick import nth_card, pop
from analyzer.raw_memory import int64_view

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_EXPERT = 3
# The Python bots' ids (``bots.BOTS``), here so that every id has one home and the registry knows them without
# importing the solver their drivers load.
POLICY_DD = 2
POLICY_SAMPLED_DD = 4
#: The kernel bots' ids by name (the registry of every bot is ``bots.BOTS``).
POLICY_IDS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "expert": POLICY_EXPERT}

_N_CONTRACTS = rules.N_CONTRACTS

#: Which bots the templates below compile in: each kernel set (:func:`kernels_for`) runs them with its own
#: values, as numba constants, so that a table of heuristic seats neither types nor compiles the expert.
_WITH_HEURISTIC = _WITH_EXPERT = True


@njit(cache=True, inline="always")
def choose_card_random(up, fd, rng_state):
    """Uniform legal action: face-up cards in id order, then face-down leads; one ``bounded`` draw."""
    n_up = pop(up)
    k = bounded(rng_state, n_up + pop(fd))
    if k < n_up:
        return nth_card(up, k)
    return FACE_DOWN_OFFSET + nth_card(fd, k - n_up)


@njit(cache=True)
def choose_card_heuristic(st, seat, up, fd, params):
    """Heuristic action (see ``heuristic.choose_heuristic``)."""
    return choose_heuristic(st, seat, up, fd, params)


def choose_action(st, seat, up, fd, policy, params, rng_state):
    """Action chosen by kernel bot ``policy`` for ``seat`` among the legal masks ``up`` and ``fd``.

    The one dispatch of the kernel bots: the batch loop, ``play_round`` and Python drivers call it. A bot
    its kernel set leaves out plays as random (:func:`kernels_for`'s callers never pass one).
    """
    if _WITH_HEURISTIC and policy == POLICY_HEURISTIC:
        return choose_heuristic(st, seat, up, fd, params)
    if _WITH_EXPERT and policy == POLICY_EXPERT:
        return choose_expert(st, seat, up, fd, params, rng_state)
    return choose_card_random(up, fd, rng_state)


def play_round(st, policy_of_seat, params, rng_state, trace):
    """Play the 13 tricks of an initialised round, recording move ``i`` in ``trace[i]``.

    ``trace[i] = (seat, action, legal face-up mask, legal face-down mask)``, ``trace`` is int64[52, 4].
    The batch kernel repeats this loop without the trace: sharing it through an inlined helper costs
    the batch a fifth of its speed in reference counting.
    """
    for i in range(52):
        seat = st[TURN]
        up, fd = legal_actions(st, seat)
        action = choose_action(st, seat, up, fd, policy_of_seat[seat], params, rng_state)
        apply_action(st, seat, action)
        trace[i, 0] = seat
        trace[i, 1] = action
        trace[i, 2] = up
        trace[i, 3] = fd


def _playout_kernel(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params,
                    rng_state, kind_table, exposure_table, tricks_out):
    # ``st`` views ``owner``'s buffer without a reference count: every array argument of the per-move
    # calls would otherwise cost an atomic increment and decrement (a sixth of the batch's time).
    # ``owner`` is touched after the loop so that its buffer outlives the view.
    owner = np.empty(STATE_SIZE, dtype=np.int64)
    st = int64_view(owner.ctypes.data, STATE_SIZE)
    for d in range(hands.shape[0]):
        init_round(st, hands[d], leader[d], contract_of[d], partner[d], trump[d], called_card[d], blind[d],
                   kind_table, exposure_table)
        for _ in range(52):
            seat = st[TURN]
            up, fd = legal_actions(st, seat)
            apply_action(st, seat, choose_action(st, seat, up, fd, policy_of_seat[d, seat], params, rng_state))
        for s in range(4):
            tricks_out[d, s] = st[TRICKS + s]
    owner[0] = st[0]


_TEMPLATES = (choose_action, play_round, _playout_kernel)
_SWITCHES = {"_WITH_HEURISTIC": POLICY_HEURISTIC, "_WITH_EXPERT": POLICY_EXPERT}


@cache
def _kernel_set(policies: frozenset[int]) -> dict:
    return compile_set(_TEMPLATES, globals(), {switch: policy in policies for switch, policy in _SWITCHES.items()},
                       set_label(policies), inline=("choose_action",))


def kernels_for(policies) -> SimpleNamespace:
    """``choose_action``, ``play_round`` and ``_playout_kernel`` compiled for the kernel bot ids ``policies``
    alone (a table of heuristic and random seats does not compile the expert); give them no other bot id
    (they would play it as random)."""
    return SimpleNamespace(**_kernel_set(frozenset(int(policy) for policy in policies)))


#: every kernel bot compiled in, for the Python drivers and tests that call the kernels one move at a time
_EVERY = kernels_for(POLICY_IDS.values())
choose_action = _EVERY.choose_action
play_round = _EVERY.play_round


_SETUP_ERRORS = (
    "every hand must hold 13 cards and the four hands must share out the 52 cards",
    "leader must be a seat 0..3 and trump a suit 0..4",
    "each deal needs at least one declarer with a contract id 0..15",
    "partner must be -1 or a seat, called_card -1 or a card id, blind 0 or 1",
    "the partner must hold the called card",
)


@njit(cache=True)
def _first_bad_setup(hands, leader, contract_of, partner, trump, called_card, blind):
    """Return (error index into ``_SETUP_ERRORS``, deal) of the first inconsistent deal, or (-1, -1)."""
    full = (np.int64(1) << 52) - 1
    for d in range(hands.shape[0]):
        union = np.int64(0)
        for s in range(4):
            if pop(hands[d, s]) != 13:
                return 0, d
            union |= hands[d, s]
        if union != full:
            return 0, d
        if not (0 <= leader[d] <= 3 and 0 <= trump[d] <= 4):
            return 1, d
        declared = False
        for s in range(4):
            c = contract_of[d, s]
            if c < -1 or c >= _N_CONTRACTS:
                return 2, d
            declared = declared or c >= 0
        if not declared:
            return 2, d
        if not (-1 <= partner[d] <= 3 and -1 <= called_card[d] <= 51 and 0 <= blind[d] <= 1):
            return 3, d
        if called_card[d] >= 0 and (partner[d] < 0 or not (hands[d, partner[d]] >> called_card[d]) & 1):
            return 4, d
    return -1, -1


def _check_batch(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, tricks_out):
    n = hands.shape[0] if isinstance(hands, np.ndarray) and hands.ndim == 2 else -1
    arrays = {"hands": (hands, (n, 4)), "leader": (leader, (n,)), "contract_of": (contract_of, (n, 4)),
              "partner": (partner, (n,)), "trump": (trump, (n,)), "called_card": (called_card, (n,)),
              "blind": (blind, (n,)), "policy_of_seat": (policy_of_seat, (n, 4)), "tricks_out": (tricks_out, (n, 4))}
    for name, (array, shape) in arrays.items():
        if not isinstance(array, np.ndarray) or array.dtype != np.int64 or array.shape != shape:
            raise InputError(f"{name} must be an int64 array of shape {shape}")
    _check_policies(policy_of_seat)
    error, deal = _first_bad_setup(hands, leader, contract_of, partner, trump, called_card, blind)
    if error >= 0:
        raise InputError(f"deal {deal}: {_SETUP_ERRORS[error]}")


def _check_policies(policy_of_seat):
    if not np.isin(policy_of_seat, list(POLICY_IDS.values())).all():
        raise InputError(f"policy ids must be among {POLICY_IDS} (Python bots play through bots.play_batch)")


def playout_batch(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params,
                  rng_state, tricks_out):
    """Play out a batch of Rikken rounds and fill the tricks each seat took.

    Parameters
    ----------
    hands : int64[n, 4]
        Hand masks per deal and seat.
    leader : int64[n]
        Seat leading to trick 1 (left of the dealer).
    contract_of : int64[n, 4]
        Contract id declared by each seat, -1 for non-declarers.
    partner : int64[n]
        Called-card holder or Troela partner, -1 if none.
    trump : int64[n]
        Trump suit 0..3, or 4 for no trump.
    called_card : int64[n]
        Called card id, -1 if none.
    blind : int64[n]
        1 if the call was blind (bidder void in the called suit).
    policy_of_seat : int64[n, 4] or int64[4]
        Policy id per deal and seat (``POLICY_IDS``), or one row for every deal. A seat's policy is
        fixed before play (e.g. by its role in the contract), so choosing it reveals nothing to the seat.
    params : float64[N_PARAMS]
        Heuristic parameters (``heuristic.default_params()``).
    rng_state : uint64[4]
        xoshiro256** state, advanced in place.
    tricks_out : int64[n, 4]
        Filled with the tricks each seat won over all 13 tricks.
    """
    if isinstance(policy_of_seat, np.ndarray) and policy_of_seat.shape == (4,) and isinstance(hands, np.ndarray):
        policy_of_seat = np.ascontiguousarray(np.broadcast_to(policy_of_seat, (hands.shape[0], 4)))
    _check_batch(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, tricks_out)
    kernels = kernels_for(np.unique(policy_of_seat))
    kernels._playout_kernel(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat,
                            np.asarray(params, dtype=np.float64), rng_state, rules.KIND, rules.EXPOSURE, tricks_out)


def new_round(hands, leader, contract_of, partner, trump, called_card, blind) -> np.ndarray:
    """Return an initialised state array for one round (for Python drivers and tests)."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    init_round(st, np.asarray(hands, dtype=np.int64), leader, np.asarray(contract_of, dtype=np.int64), partner,
               trump, called_card, blind, rules.KIND, rules.EXPOSURE)
    return st


def playout_one(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state):
    """Play out one round; return ``(tricks int64[4], trace int64[52, 4])``, trace rows as in ``play_round``."""
    policy_of_seat = np.asarray(policy_of_seat, dtype=np.int64)
    _check_policies(policy_of_seat)
    st = new_round(hands, leader, contract_of, partner, trump, called_card, blind)
    trace = np.empty((52, 4), dtype=np.int64)
    kernels_for(np.unique(policy_of_seat)).play_round(st, policy_of_seat, np.asarray(params, dtype=np.float64),
                                                      rng_state, trace)
    return st[TRICKS:TRICKS + 4].copy(), trace
