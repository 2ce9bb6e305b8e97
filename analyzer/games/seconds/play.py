"""Batch play of Sloppy Seconds deals and games, and the Python wrappers that seed and allocate.

Games: the dealer rotates clockwise after every deal and the player left of the dealer leads. Each game
has its own dealing stream and its own play stream, so the same game index sees the same sequence of
deals whatever policies sit at the table (paired comparisons). End of game and winner: see ``rules.py``.
"""

from functools import cache
from types import SimpleNamespace

import numpy as np
from numba import njit

from analyzer.cards.dealing import shuffle_into_hands
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.kernel_sets import compile_set, set_label
from analyzer.games.seconds.kernels import (
    M_IN_HANDS,
    M_LEADER,
    M_POS,
    M_TRUMP,
    M_TRUMP_TRICK,
    apply_card,
    init_round,
    load_scalars,
    new_state_arrays,
    score_deal,
    seat_after,
    settle_standings,
    store_scalars,
    unmanaged,
)
from analyzer.games.seconds.policies import (
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    POLICY_SAMPLING,
    choose_heuristic,
    choose_random,
    choose_sampling,
    counts_floor,
    heuristic_card,
    params_array,
)
from analyzer.games.seconds.rules import CARD_VALUES, SecondsRules


#: Which policies the templates below compile in: each kernel set (:func:`kernels_for`) runs them with its own
#: values, as numba constants, so that the policies it leaves out are pruned before they are compiled.
_WITH_RANDOM = _WITH_HEURISTIC = _WITH_SAMPLING = True
#: Whether the heuristic counts the suit floor (``policies.counts_floor``): 1 yes, 0 no, -1 decided at each
#: card. A set made for one rule and parameter set compiles one version of the heuristic instead of both
#: (half its compile time; the version is the one ``choose_heuristic`` would pick).
_FLOOR = -1


def play_deal(dealt, leader, seat_policies, variant, minimum, values, params, rng, state, history):
    """Play one deal from hands ``dealt`` with ``leader`` to lead; cards played go to ``history``.

    ``state`` is the 5-tuple of deal-state arrays (see ``kernels``); on return it holds the end of the deal.
    The standings table is kept only when a seat other than a random one is at the table.
    """
    hands, taken, voids, trick, meta = state
    n = dealt.shape[0]
    init_round(dealt, leader, hands, taken, voids, trick, meta)
    hands, taken, voids, trick = unmanaged(hands), unmanaged(taken), unmanaged(voids), unmanaged(trick)
    meta = unmanaged(meta)
    seat_policies, values, params = unmanaged(seat_policies), unmanaged(values), unmanaged(params)
    rng, history = unmanaged(rng), unmanaged(history)
    scalars = load_scalars(meta)
    track = False
    for p in range(n):
        track |= seat_policies[p] != POLICY_RANDOM
    k = 0
    while scalars[M_IN_HANDS] != 0:
        policy = seat_policies[seat_after(scalars[M_LEADER], scalars[M_POS], n)]
        if _WITH_RANDOM and policy == POLICY_RANDOM:
            card = choose_random(hands, rng, scalars)
        elif _WITH_HEURISTIC and policy == POLICY_HEURISTIC:
            if _FLOOR < 0:
                card = choose_heuristic(hands, taken, trick, meta, values, params, variant, minimum, scalars)
            else:
                card = heuristic_card(hands, taken, trick, meta, values, params, variant, _FLOOR == 1, scalars)
        elif _WITH_SAMPLING and policy == POLICY_SAMPLING:
            store_scalars(meta, scalars)
            card = choose_sampling(hands, taken, voids, trick, meta, variant, minimum, values, params, rng)
        else:
            # a policy the set was not made for (kernels_for's callers never pass one): a legal card, since
            # raising here, under the unmanaged views, corrupts memory
            card = choose_random(hands, rng, scalars)
        history[k] = card
        k += 1
        scalars = apply_card(hands, taken, voids, trick, values, variant, card, scalars)
        if track and scalars[M_POS] == 0:
            settle_standings(taken, meta, trick)
    store_scalars(meta, scalars)


