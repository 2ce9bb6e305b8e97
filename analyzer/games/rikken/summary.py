"""Summary tables of the Rikken experiments: bid success (rates with Wilson intervals, mean scores,
the bidding chart) and full rounds (contract frequencies, make rates, score per seat)."""

import numpy as np
import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.games.rikken import rules
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, LEVEL, Contract, Kind
from analyzer.reports.stats import Z95, mean_interval, wilson_interval

HCP_BINS = [0, 5, 8, 11, 14, 17, 20, 38]
HCP_LABELS = ["0-4", "5-7", "8-10", "11-13", "14-16", "17-19", "20+"]
# Cells with fewer hands are left blank in charts: their rates are too noisy to read.
MIN_CELL = 30
FEATURE_COLUMNS = ("hcp_bin", "trumps", "aces", "longest", "low_cards", "voids")
# Trick count stored for a contract the hand cannot declare (Troela without three aces).
NOT_PLAYABLE = -1


def bin_hcp(hcp) -> pd.Categorical:
    """HCP as ordered bins (``0-4`` ... ``20+``)."""
    codes = np.searchsorted(HCP_BINS, np.asarray(hcp), side="right") - 1
    return pd.Categorical.from_codes(codes, categories=HCP_LABELS, ordered=True)


def trump_contract_names() -> list[str]:
    """CLI names of the contracts won by a trick target, in auction order."""
    return [CONTRACT_CLI_NAMES[c] for c in Contract if KIND[c] == Kind.TRICKS]


def contract_rows(table: pd.DataFrame, contract: int) -> pd.DataFrame:
    """Long-format rows of one contract from the per-hand table (hands that can declare it only).

    ``trumps`` is the number of cards the bidder holds in that contract's trump suit;
    ``policy_trumps`` the number in the suit the bidding policy would name.
    """
    name = CONTRACT_CLI_NAMES[contract]
    if f"tricks_{name}" not in table.columns:
        return pd.DataFrame(columns=["contract", "contract_id", "hcp", "hcp_bin", "made", "score_money"])
    if contract == Contract.RIK_BETER:
        trumps_column = "hearts"
    elif contract == Contract.TROELA:
        trumps_column = "troela_trumps"
    elif rules.TRUMP_RULE[contract] == rules.TrumpRule.NONE:
        trumps_column = None
    else:
        trumps_column = "trumps"
    playable = table[f"tricks_{name}"].to_numpy() != NOT_PLAYABLE

    def column(key: str) -> np.ndarray:
        values = table[key].to_numpy()
        return values if playable.all() else values[playable]

    hcp = column("hcp")
    return pd.DataFrame({
        "contract": name, "contract_id": int(contract), "hcp": hcp, "hcp_bin": bin_hcp(hcp),
        "aces": column("aces"), "longest": column("longest"), "low_cards": column("low_cards"),
        "voids": column("voids"), "trumps": column(trumps_column) if trumps_column else np.zeros(hcp.size, np.int64),
        "policy_trumps": column("trumps"), "tricks": column(f"tricks_{name}"), "made": column(f"made_{name}"),
        "score_money": column(f"money_{name}").astype(np.int64), "score_points": column(f"points_{name}").astype(np.int64),
    })


def feature_codes(rows: pd.DataFrame, feature: str) -> tuple[np.ndarray, list]:
    """Small non-negative integer codes of a feature column and the label of each code."""
    values = rows[feature]
    if isinstance(values.dtype, pd.CategoricalDtype):
        return values.cat.codes.to_numpy().astype(np.int64), list(values.cat.categories)
    codes = values.to_numpy().astype(np.int64)
    return codes, list(range(int(codes.max()) + 1 if codes.size else 0))


