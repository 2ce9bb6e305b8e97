"""Summary tables and charts of full Rikken rounds (``analyzer rikken play``)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analyzer.cards.pbn import SEAT_LETTERS  # noqa: E402
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES  # noqa: E402
from analyzer.reports.stats import mean_interval, wilson_interval  # noqa: E402


def declarations(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per declared contract: ``round, seat, contract, made``."""
    parts = [pd.DataFrame({"round": rounds["round"], "seat": seat, "contract": rounds[f"contract_{seat}"],
                           "made": rounds[f"made_{seat}"]}) for seat in range(4)]
    table = pd.concat(parts, ignore_index=True)
    return table[table["contract"] >= 0]


def contract_summary(rounds: pd.DataFrame) -> pd.DataFrame:
    """Per contract: declarations, share of rounds, make rate with its 95% Wilson interval; plus passed-out deals."""
    n_rounds = len(rounds)
    declared = declarations(rounds)
    grouped = declared.groupby("contract")["made"].agg(["size", "sum"]).reset_index()
    rate_lo, rate_hi = wilson_interval(grouped["sum"].to_numpy(), grouped["size"].to_numpy())
    freq_lo, freq_hi = wilson_interval(grouped["size"].to_numpy(), n_rounds)
    table = pd.DataFrame({"contract": [CONTRACT_CLI_NAMES[c] for c in grouped["contract"]],
                          "declared": grouped["size"], "per_round": grouped["size"] / n_rounds,
                          "per_round_lo": freq_lo, "per_round_hi": freq_hi, "made": grouped["sum"],
                          "make_rate": grouped["sum"] / grouped["size"], "make_lo": rate_lo, "make_hi": rate_hi})
    passed = int(rounds["passed_out"].sum())
    low, high = wilson_interval(passed, n_rounds)
    passed_row = pd.DataFrame([{"contract": "passed-out", "declared": passed, "per_round": passed / max(n_rounds, 1),
                                "per_round_lo": low, "per_round_hi": high}])
    return pd.concat([table, passed_row], ignore_index=True)


def seat_summary(rounds: pd.DataFrame) -> pd.DataFrame:
    """Mean score per round for each seat in both scoring modes, with 95% intervals."""
    records = []
    for mode in ("points", "money"):
        for seat in range(4):
            mean, low, high = mean_interval(rounds[f"{mode}_{seat}"].to_numpy())
            records.append({"mode": mode, "seat": SEAT_LETTERS[seat], "rounds": len(rounds), "mean": mean,
                            "low": low, "high": high})
    return pd.DataFrame.from_records(records)


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