def play_deals_kernel(deals, leaders, seat_policies, variant, minimum, values, params, rng,
                      scores, taken_out, trump_out, histories):
    """Play ``deals[d, n]`` with ``leaders[d]``; fill scores, taken points, (trump suit, trump trick), plays."""
    n = deals.shape[1]
    state = new_state_arrays(n)
    taken = state[1]
    for d in range(deals.shape[0]):
        play_deal(deals[d], leaders[d], seat_policies, variant, minimum, values, params, rng, state, histories[d])
        score_deal(taken, minimum, scores[d])
        for p in range(n):
            for s in range(taken.shape[1]):
                taken_out[d, p, s] = taken[p, s]
        trump_out[d, 0] = state[4][M_TRUMP]
        trump_out[d, 1] = state[4][M_TRUMP_TRICK]


@njit(cache=True)
def game_over(totals, target):
    """Winning seat once some total reaches ``target`` and the top total is unique, else -1."""
    best = 0
    tied = False
    for p in range(1, totals.shape[0]):
        if totals[p] > totals[best]:
            best = p
            tied = False
        elif totals[p] == totals[best]:
            tied = True
    if totals[best] >= target and not tied:
        return best
    return -1


def play_games_kernel(deck_cards, n_players, first_dealers, seat_policies, variant, minimum, target, values,
                      params, deal_states, play_states, totals, n_deals, winners):
    """Play one game per row of ``deal_states``/``play_states``; fill totals, deal counts and winners."""
    state = new_state_arrays(n_players)
    dealt = np.zeros(n_players, np.int64)
    scores = np.zeros(n_players, np.int64)
    history = np.zeros(deck_cards.shape[0], np.int64)
    cards = deck_cards.copy()
    for g in range(deal_states.shape[0]):
        deal_rng = deal_states[g].copy()
        play_rng = play_states[g].copy()
        cards[:] = deck_cards
        dealer = first_dealers[g]
        totals[g, :] = 0
        count = 0
        winner = -1
        while winner < 0:
            shuffle_into_hands(deal_rng, cards, n_players, dealt)
            leader = seat_after(dealer, 1, n_players)
            play_deal(dealt, leader, seat_policies, variant, minimum, values, params, play_rng, state, history)
            score_deal(state[1], minimum, scores)
            totals[g, :] += scores
            count += 1
            dealer = seat_after(dealer, 1, n_players)
            winner = game_over(totals[g], target)
        n_deals[g] = count
        winners[g] = winner


_TEMPLATES = (play_deal, play_deals_kernel, play_games_kernel)
_SWITCHES = {"_WITH_RANDOM": POLICY_RANDOM, "_WITH_HEURISTIC": POLICY_HEURISTIC, "_WITH_SAMPLING": POLICY_SAMPLING}


@cache
def _kernel_set(policies: frozenset[int], floor: int) -> dict:
    switches = {switch: policy in policies for switch, policy in _SWITCHES.items()}
    return compile_set(_TEMPLATES, globals(), {**switches, "_FLOOR": floor},
                       set_label(policies) + ("" if floor < 0 else f"_floor{floor}"))


def kernels_for(policies, minimum: int | None = None, params=None) -> SimpleNamespace:
    """``play_deal``, ``play_deals_kernel`` and ``play_games_kernel`` compiled for the policy ids ``policies``
    alone (a first run of heuristic and random seats does not compile the sampling policy); give them no
    other policy id (they would play it as random). With the rule's ``minimum`` and the policy ``params``
    the kernels run with, the heuristic is compiled for them alone; give the kernels no others."""
    ids = frozenset(int(policy) for policy in policies)
    floor = -1 if minimum is None or POLICY_HEURISTIC not in ids else int(counts_floor.py_func(minimum, params))
    return SimpleNamespace(**_kernel_set(ids, floor))


#: every policy compiled in, for scripts and tests that call the kernels directly
_EVERY = kernels_for(_SWITCHES.values())
play_deal = _EVERY.play_deal
play_deals_kernel = _EVERY.play_deals_kernel
play_games_kernel = _EVERY.play_games_kernel


def _check_policies(seat_policies, n_players: int) -> np.ndarray:
    ids = np.asarray(seat_policies, dtype=np.int64)
    if ids.shape != (n_players,):
        raise InputError(f"need one policy per seat ({n_players}), got {ids.size}")
    return ids


