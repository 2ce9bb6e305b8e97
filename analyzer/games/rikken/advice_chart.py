"""The chart of ``rikken advise``: how many tricks the declaring side takes in each option."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import pandas as pd  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from analyzer.games.rikken import rules  # noqa: E402
from analyzer.games.rikken.advice import MAX_TRICKS, PASS  # noqa: E402

# Cells below this share stay unlabelled: the eye reads the colour, the number would be noise.
LABEL_MIN_PERCENT = 1.0


def trick_distribution_chart(table: pd.DataFrame, title: str):
    """Heatmap of the probability (%) of each trick count per option, best option on top; the cells
    where the contract is made are outlined, and each row is labelled with its make rate and mean money.

    Parameters
    ----------
    table : pandas.DataFrame
        ``advice.advice_table`` (best first), with its ``contract`` names and ``p_tricks_<k>`` columns; its
        pass row, which takes no tricks, is left out.
    title : str
        The chart's title (the hand and the run).

    Returns
    -------
    matplotlib.figure.Figure
    """
    table = table[table["option"] != PASS]
    percent = 100 * table[[f"p_tricks_{k}" for k in range(MAX_TRICKS + 1)]].to_numpy()
    rows = len(table)
    figure, axes = plt.subplots(figsize=(11, 1.2 + 0.42 * rows), layout="constrained")
    image = axes.imshow(percent, cmap="viridis", vmin=0, vmax=100, aspect="auto")
    for row in range(rows):
        for tricks in range(MAX_TRICKS + 1):
            value = percent[row, tricks]
            if value >= LABEL_MIN_PERCENT:
                axes.text(tricks, row, f"{value:.0f}", ha="center", va="center", fontsize=8,
                          color="black" if value > 60 else "white")
        contract = rules.CONTRACT_NAMES.index(table["contract"].iloc[row])
        for tricks in range(MAX_TRICKS + 1):
            if rules.contract_value(contract, tricks)[0]:
                axes.add_patch(Rectangle((tricks - 0.5, row - 0.5), 1, 1, fill=False, edgecolor="orange",
                                         linewidth=1.4))
    labels = [f"{o} — made {100 * r:.1f}%, money {m:+.2f}"
              for o, r, m in zip(table["option"], table["rate"], table["mean_money"])]
    axes.set_yticks(range(rows), labels, fontsize=9)
    axes.set_xticks(range(MAX_TRICKS + 1))
    axes.set_xlabel("tricks taken by the declaring side (orange: the contract is made)")
    axes.set_title(title, fontsize=10)
    bar = figure.colorbar(image, ax=axes, shrink=0.8)
    bar.set_label("share of deals (%)")
    return figure
