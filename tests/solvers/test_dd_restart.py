"""The restart driver (``restart``), its question entry (``api.solve_question``) and the salted move ordering
(``moves._salt_term``).

Oracles: Luby's sequence as printed in Luby, Sinclair and Zuckerman (1993); the brute-force minimax
(``reference_minimax.can_force``) on small no-trump endings with a lone declarer, Misery ("no trick")
and 1 Alone ("exactly one"), every seat leading; and, on larger endings, the plain search (salt 0, no
limit) in a fresh table, which the restarts and every salt must answer alike.  A tiny first limit
makes the driver restart many times on purpose, so aborted runs, salts and the kept table are all
exercised.  Salt 0 is the plain ordering: a salt adds exactly its ``_salt_term`` to each candidate's weight
(keys of ``moves._gen_moves`` at salt 0 and at salt s), so salt 0 adds nothing.
"""

import numpy as np
import pytest

from analyzer.cards.tricks import NO_TRUMP
from analyzer.errors import InputError
from analyzer.solvers.dd import api, solve
from analyzer.solvers.dd import layout as kernels
from analyzer.solvers.dd.moves import NO_CUTOFF_KEY, SALT_SPREAD, SCORE_OFFSET, _gen_moves, _salt_term
from analyzer.solvers.dd.restart import luby
from analyzer.solvers.dd.tables import MODE_EXACT, MODE_MAX, MODE_MIN

from .reference_minimax import Rules, can_force

WINDOWS = {"le": (-99, 0), "eq": (1, 1)}
NO_TRICK = np.full(4, -1, dtype=np.int64)


