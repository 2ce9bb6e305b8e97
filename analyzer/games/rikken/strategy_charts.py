"""Charts of a learned bidding strategy: calibration on held-out hands and the one-page strategy card."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyzer.games.rikken.charts import contract_colours
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES

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
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("predicted make rate")
    for ax in axes[:, 0]:
        ax.set_ylabel("observed make rate")
    figure.suptitle("Calibration on held-out hands: deciles of the predicted make rate, observed rate with 95% "
                    "Wilson intervals (dashed: perfect)", fontsize=10)
    figure.tight_layout()
    return figure


def strategy_card(cells: pd.DataFrame, contracts: pd.DataFrame, title: str):
    """The strategy card: the opening bid by HCP and trump length, and each bid's hands and make rate.

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
    hcp_labels = list(cells["hcp"].cat.categories)
    trump_labels = list(cells["trumps"].cat.categories)
    figure = plt.figure(figsize=(11, 8.5))
    grid = figure.add_axes([0.06, 0.42, 0.9, 0.48])
    for row in cells.itertuples(index=False):
        x, y = hcp_labels.index(row.hcp), trump_labels.index(row.trumps)
        grid.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=colours[row.bid], alpha=0.35 + 0.65 * row.share,
                                     edgecolor="white"))
        made = "" if np.isnan(row.make_rate) else f"\nmade {100 * row.make_rate:.0f}%"
        grid.text(x + 0.5, y + 0.5, f"{row.bid}\n{100 * row.share:.0f}% of {row.hands:,}{made}", ha="center",
                  va="center", fontsize=7.5)
    grid.set_xlim(0, len(hcp_labels))
    grid.set_ylim(0, len(trump_labels))
    grid.set_xticks(np.arange(len(hcp_labels)) + 0.5, hcp_labels)
    grid.set_yticks(np.arange(len(trump_labels)) + 0.5, trump_labels)
    grid.set_xlabel("high-card points (A 4, K 3, Q 2, J 1)")
    grid.set_ylabel("cards in your longest suit (trumps)")
    grid.set_title("Open the auction with the commonest bid of your cell (share of the cell's hands; make rate "
                   "observed in those hands)", fontsize=10)
    text = figure.add_axes([0.06, 0.02, 0.9, 0.32])
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
    figure.suptitle(title, fontsize=11)
    return figure
