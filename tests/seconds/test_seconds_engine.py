"""Engine contract and kernel-versus-reference checks for Sloppy Seconds."""

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from analyzer.cards.dealing import deal_random, shuffle_into_hands
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.seconds import kernels, policies
from analyzer.games.seconds import state as reference
from analyzer.games.seconds.kernels import unmanaged
from analyzer.games.seconds.play import game_over, game_states, kernels_for, simulate_deals, simulate_games
from analyzer.games.seconds.policies import POLICY_HEURISTIC, POLICY_RANDOM, POLICY_SAMPLING, params_array
from analyzer.games.seconds.rules import CARD_VALUES, SecondsRules


def reference_chooser(seat_policies, minimum, params):
    def choose(state, rng):
        policy = seat_policies[state.to_play]
        if policy == POLICY_HEURISTIC:
            return reference.heuristic_choice(state, minimum, params)
        if policy == POLICY_SAMPLING:
            return reference.sampling_choice(state, minimum, params, rng)
        return reference.random_choice(state, rng)

    return choose


def replay_and_check(deal, leader, history, rules):
    """Replay a kernel's card sequence on the reference, checking the contract at every card."""
    state = reference.DealState(deal, leader, rules.trump_id)
    for card in history:
        seat = state.to_play
        legal = state.legal()
        assert legal and all(state.hands[seat] >> c & 1 for c in legal)
        state.play(int(card))
    assert state.done
    return state


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("trump", ["seed", "original"])
def test_engine_contract(n, trump):
    rules = SecondsRules(n_players=n, trump=trump, minimum="per-suit" if n % 2 else "per-hand")
    deals = deal_random(20, 100 + n, n, rules.deck)
    leaders = np.arange(20) % n
    policies = [POLICY_RANDOM if p % 2 else POLICY_HEURISTIC for p in range(n)]
    out = simulate_deals(deals, leaders, policies, rules, seed=n)
    deck_points = sum(int(CARD_VALUES[c]) for c in cards_of(rules.deck))
    for d in range(20):
        dealt = sorted(c for h in deals[d] for c in cards_of(h))
        assert sorted(out["history"][d].tolist()) == dealt == cards_of(rules.deck)
        state = replay_and_check(deals[d].tolist(), int(leaders[d]), out["history"][d], rules)
        assert out["taken"][d].tolist() == state.taken
        assert out["taken"][d].sum() == deck_points
        assert out["scores"][d].tolist() == state.scores(rules.minimum_id)
        assert (out["trump_suit"][d], out["trump_trick"][d]) == (state.trump, state.trump_trick)
        assert (out["scores"][d] >= 5).all() if rules.minimum == "per-hand" else (out["scores"][d] >= 0).all()


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("trump", ["seed", "original"])
def test_random_and_heuristic_kernels_match_reference_card_for_card(n, trump):
    # Table-size parameters: the per-suit floor counts in the heuristic's values from 6 players on only, and
    # only with the per-suit minimum, so both minimum rules are paired with both trump rules across the sizes.
    minimum = "per-suit" if (n + (trump == "seed")) % 2 else "per-hand"
    rules = SecondsRules(n_players=n, trump=trump, minimum=minimum)
    params = params_array(n)
    n_deals = 40
    deals = deal_random(n_deals, 7 * n, n, rules.deck)
    leaders = np.arange(n_deals) % n
    policies = [POLICY_HEURISTIC if p % 2 == 0 else POLICY_RANDOM for p in range(n)]
    out = simulate_deals(deals, leaders, policies, rules, seed=11, params=params)
    rng = state_from_seed(11)
    choose = reference_chooser(policies, rules.minimum_id, params)
    for d in range(n_deals):
        state = reference.play_deal(deals[d].tolist(), int(leaders[d]), rules.trump_id, choose, rng)
        assert state.history == out["history"][d].tolist()
        assert state.scores(rules.minimum_id) == out["scores"][d].tolist()


def test_a_kernel_set_leaves_out_the_policies_it_was_not_made_for():
    # heuristic and random seats compile without the sampling policy (its branch is pruned by its switch):
    # that is what makes their first run cheap; the set with every policy keeps it
    light = kernels_for((POLICY_HEURISTIC, POLICY_RANDOM)).play_deal.py_func.__globals__
    every = kernels_for((POLICY_RANDOM, POLICY_HEURISTIC, POLICY_SAMPLING)).play_deal.py_func.__globals__
    assert (light["_WITH_SAMPLING"], light["_WITH_HEURISTIC"], light["_WITH_RANDOM"]) == (False, True, True)
    assert every["_WITH_SAMPLING"] and kernels_for([POLICY_RANDOM]).play_deal.py_func.__globals__[
        "_WITH_HEURISTIC"] is False


def test_sampling_kernel_matches_reference_on_short_deals():
    # Four cards each (three players): the Python twin of the sampling search stays quick.
    rules = SecondsRules(n_players=3, trump="original")
    params = params_array(n_samples=3)
    full = deal_random(4, 5, 3, rules.deck)
    deals = np.array([[_lowest_bits(h, 4) for h in row] for row in full], np.int64)
    policies = [POLICY_SAMPLING, POLICY_RANDOM, POLICY_SAMPLING]
    out = simulate_deals(deals, np.zeros(4, np.int64), policies, rules, seed=3, params=params)
    rng = state_from_seed(3)
    choose = reference_chooser(policies, rules.minimum_id, params)
    for d in range(4):
        state = reference.play_deal(deals[d].tolist(), 0, rules.trump_id, choose, rng)
        assert state.history == out["history"][d].tolist()


def _lowest_bits(mask, k):
    return sum(1 << c for c in cards_of(mask)[:k])


