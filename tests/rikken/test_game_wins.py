"""Games of K rounds in `rikken play`: who wins each game, ties shared, merged over chunks; the play chart."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.games.rikken.charts import play_chart
from analyzer.games.rikken.summary import (
    contract_summary,
    game_chunk_size,
    game_summary,
    merge_rounds_moments,
    rounds_moments,
    seat_summary,
)

# Points per round for N, E, S, W; games of 3 rounds.
POINTS = [(3, 3, 0, 0), (0, 0, 2, 2), (5, 0, 0, 0),  # game 0: N 8, E 3, S 2, W 2 -> N alone
          (2, 2, 0, 0), (0, 0, 1, 1), (0, 0, 1, 1),  # game 1: 2, 2, 2, 2 -> a four-way tie
          (0, 4, 0, 4), (0, 0, 0, 0), (1, 0, 1, 0)]  # game 2: 1, 4, 1, 4 -> E and W tie
K = 3


def round_rows(first: int, points) -> pd.DataFrame:
    """Rows as ``play_chunk`` writes them, for rounds ``first, first + 1, ...`` with these points."""
    points = np.array(points)
    n = len(points)
    frame = pd.DataFrame({"round": first + np.arange(n), "passed_out": points.sum(axis=1) == 0})
    for seat in range(4):
        # Seat N declares Rik (id 0) in the first round of every game; nobody else declares.
        declares = (frame["round"].to_numpy() % K == 0) & (seat == 0)
        frame[f"contract_{seat}"] = np.where(declares, 0, -1)
        frame[f"made_{seat}"] = declares
        frame[f"points_{seat}"] = points[:, seat]
        frame[f"money_{seat}"] = 0
    frame["undecided"] = 0
    return frame


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_game_winners_and_shared_ties():
    table = game_summary(rounds_moments(round_rows(0, POINTS), rounds_per_game=K)).set_index("seat")
    assert list(table.index) == ["N", "E", "S", "W"]
    assert (table["games"] == 3).all()
    # N: game 0 alone, a quarter of game 1; E and W: a quarter of game 1, half of game 2; S: a quarter of game 1.
    expected = {"N": 1 + 1 / 4, "E": 1 / 4 + 1 / 2, "S": 1 / 4, "W": 1 / 4 + 1 / 2}
    for seat, wins in expected.items():
        row = table.loc[seat]
        assert row["wins"] == pytest.approx(wins)
        assert row["win_prob"] == pytest.approx(wins / 3)
        assert (row["win_lo"], row["win_hi"]) == pytest.approx(wilson(wins, 3))
    assert table["win_prob"].sum() == pytest.approx(1.0)
    assert table["outright"].to_dict() == {"N": 1, "E": 0, "S": 0, "W": 0}
    assert table["shared_top"].to_dict() == {"N": 1, "E": 2, "S": 1, "W": 2}
    assert (table.loc["N", "outright_lo"], table.loc["N", "outright_hi"]) == pytest.approx(wilson(1, 3))


def test_games_merge_over_chunks_of_whole_games():
    whole = rounds_moments(round_rows(0, POINTS), rounds_per_game=K)
    chunks = [rounds_moments(round_rows(0, POINTS[:6]), rounds_per_game=K),
              rounds_moments(round_rows(6, POINTS[6:]), rounds_per_game=K)]
    pd.testing.assert_frame_equal(game_summary(merge_rounds_moments(chunks)),
                                  game_summary(merge_rounds_moments([whole])))


@pytest.mark.parametrize("first, count", [(0, 4), (1, 3), (6, 2)])
def test_a_chunk_that_cuts_a_game_is_refused(first, count):
    with pytest.raises(ValueError, match="straddle"):
        rounds_moments(round_rows(first, POINTS[first:first + count]), rounds_per_game=K)


def test_no_games_without_rounds_per_game():
    assert game_summary(rounds_moments(round_rows(0, POINTS))).empty


def test_chunk_size_holds_whole_games():
    assert game_chunk_size(20, 5, None, 2) == 5
    assert game_chunk_size(30_000, 3, None, 20_000) == 20_001
    assert game_chunk_size(20, 5, 10, 2) == 10
    with pytest.raises(InputError, match="--chunk-size 7 is not a multiple"):
        game_chunk_size(20, 5, 7, 2)
    with pytest.raises(InputError, match="--rounds 12 is not a whole number of games of 5"):
        game_chunk_size(12, 5, None, 2)


def test_play_chart_draws_a_make_rate_of_zero():
    # Rik declared three times, never made: the Wilson lower bound is 0 up to a rounding error above it.
    rounds = round_rows(0, POINTS)
    rounds["made_0"] = False
    moments = rounds_moments(rounds)
    figure = play_chart(contract_summary(moments), seat_summary(moments))
    plt.close(figure)
