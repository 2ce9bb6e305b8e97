"""Charts of a learned bidding strategy: calibration on held-out hands and the one-page strategy card."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import PercentFormatter

from analyzer.games.rikken.charts import contract_colours
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES
from analyzer.games.rikken.strategy import HCP_BINS, LOW_CARD_BINS, MIN_CARD_BID, MIN_CARD_CELL, TRUMP_BINS, bin_labels

CALIBRATION_COLUMNS = 4


def calibration_chart(table: pd.DataFrame):
    """Predicted against observed make rate per decile of prediction (95% Wilson bars), one panel a contract.

    Parameters
    ----------
    table : pandas.DataFrame
        ``strategy.calibration_table`` rows.

    Returns
    -------
    matplotlib.figure.Figure
    """
    names = list(dict.fromkeys(table["contract"]))
    rows = -(-len(names) // CALIBRATION_COLUMNS)
    figure, axes = plt.subplots(rows, CALIBRATION_COLUMNS, figsize=(3.2 * CALIBRATION_COLUMNS, 3.0 * rows),
                                squeeze=False, sharex=True, sharey=True)
    for ax, name in zip(axes.flat, names):
        part = table[table["contract"] == name]
        # Clipped: at 0 or n made the Wilson bound equals the rate up to rounding, which may come out negative.
        errors = np.clip(np.vstack([part["observed"] - part["observed_lo"], part["observed_hi"] - part["observed"]]),
                         0, None)
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle="--")
        ax.errorbar(part["predicted"], part["observed"], yerr=errors, fmt="o", markersize=3, capsize=2)
        ax.set_title(f"{name} ({int(part['n'].sum()):,} hands)", fontsize=9)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("predicted make rate (%)")
    for ax in axes[:, 0]:
        ax.set_ylabel("observed make rate (%)")
    figure.suptitle("Calibration on held-out hands: deciles of the predicted make rate, observed rate with 95% "
                    "Wilson intervals (dashed: perfect)", fontsize=10)
    figure.tight_layout()
    return figure


def _card_grid(ax, cells: pd.DataFrame, x_labels: list[str], y_labels: list[str], x: str, y: str | None,
               colours: dict) -> None:
    """One grid of the strategy card: a cell per (x, y) bin, coloured by its bid, shaded by its share."""
    for row in cells.itertuples(index=False):
        col, line = x_labels.index(getattr(row, x)), 0 if y is None else y_labels.index(getattr(row, y))
        if row.bid:
            ax.add_patch(plt.Rectangle((col, line), 1, 1, facecolor=colours[row.bid],
                                       alpha=0.35 + 0.65 * row.share, edgecolor="white"))
            made = "" if np.isnan(row.make_rate) else f"\nmade {100 * row.make_rate:.0f}%"
            text = f"{row.bid}\n{100 * row.share:.0f}% of {row.hands:,}{made}"
        else:
            text = f"n {row.hands:,}"
        ax.text(col + 0.5, line + 0.5, text, ha="center", va="center", fontsize=7.5)
    ax.set_xlim(0, len(x_labels))
    ax.set_ylim(0, len(y_labels))
    ax.set_xticks(np.arange(len(x_labels)) + 0.5, x_labels)
    ax.set_yticks(np.arange(len(y_labels)) + 0.5, y_labels)


def strategy_card(cells: pd.DataFrame, contracts: pd.DataFrame, title: str):
    """The strategy card: the opening bid by HCP and trump length, by HCP and low cards, with three aces,
    and each bid's hands and make rate.

    Parameters
    ----------
    cells : pandas.DataFrame
        ``strategy.card_cells`` rows.
    contracts : pandas.DataFrame
        ``strategy.contract_card`` rows.
    title : str
        Where the strategy came from.

    Returns
    -------
    matplotlib.figure.Figure
    """
    colours = contract_colours(range(len(CONTRACT_CLI_NAMES)))
    hcp_labels = bin_labels(HCP_BINS)
    figure = plt.figure(figsize=(15, 11))
    trick_grid = figure.add_axes([0.05, 0.45, 0.5, 0.44])
    _card_grid(trick_grid, cells[cells["panel"] == "trumps"], hcp_labels, bin_labels(TRUMP_BINS), "hcp", "bin",
               colours)
    trick_grid.set_xlabel("high-card points (A 4, K 3, Q 2, J 1)")
    trick_grid.set_ylabel("cards in your longest suit (trumps)")
    trick_grid.set_title("By HCP and your longest suit (trick contracts)", fontsize=10)
    low_grid = figure.add_axes([0.62, 0.45, 0.36, 0.44])
    _card_grid(low_grid, cells[cells["panel"] == "low_cards"], bin_labels(LOW_CARD_BINS), hcp_labels, "bin",
               "hcp", colours)
    low_grid.set_xlabel("cards ranked 2-7")
    low_grid.set_ylabel("high-card points")
    low_grid.set_title("By low cards and HCP: the commonest bid without trumps (Misery, 1 Alone)", fontsize=10)
    aces = figure.add_axes([0.05, 0.33, 0.5, 0.055])
    _card_grid(aces, cells[cells["panel"] == "three_aces"], hcp_labels, [""], "hcp", None, colours)
    aces.set_yticks([])
    aces.set_title("Three aces, by HCP: Troela is compulsory (these hands are left out of the grids above)",
                   fontsize=10)
    text = figure.add_axes([0.05, 0.01, 0.9, 0.26])
    text.axis("off")
    lines = [f"{'bid':<17}{'share':>8}{'made':>8}  {'95% interval':<14}{'model':>7}   HCP     trumps  low cards"]
    for row in contracts.itertuples(index=False):
        made = "" if np.isnan(row.make_rate) else f"{100 * row.make_rate:.0f}%"
        span = "" if np.isnan(row.make_lo) else f"[{100 * row.make_lo:.0f}, {100 * row.make_hi:.0f}]"
        model = "" if np.isnan(row.predicted) else f"{100 * row.predicted:.0f}%"
        lines.append(f"{row.bid:<17}{100 * row.share:>7.1f}%{made:>8}  {span:<14}{model:>7}   {row.hcp:<8}"
                     f"{row.trumps:<8}{row.low_cards}")
    text.text(0, 1, "Every opening bid (hands of the held-out deals; HCP, trumps and low cards 2-7: the middle 80% "
              "of its hands)\n\n" + "\n".join(lines), family="monospace", fontsize=8, va="top")
    figure.suptitle(f"{title}\nOpen the auction with the commonest bid of your cell (its share of the cell's "
                    f"hands; the make rate observed in those hands)\na cell names a bid when it holds at least "
                    f"{MIN_CARD_CELL} hands and {MIN_CARD_BID} of them bid it; other cells show only their count",
                    fontsize=11)
    return figure
