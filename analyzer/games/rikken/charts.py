"""Charts of the Rikken experiments (matplotlib figures; the store saves them).

A chart function returns None when it has nothing to draw (no contract of its kind was evaluated), so
a run of a few contracts writes no empty figure. Contracts are coloured in auction order (``contract_colours``)
and ``pass`` grey.
"""

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm, TwoSlopeNorm, to_rgba
from matplotlib.patches import Patch, Polygon, Rectangle
from matplotlib.ticker import PercentFormatter

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.games.rikken import rules
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, Contract, Kind
from analyzer.games.rikken.summary import (
    BIDDING_CANDIDATES,
    GRID_WIDTH,
    HCP_LABELS,
    MIN_CELL,
    NO_TRUMP_CONTRACTS,
    best_no_trump,
    bounded_note,
    moment_rows,
)
from analyzer.reports.stats import wilson_interval

PASS_COLOUR = "#d4d4d4"
CELL_FONT = 9
# Panels per line of the trick-contract heatmaps: few enough that a report shows their cell labels legibly.
PANEL_COLUMNS = 3
# A contract made in under this share of every cell is never worth bidding: a panel of near-zero cells
# would say nothing cell by cell, so it goes into one note instead.
NEGLIGIBLE_RATE = 0.05
# Short names of the no-trump contracts inside heatmap cells (a key is printed with the chart).
SHORT_NAMES = {"misery": "M", "1-alone": "1A", "open-misery": "OM", "open-1-alone": "O1A", "open-misery-all": "OMA",
               "open-1-alone-all": "O1AA"}
TRUMP_AXIS = {rules.TrumpRule.BIDDER: "cards in the suit named", rules.TrumpRule.HEARTS: "hearts held",
              rules.TrumpRule.PARTNER: "trumps (the partner's suit)"}


def contract_colours(contracts) -> dict:
    """Colour of each contract's CLI name: a map whose hue runs with the auction order (blue for the
    lowest contract through green and yellow to red for the highest), and ``pass`` grey.

    Parameters
    ----------
    contracts : iterable of Contract
        The contracts a chart can show; colours spread over them so neighbours stay apart.
    """
    names = [CONTRACT_CLI_NAMES[c] for c in sorted(contracts)]
    cmap = plt.get_cmap("turbo")
    spread = np.linspace(0.1, 0.9, len(names)) if len(names) > 1 else [0.5]
    return {"pass": to_rgba(PASS_COLOUR), **{name: cmap(x) for name, x in zip(names, spread)}}


def _ink(colour) -> str:
    """Black or white, whichever reads on ``colour``."""
    r, g, b, _ = to_rgba(colour)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def _count_text(n: float) -> str:
    """A cell's hand count in at most four characters: ``850``, ``12k``, ``1.2M``."""
    if n < 1000:
        return f"{n:.0f}"
    if n < 10_000:
        return f"{n / 1000:.1f}k"
    if n < 1_000_000:
        return f"{n / 1000:.0f}k"
    return f"{n / 1e6:.1f}M"


