"""The sampled-dd policy: per-world values against a brute-force oracle, the choice over worlds, honesty,
legality and reproducibility."""

import itertools

import numpy as np
import pytest

from analyzer.cards.deck import parse_card_list
from analyzer.cards.pbn import parse_hand
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.bidding import qualifying_contracts
from analyzer.games.rikken.expert import distinct_actions, expert_params
from analyzer.games.rikken.kernels import (
    POLICY_EXPERT,
    POLICY_HEURISTIC,
    apply_action,
    choose_action,
    choose_card_heuristic,
    legal_actions,
    new_round,
)
from analyzer.games.rikken.misery_playout import misery_defence_card
from analyzer.games.rikken.rules import Contract
from analyzer.games.rikken.sampled_dd import (
    POLICY_SAMPLED_DD,
    best_action,
    choose_sampled,
    decided_action,
    fits_the_bidding,
    open_goals,
    playout_batch_sampled,
    playout_one_sampled,
    world_values,
)
from analyzer.games.rikken.state import RoundSetup, RoundState

from tests.solvers.reference_minimax import Rules, can_force, max_tricks
from .test_contract_invariants import as_arrays, cut_to_ending, random_setups
from .test_expert_policy import _swapped

SD = POLICY_SAMPLED_DD
FD = L.FACE_DOWN_OFFSET


def _oracle_values(hands, trump, seat, team, goal, k, actions, alike_zero=True):
    """What ``world_values`` must give for one question, by plain minimax (``reference_minimax``); with
    ``alike_zero`` False each action's plain value, 1 when it keeps the side's result."""
    rules = Rules(trump, [s for s in range(4) if team >> s & 1])
    tuples = [tuple(cards_of(int(h))) for h in hands]
    ours = bool(team >> seat & 1)

    def after(card):
        left = [tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(tuples)]
        return left, (seat + 1) % 4, ((seat, card, False),)

    if goal == "max":
        root = max_tricks(rules, tuples, seat)
        keeps = [max_tricks(rules, *after(card)) == root for card in actions]
    else:
        lo, hi = {"le": (0, k), "eq": (k, k), "ge": (k, 99)}[goal]
        keeps = []
        for card in actions:
            left, mover, trick = after(card)
            keeps.append(can_force(rules, left, mover, lo, hi, trick) == ours)
    if alike_zero and (all(keeps) or not any(keeps)):
        return [0.0] * len(actions)
    return [1.0 * keep for keep in keeps]


@pytest.mark.parametrize("kind", ["misery", "one", "tricks"])
def test_world_values_agree_with_brute_force(kind):
    rng = np.random.default_rng(11)
    differing = 0
    for _ in range(40):
        size = 3 if kind == "tricks" else 4  # the oracle's trick counts cost one minimax per count
        cards = rng.permutation(52)[:4 * size]
        hands = np.array([sum(1 << int(c) for c in cards[size * s:size * (s + 1)]) for s in range(4)], dtype=np.int64)
        seat, declarer = int(rng.integers(4)), int(rng.integers(4))
        team = 1 << declarer
        trump = NO_TRUMP if kind != "tricks" else int(rng.integers(4))
        goal, k = {"misery": ("le", 0), "one": ("eq", 1), "tricks": ("ge", int(rng.integers(1, size + 1)))}[kind]
        won, tricks_left = [0, 0, 0, 0], size
        contract = {"misery": Contract.MISERY, "one": Contract.ONE_ALONE, "tricks": Contract.ALONE_9}[kind]
        contract_of = [int(contract) if s == declarer else -1 for s in range(4)]
        kind_of = [int({"misery": L.KIND_MISERY, "one": L.KIND_ONE, "tricks": L.KIND_TRICKS}[kind])
                   if s == declarer else -1 for s in range(4)]
        goals = open_goals(won, contract_of, kind_of, -1, tricks_left)
        assert len(goals) == 1
        if kind == "tricks":
            goals[0].goal, goals[0].k = "ge", k  # any target: the contract's own (9) is out of reach of an ending
        actions = cards_of(int(hands[seat]))
        low, high = world_values(hands, trump, seat, [], False, -1, False, goals, actions, {})
        want = _oracle_values(hands, trump, seat, team, goal, k, actions)
        if kind == "tricks":
            extra = _oracle_values(hands, trump, seat, team, "max", 0, actions)
            want = [a + b / 32 for a, b in zip(want, extra)]
        assert low == pytest.approx(want) and high == pytest.approx(want), (hands, seat, declarer, trump)
        differing += len(set(want)) > 1
    assert differing >= 5


