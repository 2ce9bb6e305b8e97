"""Charts of the Rikken experiments (matplotlib figures; the store saves them)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402

from analyzer.cards.pbn import SEAT_LETTERS  # noqa: E402
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, Contract, Kind  # noqa: E402
from analyzer.games.rikken.summary import GRID_WIDTH, HCP_LABELS, MIN_CELL, moment_rows  # noqa: E402
from analyzer.reports.stats import wilson_interval  # noqa: E402

TRUMP_RANGE = np.arange(0, GRID_WIDTH)


def _rate_grid(rows: pd.DataFrame) -> np.ndarray:
    """Success rate per (HCP bin, trumps held) cell from a contract's ``hcp_trumps`` moments; NaN where
    fewer than ``MIN_CELL`` hands."""
    size = len(HCP_LABELS) * GRID_WIDTH
    codes = rows["code"].to_numpy()
    count = np.bincount(codes, weights=rows["n"].to_numpy(), minlength=size).reshape(len(HCP_LABELS), GRID_WIDTH)
    made = np.bincount(codes, weights=rows["made_sum"].to_numpy(), minlength=size).reshape(count.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = made / count
    return np.where(count >= MIN_CELL, rate, np.nan)


def _heatmap(ax, grid: np.ndarray, cmap, vmin, vmax, labels=None):
    columns = np.where(~np.all(np.isnan(grid), axis=0))[0] if labels is None else np.arange(grid.shape[1])
    shown = grid[:, columns] if columns.size else grid
    image = ax.imshow(shown, origin="lower", aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax)
    ax.set_yticks(range(len(HCP_LABELS)), HCP_LABELS)
    ax.set_xticks(range(len(columns)), [str(TRUMP_RANGE[c]) for c in columns])
    return image, columns


def success_by_trumps_and_hcp(moments: pd.DataFrame) -> plt.Figure:
    """Small multiples: success rate of each trump contract by trumps held (x) and HCP (y)."""
    per_contract = {CONTRACT_CLI_NAMES[c]: moment_rows(moments, c, "hcp_trumps") for c in Contract
                    if KIND[c] == Kind.TRICKS}
    per_contract = {name: rows for name, rows in per_contract.items() if not rows.empty}
    columns = 4
    names = list(per_contract)
    lines = max(1, -(-len(names) // columns))
    figure, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.4 * lines), squeeze=False,
                                layout="constrained")
    image = None
    for ax, name, rows in zip(axes.flat, names, per_contract.values()):
        rate = _rate_grid(rows)
        image, shown = _heatmap(ax, rate, "RdYlGn", 0.0, 1.0)
        for (r, c), value in np.ndenumerate(rate[:, shown]):
            if not np.isnan(value):
                ax.text(c, r, f"{100 * value:.0f}", ha="center", va="center", fontsize=7)
        ax.set_title(name)
        ax.set_xlabel("trumps held")
        ax.set_ylabel("HCP")
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    if image is not None:
        figure.colorbar(image, ax=axes, shrink=0.6, label="success rate")
    figure.suptitle(f"Trump contracts: % made by trumps held and HCP (cells with n >= {MIN_CELL})")
    return figure


def low_contract_success(moments: pd.DataFrame) -> plt.Figure:
    """Misery and 1 Alone contracts: success rate (95% Wilson band) against cards ranked 2-7 held."""
    figure, ax = plt.subplots(figsize=(8, 5), layout="constrained")
    for contract in Contract:
        if KIND[contract] == Kind.TRICKS:
            continue
        name = CONTRACT_CLI_NAMES[contract]
        grouped = moment_rows(moments, contract, "low_cards")
        grouped = grouped[grouped["n"] >= MIN_CELL]
        if grouped.empty:
            continue
        low, high = wilson_interval(grouped["made_sum"].to_numpy(), grouped["n"].to_numpy())
        style = "-" if KIND[contract] == Kind.MISERY else "--"
        line, = ax.plot(grouped["code"], grouped["made_sum"] / grouped["n"], style, marker="o", ms=3, label=name)
        ax.fill_between(grouped["code"], low, high, color=line.get_color(), alpha=0.15)
    ax.set_xlabel("cards ranked 2-7 in hand")
    ax.set_ylabel("success rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(title="contract (band: 95% CI)", fontsize=8)
    ax.set_title("Misery and 1 Alone: success against low cards held")
    return figure


def bidding_chart(best: pd.DataFrame) -> plt.Figure:
    """Two maps over (trumps in the chosen suit, HCP): highest contract made at least half the time,
    and contract with the best expected money score.

    ``best`` has columns ``hcp_bin``, ``trumps``, ``highest_safe``, ``best_ev``, ``best_ev_value``.
    """
    labels = ["pass"] + list(CONTRACT_CLI_NAMES)
    colours = ListedColormap(plt.get_cmap("tab20").colors[: len(labels)])
    figure, axes = plt.subplots(1, 2, figsize=(15, 6), layout="constrained")
    for ax, column, title in ((axes[0], "highest_safe", "highest contract made >= 50%"),
                              (axes[1], "best_ev", "best expected money score")):
        grid = np.full((len(HCP_LABELS), TRUMP_RANGE.size), np.nan)
        for _, cell in best.iterrows():
            grid[HCP_LABELS.index(cell["hcp_bin"]), int(cell["trumps"])] = labels.index(cell[column])
        _, shown = _heatmap(ax, grid, colours, -0.5, len(labels) - 0.5)
        for (r, c), value in np.ndenumerate(grid[:, shown]):
            if not np.isnan(value):
                ax.text(c, r, labels[int(value)], ha="center", va="center", fontsize=6, rotation=30)
        ax.set_title(title)
        ax.set_xlabel("cards in the suit the bidder would name as trumps")
        ax.set_ylabel("HCP")
    figure.suptitle(f"Rikken bidding chart (cells with n >= {MIN_CELL} hands; Troela, compulsory with three aces, "
                    "left out)")
    return figure


def play_chart(contracts: pd.DataFrame, seats: pd.DataFrame) -> plt.Figure:
    """Contract frequency and make rate (with intervals) beside mean score per seat in both modes."""
    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5), gridspec_kw={"width_ratios": [2, 1]})
    declared = contracts[contracts["contract"] != "passed-out"]
    x = np.arange(len(declared))
    left.bar(x, declared["per_round"], color="#8fb3d9", label="share of rounds")
    left.errorbar(x, declared["make_rate"], yerr=[declared["make_rate"] - declared["make_lo"],
                                                   declared["make_hi"] - declared["make_rate"]],
                  fmt="o", color="#c0392b", label="make rate (95% CI)")
    left.set_xticks(x, declared["contract"], rotation=40, ha="right")
    left.set_ylim(0, 1)
    passed = contracts[contracts["contract"] == "passed-out"]["per_round"].iloc[0]
    left.set_title(f"Contracts played (passed out: {100 * passed:.1f}% of rounds)")
    left.legend()
    left.grid(axis="y", alpha=0.3)
    width = 0.38
    for offset, mode in ((-width / 2, "points"), (width / 2, "money")):
        rows = seats[seats["mode"] == mode]
        xs = np.arange(4) + offset
        right.bar(xs, rows["mean"], width, yerr=[rows["mean"] - rows["low"], rows["high"] - rows["mean"]],
                  capsize=3, label=mode)
    right.set_xticks(range(4), list(SEAT_LETTERS))
    right.axhline(0, color="black", lw=0.8)
    right.set_title("Mean score per round by seat (95% CI)")
    right.legend(title="scoring")
    return figure