def _count_grids(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Hands and hands made per (HCP bin, card count) cell of a contract's one-count grid moments."""
    size = len(HCP_LABELS) * GRID_WIDTH
    codes = rows["code"].to_numpy()
    count = np.bincount(codes, weights=rows["n"].to_numpy(), minlength=size).reshape(len(HCP_LABELS), GRID_WIDTH)
    made = np.bincount(codes, weights=rows["made_sum"].to_numpy(), minlength=size).reshape(count.shape)
    return count, made


def _span(used: np.ndarray) -> np.ndarray:
    """The card counts from the first to the last ``used`` one, so an axis has no gaps."""
    found = np.flatnonzero(used)
    return np.arange(found[0], found[-1] + 1) if found.size else found


def _axes_grid(n_panels: int, columns: int, width: float, height: float):
    lines = max(1, -(-n_panels // columns))
    figure, axes = plt.subplots(lines, columns, figsize=(width * columns, height * lines), squeeze=False,
                                layout="constrained")
    for ax in list(axes.flat)[n_panels:]:
        ax.axis("off")
    return figure, list(axes.flat)


def _cell_axes(ax, columns: np.ndarray, xlabel: str) -> None:
    ax.set_yticks(range(len(HCP_LABELS)), HCP_LABELS)
    ax.set_xticks(range(len(columns)), [str(c) for c in columns])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("HCP")


def success_by_trumps_and_hcp(moments: pd.DataFrame) -> plt.Figure | None:
    """Small multiples: each trick contract's success rate by the length of its trump suit (x: the
    suit named, hearts for Rik Beter, the partner's suit for Troela) and HCP (y), in cells of at least
    ``MIN_CELL`` hands; panels of the hands per cell (one per distinct grid of counts, shared by the
    contracts every hand can declare with the same trumps); and one note for the contracts made in
    under ``NEGLIGIBLE_RATE`` (5%) of every cell, which would each fill a panel with near-zeros.

    Returns
    -------
    matplotlib.figure.Figure or None
        None when no trick contract was evaluated.
    """
    grids = {c: _count_grids(moment_rows(moments, c, "hcp_trumps")) for c in Contract if KIND[c] == Kind.TRICKS}
    grids = {c: grid for c, grid in grids.items() if grid[0].any()}
    if not grids:
        return None
    rates = {}
    for contract, (count, made) in grids.items():
        with np.errstate(invalid="ignore", divide="ignore"):
            rates[contract] = np.where(count >= MIN_CELL, made / count, np.nan)
    drawn = [c for c in grids if np.nanmax(rates[c], initial=-1.0) >= NEGLIGIBLE_RATE]
    negligible = [c for c in grids if c not in drawn]
    shared: list[list[Contract]] = []
    for contract in grids:
        group = next((g for g in shared if np.array_equal(grids[g[0]][0], grids[contract][0])), None)
        if group is None:
            shared.append([contract])
        else:
            group.append(contract)
    n_panels = len(drawn) + len(shared) + bool(negligible)
    figure, axes = _axes_grid(n_panels, min(PANEL_COLUMNS, n_panels), 4.6, 3.6)
    image = None
    for ax, contract in zip(axes, drawn):
        rate = rates[contract]
        columns = _span(~np.all(np.isnan(rate), axis=0))
        image = ax.imshow(rate[:, columns], origin="lower", aspect="auto", cmap="RdYlGn", vmin=0.0, vmax=1.0)
        for (r, c), value in np.ndenumerate(rate[:, columns]):
            if not np.isnan(value):
                ax.text(c, r, f"{100 * value:.0f}", ha="center", va="center", fontsize=CELL_FONT,
                        color=_ink(image.cmap(image.norm(value))))
        _cell_axes(ax, columns, TRUMP_AXIS[rules.TRUMP_RULE[contract]])
        ax.set_title(f"{CONTRACT_CLI_NAMES[contract]}: % made")
    for ax, group in zip(axes[len(drawn):], shared):
        count = grids[group[0]][0]
        columns = _span(count.any(axis=0))
        shown = np.where(count[:, columns] > 0, count[:, columns], np.nan)
        counts = ax.imshow(shown, origin="lower", aspect="auto", cmap="Blues",
                           norm=LogNorm(vmin=1, vmax=max(2.0, np.nanmax(shown))))
        for (r, c), value in np.ndenumerate(shown):
            if not np.isnan(value):
                ax.text(c, r, _count_text(value), ha="center", va="center", fontsize=CELL_FONT - 1,
                        color=_ink(counts.cmap(counts.norm(value))))
        _cell_axes(ax, columns, TRUMP_AXIS[rules.TRUMP_RULE[group[0]]])
        ax.set_title("\n".join(textwrap.wrap("hands per cell: " + ", ".join(CONTRACT_CLI_NAMES[c] for c in group),
                                             48, break_on_hyphens=False)), fontsize=9)
    if negligible:
        ax = axes[len(drawn) + len(shared)]
        ax.axis("off")
        lines = [f"{CONTRACT_CLI_NAMES[c]}: made {grids[c][1].sum():,.0f} of {grids[c][0].sum():,.0f} hands"
                 for c in negligible]
        ax.text(0.0, 1.0, f"Not drawn: made in under {100 * NEGLIGIBLE_RATE:.0f}% of the hands\nof every cell with "
                f"n >= {MIN_CELL} (or no such cell):\n\n" + "\n".join(lines), va="top", ha="left", fontsize=10,
                transform=ax.transAxes)
    if image is not None:
        figure.colorbar(image, ax=axes, shrink=0.5, label="made (% of the cell's hands)", format=PercentFormatter(1.0))
    figure.suptitle(f"Trick contracts: % made by trumps held and HCP (cells with n >= {MIN_CELL} hands)"
                    f"{bounded_note(moments)}", fontsize=13)
    return figure


def _bidding_map(ax, best: pd.DataFrame, column: str, hearts_column: str, colours: dict, with_value: bool) -> set:
    """One map of the bidding chart; returns the advice labels it shows."""
    xs = np.arange(best["trumps"].min(), best["trumps"].max() + 1)
    shown = set()
    rik_beter = CONTRACT_CLI_NAMES[Contract.RIK_BETER]
    for cell in best.itertuples(index=False):
        x, y = int(cell.trumps) - xs[0], HCP_LABELS.index(cell.hcp_bin)
        advice, hearts = getattr(cell, column), getattr(cell, hearts_column)
        fill = colours[advice or rik_beter] if (advice or hearts) else "white"
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=fill, edgecolor="white", lw=1.5))
        lines = []
        if advice:
            shown.add(advice)
            lines.append(advice)
            if with_value and advice != "pass":
                lines.append(f"{cell.best_ev_value:+.2f}")
        if hearts:
            shown.add(rik_beter)
            # A corner in Rik Beter's colour marks the cells where it is the advice for some heart lengths.
            ax.add_patch(Polygon([(x + 0.5, y + 0.5), (x + 0.5, y + 0.05), (x + 0.05, y + 0.5)],
                                 facecolor=colours[rik_beter], edgecolor="white", lw=0.8))
            lines.append(f"\u2665{hearts}")
        lines.append(f"n {cell.hands:,}")
        ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=CELL_FONT + 1, color=_ink(fill),
                linespacing=1.25)
    ax.set_xlim(-0.5, xs.size - 0.5)
    ax.set_ylim(-0.5, len(HCP_LABELS) - 0.5)
    _cell_axes(ax, xs, "cards in the suit the bidder would name (his longest)")
    return shown