def simulate_deals(deals, leaders, seat_policies, rules: SecondsRules, seed, params=None) -> dict:
    """Play given deals to the end and score them.

    Parameters
    ----------
    deals : array_like
        ``int64[n_deals, n_players]`` hand masks (equal hand sizes).
    leaders : array_like
        Leading seat of each deal.
    seat_policies : sequence of int
        Policy id per seat (``policies.POLICY_*``).
    rules : SecondsRules
        Rule set; its player count must match the deals.
    seed : int or numpy.random.SeedSequence
        Seed of the play stream.
    params : numpy.ndarray, optional
        Policy parameters (``policies.params_array``).

    Returns
    -------
    dict
        ``scores`` int64[d, n], ``taken`` int64[d, n, 4], ``trump_suit`` and ``trump_trick`` int64[d]
        (-1 when no trump appeared), ``history`` int64[d, cards] (cards in play order).
    """
    deals = np.ascontiguousarray(deals, dtype=np.int64)
    leaders = np.ascontiguousarray(leaders, dtype=np.int64)
    n_deals, n = deals.shape
    if n != rules.n_players or leaders.shape != (n_deals,):
        raise InputError("deals and leaders do not match the number of players")
    # Vectorised: a Python loop over the hands took longer than playing them.
    sizes = np.bitwise_count(deals.view(np.uint64))
    if sizes.size and (sizes != sizes.flat[0]).any():
        raise InputError("every hand of every deal must hold the same number of cards")
    n_cards = n * (int(sizes.flat[0]) if sizes.size else 0)
    params = params_array(n) if params is None else params
    scores = np.zeros((n_deals, n), np.int64)
    taken = np.zeros((n_deals, n, 4), np.int64)
    trump = np.zeros((n_deals, 2), np.int64)
    history = np.zeros((n_deals, n_cards), np.int64)
    ids = _check_policies(seat_policies, n)
    kernels_for(ids, rules.minimum_id, params).play_deals_kernel(
        deals, leaders, ids, rules.trump_id, rules.minimum_id, CARD_VALUES, params, state_from_seed(seed), scores,
        taken, trump, history)
    return {"scores": scores, "taken": taken, "trump_suit": trump[:, 0], "trump_trick": trump[:, 1],
            "history": history}


def game_states(seed_seq: np.random.SeedSequence, n_games: int) -> tuple[np.ndarray, np.ndarray]:
    """Independent (dealing, play) PRNG states for ``n_games`` games, from one ``SeedSequence``."""
    deal_seq, play_seq = seed_seq.spawn(2)
    deal = np.stack([state_from_seed(s) for s in deal_seq.spawn(n_games)]) if n_games else np.zeros((0, 4), np.uint64)
    play = np.stack([state_from_seed(s) for s in play_seq.spawn(n_games)]) if n_games else np.zeros((0, 4), np.uint64)
    return deal, play


def simulate_games(n_games: int, seat_policies, rules: SecondsRules, seed_seq, params=None, first_game: int = 0,
                   states=None) -> dict:
    """Play ``n_games`` games to the target.

    Parameters
    ----------
    n_games : int
        Number of games.
    seat_policies : sequence of int
        Policy id per seat.
    rules : SecondsRules
        Rule set (players, variants, target).
    seed_seq : numpy.random.SeedSequence or int
        Seed of the games; ignored when ``states`` is given.
    params : numpy.ndarray, optional
        Policy parameters.
    first_game : int
        Global index of the first game: game ``g`` is first dealt by seat ``g mod n``.
    states : tuple of numpy.ndarray, optional
        (dealing, play) states from ``game_states``, to replay the same games with other policies.

    Returns
    -------
    dict
        ``totals`` int64[g, n], ``n_deals`` int64[g], ``winner`` int64[g].
    """
    if n_games < 0:
        raise InputError(f"number of games must be >= 0, got {n_games}")
    n = rules.n_players
    if states is None:
        seq = seed_seq if isinstance(seed_seq, np.random.SeedSequence) else np.random.SeedSequence(seed_seq)
        states = game_states(seq, n_games)
    params = params_array(n) if params is None else params
    deck_cards = np.array(cards_of(rules.deck), dtype=np.int64)
    first_dealers = (first_game + np.arange(n_games, dtype=np.int64)) % n
    totals = np.zeros((n_games, n), np.int64)
    n_deals = np.zeros(n_games, np.int64)
    winners = np.zeros(n_games, np.int64)
    ids = _check_policies(seat_policies, n)
    kernels_for(ids, rules.minimum_id, params).play_games_kernel(deck_cards, n, first_dealers, ids, rules.trump_id,
                      rules.minimum_id, int(rules.target), CARD_VALUES, params, states[0], states[1], totals,
                      n_deals, winners)
    return {"totals": totals, "n_deals": n_deals, "winner": winners}