def test_sampled_worlds_respect_sizes_and_shown_voids():
    rules = SecondsRules(n_players=4)
    deal = deal_random(1, 9, 4)[0].tolist()
    state = reference.DealState(deal, 0, rules.trump_id)
    rng = state_from_seed(1)
    for _ in range(12):
        state.play(reference.random_choice(state, rng))
    params = params_array()
    for _ in range(20):
        world = reference.sample_world(state, state.to_play, rng, params)
        seat = state.to_play
        assert world[seat] == state.hands[seat]
        assert sorted(c for h in world for c in cards_of(h)) == sorted(c for h in state.hands for c in cards_of(h))
        for p in range(4):
            assert len(cards_of(world[p])) == len(cards_of(state.hands[p]))
            for c in cards_of(world[p]):
                assert p == seat or not state.voids[p] >> (c // 13) & 1


def test_deals_with_unequal_hands_are_rejected():
    rules = SecondsRules(n_players=4)
    deals = deal_random(3, 2, 4)
    deals[1, 2] &= deals[1, 2] - 1  # drop one card from one hand of the second deal
    with pytest.raises(InputError, match="same number of cards"):
        simulate_deals(deals, np.zeros(3, np.int64), [POLICY_RANDOM] * 4, rules, seed=0)


def test_unmanaged_view_writes_through_to_its_array():
    owner = np.zeros((2, 3), np.int64)
    _fill_through_view(owner)
    # The view shares the buffer: every write lands in ``owner`` at the same index.
    assert owner.tolist() == [[0, 1, 2], [10, 11, 12]]


def test_unmanaged_view_refuses_strided_arrays():
    # A strided view would be read as if it were contiguous: typing must refuse it.
    with pytest.raises(TypingError):
        _fill_through_view(np.zeros((2, 6), np.int64)[:, ::2])


@njit
def _fill_through_view(owner):
    view = unmanaged(owner)
    for i in range(2):
        for j in range(3):
            view[i, j] = 10 * i + j


def test_game_over_rules():
    # Target 1000: nobody there yet; one player there alone; two tied on top (play on); tie below top.
    assert game_over(np.array([999, 50]), 1000) == -1
    assert game_over(np.array([1000, 999]), 1000) == 0
    assert game_over(np.array([1010, 1010, 3]), 1000) == -1
    assert game_over(np.array([1005, 1005, 1200]), 1000) == 2


def test_games_match_reference_game_loop():
    rules = SecondsRules(n_players=3, target=150)
    states = game_states(np.random.SeedSequence(4), 3)
    out = simulate_games(3, [POLICY_RANDOM] * 3, rules, None, states=states)
    deck_cards = np.array(cards_of(rules.deck), np.int64)
    choose = reference_chooser([POLICY_RANDOM] * 3, rules.minimum_id, params_array())
    for g in range(3):
        deal_rng, play_rng = states[0][g].copy(), states[1][g].copy()
        cards, dealt = deck_cards.copy(), np.zeros(3, np.int64)
        totals, dealer, count = [0, 0, 0], g % 3, 0
        while True:
            shuffle_into_hands(deal_rng, cards, 3, dealt)
            state = reference.play_deal(dealt.tolist(), (dealer + 1) % 3, rules.trump_id, choose, play_rng)
            totals = [t + s for t, s in zip(totals, state.scores(rules.minimum_id))]
            count += 1
            dealer = (dealer + 1) % 3
            top = max(totals)
            if top >= rules.target and totals.count(top) == 1:
                break
        assert out["totals"][g].tolist() == totals
        assert out["n_deals"][g] == count and out["winner"][g] == totals.index(top)


def test_same_seed_same_games():
    rules = SecondsRules(n_players=4, target=200)
    a = simulate_games(4, [POLICY_HEURISTIC, POLICY_RANDOM] * 2, rules, 21)
    b = simulate_games(4, [POLICY_HEURISTIC, POLICY_RANDOM] * 2, rules, 21)
    c = simulate_games(4, [POLICY_HEURISTIC, POLICY_RANDOM] * 2, rules, 22)
    assert all((a[k] == b[k]).all() for k in a)
    assert not (a["totals"] == c["totals"]).all()


def _brute_standings(taken, suit, me, other):
    """Top two distinct totals of the seats but ``me`` and ``other`` in ``suit``, and ``other``'s total."""
    rest = sorted({row[suit] for p, row in enumerate(taken) if p not in (me, other)}, reverse=True) + [-1, -1]
    return taken[me][suit], rest[0], rest[1], taken[other][suit] if other >= 0 else -1


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_standings_table_matches_the_totals_after_every_card(n):
    # The table is kept trick by trick (stale suits refreshed when looked up); every look-up, for every
    # seat, suit and current winner, must agree with a direct count over ``taken``.
    rules = SecondsRules(n_players=n)
    rng = state_from_seed(n)
    for deal in deal_random(6, 40 + n, n, rules.deck):
        arrays = kernels.new_state_arrays(n)
        kernels.init_round(deal, 0, *arrays)
        ref = reference.DealState(deal.tolist(), 0, rules.trump_id)
        while not ref.done:
            card = reference.random_choice(ref, rng)
            ref.play(card)
            kernels.apply_action(*arrays, card, rules.trump_id, CARD_VALUES)
            taken, meta = arrays[1], arrays[4]
            for me in range(n):
                for other in [-1, *range(n)]:
                    if other == me:
                        continue
                    for suit in range(4):
                        got = policies.standings(taken, meta, suit, me, other)
                        assert tuple(int(x) for x in got) == _brute_standings(ref.taken, suit, me, other)