def bidding_chart(best: pd.DataFrame) -> plt.Figure | None:
    """The bidding chart of :func:`analyzer.games.rikken.summary.best_contracts` as two maps over (length
    of the suit the bidder would name, HCP): the highest trick contract made at least half the time,
    and the one with the best mean money score (with that mean).

    A cell holds the hands with those HCP whose named suit (the longest) has that many cards; its colour
    and first line are the advice among the contracts played with that suit as trumps, over the cell's
    hands outside the listed heart lengths. ``♥k`` (and the corner in Rik Beter's colour)
    says that for the hands of the cell holding k hearts Rik Beter, compared with every contract on
    exactly those hands, is the advice instead. Each statement thus holds on the hands it names (see
    ``best_contracts``). The last line is the number of hands in the cell.

    Parameters
    ----------
    best : pandas.DataFrame
        ``best_contracts`` output (the run's ``bidding_chart.csv``).

    Returns
    -------
    matplotlib.figure.Figure or None
        None when no cell has ``MIN_CELL`` hands (no trick contract was evaluated).
    """
    if best.empty:
        return None
    colours = contract_colours(BIDDING_CANDIDATES)
    figure, axes = plt.subplots(1, 2, figsize=(15, 8), layout="constrained")
    shown = _bidding_map(axes[0], best, "highest_safe", "rik_beter_safe_hearts", colours, with_value=False)
    shown |= _bidding_map(axes[1], best, "best_ev", "rik_beter_ev_hearts", colours, with_value=True)
    axes[0].set_title("highest contract made at least 50% of the time")
    bounded = int(best["bounded"].sum()) if "bounded" in best else 0
    axes[1].set_title("best mean money score per hand (and that mean)" + (
        f"\n{bounded:,} rows with a bounded trick count: their money at its low end" if bounded else ""))
    handles = [Patch(facecolor=colour, edgecolor="grey", label=name) for name, colour in colours.items()
               if name in shown]
    if handles:  # none when no cell has MIN_CELL hands
        figure.legend(handles=handles, loc="outside lower center", ncol=len(handles), title="advice (auction order)",
                      fontsize=10)
    hearts_note = ("\u2665k and a corner in Rik Beter's colour: with k hearts, Rik Beter (hearts trumps) is the advice "
                   "instead, judged on those hands alone.\n" if CONTRACT_CLI_NAMES[Contract.RIK_BETER] in shown else "")
    figure.suptitle(f"Rikken bidding chart: trick contracts by HCP and length of the suit you would name (advice where "
                    f"n >= {MIN_CELL} hands, else only the count)\n{hearts_note}Troela (compulsory with three aces) "
                    "is left out; Misery and 1 Alone have their own chart (misery_one_alone_by_low_cards).",
                    fontsize=11)
    return figure


