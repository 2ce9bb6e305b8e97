"""``solve_questions`` (one table generation per trump, team and kind of goal) against single solves
and the brute-force reference, with calls, several leaders and several goals sharing a generation."""

import numpy as np

from analyzer.cards.deck import card_name
from analyzer.games.rikken.dd import dd_table
from analyzer.games.rikken.dd_question import calls_for, card_holder
from analyzer.solvers.dd import Question, best_moves, solve, solve_questions

from .reference_minimax import Rules, can_force, max_tricks

GOAL_WINDOWS = {"ge": lambda k: (k, 99), "le": lambda k: (-99, k), "eq": lambda k: (k, k)}


def _deal(rng, size):
    cards = [int(c) for c in rng.permutation(52)[:4 * size]]
    hands = [cards[seat * size:(seat + 1) * size] for seat in range(4)]
    return hands, np.array([sum(1 << c for c in hand) for hand in hands], dtype=np.int64)


def _questions(rng, hands, count):
    """Random questions over two trumps and two pairs, so that several share a generation."""
    size = len(hands[0])
    trumps = [int(t) for t in rng.choice(5, 2, replace=False)]
    pairs = [(0, 1), (2, 0)]
    out = []
    for _ in range(count):
        declarer, partner = pairs[int(rng.integers(2))]
        goal = ["max", "ge", "le", "eq"][int(rng.integers(4))]
        called, blind = -1, False
        if rng.random() < 0.7:
            called = hands[partner][int(rng.integers(size))]
            blind = bool(rng.random() < 0.3)
        out.append(Question(trumps[int(rng.integers(2))], int(rng.integers(4)), 1 << declarer | 1 << partner, goal,
                            int(rng.integers(size + 1)), called, blind))
    return out


def _single(masks, q):
    return solve(masks, q.trump, q.leader, q.team, q.goal, q.k, called_card=q.called_card, blind_call=q.blind_call)


def test_questions_match_brute_force_on_small_endings():
    rng = np.random.default_rng(14000)
    for i in range(24):
        hands, masks = _deal(rng, 4 if i % 3 == 0 else 3)
        questions = _questions(rng, hands, 12)
        answers = solve_questions(masks, questions)
        for q, got in zip(questions, answers):
            seats = [s for s in range(4) if q.team >> s & 1]
            bidder = next(s for s in seats if q.called_card not in hands[s]) if q.blind_call else -1
            rules = Rules(q.trump, seats, q.called_card, bidder)
            if q.goal == "max":
                assert got == max_tricks(rules, hands, q.leader)
            else:
                lo, hi = GOAL_WINDOWS[q.goal](q.k)
                assert got == can_force(rules, hands, q.leader, lo, hi)


def test_questions_match_single_solves_on_endings():
    rng = np.random.default_rng(15000)
    for _ in range(40):
        hands, masks = _deal(rng, 6 + int(rng.integers(3)))
        questions = _questions(rng, hands, 16)
        assert solve_questions(masks, questions) == [_single(masks, q) for q in questions]


def test_dd_table_matches_single_solves():
    rng = np.random.default_rng(16000)
    for size in (8, 9, 10):
        _, masks = _deal(rng, size)
        leader = size % 4
        rows, misery = dd_table(masks, leader)
        for row in misery:
            seat = 1 << "NESW".index(row["declarer"])
            assert row["misery"] == solve(masks, 4, leader, seat, "le", 0)
            assert row["one_alone"] == solve(masks, 4, leader, seat, "eq", 1)
        for row in rows:
            declarer = "NESW".index(row["declarer"])
            trump = "CDHS".index(row["trump"])
            assert row["alone"] == solve(masks, trump, leader, 1 << declarer)
            for card, blind in calls_for(int(masks[declarer]), trump):
                partner = card_holder(masks, card)
                if partner < 0:
                    continue
                call = row["calls"][card_name(card)]
                assert call["blind"] == blind
                assert call["tricks"] == solve(masks, trump, leader, 1 << declarer | 1 << partner, called_card=card,
                                               blind_call=blind)


def _random_play(rng, masks, size):
    """The positions of a random play of the cards (any seat leads a trick): (hands, seat to play, trick)."""
    positions = []
    masks = masks.copy()
    leader, trick = int(rng.integers(4)), []
    for _ in range(4 * size - 1):
        seat = (leader + len(trick)) % 4
        positions.append((masks.copy(), seat, list(trick)))
        legal = int(masks[seat])
        if trick:
            legal = legal & (0x1FFF << 13 * (trick[0] // 13)) or legal
        card = int(rng.choice([c for c in range(52) if legal >> c & 1]))
        masks[seat] &= ~np.int64(1 << card)
        trick.append(card)
        if len(trick) == 4:
            leader, trick = int(rng.integers(4)), []
    return positions


def _answers_along(positions, questions, generations):
    """``solve`` and ``best_moves`` of every question at every position, all with ``generations``."""
    answers = []
    for masks, seat, trick in positions:
        for q in questions:
            called = q.called_card if q.called_card >= 0 and any(masks >> q.called_card & 1) else -1
            kwargs = dict(goal=q.goal, k=min(q.k, int(masks[seat]).bit_count() + len(trick)), trick=trick,
                          called_card=called, blind_call=q.blind_call and called >= 0, generations=generations)
            answers.append((solve(masks, q.trump, seat, q.team, **kwargs),
                            best_moves(masks, q.trump, seat, q.team, **kwargs)))
    return answers


def test_a_played_out_deal_keeps_its_generations_without_changing_an_answer():
    """``solve`` and ``best_moves`` with one ``generations`` dict along a random play of the cards (the
    dd play policy's use) answer as fresh solves do, for several teams, goals and calls, in mid-trick
    positions too.  The kept pass asks nothing else in between, so its entries survive."""
    rng = np.random.default_rng(2718)
    asked = 0
    for _ in range(12):
        size = 6
        hands, masks = _deal(rng, size)
        questions = _questions(rng, hands, 8)
        positions = _random_play(rng, masks, size)
        fresh = _answers_along(positions, questions, None)
        assert _answers_along(positions, questions, {}) == fresh
        asked += len(fresh)
    assert asked > 1000