@pytest.mark.parametrize("kind", ["misery", "one"])
def test_budgeted_world_values_bound_the_true_values(kind):
    """A finished solve gives the exact values; one stopped by the budget bounds each action's plain value
    (1 when it keeps the side's result; the finished solve's "all alike scores 0" needs every verdict)."""
    rng = np.random.default_rng(12)
    stopped = 0
    for _ in range(30):
        cards = rng.permutation(52)[:16]
        hands = np.array([sum(1 << int(c) for c in cards[4 * s:4 * s + 4]) for s in range(4)], dtype=np.int64)
        seat, declarer = int(rng.integers(4)), int(rng.integers(4))
        goal, k = {"misery": ("le", 0), "one": ("eq", 1)}[kind]
        contract = {"misery": Contract.MISERY, "one": Contract.ONE_ALONE}[kind]
        goals = open_goals([0] * 4, [int(contract) if s == declarer else -1 for s in range(4)],
                           [int(L.KIND_MISERY if kind == "misery" else L.KIND_ONE) if s == declarer else -1
                            for s in range(4)], -1, 4)
        actions = cards_of(int(hands[seat]))
        exact = _oracle_values(hands, NO_TRUMP, seat, 1 << declarer, goal, k, actions)
        plain = _oracle_values(hands, NO_TRUMP, seat, 1 << declarer, goal, k, actions, alike_zero=False)
        for budget in (1, 2, 4, 8):
            low, high = world_values(hands, NO_TRUMP, seat, [], False, -1, False, goals, actions, {}, budget)
            if low == high:
                assert low == exact, (hands, seat, budget)
                continue
            stopped += 1
            assert all(lo <= want <= hi for lo, want, hi in zip(low, plain, high)), (hands, seat, budget)
    assert stopped > 10, "the budgets must stop some solves, or the test checks nothing"


def test_best_action_takes_the_best_total_and_the_heuristics_card_on_ties():
    actions = [3, 7, 20]

    def exact(totals, own):
        return best_action(actions, np.array(totals), np.array(totals), own=own, weight_sum=4.0)

    assert exact([1.0, 2.0, 2.0], own=7) == 7
    assert exact([1.0, 2.0, 2.0], own=3) == 7
    assert exact([1.0, 2.0, 2.0], own=21) == 21  # 21 is in 20's class
    assert exact([1.0, 2.0, 3.0], own=3) == 20


def test_best_action_leaves_the_fallback_card_only_for_one_proved_better():
    actions = [3, 7, 20]
    # 7 may be worth 1 or 3: not proved worse than 20's 2, so the fallback (expert) card 7 stands.
    assert best_action(actions, np.array([0.0, 1.0, 2.0]), np.array([0.0, 3.0, 2.0]), own=7, weight_sum=4.0) == 7
    # 3's best case (1) is below 20's worst (2): 20 is proved better; 7 (at least 1.5) is not proved better.
    assert best_action(actions, np.array([0.0, 1.5, 2.0]), np.array([1.0, 3.0, 2.0]), own=3, weight_sum=4.0) == 20


