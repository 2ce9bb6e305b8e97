"""Figures of the Schnapsen closing experiment: success and gain heatmaps, and a "close when" map."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

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


def _heatmap(grid, counts, col_values, xlabel, title, cmap, vmin, vmax, fmt, bar_label):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto", origin="lower")
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if counts[i, j] > 0 and np.isfinite(grid[i, j]):
                ax.text(j, i, f"{fmt(grid[i, j])}\nn={int(counts[i, j])}", ha="center", va="center", fontsize=8,
                        color=_ink(image.cmap(image.norm(grid[i, j]))))
    ax.set_xticks(range(len(col_values)), [str(v) for v in col_values])
    ax.set_yticks(range(len(POINT_LABELS)), POINT_LABELS)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("own counted points when closing")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label=bar_label)
    return fig


def success_heatmap(sums: dict[str, pd.DataFrame], bot: str) -> plt.Figure:
    """Probability that closing wins the deal, by stock size and own points (from ``closing_sums``)."""
    stocks = [10, 8, 6, 4, 2]
    grid, counts = _grid(sums["by_points_and_stock"], "close_win", stocks)
    return _heatmap(grid, counts, stocks, "cards in stock", f"Closing: probability of winning the deal ({bot})",
                    "viridis", 0.0, 1.0, lambda v: f"{v:.2f}", "probability of winning the deal")


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
                    lambda v: ("close " if v > 0.5 else "play ") + f"{v:.2f}",
                    "share of positions where closing is better")
