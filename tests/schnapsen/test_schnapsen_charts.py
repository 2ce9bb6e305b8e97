"""The closing charts as a reader sees them: cells of one or two positions carry no colour and say why."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyzer.games.schnapsen.charts import close_when_map, gain_heatmap


def _sums(key: str, column_values, counts: dict) -> dict:
    """``closing_sums``-shaped cells: ``counts`` positions per (points bin, column value), every one better."""
    index = pd.MultiIndex.from_tuples(list(counts), names=["points_bin", "column"])
    n = np.array(list(counts.values()), dtype=float)
    return {key: pd.DataFrame({"n": n, "better": n, "gain": n}, index=index)}


def test_cells_of_one_or_two_positions_are_hatched_and_uncoloured():
    sums = _sums("by_points_and_trumps", range(6), {(1, 0): 1, (1, 1): 2, (1, 2): 3, (2, 3): 40})
    fig = close_when_map(sums, "pimc")
    image = fig.axes[0].images[0].get_array()
    assert image.mask[1, 0] and image.mask[1, 1] and not image.mask[1, 2] and not image.mask[2, 3]
    hatched = [(p.get_x() + 0.5, p.get_y() + 0.5) for p in fig.axes[0].patches if p.get_hatch()]
    assert sorted(hatched) == [(0.0, 1.0), (1.0, 1.0)]
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "n=1" in texts and "n=2" in texts and "close 100%\nn=3" in texts
    assert any("fewer than 3 positions" in t.get_text() for t in fig.texts)
    plt.close(fig)


def test_no_small_cell_no_legend():
    fig = gain_heatmap(_sums("by_points_and_stock", (10, 8, 6, 4, 2), {(1, 10): 5}), "pimc")
    assert not [p for p in fig.axes[0].patches if p.get_hatch()] and not fig.texts
    plt.close(fig)


def test_a_rate_of_zero_shows_as_a_bar_at_zero():
    # B won none of the Bummerls: its bar has height 0, so it gets a line at 0 the width of a bar
    from analyzer.games.schnapsen.charts import match_win_rate

    per_bot = pd.DataFrame({"label": ["heuristic", "random"], "win_rate": [1.0, 0.0], "win_lo": [0.8, 0.0],
                            "win_hi": [1.0, 0.2], "matches": [16, 16]})
    by_seat = pd.DataFrame({"a_seat": [0, 1], "a_win_rate": [1.0, 1.0], "a_win_lo": [0.7, 0.7],
                            "a_win_hi": [1.0, 1.0]})
    fig = match_win_rate({"per_bot": per_bot, "by_seat": by_seat})
    zero = [line for line in fig.axes[0].get_lines() if line.get_gid() == "zero-bar"]
    assert len(zero) == 1
    xs, ys = zero[0].get_data()
    assert list(ys) == [0, 0] and xs[0] < 1 < xs[1] and xs[1] - xs[0] > 0.5  # under B's bar, at x = 1
    plt.close(fig)
