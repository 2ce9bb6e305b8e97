"""The seat test of the strength and sparring scripts: only pairs won once count, split by which seat won
both Bummerls, against an exact two-sided binomial p worked out by hand."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from schnapsen_strength import seat_sign_test  # noqa: E402


def test_pairs_won_twice_or_never_say_nothing_about_the_seat():
    # pairs: seat 0 won both (A won in seat 0 only) x5, seat 1 won both x1, A won both x3, B won both x2
    won0 = [True] * 5 + [False] + [True] * 3 + [False] * 2
    won1 = [False] * 5 + [True] + [True] * 3 + [False] * 2
    seat0, seat1, p = seat_sign_test(won0, won1)
    assert (seat0, seat1) == (5, 1)
    # P(5 or more of 6) = (6 + 1) / 64, doubled for two sides
    assert p == pytest.approx(14 / 64)


def test_an_even_split_and_no_split():
    assert seat_sign_test([True, False], [False, True])[2] == pytest.approx(1.0)
    assert seat_sign_test([True, True], [True, True]) == (0, 0, 1.0)
    # 3 of 3 to one seat: 2 / 8
    assert seat_sign_test([False] * 3, [True] * 3) == (0, 3, pytest.approx(0.25))