def test_decided_action_stops_only_when_no_later_world_can_change_the_card():
    actions = [3, 7, 20]

    def decided(low, high, own, left):
        return decided_action(actions, np.array(low), np.array(high), own, 8.0, left)

    # own (7) leads 20 by 2: decided while 2 or less may still come, open at 2.5.
    assert decided([0.0, 3.0, 1.0], [0.0, 3.0, 1.0], own=7, left=2.0) == 7
    assert decided([0.0, 3.0, 1.0], [0.0, 3.0, 1.0], own=7, left=2.5) is None
    # 20 leads own (3) and 7 by more than what may come: 20, whose lead over 7 must be strict.
    assert decided([0.0, 1.0, 3.5], [0.0, 1.0, 3.5], own=3, left=2.0) == 20
    assert decided([0.0, 1.5, 3.5], [0.0, 1.5, 3.5], own=3, left=2.0) is None
    # Bounds: own's best case counts for own, the others' worst case for them.
    assert decided([0.0, 1.0, 2.0], [0.0, 4.0, 2.0], own=7, left=2.0) == 7
    assert decided([0.0, 1.0, 3.5], [0.0, 1.0, 3.5], own=3, left=0.0) == 20


def test_stopping_early_plays_the_card_of_every_world_solved_and_draws_the_same():
    # The oracle: choose_sampled with the early stop switched off solves every world (best_action at the end).
    checked = stopped = 0
    for setup in _endings(14, 77, 6):
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        for _ in range(12):
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            calls = []

            def counting(*args, **kwargs):
                calls.append(1)
                return world_values(*args, **kwargs)

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(sampled_dd, "world_values", counting)
                stream = state_from_seed(checked)
                action = choose_sampled(st, seat, int(up), int(fd), default_params(), stream, {})
                early = len(calls)
                patch.setattr(sampled_dd, "decided_action", lambda *args: None)
                full = state_from_seed(checked)
                assert choose_sampled(st, seat, int(up), int(fd), default_params(), full, {}) == action
            assert (full == stream).all()
            stopped += early < len(calls) - early
            checked += 1
            apply_action(st, seat, action)
    assert checked > 100 and stopped > 10


def test_a_retry_without_limit_plays_the_card_of_an_unbudgeted_search(monkeypatch):
    # The oracle: the decision searched with no budget at all. A budget of one completed trick stops most
    # questions; retried with no practical limit, every stopped world is solved exactly, so the card is the same.
    differs = same = 0
    for setup in _endings(10, 91, 6, ("misery", "trick")):
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        for step in range(8):
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            exact = choose_sampled(st, seat, int(up), int(fd), default_params(), state_from_seed(step), {}, budget=0)
            monkeypatch.setattr(sampled_dd, "RETRY_BUDGET", 10 ** 11)
            retried = choose_sampled(st, seat, int(up), int(fd), default_params(), state_from_seed(step), {}, budget=1)
            monkeypatch.setattr(sampled_dd, "RETRY_BUDGET", 0)
            stopped = choose_sampled(st, seat, int(up), int(fd), default_params(), state_from_seed(step), {}, budget=1)
            assert retried == exact
            differs += stopped != exact
            same += 1
            apply_action(st, seat, exact)
    # The check bites: without the retry the budget of one trick changed some cards.
    assert same == 80 and differs > 0


MISERE = parse_hand("7532.6432.752.42")  # the misère: the bidding policy bids Misery with it
NOT_MISERE = parse_hand("AKJT9876.A32.54.")  # a one-suiter: never a Misery bid