def rate_table(codes: np.ndarray, labels: list, rows: pd.DataFrame) -> pd.DataFrame:
    """Per code: n, made, rate with its Wilson interval, mean money score with a normal interval, mean points.

    Counting with ``bincount`` instead of a pandas group-by keeps a million-hand summary to seconds.
    """
    size = len(labels)
    n = np.bincount(codes, minlength=size)
    made = np.bincount(codes, weights=rows["made"].to_numpy(dtype=np.float64), minlength=size)
    money = rows["score_money"].to_numpy(dtype=np.float64)
    total = np.bincount(codes, weights=money, minlength=size)
    squares = np.bincount(codes, weights=money * money, minlength=size)
    points = np.bincount(codes, weights=rows["score_points"].to_numpy(dtype=np.float64), minlength=size)
    keep = n > 0
    n, made, total, squares, points = n[keep], made[keep], total[keep], squares[keep], points[keep]
    mean = total / n
    variance = np.where(n > 1, (squares - n * mean * mean) / np.maximum(n - 1, 1), 0.0)
    half = Z95 * np.sqrt(np.maximum(variance, 0.0) / n)
    rate_lo, rate_hi = wilson_interval(made, n)
    return pd.DataFrame({"bin": [str(label) for label, k in zip(labels, keep) if k], "n": n,
                         "made": made.astype(np.int64), "rate": made / n, "rate_lo": rate_lo, "rate_hi": rate_hi,
                         "mean_score": mean, "score_lo": mean - half, "score_hi": mean + half,
                         "mean_points": points / n})


def summarize_bids(table: pd.DataFrame) -> pd.DataFrame:
    """Long table: each contract overall (``feature == "all"``) and per bin of each hand feature.

    Columns: ``contract, feature, bin, n, made, rate, rate_lo, rate_hi, mean_score, score_lo,
    score_hi, mean_points``; ``mean_score`` is the declarer's money-mode result, ``mean_points``
    the declarer's points-mode score.
    """
    parts = []
    for contract in Contract:
        rows = contract_rows(table, contract)
        if rows.empty:
            continue
        name = CONTRACT_CLI_NAMES[contract]
        overall = rate_table(np.zeros(len(rows), dtype=np.int64), ["all"], rows)
        parts.append(overall.assign(contract=name, feature="all"))
        for feature in FEATURE_COLUMNS:
            codes, labels = feature_codes(rows, feature)
            parts.append(rate_table(codes, labels, rows).assign(contract=name, feature=feature))
    columns = ["contract", "feature", "bin", "n", "made", "rate", "rate_lo", "rate_hi", "mean_score", "score_lo",
               "score_hi", "mean_points"]
    return pd.concat(parts, ignore_index=True)[columns]


def best_contracts(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell of (HCP bin, cards in the bidder's chosen trump suit): the highest contract made at
    least half the time and the contract with the best mean money score (``pass`` when none is
    positive). Only (cell, contract) pairs with at least ``MIN_CELL`` hands count. Troela is left
    out: it is compulsory with three aces, not a choice, and its hands are a subset of each cell.
    """
    parts = []
    for contract in Contract:
        rows = contract_rows(table, contract)
        if contract == Contract.TROELA or rows.empty:
            continue
        hcp_codes, _ = feature_codes(rows, "hcp_bin")
        codes = hcp_codes * 14 + rows["policy_trumps"].to_numpy().astype(np.int64)
        cells = rate_table(codes, list(range(len(HCP_LABELS) * 14)), rows)
        cell = cells["bin"].astype(int)
        parts.append(pd.DataFrame({"hcp_bin": [HCP_LABELS[c // 14] for c in cell], "policy_trumps": cell % 14,
                                   "contract_id": int(contract), "n": cells["n"], "rate": cells["rate"],
                                   "ev": cells["mean_score"]}))
    stats = pd.concat(parts, ignore_index=True)
    stats = stats[stats["n"] >= MIN_CELL]
    records = []
    for (hcp_bin, trumps), cell in stats.groupby(["hcp_bin", "policy_trumps"], sort=False):
        safe = cell[cell["rate"] >= 0.5]
        if safe.empty:
            highest = "pass"
        else:
            top = safe.loc[safe["contract_id"].map(lambda c: (LEVEL[c], c)).idxmax()]
            highest = CONTRACT_CLI_NAMES[int(top["contract_id"])]
        top_ev = cell.loc[cell["ev"].idxmax()]
        best = CONTRACT_CLI_NAMES[int(top_ev["contract_id"])] if top_ev["ev"] > 0 else "pass"
        records.append({"hcp_bin": hcp_bin, "trumps": int(trumps), "highest_safe": highest, "best_ev": best,
                        "best_ev_value": max(float(top_ev["ev"]), 0.0), "hands": int(cell["n"].max())})
    return pd.DataFrame.from_records(records, columns=["hcp_bin", "trumps", "highest_safe", "best_ev",
                                                       "best_ev_value", "hands"])


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
