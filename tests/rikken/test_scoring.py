"""Rikken scoring: hand-worked rounds in both modes, and zero-sum / batch agreement over random outcomes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import InputError
from analyzer.games.rikken.rules import Contract as C
from analyzer.games.rikken.rules import ScoringMode
from analyzer.games.rikken.scoring import contract_status, score_round, score_rounds

POINTS, MONEY = ScoringMode.POINTS, ScoringMode.MONEY
NONE = -1


def only(seat: int, contract: int) -> list[int]:
    """contract_of with a single declarer."""
    row = [NONE] * 4
    row[seat] = contract
    return row


# Each case: contract_of, partner, tricks, expected points scores, expected money scores.
CASES = [
    # 8 Alone by N taking 6: 2 undertricks, V = P + 2 = 1 + 2 = 3. Points: each opponent 3.
    # Money: each opponent receives 3, N pays 3 * 3 = 9.
    (only(0, C.ALONE_8), NONE, [6, 3, 2, 2], [0, 3, 3, 3], [-9, 3, 3, 3]),
    # Rik by E with partner W, 5 + 4 = 9 tricks: one overtrick, V = 1 + 1 = 2, each declarer 2.
    (only(1, C.RIK), 3, [2, 5, 2, 4], [0, 2, 0, 2], [-2, 2, -2, 2]),
    # Rik by E with partner W, 3 + 3 = 6 tricks: failed by 2, V = 3 to each of N and S.
    (only(1, C.RIK), 3, [4, 3, 3, 3], [3, 0, 3, 0], [3, -3, 3, -3]),
    # Rik Beter by S with partner N, exactly 8: V = 1.
    (only(2, C.RIK_BETER), 0, [4, 2, 4, 3], [1, 0, 1, 0], [1, -1, 1, -1]),
    # Rik with no callable card (partner -1): S plays alone, 8 tricks made, V = 1, 1 v 3 in money.
    (only(2, C.RIK), NONE, [2, 2, 8, 1], [0, 0, 1, 0], [-1, -1, 3, -1]),
    # Two Misery bidders: N makes (0 tricks), S fails (3 tricks). P = 5, no undertricks.
    # Points: N scores 5 for his own; S's failure pays 5 to each of N, E, W -> [10, 5, 0, 5].
    # Money: N +15, the others -5; S -15, the others +5 -> [20, 0, -20, 0].
    ([C.MISERY, NONE, C.MISERY, NONE], NONE, [0, 6, 3, 4], [10, 5, 0, 5], [20, 0, -20, 0]),
    # Misery (N, made) and 1 Alone (E, 2 tricks: failed, V = 5, no undertricks) at the same level.
    # Points: N 5 (own) + 5 (E fails) = 10; S and W 5; E 0. Money: N +15 +5, E -5 -15, S/W -5 +5.
    ([C.MISERY, C.ONE_ALONE, NONE, NONE], NONE, [0, 2, 5, 6], [10, 0, 5, 5], [20, -20, 0, 0]),
    # 1 Alone by S with no trick: failed (exactly one is needed), V = 5 with no undertricks.
    (only(2, C.ONE_ALONE), NONE, [5, 4, 0, 4], [5, 5, 0, 5], [5, 5, -15, 5]),
    # 1 Alone by W with exactly one trick: made, V = 5.
    (only(3, C.ONE_ALONE), NONE, [4, 4, 4, 1], [0, 0, 0, 5], [-5, -5, -5, 15]),
    # Open Misery by E with one trick: failed, V = 10 to each opponent.
    (only(1, C.OPEN_MISERY), NONE, [4, 1, 4, 4], [10, 0, 10, 10], [10, -30, 10, 10]),
    # Open 1 Alone All by N, exactly one trick: made, V = 15.
    (only(0, C.OPEN_ONE_ALONE_ALL), NONE, [1, 4, 4, 4], [15, 0, 0, 0], [45, -15, -15, -15]),
    # Open Misery All by S, no tricks: made, V = 15.
    (only(2, C.OPEN_MISERY_ALL), NONE, [5, 4, 0, 4], [0, 0, 15, 0], [-15, -15, 45, -15]),
    # Troela by N with partner E, 10 tricks: 2 overtricks, V = 2 + 2 = 4.
    (only(0, C.TROELA), 1, [6, 4, 2, 1], [4, 4, 0, 0], [4, 4, -4, -4]),
    # Troela failed with 7: V = 2 + 1 = 3.
    (only(0, C.TROELA), 1, [4, 3, 3, 3], [0, 0, 3, 3], [-3, -3, 3, 3]),
    # 9 Alone by E with 11 tricks: V = 1 + 2 = 3.
    (only(1, C.ALONE_9), NONE, [1, 11, 1, 0], [0, 3, 0, 0], [-3, 9, -3, -3]),
    # 10 Alone by E with 9: V = 1 + 1 = 2.
    (only(1, C.ALONE_10), NONE, [1, 9, 2, 1], [2, 0, 2, 2], [2, -6, 2, 2]),
    # 11 Alone by S with 11: V = 1.
    (only(2, C.ALONE_11), NONE, [1, 1, 11, 0], [0, 0, 1, 0], [-1, -1, 3, -1]),
    # 12 Alone by W with 13: one overtrick, V = 2.
    (only(3, C.ALONE_12), NONE, [0, 0, 0, 13], [0, 0, 0, 2], [-2, -2, -2, 6]),
    # 13 Alone made: V = 15 (13 Alone has no overtricks).
    (only(0, C.ALONE_13), NONE, [13, 0, 0, 0], [15, 0, 0, 0], [45, -15, -15, -15]),
    # 13 Alone with 12: one undertrick, V = 15 + 1 = 16.
    (only(0, C.ALONE_13), NONE, [12, 1, 0, 0], [0, 16, 16, 16], [-48, 16, 16, 16]),
    # Open 13 Alone made: V = 20.
    (only(3, C.OPEN_ALONE_13), NONE, [0, 0, 0, 13], [0, 0, 0, 20], [-20, -20, -20, 60]),
    # 8 Alone ignores a stray partner seat: it is always one against three.
    (only(0, C.ALONE_8), 2, [8, 1, 3, 1], [1, 0, 0, 0], [3, -1, -1, -1]),
]


@pytest.mark.parametrize(("contract_of", "partner", "tricks", "points", "money"), CASES)
def test_hand_worked_rounds(contract_of, partner, tricks, points, money):
    assert score_round(contract_of, partner, tricks, POINTS) == points
    assert score_round(contract_of, partner, tricks, MONEY) == money


def test_batch_matches_hand_worked_rounds():
    contract_of = np.array([case[0] for case in CASES], dtype=np.int64)
    partner = np.array([case[1] for case in CASES], dtype=np.int64)
    tricks = np.array([case[2] for case in CASES], dtype=np.int64)
    np.testing.assert_array_equal(score_rounds(contract_of, partner, tricks, POINTS), [c[3] for c in CASES])
    np.testing.assert_array_equal(score_rounds(contract_of, partner, tricks, MONEY), [c[4] for c in CASES])


def test_passed_out_round_scores_nothing():
    assert score_round([NONE] * 4, NONE, [0, 0, 0, 0], MONEY) == [0, 0, 0, 0]


@st.composite
def rounds(draw):
    """A random legal round outcome: one declarer (with or without a partner) or several at a joinable level."""
    cut = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    tricks = [cut[0], cut[1] - cut[0], cut[2] - cut[1], 13 - cut[2]]
    shared = {4: [C.MISERY, C.ONE_ALONE], 9: [C.OPEN_MISERY, C.OPEN_ONE_ALONE],
              11: [C.OPEN_MISERY_ALL, C.OPEN_ONE_ALONE_ALL]}
    if draw(st.booleans()):
        choices = shared[draw(st.sampled_from(sorted(shared)))]
        contract_of = [draw(st.sampled_from([NONE, *choices])) for _ in range(4)]
        return contract_of, NONE, tricks
    bidder = draw(st.integers(0, 3))
    contract = draw(st.sampled_from(list(C)))
    partner = draw(st.sampled_from([NONE] + [s for s in range(4) if s != bidder]))
    return only(bidder, contract), partner, tricks


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_money_is_zero_sum(round_):
    contract_of, partner, tricks = round_
    assert sum(score_round(contract_of, partner, tricks, MONEY)) == 0


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_points_are_never_negative_and_go_to_one_side(round_):
    contract_of, partner, tricks = round_
    scores = score_round(contract_of, partner, tricks, POINTS)
    assert min(scores) >= 0
    if sum(c >= 0 for c in contract_of) == 1:
        # With one contract, exactly the declaring side or exactly the defenders score.
        assert len({s for s in scores if s > 0}) <= 1


@settings(max_examples=50, deadline=None)
@given(st.lists(rounds(), min_size=1, max_size=20), st.sampled_from([POINTS, MONEY]))
def test_batch_equals_single(batch, mode):
    contract_of = np.array([r[0] for r in batch], dtype=np.int64)
    partner = np.array([r[1] for r in batch], dtype=np.int64)
    tricks = np.array([r[2] for r in batch], dtype=np.int64)
    expected = [score_round(*r, mode) for r in batch]
    np.testing.assert_array_equal(score_rounds(contract_of, partner, tricks, mode), expected)


@pytest.mark.parametrize(("contract", "side_tricks", "tricks_left", "status"), [
    (C.MISERY, 0, 5, 0),        # no trick yet, five to go: open
    (C.MISERY, 1, 12, -1),      # the first trick taken sinks Misery at once
    (C.MISERY, 0, 0, 1),        # all 13 played without a trick
    (C.ONE_ALONE, 1, 4, 0),     # one trick: must still avoid a second
    (C.ONE_ALONE, 2, 4, -1),    # a second trick sinks it
    (C.ONE_ALONE, 0, 0, -1),    # no trick at all: failed
    (C.ONE_ALONE, 1, 0, 1),
    (C.RIK, 8, 3, 1),           # target reached with tricks to spare
    (C.RIK, 5, 3, 0),           # 5 + 3 = 8 still reachable
    (C.RIK, 4, 3, -1),          # 4 + 3 < 8
    (C.ALONE_13, 12, 0, -1),
    (C.ALONE_13, 9, 1, -1),     # 9 + 1 < 13 already
    (C.TROELA, 7, 1, 0),
])
def test_contract_status(contract, side_tricks, tricks_left, status):
    assert contract_status(contract, side_tricks, tricks_left) == status


@pytest.mark.parametrize("contract_of, tricks", [([C.RIK, NONE, NONE], [13, 0, 0]),  # both short
                                                  ([C.RIK, NONE, NONE], [13, 0, 0, 0]),  # one declaration short
                                                  ([C.RIK, NONE, NONE, NONE], [13, 0, 0])])  # one count short
def test_wrong_seat_count_is_an_input_error(contract_of, tricks):
    with pytest.raises(InputError):
        score_round(contract_of, NONE, tricks, POINTS)