def _misery_round(declarer_hand):
    """A Misery of seat 0 holding ``declarer_hand``, the other cards dealt in turn, seat 1 to lead."""
    rest = [c for c in range(52) if not declarer_hand >> c & 1]
    hands = [declarer_hand] + [sum(1 << c for c in rest[13 * s:13 * s + 13]) for s in range(3)]
    return new_round(hands, 1, [int(Contract.MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)


def test_the_bidding_filter_asks_a_misery_bidder_for_a_misere_in_trick_1_only():
    st = _misery_round(MISERE)
    world = st.copy()
    assert fits_the_bidding(st, 1, world)
    assert fits_the_bidding(st, 0, world)  # the declarer himself: nothing hidden to ask about
    world[L.HAND] = NOT_MISERE
    assert not fits_the_bidding(st, 1, world)
    st[L.TRICK_NO] = 1  # later the declarer's played cards are unknown to the state: no filter
    assert fits_the_bidding(st, 1, world)
    # In trick 1 the declarer's card on the table is part of the hand he bid with.
    st = _misery_round(MISERE)
    lowest = (MISERE & -MISERE).bit_length() - 1
    st[L.TRICK + 0] = lowest
    world[L.HAND] = MISERE & ~(1 << lowest)
    assert fits_the_bidding(st, 1, world)
    st[L.TRICK + 0] = lowest + 7  # the club nine instead of the two: no misère, though the other 12 cards are
    assert not fits_the_bidding(st, 1, world)


def test_with_the_filter_a_misery_bidders_worlds_hold_misere_hands(monkeypatch):
    # The oracle for "a misère hand": the declarer's real hand and the bidding policy's own rule on others.
    qualifying = {True: 0, False: 0}
    for tries in (0, 100):
        monkeypatch.setattr(sampled_dd, "BID_TRIES", tries)
        seen = []
        monkeypatch.setattr(sampled_dd, "world_values",
                            lambda *args, **kwargs: (seen.append(int(args[0][0])), ([0.0] * len(args[8]),) * 2)[1])
        st = _misery_round(MISERE)
        up, fd = legal_actions(st, 1)
        choose_sampled(st, 1, int(up), int(fd), default_params(), state_from_seed(5), {})
        qualifying[tries > 0] = sum(int(Contract.MISERY) in qualifying_contracts(h) for h in seen) / len(seen)
    assert qualifying[True] == 1.0 and qualifying[False] < 0.5


def test_with_every_hand_seen_it_plays_a_card_that_beats_an_open_misery_all():
    rng = np.random.default_rng(4)
    checked = 0
    while checked < 6:
        cards = rng.permutation(52)[:12]
        hands = [sum(1 << int(c) for c in cards[3 * s:3 * s + 3]) for s in range(4)]
        st = new_round(hands, 1, [int(Contract.OPEN_MISERY_ALL), -1, -1, -1], -1, NO_TRUMP, -1, 0)
        st[L.TRICK_NO] = 1  # after trick 1 every hand is on the table: one world, the real one
        up, fd = legal_actions(st, 1)
        rules = Rules(NO_TRUMP, [0])
        tuples = [tuple(cards_of(h)) for h in hands]
        beats = {c: not can_force(rules, [tuple(x for x in h if x != c) if s == 1 else h for s, h in enumerate(tuples)],
                                  2, 0, 0, ((1, c, False),)) for c in cards_of(int(up))}
        if all(beats.values()) or not any(beats.values()):
            continue
        # Every hand is seen, so every world is the real one (the cards dealt to no hand of this made-up
        # ending are drawn to the pile of unseen cards, which no trick reaches).
        assert beats[choose_sampled(st, 1, int(up), int(fd), default_params(), state_from_seed(1), {})]
        checked += 1


def _endings(n, seed, size, families=("trick", "blind", "king", "troela", "misery", "nocall")):
    rng = np.random.default_rng(seed)
    return [cut_to_ending(s, size, rng) for s in random_setups(n, seed, families)]


def test_decisions_do_not_depend_on_hidden_cards():
    rng = np.random.default_rng(8)
    compared = searched = 0
    for setup in _endings(12, 41, 5):
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        stream = state_from_seed(9)
        for _ in range(20):
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            other = _swapped(st, seat, rng)
            before = stream.copy()
            action = choose_sampled(st, seat, int(up), int(fd), default_params(), stream, {})
            if other is not None:
                again = before.copy()
                assert choose_sampled(other, seat, int(up), int(fd), default_params(), again, {}) == action
                assert (again == stream).all()
                compared += 1
                searched += int((before != stream).any())
            apply_action(st, seat, action)
    assert compared > 60 and searched > 20


def test_rounds_are_legal_reproducible_and_batch_equals_one_by_one():
    setups = _endings(10, 52, 5)
    seats = np.array([SD, POLICY_HEURISTIC, SD, 0], dtype=np.int64)
    one_by_one, traces = [], []
    stream = state_from_seed(6)
    for setup in setups:
        tricks, trace = playout_one_sampled(**setup, policy_of_seat=seats, params=default_params(), rng_state=stream)
        state = RoundState(RoundSetup(tuple(setup["hands"]), setup["leader"], tuple(setup["contract_of"]),
                                      setup["partner"], setup["trump"], setup["called_card"], bool(setup["blind"])))
        for _seat, action, _up, _fd in trace:
            state.play(int(action) % FD, bool(action >= FD))  # refuses an illegal card
        assert state.tricks == list(tricks)
        one_by_one.append(tricks)
        traces.append(trace)
    again = [playout_one_sampled(**s, policy_of_seat=seats, params=default_params(), rng_state=state_from_seed(6))
             for s in setups[:1]]
    assert (again[0][1] == traces[0]).all()
    arrays = as_arrays(setups)
    out = np.zeros((len(setups), 4), dtype=np.int64)
    playout_batch_sampled(**arrays, policy_of_seat=np.tile(seats, (len(setups), 1)), params=default_params(),
                          rng_state=state_from_seed(6), tricks_out=out)
    assert (out == np.array(one_by_one)).all()


def test_a_seat_with_one_distinct_card_draws_nothing():
    hands = [0b111 << 13 * s for s in range(4)]  # each seat holds three touching cards of its own suit
    st = new_round(hands, 0, [int(Contract.ALONE_9), -1, -1, -1], -1, 0, -1, 0)
    apply_action(st, 0, 0)
    up, fd = legal_actions(st, 1)
    stream = state_from_seed(3)
    assert choose_sampled(st, 1, int(up), int(fd), default_params(), stream, {}) in cards_of(int(up))
    assert (stream == state_from_seed(3)).all()
    assert list(itertools.islice(cards_of(int(up)), 1)) == [13]


def test_where_every_world_ties_it_plays_the_expert_searching_from_the_opening_lead(monkeypatch):
    # Every card scores alike in every world: the card is the expert's, with its search from trick 1,
    # drawn first from the same stream, except a Misery defender's following suit (the rule keeping low cards).
    monkeypatch.setattr(sampled_dd, "world_values", lambda *args, **kwargs: ([0.0] * len(args[8]),) * 2)
    expert_from_trick_1 = expert_params(first_trick=1)
    checked = differs = ruled = 0
    for setup in random_setups(16, 61, ("misery", "trick")):
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        for _ in range(3):  # the opening lead and the next two cards
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            stream = state_from_seed(checked)
            # (A single distinct card is played as its class's lowest, before any rule.)
            single = distinct_actions(st, seat, up, fd, np.empty(26, dtype=np.int64)) == 1
            expected = -1 if single else misery_defence_card(st, seat, int(up))
            ruled += expected >= 0
            if expected < 0:
                expected = int(choose_action(st, seat, up, fd, POLICY_EXPERT, expert_from_trick_1, stream.copy()))
            action = choose_sampled(st, seat, int(up), int(fd), default_params(), stream, {})
            assert action == expected
            differs += expected != int(choose_card_heuristic(st, seat, up, fd, default_params()))
            checked += 1
            apply_action(st, seat, action)
    # The check bites: at some of these early cards the expert's search picks another card than the heuristic.
    assert checked == 48 and differs > 0 and 0 < ruled < checked


def _mask_of(text):
    return sum(1 << c for c in parse_card_list(text))


@pytest.mark.parametrize("played, holding, expected", [
    ("C2 C9 C3", "CT CQ CK CA", "CA"),  # nothing below the winner (C9): the highest
    ("C2 C8 C6", "C3 C5 CT CQ CK", "C5"),  # the highest below the winner (C8), keeping C3
    ("C5", "C3 C4 C9", "C4"),  # the declarer winning: duck under him with the highest that does
])
def test_a_misery_defender_among_equals_keeps_low_cards_and_sheds_high_ones(played, holding, expected):
    # Hand-made: N declares Misery and leads; the defender to play holds ``holding``; by the rule, the highest
    # card below the card winning the trick, else the highest.
    trick = parse_card_list(played)
    seat = len(trick)
    others = [c for c in range(52) if c // 13 != 0]
    hands = [0, 0, 0, 0]
    for i, card in enumerate(trick):
        hands[i] |= 1 << card
    hands[seat] |= _mask_of(holding)
    for s in range(4):
        while bin(hands[s]).count("1") < 5:
            hands[s] |= 1 << others.pop()
    st = new_round(hands, 0, [int(Contract.MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    for i, card in enumerate(trick):
        apply_action(st, i, card)
    up, _ = legal_actions(st, seat)
    assert misery_defence_card(st, seat, int(up)) == parse_card_list(expected)[0]


def test_the_misery_defence_rule_leaves_leads_declarers_discards_and_other_contracts_to_the_expert():
    hands = [_mask_of("C2 C7 D2"), _mask_of("C3 CA D3"), _mask_of("H4 H5 H6"), _mask_of("S4 S5 S6")]
    st = new_round(hands, 0, [int(Contract.MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    up, _ = legal_actions(st, 0)
    assert misery_defence_card(st, 0, int(up)) == -1  # a lead
    apply_action(st, 0, parse_card_list("C7")[0])
    up, _ = legal_actions(st, 1)
    assert misery_defence_card(st, 1, int(up)) == parse_card_list("C3")[0]
    apply_action(st, 1, parse_card_list("C3")[0])
    up, _ = legal_actions(st, 2)
    assert misery_defence_card(st, 2, int(up)) == -1  # void in clubs: a discard
    rik = new_round(hands, 1, [int(Contract.ALONE_9), -1, -1, -1], -1, 3, -1, 0)
    apply_action(rik, 1, parse_card_list("C3")[0])
    up, _ = legal_actions(rik, 2)
    assert misery_defence_card(rik, 2, int(up)) == -1  # not a Misery
    declarer = new_round(hands, 1, [int(Contract.MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    apply_action(declarer, 1, parse_card_list("C3")[0])
    up, _ = legal_actions(declarer, 0)
    assert misery_defence_card(declarer, 0, int(up)) == -1  # the declarer himself


def test_where_no_world_tells_the_cards_apart_tie_worlds_are_drawn_and_decide(monkeypatch):
    # Scripted worlds: the first WORLDS tie; the extra ones value the highest distinct card above the rest.
    # With TIE_WORLDS the extra worlds are drawn and solved and their card played; without, the tie's card.
    setup = random_setups(4, 71, ("misery",))[0]
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    seat = int(st[L.TURN])
    up, fd = legal_actions(st, seat)
    reps = np.empty(26, dtype=np.int64)
    n_actions = distinct_actions(st, seat, up, fd, reps)
    assert n_actions > 1
    calls = []

    def scripted(*args, **kwargs):
        calls.append(1)
        values = [0.0] * n_actions
        if len(calls) > sampled_dd.WORLDS:
            values[-1] = 1.0
        return values, values

    monkeypatch.setattr(sampled_dd, "world_values", scripted)
    played = {}
    for tie_worlds in (0, 5):
        monkeypatch.setattr(sampled_dd, "TIE_WORLDS", tie_worlds)
        calls.clear()
        played[tie_worlds] = choose_sampled(st, seat, int(up), int(fd), default_params(), state_from_seed(9), {})
        assert len(calls) == sampled_dd.WORLDS + tie_worlds
    assert played[5] == int(reps[n_actions - 1]) != played[0]

    # A world that already told the cards apart draws no more.
    def separating(*args, **kwargs):
        calls.append(1)
        values = [0.0] * n_actions
        values[-1] = 1.0
        return values, values

    monkeypatch.setattr(sampled_dd, "world_values", separating)
    calls.clear()
    assert choose_sampled(st, seat, int(up), int(fd), default_params(), state_from_seed(9), {}) == int(reps[-1 + n_actions])
    assert len(calls) <= sampled_dd.WORLDS