def low_contract_success(moments: pd.DataFrame) -> plt.Figure | None:
    """Misery and 1 Alone contracts (closed, open, open to all), on the features that decide them:
    a heatmap over (cards ranked 2-7, HCP) of the best of them per cell by mean money (colour: that
    mean; text: its short name, make rate, mean, hands; outlined where the mean is positive, i.e. where
    it is worth bidding), beside each contract's success rate with its 95% Wilson band against the
    cards ranked 2-7.

    Returns
    -------
    matplotlib.figure.Figure or None
        None when none of these contracts was evaluated.
    """
    contracts = [c for c in NO_TRUMP_CONTRACTS if not moment_rows(moments, c, "low_cards").empty]
    if not contracts:
        return None
    colours = contract_colours(NO_TRUMP_CONTRACTS)
    figure, (left, right) = plt.subplots(1, 2, figsize=(15, 7), layout="constrained",
                                         gridspec_kw={"width_ratios": [1.6, 1]})
    table = best_no_trump(moments)
    if table.empty:
        left.axis("off")
        left.text(0.5, 0.5, f"no cell with {MIN_CELL} hands", ha="center", va="center", transform=left.transAxes)
    else:
        xs = np.arange(table["low_cards"].min(), table["low_cards"].max() + 1)
        grid = np.full((len(HCP_LABELS), xs.size), np.nan)
        for cell in table.itertuples(index=False):
            grid[HCP_LABELS.index(cell.hcp_bin), cell.low_cards - xs[0]] = cell.top_money
        reach = max(1.0, float(np.nanmax(np.abs(grid))))
        image = left.imshow(grid, origin="lower", aspect="auto", cmap="RdBu", norm=TwoSlopeNorm(0.0, -reach, reach))
        for cell in table.itertuples(index=False):
            x, y = cell.low_cards - xs[0], HCP_LABELS.index(cell.hcp_bin)
            left.text(x, y, f"{SHORT_NAMES[cell.top]} {100 * cell.top_rate:.0f}%\n{cell.top_money:+.1f}\n"
                      f"n {_count_text(cell.hands)}", ha="center", va="center", fontsize=CELL_FONT - 0.5,
                      color=_ink(image.cmap(image.norm(cell.top_money))), linespacing=1.2)
            if cell.advice != "pass":
                left.add_patch(Rectangle((x - 0.48, y - 0.48), 0.96, 0.96, fill=False, edgecolor="black", lw=2.2))
        figure.colorbar(image, ax=left, shrink=0.8, label="mean money per hand of the best contract")
        _cell_axes(left, xs, "cards ranked 2-7 in hand")
        key = ", ".join(f"{short} {name}" for name, short in SHORT_NAMES.items())
        left.set_title(f"Best of them per cell by mean money (outlined: positive, worth bidding)\n{key}", fontsize=10)
    drawn = False
    for contract in contracts:
        name = CONTRACT_CLI_NAMES[contract]
        grouped = moment_rows(moments, contract, "low_cards")
        grouped = grouped[grouped["n"] >= MIN_CELL]
        if grouped.empty:
            continue
        low, high = wilson_interval(grouped["made_sum"].to_numpy(), grouped["n"].to_numpy())
        style = "-" if KIND[contract] == Kind.MISERY else "--"
        right.plot(grouped["code"], grouped["made_sum"] / grouped["n"], style, marker="o", ms=3, label=name,
                   color=colours[name])
        right.fill_between(grouped["code"], low, high, color=colours[name], alpha=0.15)
        drawn = True
    right.set_xlabel("cards ranked 2-7 in hand")
    right.set_ylabel("made (% of the hands)")
    right.yaxis.set_major_formatter(PercentFormatter(1.0))
    right.set_ylim(0, 1)
    right.grid(alpha=0.3)
    if drawn:
        right.legend(title="contract (band: 95% CI)", fontsize=9, loc="upper left")
    right.set_title(f"Success against low cards held (bins with n >= {MIN_CELL})")
    figure.suptitle("Misery and 1 Alone: no trumps, so low cards and high cards decide them", fontsize=13)
    return figure


