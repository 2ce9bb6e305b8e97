"""Figures of the Schnapsen experiments: closing success and gain heatmaps and a "close when" map; match charts."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import PercentFormatter

from analyzer.games.schnapsen.summary import POINT_LABELS


def _grid(cells: pd.DataFrame, value: str, col_values) -> tuple[np.ndarray, np.ndarray]:
    """Mean of ``value`` and position count per (own points bin, column value) from a grid of
    ``closing_sums``; NaN means where there is no position."""
    full = pd.MultiIndex.from_product([range(len(POINT_LABELS)), col_values])
    cells = cells.reindex(full)
    shape = (len(POINT_LABELS), len(col_values))
    counts = cells["n"].fillna(0).to_numpy(dtype=float).reshape(shape)
    return (cells[value] / cells["n"]).to_numpy(dtype=float).reshape(shape), counts


def _ink(colour) -> str:
    """Black or white, whichever reads on ``colour`` (an RGBA tuple)."""
    r, g, b = colour[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


#: cells of fewer positions are left uncoloured and hatched: one or two positions say nothing of a rate or a mean
SMALL_CELL = 3


def _percent(value: float) -> str:
    """A rate of 0-1 as the tables print it: ``98%``."""
    return f"{100 * value:.0f}%"


def _heatmap(grid, counts, col_values, xlabel, title, cmap, vmin, vmax, fmt, bar_label, bar_format=None):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    small = (counts > 0) & (counts < SMALL_CELL)
    shown = np.where(small, np.nan, grid)
    image = ax.imshow(np.ma.masked_invalid(shown), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto", origin="lower")
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if small[i, j]:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.7",
                                           linewidth=0))
                ax.text(j, i, f"n={int(counts[i, j])}", ha="center", va="center", fontsize=8, color="0.3")
            elif counts[i, j] > 0 and np.isfinite(grid[i, j]):
                ax.text(j, i, f"{fmt(grid[i, j])}\nn={int(counts[i, j])}", ha="center", va="center", fontsize=8,
                        color=_ink(image.cmap(image.norm(grid[i, j]))))
    if small.any():
        fig.text(0.01, 0.01, f"hatched: cells of fewer than {SMALL_CELL} positions, too few to read", fontsize=8,
                 color="0.3")
    ax.set_xticks(range(len(col_values)), [str(v) for v in col_values])
    ax.set_yticks(range(len(POINT_LABELS)), POINT_LABELS)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("own counted points when closing")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label=bar_label, format=bar_format)
    return fig


def success_heatmap(sums: dict[str, pd.DataFrame], bot: str) -> plt.Figure:
    """Probability that closing wins the deal, by stock size and own points (from ``closing_sums``)."""
    stocks = [10, 8, 6, 4, 2]
    grid, counts = _grid(sums["by_points_and_stock"], "close_win", stocks)
    return _heatmap(grid, counts, stocks, "cards in stock", f"Closing: probability of winning the deal ({bot})",
                    "viridis", 0.0, 1.0, _percent, "probability of winning the deal",
                    PercentFormatter(1.0))


def gain_heatmap(sums: dict[str, pd.DataFrame], bot: str) -> plt.Figure:
    """Expected game points of closing minus playing on, by stock size and own points (from ``closing_sums``)."""
    stocks = [10, 8, 6, 4, 2]
    grid, counts = _grid(sums["by_points_and_stock"], "gain", stocks)
    return _heatmap(grid, counts, stocks, "cards in stock", f"Gain from closing, game points ({bot})",
                    "RdBu", -3.0, 3.0, lambda v: f"{v:+.2f}", "game points, closing minus playing on")


def close_when_map(sums: dict[str, pd.DataFrame], bot: str) -> plt.Figure:
    """Decision map: share of positions where closing beats playing on, by own points and trumps held
    (from ``closing_sums``)."""
    trumps = [0, 1, 2, 3, 4, 5]
    grid, counts = _grid(sums["by_points_and_trumps"], "better", trumps)
    return _heatmap(grid, counts, trumps, "trumps held",
                    f"Close when: share of positions where closing is better ({bot})", "PiYG", 0.0, 1.0,
                    lambda v: ("close " if v > 0.5 else "play ") + _percent(v),
                    "share of positions where closing is better", PercentFormatter(1.0))


# ------------------------------------------------------------------------------ match charts
# Figures of `schnapsen match`, drawn from the tables of summary.summarize_matches.


def _interval_bars(ax, labels, values, lows, highs, colors, fmt=lambda v: f"{v:.2f}"):
    """Bars with 95% interval whiskers (a NaN bound draws no whisker) and each value written above
    (``fmt(value)``)."""
    values = np.asarray(values, dtype=float)
    lows = np.asarray(lows, dtype=float)
    highs = np.asarray(highs, dtype=float)
    # at a rate of 0 or 1 the Wilson bound equals the rate only up to rounding: clip the -1e-16 whiskers
    errors = np.clip(np.nan_to_num(np.vstack([values - lows, highs - values]), nan=0.0), 0.0, None)
    x = np.arange(len(labels))
    bars = ax.bar(x, values, color=colors, yerr=errors, capsize=5)
    for bar, v in zip(bars, values):
        if v == 0:  # a bar of height 0 does not show: a thick line at 0 in its colour says "0", not "missing"
            ax.plot([bar.get_x(), bar.get_x() + bar.get_width()], [0, 0], color=bar.get_facecolor(), lw=4,
                    solid_capstyle="butt", gid="zero-bar")
    for i, v in enumerate(values):
        if np.isfinite(v):
            ax.annotate(fmt(v), (x[i], v), textcoords="offset points", xytext=(8, 3), fontsize=8)
    ax.set_xticks(x, labels)


def match_win_rate(summary: dict[str, pd.DataFrame]) -> plt.Figure:
    """Bummerl win rate of each bot of the pair with its 95% Wilson interval, overall and with A in each seat
    (from :func:`summary.summarize_matches`)."""
    bots = summary["per_bot"]
    seats = summary["by_seat"].sort_values("a_seat")
    a, b = bots["label"]
    labels = [f"A {a}", f"B {b}"] + [f"A {a}\nin seat {int(s)}" for s in seats["a_seat"]]
    values = list(bots["win_rate"]) + list(seats["a_win_rate"])
    lows = list(bots["win_lo"]) + list(seats["a_win_lo"])
    highs = list(bots["win_hi"]) + list(seats["a_win_hi"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    _interval_bars(ax, labels, values, lows, highs, ["tab:blue", "tab:orange"] + ["lightsteelblue"] * len(seats),
                   _percent)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1.05)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylabel("Bummerls won (95% Wilson interval)")
    ax.set_title(f"{a} against {b}: {int(bots['matches'].iloc[0])} Bummerls, seats swapped on the same deals")
    return fig


def match_game_points(summary: dict[str, pd.DataFrame]) -> plt.Figure:
    """Game points per deal of each bot and the paired difference A - B, each with its 95% interval
    over the pairs of matches (from :func:`summary.summarize_matches`)."""
    bots = summary["per_bot"]
    diff = summary["paired"].iloc[1]
    a, b = bots["label"]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    _interval_bars(ax, [f"A {a}", f"B {b}", "A - B\n(paired)"], list(bots["gp_per_deal"]) + [diff["mean"]],
                   list(bots["gp_lo"]) + [diff["lo"]], list(bots["gp_hi"]) + [diff["hi"]],
                   ["tab:blue", "tab:orange", "tab:grey"])
    ax.axhline(0, color="black", lw=0.8)
    ax.set_ylabel("game points per deal (95% interval over pairs)")
    ax.set_title(f"Game points per deal: {a} against {b}")
    return fig


def match_closing(summary: dict[str, pd.DataFrame]) -> plt.Figure:
    """Per bot: how often it closes the stock (closings per deal) and how often its closings win the deal,
    with a 95% Wilson interval (from :func:`summary.summarize_matches`)."""
    bots = summary["per_bot"]
    labels = [f"{code} {label}" for code, label in zip(bots["bot"], bots["label"])]
    colors = ["tab:blue", "tab:orange"]
    fig, (freq, success) = plt.subplots(1, 2, figsize=(9, 4.5))
    x = np.arange(len(labels))
    freq.bar(x, bots["closes_per_deal"], color=colors)
    for i, (rate, n) in enumerate(zip(bots["closes_per_deal"], bots["closes"])):
        freq.annotate(f"{rate:.2f} ({int(n)} closings)", (i, rate), textcoords="offset points", xytext=(0, 3),
                      ha="center", fontsize=8)
    freq.set_xticks(x, labels)
    freq.set_ylabel("closings per deal played")
    freq.set_title("Closing frequency")
    _interval_bars(success, labels, bots["close_success"], bots["close_lo"], bots["close_hi"], colors, _percent)
    for i, n in enumerate(bots["closes"]):
        if n == 0:
            success.annotate("no closings", (i, 0), textcoords="offset points", xytext=(0, 4), ha="center",
                             fontsize=8)
    success.set_xlim(-0.6, len(labels) - 0.4)
    success.set_ylim(0, 1.05)
    success.yaxis.set_major_formatter(PercentFormatter(1.0))
    success.set_ylabel("closings won (95% Wilson interval)")
    success.set_title("Closing success")
    fig.tight_layout()
    return fig