def _deal(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    hands = [sorted(cards[seat * size:(seat + 1) * size]) for seat in range(4)]
    return hands, np.array([sum(1 << c for c in hand) for hand in hands], dtype=np.int64)


def _restarts(masks, leader, declarer, goal, unit, budget=0, units=32):
    """The driver's answer in a fresh table and the completed tricks of all its runs."""
    answer = api.solve_question(masks, NO_TRUMP, leader, 1 << declarer, goal, 0 if goal == "le" else 1, unit=unit,
                                units=units, budget=budget)
    return answer, api.last_tricks()


def _salted(masks, leader, declarer, goal, salt):
    """The plain search with ``salt``, no limit, in a fresh table: its answer and completed tricks. Through api's
    private names on purpose: the salt is the solver's memory word, which no public call sets."""
    mem = api._work()
    api._k.set_context(mem, NO_TRUMP, 1 << declarer, api._GOAL_MODE[goal], -1, -1, api._next_generation())
    mem[kernels.M_CTX + kernels.C_SALT] = salt
    lo, hi = api._window(goal, 0 if goal == "le" else 1)
    answer = api._k.solve_window(mem, masks, NO_TRICK, leader, 0, False, lo, hi, False)
    mem[kernels.M_CTX + kernels.C_SALT] = 0
    return bool(answer), api.last_tricks()


def test_luby_sequence():
    assert [luby(i) for i in range(31)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8,
                                            1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16]


def test_restarts_match_brute_force_on_small_endings():
    rng = np.random.default_rng(36013)
    restarted = 0
    for i in range(30):
        hands, masks = _deal(rng, 4 if i % 6 == 0 else 3)
        declarer = int(rng.integers(4))
        for leader in range(4):
            for goal, (lo, hi) in WINDOWS.items():
                answer, tricks = _restarts(masks, leader, declarer, goal, unit=1)
                assert answer == can_force(Rules(NO_TRUMP, [declarer]), hands, leader, lo, hi)
                restarted += tricks > 1
    assert restarted >= 60  # most questions need several runs at this unit


def test_restarts_and_salts_match_the_plain_search():
    rng = np.random.default_rng(36014)
    differ = 0
    for i in range(300):
        _, masks = _deal(rng, 7)
        declarer = int(rng.integers(4))
        leader = int(rng.integers(4))
        goal = "le" if i % 2 else "eq"
        plain = solve(masks, NO_TRUMP, leader, 1 << declarer, goal, 0 if goal == "le" else 1)
        assert _restarts(masks, leader, declarer, goal, unit=16)[0] == plain
        costs = set()
        for salt in (1, 2, 3):
            answer, tricks = _salted(masks, leader, declarer, goal, salt)
            assert answer == plain
            costs.add(tricks)
        differ += len(costs) > 1
    assert differ >= 60  # the salts do reorder the search


def test_budget_stops_the_restarts_and_resets_the_context():
    rng = np.random.default_rng(36015)
    stopped = 0
    for _ in range(20):
        _, masks = _deal(rng, 9)
        answer, tricks = _restarts(masks, 0, 1, "eq", unit=4, budget=40)
        mem = api._work()
        assert [mem[kernels.M_CTX + c] for c in (kernels.C_SALT, kernels.C_LIMIT, kernels.C_ABORTED)] == [0, 0, 0]
        if answer is None:
            stopped += 1
            assert tricks >= 40
        else:
            assert answer == solve(masks, NO_TRUMP, 0, 2, "eq", 1)
    assert stopped >= 5


@pytest.mark.parametrize("salt", [1, 7, 12345])
def test_salt_term_is_bounded_and_spread(salt):
    present = np.int64((1 << 52) - 1)
    terms = [_salt_term(np.int64(salt), np.int64(card), np.int64(card % 4), present) for card in range(52)]
    assert all(0 <= t < SALT_SPREAD for t in terms)
    assert len(set(terms)) >= SALT_SPREAD // 2
    assert terms != [_salt_term(np.int64(salt + 1), np.int64(card), np.int64(card % 4), present) for card in range(52)]


def test_restarts_stop_after_their_units_and_one_unlimited_run_in_todays_order_finishes(monkeypatch):
    # A search that never finishes within a limit: the driver's schedule is then Luby's terms with salts
    # 0, 1, 2, ... until the runs together have spent RESTART_UNITS units, then one run with salt 0 and no
    # limit, which this fake finishes.
    from analyzer.solvers.dd import restart

    runs = []

    def fake_solve_window(mem, *args):
        ctx = kernels.M_CTX
        salt, limit = int(mem[ctx + kernels.C_SALT]), int(mem[ctx + kernels.C_LIMIT])
        runs.append((salt, limit - int(mem[ctx + kernels.C_TRICKS]) if limit else 0))
        assert len(runs) < 1000
        if limit:
            mem[ctx + kernels.C_TRICKS] = limit
            mem[ctx + kernels.C_ABORTED] = 1
        else:
            mem[ctx + kernels.C_TRICKS] += 7
        return True

    monkeypatch.setattr(restart, "solve_window", fake_solve_window)
    mem = np.zeros(kernels.M_CTX + kernels.CTX_SIZE, dtype=np.int64)
    assert restart.solve_window_restarts(mem, None, None, 0, 0, False, 0, 0, unit=3) is True
    # Luby's first 15 terms sum to 32 units (1+1+2+1+1+2+4 twice, then 8).
    assert runs == [(salt, 3 * term) for salt, term in enumerate([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8])] + [
        (0, 0)]
    assert restart.RESTART_UNITS == 32
    assert mem[kernels.M_CTX + kernels.C_SALT] == 0 and mem[kernels.M_CTX + kernels.C_LIMIT] == 0


def _keys(hands, seat, pos, led_suit, present, win_seat, win_card, trump, mode, salt):
    """The candidates of a node as (card, weight) pairs, ordered with ``salt`` (no hint, no cut-off card)."""
    mem = kernels.new_mem(8)
    mem[kernels.M_CTX + kernels.C_SALT] = salt
    n = _gen_moves(mem, hands, np.int64(seat), np.int64(pos), np.int64(led_suit), np.int64(present),
                   np.int64(win_seat), np.int64(win_card), np.int64(-1), np.int64(0), np.int64(trump), np.int64(1),
                   np.int64(mode), np.int64(-1), np.int64(-1), False, np.int64(NO_CUTOFF_KEY), False)[0]
    keys = mem[kernels.M_MOVES:kernels.M_MOVES + n]
    return sorted((255 - int(key & 255), int(key >> 8) - SCORE_OFFSET) for key in keys)


def test_salt_zero_is_the_plain_ordering():
    # Leads and second-hand follows, every kind of goal, trumps and no trump: at salt s each candidate's weight
    # is its salt-0 weight plus _salt_term(s, ...), so salt 0 adds nothing (restart's first run is the plain search).
    rng = np.random.default_rng(36016)
    checked = 0
    for i in range(60):
        _, masks = _deal(rng, 3 + i % 11)
        trump = int(rng.integers(5))
        mode = (MODE_MAX, MODE_MIN, MODE_EXACT)[i % 3]
        leader = int(rng.integers(4))
        present = int(np.bitwise_or.reduce(masks))
        hands = masks.copy()
        pos, seat, led_suit, win_seat, win_card = 0, leader, -1, -1, -1
        if i % 2:
            cards = [c for c in range(52) if hands[leader] >> c & 1]
            win_card = int(rng.choice(cards))
            hands[leader] ^= 1 << win_card
            pos, seat, led_suit, win_seat = 1, (leader + 1) % 4, win_card // 13, leader
        plain = _keys(hands, seat, pos, led_suit, present, win_seat, win_card, trump, mode, 0)
        if len(plain) == 1:
            continue  # a single candidate gets no weight
        for salt in (1, 5, 987654321):
            salted = _keys(hands, seat, pos, led_suit, present, win_seat, win_card, trump, mode, salt)
            assert [card for card, _ in salted] == [card for card, _ in plain]
            for (card, weight), (_, weight0) in zip(salted, plain):
                assert weight - weight0 == _salt_term(np.int64(salt), np.int64(card), np.int64(seat), np.int64(present))
                checked += 1
    assert checked >= 300


def test_units_zero_is_the_plain_search_and_a_yes_no_goal_is_required():
    rng = np.random.default_rng(36017)
    for i in range(40):
        _, masks = _deal(rng, 7)
        declarer, leader = int(rng.integers(4)), int(rng.integers(4))
        goal = "le" if i % 2 else "eq"
        plain = _salted(masks, leader, declarer, goal, 0)
        assert _restarts(masks, leader, declarer, goal, unit=1, units=0) == plain
    with pytest.raises(InputError, match="yes/no"):
        api.solve_question(masks, NO_TRUMP, 0, 1, "max", 0)
    for unit, units in ((0, 32), (1, -1)):
        with pytest.raises(InputError, match="restarts want"):
            api.solve_question(masks, NO_TRUMP, 0, 1, "le", 0, unit=unit, units=units)