def play_chart(contracts: pd.DataFrame, seats: pd.DataFrame) -> plt.Figure:
    """Contracts played and their make rates beside the mean score per seat in both scoring modes.

    Left: each declared contract's share of rounds (bars, with 95% intervals) and its make rate (points,
    with 95% intervals), on one percent axis; a contract declared fewer than ``MIN_CELL`` times gets
    no make rate (too few to read) and its count above the bar instead. Right: each seat's mean score
    per round in both modes, with 95% intervals.

    Parameters
    ----------
    contracts : pandas.DataFrame
        :func:`analyzer.games.rikken.summary.contract_summary` (the ``passed-out`` row included).
    seats : pandas.DataFrame
        :func:`analyzer.games.rikken.summary.seat_summary`.
    """
    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5), layout="constrained",
                                         gridspec_kw={"width_ratios": [2, 1]})
    declared = contracts[contracts["contract"] != "passed-out"].reset_index(drop=True)
    x = np.arange(len(declared))
    # Clipped at 0: at a rate of exactly 0 or 1 the Wilson bound differs from it by a rounding error.
    share_arms = np.clip([declared["per_round"] - declared["per_round_lo"],
                          declared["per_round_hi"] - declared["per_round"]], 0, None)
    left.bar(x, declared["per_round"], yerr=share_arms, capsize=2, color="#8fb3d9", ecolor="#4a6f99",
             label="share of rounds (95% CI)")
    counted = (declared["declared"] >= MIN_CELL).to_numpy()
    rows = declared[counted]
    arms = np.clip([rows["make_rate"] - rows["make_lo"], rows["make_hi"] - rows["make_rate"]], 0, None)
    left.errorbar(x[counted], rows["make_rate"], yerr=arms, fmt="o", color="#c0392b", capsize=3,
                  label=f"make rate (95% CI), contracts declared >= {MIN_CELL} times")
    for position, row in zip(x[~counted], declared[~counted].itertuples()):
        left.text(position, row.per_round_hi + 0.02, f"n {row.declared}", ha="center", va="bottom", fontsize=8,
                  color="#555")
    left.set_xticks(x, declared["contract"], rotation=40, ha="right")
    left.set_ylim(0, 1.05)
    left.yaxis.set_major_formatter(PercentFormatter(1.0))
    left.set_ylabel("% of rounds (bars) / % made (points)")
    left.set_xlabel("contract")
    passed = contracts[contracts["contract"] == "passed-out"]["per_round"]
    passed_text = f" (passed out: {100 * passed.iloc[0]:.1f}% of rounds)" if not passed.empty else ""
    left.set_title(f"Contracts played and made{passed_text}")
    if declared.empty:
        left.text(0.5, 0.5, "no contract was declared: every round passed out", ha="center", va="center",
                  transform=left.transAxes)
    figure.legend(*left.get_legend_handles_labels(), loc="outside lower left", ncol=2, fontsize=9)
    left.grid(axis="y", alpha=0.3)
    width = 0.38
    for offset, mode in ((-width / 2, "points"), (width / 2, "money")):
        rows = seats[seats["mode"] == mode]
        xs = np.arange(len(rows)) + offset
        right.bar(xs, rows["mean"], width, yerr=np.clip([rows["mean"] - rows["low"], rows["high"] - rows["mean"]],
                                                        0, None), capsize=3, label=mode)
    right.set_xticks(range(len(SEAT_LETTERS)), list(SEAT_LETTERS))
    right.axhline(0, color="black", lw=0.8)
    right.set_xlabel("seat")
    right.set_ylabel("mean score per round (points or money units)")
    right.set_title("Mean score per round by seat (95% CI)")
    right.legend(title="scoring", loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
    right.grid(axis="y", alpha=0.3)
    figure.suptitle("Rikken full rounds", fontsize=13)
    return figure
