"""Matplotlib figures for the Sloppy Seconds experiments (built from summary tables and merged aggregates)."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyzer.games.seconds.rules import MINIMUM_VARIANTS, TRUMP_VARIANTS
from analyzer.games.seconds.summary import RULE_PAIRS


def _error_bars(means, lows, highs) -> np.ndarray:
    """Error-bar lengths below and above each mean; an interval that rounding left a hair inside its mean
    (a Wilson bound at a rate of exactly 0 or 1) or that is undefined (one observation) draws none."""
    means = np.asarray(means, dtype=np.float64)
    errors = np.vstack([means - np.asarray(lows, dtype=np.float64), np.asarray(highs, dtype=np.float64) - means])
    return np.clip(np.nan_to_num(errors), 0.0, None)


def _bars_with_intervals(ax, labels, means, lows, highs, color):
    x = np.arange(len(labels))
    ax.bar(x, means, yerr=_error_bars(means, lows, highs), capsize=4, color=color)
    ax.set_xticks(x, labels)


def play_figure(summary: dict[str, pd.DataFrame], title: str):
    """Mean score per deal and win rate by policy and by seat, with 95% intervals."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    for row, (key, label) in enumerate([("by_policy", "policy"), ("by_seat", "seat")]):
        table = summary[key]
        labels = [str(v) for v in table[label]]
        _bars_with_intervals(axes[row, 0], labels, table["mean_score_per_deal"], table["score_lo"],
                             table["score_hi"], "tab:blue")
        axes[row, 0].set_ylabel("score per deal")
        axes[row, 0].set_xlabel(label)
        _bars_with_intervals(axes[row, 1], labels, table["win_rate"], table["win_lo"], table["win_hi"], "tab:green")
        axes[row, 1].set_ylabel("games won")
        axes[row, 1].set_xlabel(label)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def variants_figure(sums: dict[str, pd.DataFrame], summary: dict[str, pd.DataFrame], title: str):
    """Trick at which trump appears, score distributions and seat means per rule pair, drawn from the
    histograms of ``variants_sums`` (merged) and the summary tables."""
    tricks = sums["trump_tricks"].xs(MINIMUM_VARIANTS[0], level="minimum_rule")
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    max_trick = int(tricks.index.get_level_values("trump_trick").max()) + 1
    bins = np.arange(-0.5, max_trick + 1.5)
    for trump in TRUMP_VARIANTS:
        g = tricks.xs(trump, level="trump_rule")
        axes[0].hist(g.index.to_numpy() + 1, bins=bins, weights=g["deals"].to_numpy(), histtype="step",
                     density=True, label=trump, linewidth=1.5)
    axes[0].set_xlabel("trick at which trump appears (0 = never)")
    axes[0].set_ylabel("share of deals")
    axes[0].legend(title="trump rule")
    scores = sums["scores"]
    for trump, minimum in RULE_PAIRS:
        g = scores.xs((trump, minimum), level=["trump_rule", "minimum_rule"])
        axes[1].hist(g.index.to_numpy(), bins=40, weights=g["count"].to_numpy(), histtype="step", density=True,
                     label=f"{trump} / {minimum}")
    axes[1].set_xlabel("deal score of one player")
    axes[1].set_ylabel("density")
    axes[1].legend(fontsize="small")
    seats = summary["seats"]
    pairs = list(seats.groupby(["trump_rule", "minimum_rule"], sort=False))
    width = 0.8 / max(len(pairs), 1)
    for i, ((trump, minimum), g) in enumerate(pairs):
        x = g["seat"].to_numpy() + (i - (len(pairs) - 1) / 2) * width
        errors = _error_bars(g["mean_score"], g["score_lo"], g["score_hi"])
        axes[2].bar(x, g["mean_score"], width=width, yerr=errors, capsize=2, label=f"{trump} / {minimum}")
    axes[2].set_xticks(sorted(seats["seat"].unique()))
    axes[2].set_xlabel("seat (0 leads)")
    axes[2].set_ylabel("mean deal score")
    axes[2].legend(fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    return fig
