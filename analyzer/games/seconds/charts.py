"""Matplotlib figures for the Sloppy Seconds experiments (built from summary tables and merged aggregates)."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import PercentFormatter

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
    """Mean score per deal and share of games won by policy and by seat, with 95% intervals; the share
    panels draw the equal share 1/n of n players."""
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5), layout="constrained")
    players = len(summary["by_seat"])
    for row, (key, label) in enumerate([("by_policy", "policy"), ("by_seat", "seat")]):
        table = summary[key]
        labels = [str(v) for v in table[label]]
        _bars_with_intervals(axes[row, 0], labels, table["mean_score_per_deal"], table["score_lo"],
                             table["score_hi"], "tab:blue")
        axes[row, 0].set_ylabel("mean score per deal (points)")
        axes[row, 0].set_xlabel(label)
        axes[row, 0].set_title(f"Score per deal by {label} (95% CI)")
        _bars_with_intervals(axes[row, 1], labels, table["win_rate"], table["win_lo"], table["win_hi"], "tab:green")
        axes[row, 1].axhline(1 / players, color="black", linestyle="--", linewidth=1,
                             label=f"equal share 1/{players}")
        top = np.nanmax(np.append(table["win_hi"].to_numpy(dtype=np.float64), 1 / players))
        axes[row, 1].set_ylim(0, 1.2 * top)  # room for the legend above the bars
        axes[row, 1].yaxis.set_major_formatter(PercentFormatter(1.0))
        axes[row, 1].set_ylabel("share of games won")
        axes[row, 1].set_xlabel(label)
        axes[row, 1].set_title(f"Share of games won by {label} (95% CI)")
        axes[row, 1].legend(loc="upper right", fontsize="small")
    fig.suptitle(title)
    return fig


def _pair_styles() -> dict:
    """Colour and line style of each rule pair: the trump rule picks the hue, the minimum rule the shade
    and (for lines) the dash."""
    hues = {TRUMP_VARIANTS[0]: ("#1f5fa8", "#7fb2e5"), TRUMP_VARIANTS[-1]: ("#c45a00", "#f2a65a")}
    dashes = {MINIMUM_VARIANTS[0]: "-", MINIMUM_VARIANTS[-1]: "--"}
    return {(trump, minimum): {"color": hues[trump][MINIMUM_VARIANTS.index(minimum) % 2],
                               "linestyle": dashes[minimum]}
            for trump, minimum in RULE_PAIRS}


def variants_figure(sums: dict[str, pd.DataFrame], summary: dict[str, pd.DataFrame], title: str):
    """Trick at which trump appears, the distribution of a player's deal score (cumulative, so four rule
    pairs stay apart) and seat means per rule pair, drawn from the histograms of ``variants_sums``
    (merged) and the summary tables; one legend of the rule pairs below the panels."""
    tricks = sums["trump_tricks"].xs(MINIMUM_VARIANTS[0], level="minimum_rule")
    fig, axes = plt.subplots(1, 3, figsize=(15, 5), layout="constrained")
    max_trick = int(tricks.index.get_level_values("trump_trick").max()) + 1
    bins = np.arange(-0.5, max_trick + 1.5)
    styles = _pair_styles()
    for trump in TRUMP_VARIANTS:
        g = tricks.xs(trump, level="trump_rule")
        style = styles[(trump, MINIMUM_VARIANTS[0])]
        axes[0].hist(g.index.to_numpy() + 1, bins=bins, weights=g["deals"].to_numpy(), histtype="step",
                     density=True, label=trump, linewidth=2, color=style["color"])
    axes[0].yaxis.set_major_formatter(PercentFormatter(1.0))
    axes[0].set_xlabel("trick at which trump appears (0 = never)")
    axes[0].set_ylabel("share of deals")
    axes[0].set_title("When trump appears (either minimum rule)")
    axes[0].legend(title="trump rule")
    scores = sums["scores"]
    for pair in RULE_PAIRS:
        g = scores.xs(pair, level=["trump_rule", "minimum_rule"]).sort_index()
        share = np.cumsum(g["count"].to_numpy()) / g["count"].sum()
        axes[1].step(g.index.to_numpy(), share, where="post", linewidth=1.8, **styles[pair])
    axes[1].yaxis.set_major_formatter(PercentFormatter(1.0))
    axes[1].set_xlabel("deal score of one player (points)")
    axes[1].set_ylabel("share of scores at most this")
    axes[1].set_title("Distribution of a player's deal score")
    axes[1].grid(alpha=0.3)
    seats = summary["seats"]
    pairs = list(seats.groupby(["trump_rule", "minimum_rule"], sort=False))
    width = 0.8 / max(len(pairs), 1)
    for i, (pair, g) in enumerate(pairs):
        x = g["seat"].to_numpy() + (i - (len(pairs) - 1) / 2) * width
        errors = _error_bars(g["mean_score"], g["score_lo"], g["score_hi"])
        axes[2].bar(x, g["mean_score"], width=width, yerr=errors, capsize=2, color=styles[pair]["color"])
    axes[2].set_xticks(sorted(seats["seat"].unique()))
    axes[2].set_xlabel("seat (0 leads)")
    axes[2].set_ylabel("mean deal score (points)")
    axes[2].set_title("Mean deal score by seat (95% CI)")
    handles = [Line2D([], [], linewidth=2.5, label=f"{trump} / {minimum}", **styles[(trump, minimum)])
               for trump, minimum in RULE_PAIRS]
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), title="trump rule / minimum rule")
    fig.suptitle(title)
    return fig
