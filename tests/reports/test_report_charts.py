"""The charts as a report shows them: percent axes and colour bars, cell text readable on its cell, the
rikken play chart's hidden make rates, Sloppy Seconds' equal share, Schnapsen's closing-map text."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from matplotlib.ticker import PercentFormatter

from analyzer.games.rikken.charts import play_chart, success_by_trumps_and_hcp
from analyzer.games.rikken.summary import bids_moments
from analyzer.games.rikken.strategy_charts import calibration_chart
from analyzer.games.schnapsen.charts import close_when_map, gain_heatmap, match_closing, match_win_rate, success_heatmap
from analyzer.games.seconds.charts import play_figure
from analyzer.reports.stats import wilson_interval


def luminance(colour) -> float:
    r, g, b, _ = to_rgba(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_text_on_every_heatmap_cell_contrasts_with_it():
    # Rik made by 0 of 40 hands (dark red cell) and 40 of 40 (dark green), 8 Alone 20 of 40 (pale yellow).
    rows = []
    for made in (0, 40):
        rows.append(pd.DataFrame({
            "hcp": 12, "aces": 1, "longest": 5, "low_cards": 4, "voids": 0, "trumps": 5 + (made > 0), "hearts": 3,
            "troela_trumps": 0, "tricks_rik": [8] * 40, "made_rik": [1] * made + [0] * (40 - made),
            "money_rik": 1, "points_rik": 1, "tricks_8-alone": 8, "made_8-alone": [1] * 20 + [0] * 20,
            "money_8-alone": 1, "points_8-alone": 1}))
    figure = success_by_trumps_and_hcp(bids_moments(pd.concat(rows, ignore_index=True)))
    panels = {ax.get_title(): ax for ax in figure.axes}
    for title in ("rik: % made", "8-alone: % made"):
        ax = panels[title]
        image = ax.images[0]
        for text in ax.texts:
            x, y = (round(v) for v in text.get_position())
            cell = image.cmap(image.norm(image.get_array()[y, x]))
            assert abs(luminance(cell) - luminance(text.get_color())) > 0.4, (title, text.get_text())
    colour_bar = next(ax for ax in figure.axes if "% of the cell" in ax.get_ylabel())
    assert isinstance(colour_bar.yaxis.get_major_formatter(), PercentFormatter)
    plt.close(figure)


def test_schnapsen_closing_map_text_contrasts_with_its_cell():
    index = pd.MultiIndex.from_tuples([(1, 10), (2, 8), (3, 6)], names=["own_points_bin", "stock_size"])
    cells = pd.DataFrame({"n": [10, 10, 10], "gain": [-30.0, 0.0, 30.0]}, index=index)  # means -3, 0, +3
    figure = gain_heatmap({"by_points_and_stock": cells}, "heuristic")
    ax = figure.axes[0]
    image = ax.images[0]
    assert len(ax.texts) == 3
    for text in ax.texts:
        x, y = (round(v) for v in text.get_position())
        cell = image.cmap(image.norm(image.get_array()[y, x]))
        assert abs(luminance(cell) - luminance(text.get_color())) > 0.4, text.get_text()
    assert figure.axes[1].get_ylabel() == "game points, closing minus playing on"
    plt.close(figure)


def play_tables(declared: dict[str, tuple[int, int]], rounds: int):
    records = []
    for name, (count, made) in declared.items():
        low, high = wilson_interval(count, rounds)
        make_low, make_high = wilson_interval(made, count)
        records.append({"contract": name, "declared": count, "per_round": count / rounds, "per_round_lo": low,
                        "per_round_hi": high, "made": made, "make_rate": made / count, "make_lo": make_low,
                        "make_hi": make_high})
    passed = rounds - sum(count for count, _ in declared.values())
    low, high = wilson_interval(passed, rounds)
    records.append({"contract": "passed-out", "declared": passed, "per_round": passed / rounds, "per_round_lo": low,
                    "per_round_hi": high})
    seats = pd.DataFrame([{"mode": mode, "seat": seat, "rounds": rounds, "mean": 0.5, "low": 0.0, "high": 1.0}
                          for mode in ("points", "money") for seat in "NESW"])
    columns = ["contract", "declared", "per_round", "per_round_lo", "per_round_hi", "made", "make_rate", "make_lo",
               "make_hi"]
    return pd.DataFrame(records, columns=columns), seats


def test_play_chart_hides_make_rates_of_rare_contracts():
    contracts, seats = play_tables({"rik": (60, 45), "8-alone": (1, 1)}, 100)
    figure = play_chart(contracts, seats)
    left = figure.axes[0]
    # One make-rate point (rik's 75%), none for the single 8 Alone; its count is written instead.
    points = [line for line in left.get_lines() if line.get_marker() == "o"]
    assert len(points) == 1 and list(points[0].get_ydata()) == [pytest.approx(0.75)]
    assert [t.get_text() for t in left.texts] == ["n 1"]
    assert left.get_ylabel() == "% of rounds (bars) / % made (points)"
    assert isinstance(left.yaxis.get_major_formatter(), PercentFormatter)
    assert "passed out: 39.0% of rounds" in left.get_title()
    plt.close(figure)


def test_play_chart_says_so_when_every_round_passed_out():
    contracts, seats = play_tables({}, 10)
    figure = play_chart(contracts, seats)
    assert "every round passed out" in " ".join(t.get_text() for t in figure.axes[0].texts)
    plt.close(figure)


def test_seconds_games_won_is_a_share_with_the_equal_share_line():
    seats = pd.DataFrame({"seat": [0, 1, 2], "mean_score_per_deal": [30.0, 31.0, 32.0], "score_lo": [29.0, 30.0, 31.0],
                          "score_hi": [31.0, 32.0, 33.0], "win_rate": [0.3, 0.3, 0.4], "win_lo": [0.2, 0.2, 0.3],
                          "win_hi": [0.4, 0.4, 0.5]})
    policies = pd.DataFrame({"policy": ["heuristic"], **{c: seats[c].iloc[:1] for c in seats.columns if c != "seat"}})
    figure = play_figure({"by_policy": policies, "by_seat": seats}, "t")
    shares = [ax for ax in figure.axes if ax.get_ylabel() == "share of games won"]
    assert len(shares) == 2
    for ax in shares:
        dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert len(dashed) == 1 and np.allclose(dashed[0].get_ydata(), 1 / 3)
        assert ax.get_legend().get_texts()[0].get_text() == "equal share 1/3"
    plt.close(figure)


def _rate_texts(figure) -> list[str]:
    """Every text drawn on ``figure`` that prints a number as a 0-1 fraction (``0.98``, ``1.00``)."""
    texts = [t.get_text() for ax in figure.axes for t in ax.texts] + [t.get_text() for t in figure.texts]
    return [t for t in texts if re.search(r"(?<![\d.+-])[01]\.\d\d(?!\d*%)", t)]


def _percent_axes(figure) -> list:
    return [ax for ax in figure.axes if isinstance(ax.yaxis.get_major_formatter(), PercentFormatter)]


def test_schnapsen_rate_charts_speak_in_percent():
    # closing won 49 of 50 (98%) in one cell; a close-when cell better in 2 of 3 (67%)
    stock = pd.DataFrame({"n": [50], "close_win": [49]},
                         index=pd.MultiIndex.from_tuples([(1, 10)], names=["own_points_bin", "stock_size"]))
    trumps = pd.DataFrame({"n": [3], "better": [2]},
                          index=pd.MultiIndex.from_tuples([(1, 2)], names=["own_points_bin", "trumps"]))
    success = success_heatmap({"by_points_and_stock": stock}, "heuristic")
    assert [t.get_text() for t in success.axes[0].texts] == ["98%\nn=50"]
    close = close_when_map({"by_points_and_trumps": trumps}, "heuristic")
    assert [t.get_text() for t in close.axes[0].texts] == ["close 67%\nn=3"]
    per_bot = pd.DataFrame({"bot": ["A", "B"], "label": ["heuristic", "random"], "win_rate": [0.75, 0.25],
                            "win_lo": [0.5, 0.1], "win_hi": [0.9, 0.5], "matches": [16, 16],
                            "closes_per_deal": [0.2, 0.1], "closes": [8, 4], "close_success": [0.875, 0.5],
                            "close_lo": [0.5, 0.15], "close_hi": [0.98, 0.85]})
    by_seat = pd.DataFrame({"a_seat": [0, 1], "a_win_rate": [0.75, 0.75], "a_win_lo": [0.4, 0.4],
                            "a_win_hi": [0.9, 0.9]})
    wins = match_win_rate({"per_bot": per_bot, "by_seat": by_seat})
    closing = match_closing({"per_bot": per_bot})
    for figure in (success, close, wins):
        assert not _rate_texts(figure)
        assert len(_percent_axes(figure)) == 1  # the colour bar, or the rate axis
    assert "88%" in [t.get_text() for t in closing.axes[1].texts]
    assert _percent_axes(closing) == [closing.axes[1]]  # closings per deal is a count, not a share
    for figure in (success, close, wins, closing):
        plt.close(figure)


def test_strategy_calibration_axes_are_percent():
    table = pd.DataFrame({"contract": ["rik"] * 2, "predicted": [0.2, 0.8], "observed": [0.25, 0.75],
                          "observed_lo": [0.1, 0.6], "observed_hi": [0.4, 0.9], "n": [40, 40]})
    figure = calibration_chart(table)
    ax = figure.axes[0]
    assert isinstance(ax.xaxis.get_major_formatter(), PercentFormatter)
    assert isinstance(ax.yaxis.get_major_formatter(), PercentFormatter)
    assert ax.get_xlabel() == "predicted make rate (%)"
    plt.close(figure)
