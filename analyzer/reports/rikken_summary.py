"""Summary tables of the Rikken bid-success experiment: rates with Wilson intervals, mean scores."""

import numpy as np
import pandas as pd

from analyzer.games.rikken import rules
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, LEVEL, Contract, Kind
from analyzer.reports.stats import Z95, wilson_interval

HCP_BINS = [0, 5, 8, 11, 14, 17, 20, 38]
HCP_LABELS = ["0-4", "5-7", "8-10", "11-13", "14-16", "17-19", "20+"]
# Cells with fewer hands are left blank in charts: their rates are too noisy to read.
MIN_CELL = 30
FEATURE_COLUMNS = ("hcp_bin", "trumps", "aces", "longest", "low_cards", "voids")
# Trick count stored for a contract the hand cannot declare (Troela without three aces).
NOT_PLAYABLE = -1


def bin_hcp(hcp) -> pd.Categorical:
    """HCP as ordered bins (``0-4`` ... ``20+``)."""
    return pd.cut(np.asarray(hcp), bins=HCP_BINS, right=False, labels=HCP_LABELS)


def trump_contract_names() -> list[str]:
    """CLI names of the contracts won by a trick target, in auction order."""
    return [CONTRACT_CLI_NAMES[c] for c in Contract if KIND[c] == Kind.TRICKS]


def contract_rows(table: pd.DataFrame, contract: int) -> pd.DataFrame:
    """Long-format rows of one contract from the per-hand table (hands that can declare it only).

    ``trumps`` is the number of cards the bidder holds in that contract's trump suit;
    ``policy_trumps`` the number in the suit the bidding policy would name.
    """
    name = CONTRACT_CLI_NAMES[contract]
    rows = table[table[f"tricks_{name}"] != NOT_PLAYABLE]
    if contract == Contract.RIK_BETER:
        trumps = rows["hearts"]
    elif contract == Contract.TROELA:
        trumps = rows["troela_trumps"]
    elif rules.TRUMP_RULE[contract] == rules.TrumpRule.NONE:
        trumps = pd.Series(0, index=rows.index)
    else:
        trumps = rows["trumps"]
    return pd.DataFrame({
        "contract": name, "contract_id": int(contract), "hcp": rows["hcp"], "hcp_bin": bin_hcp(rows["hcp"]),
        "aces": rows["aces"], "longest": rows["longest"], "low_cards": rows["low_cards"], "voids": rows["voids"],
        "trumps": trumps, "policy_trumps": rows["trumps"], "tricks": rows[f"tricks_{name}"],
        "made": rows[f"made_{name}"], "score_money": rows[f"money_{name}"].astype(np.int64),
        "score_points": rows[f"points_{name}"].astype(np.int64),
    })


def _rate_table(grouped) -> pd.DataFrame:
    """n, made, rate with Wilson bounds, and mean money score with a normal interval, per group."""
    table = grouped.agg(n=("made", "size"), made=("made", "sum"), mean_score=("score_money", "mean"),
                        sd_score=("score_money", "std"), mean_points=("score_points", "mean")).reset_index()
    table = table[table["n"] > 0]
    table["rate"] = table["made"] / table["n"]
    table["rate_lo"], table["rate_hi"] = wilson_interval(table["made"].to_numpy(), table["n"].to_numpy())
    half = Z95 * table["sd_score"].fillna(0.0) / np.sqrt(table["n"])
    table["score_lo"] = table["mean_score"] - half
    table["score_hi"] = table["mean_score"] + half
    return table.drop(columns="sd_score")


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
        parts.append(_rate_table(rows.groupby("contract", observed=True)).assign(feature="all", bin="all"))
        for feature in FEATURE_COLUMNS:
            part = _rate_table(rows.groupby(["contract", feature], observed=True))
            parts.append(part.rename(columns={feature: "bin"}).assign(feature=feature, bin=lambda t: t["bin"].astype(str)))
    columns = ["contract", "feature", "bin", "n", "made", "rate", "rate_lo", "rate_hi", "mean_score", "score_lo",
               "score_hi", "mean_points"]
    return pd.concat(parts, ignore_index=True)[columns]


def best_contracts(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell of (HCP bin, cards in the bidder's chosen trump suit): the highest contract made at
    least half the time and the contract with the best mean money score (``pass`` when none is
    positive). Only (cell, contract) pairs with at least ``MIN_CELL`` hands count. Troela is left
    out: it is compulsory with three aces, not a choice, and its hands are a subset of each cell.
    """
    stats = pd.concat([contract_rows(table, c).groupby(["hcp_bin", "policy_trumps", "contract_id"], observed=True).agg(
        n=("made", "size"), rate=("made", "mean"), ev=("score_money", "mean")).reset_index()
        for c in Contract if c != Contract.TROELA],
        ignore_index=True)
    stats = stats[stats["n"] >= MIN_CELL]
    records = []
    for (hcp_bin, trumps), cell in stats.groupby(["hcp_bin", "policy_trumps"], observed=True):
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
