"""Summary tables of the Rikken experiments: bid success (rates with Wilson intervals, mean scores,
the bidding chart) and full rounds (contract frequencies, make rates, score per seat)."""

import numpy as np
import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.games.rikken import rules
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, LEVEL, Contract, Kind
from analyzer.reports.stats import Z95, group_moments, moments_interval, wilson_interval

HCP_BINS = [0, 5, 8, 11, 14, 17, 20, 38]
HCP_LABELS = ["0-4", "5-7", "8-10", "11-13", "14-16", "17-19", "20+"]
# Cells with fewer hands are left blank in charts: their rates are too noisy to read.
MIN_CELL = 30
FEATURE_COLUMNS = ("hcp_bin", "trumps", "aces", "longest", "low_cards", "voids")
# Grids over (HCP bin, a card count 0..13) the charts draw: the contract's trump length, and the length
# of the suit the bidding policy would name.
GRID_WIDTH = 14
GRIDS = {"hcp_trumps": "trumps", "hcp_policy_trumps": "policy_trumps"}
MOMENT_KEYS = ("all", *FEATURE_COLUMNS, *GRIDS)
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


def _key_codes(rows: pd.DataFrame, key: str) -> tuple[np.ndarray, int]:
    """Integer codes of one aggregate key for every row, and the number of codes."""
    if key == "all":
        return np.zeros(len(rows), dtype=np.int64), 1
    hcp = rows["hcp_bin"].cat.codes.to_numpy().astype(np.int64)
    if key == "hcp_bin":
        return hcp, len(HCP_LABELS)
    if key in GRIDS:
        return hcp * GRID_WIDTH + rows[GRIDS[key]].to_numpy().astype(np.int64), len(HCP_LABELS) * GRID_WIDTH
    codes = rows[key].to_numpy().astype(np.int64)
    return codes, int(codes.max()) + 1 if codes.size else 0


def bids_moments(table: pd.DataFrame) -> pd.DataFrame:
    """The mergeable summary of per-hand bid results: per contract and per code of each key in
    ``MOMENT_KEYS``, the number of hands and the sums of ``made``, money and points scores (and of the
    money scores' squares). Chunk summaries add up (:func:`merge_bids_moments`)."""
    parts = []
    for contract in Contract:
        rows = contract_rows(table, contract)
        if rows.empty:
            continue
        values = {"made": rows["made"], "money": rows["score_money"], "points": rows["score_points"]}
        for key in MOMENT_KEYS:
            codes, size = _key_codes(rows, key)
            sums = group_moments(codes, values, size)
            keep = np.flatnonzero(sums["n"] > 0)
            parts.append(pd.DataFrame({"contract": int(contract), "key": key, "code": keep,
                                       **{name: column[keep] for name, column in sums.items()}}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["contract", "key", "code", "n"])


def merge_bids_moments(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up chunk summaries of :func:`bids_moments` into the summary of the whole run."""
    merged = pd.concat(parts, ignore_index=True)
    return merged.groupby(["contract", "key", "code"], sort=True).sum().reset_index()


def moment_rows(moments: pd.DataFrame, contract: int, key: str) -> pd.DataFrame:
    """The rows of one contract and key, by code."""
    rows = moments[(moments["contract"] == int(contract)) & (moments["key"] == key)]
    return rows.sort_values("code")


def rate_table(rows: pd.DataFrame, labels) -> pd.DataFrame:
    """Per code of one contract and key: n, made, rate with its Wilson interval, mean money score with
    a normal interval, mean points score; ``labels[code]`` names each bin."""
    n = rows["n"].to_numpy()
    made = rows["made_sum"].to_numpy()
    mean = rows["money_sum"].to_numpy() / n
    variance = np.where(n > 1, (rows["money_sq"].to_numpy() - n * mean * mean) / np.maximum(n - 1, 1), 0.0)
    half = Z95 * np.sqrt(np.maximum(variance, 0.0) / n)
    rate_lo, rate_hi = wilson_interval(made, n)
    return pd.DataFrame({"bin": [str(labels[c]) for c in rows["code"]], "n": n.astype(np.int64),
                         "made": made.astype(np.int64), "rate": made / n, "rate_lo": rate_lo, "rate_hi": rate_hi,
                         "mean_score": mean, "score_lo": mean - half, "score_hi": mean + half,
                         "mean_points": rows["points_sum"].to_numpy() / n})


def _labels(key: str):
    if key == "all":
        return ["all"]
    if key == "hcp_bin":
        return HCP_LABELS
    return range(14)


def summarize_bids(moments: pd.DataFrame) -> pd.DataFrame:
    """Long table: each contract overall (``feature == "all"``) and per bin of each hand feature.

    Columns: ``contract, feature, bin, n, made, rate, rate_lo, rate_hi, mean_score, score_lo,
    score_hi, mean_points``; ``mean_score`` is the declarer's money-mode result, ``mean_points``
    the declarer's points-mode score.
    """
    parts = []
    for contract in Contract:
        name = CONTRACT_CLI_NAMES[contract]
        for key in ("all", *FEATURE_COLUMNS):
            rows = moment_rows(moments, contract, key)
            if not rows.empty:
                parts.append(rate_table(rows, _labels(key)).assign(contract=name, feature=key))
    columns = ["contract", "feature", "bin", "n", "made", "rate", "rate_lo", "rate_hi", "mean_score", "score_lo",
               "score_hi", "mean_points"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


def best_contracts(moments: pd.DataFrame) -> pd.DataFrame:
    """Per cell of (HCP bin, cards in the bidder's chosen trump suit): the highest contract made at
    least half the time and the contract with the best mean money score (``pass`` when none is
    positive). Only (cell, contract) pairs with at least ``MIN_CELL`` hands count. Troela is left
    out: it is compulsory with three aces, not a choice, and its hands are a subset of each cell.
    """
    parts = []
    for contract in Contract:
        rows = moment_rows(moments, contract, "hcp_policy_trumps")
        if contract == Contract.TROELA or rows.empty:
            continue
        cell = rows["code"].to_numpy()
        parts.append(pd.DataFrame({"hcp_bin": [HCP_LABELS[c // GRID_WIDTH] for c in cell],
                                   "policy_trumps": cell % GRID_WIDTH, "contract_id": int(contract),
                                   "n": rows["n"].to_numpy().astype(np.int64),
                                   "rate": rows["made_sum"].to_numpy() / rows["n"].to_numpy(),
                                   "ev": rows["money_sum"].to_numpy() / rows["n"].to_numpy()}))
    columns = ["hcp_bin", "trumps", "highest_safe", "best_ev", "best_ev_value", "hands"]
    if not parts:
        return pd.DataFrame(columns=columns)
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
    return pd.DataFrame.from_records(records, columns=columns)


def declarations(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per declared contract: ``round, seat, contract, made``."""
    parts = [pd.DataFrame({"round": rounds["round"], "seat": seat, "contract": rounds[f"contract_{seat}"],
                           "made": rounds[f"made_{seat}"]}) for seat in range(4)]
    table = pd.concat(parts, ignore_index=True)
    return table[table["contract"] >= 0]


def rounds_moments(rounds: pd.DataFrame) -> pd.DataFrame:
    """The mergeable summary of full rounds, one row per ``(key, code)``: ``rounds``; ``passed-out``;
    ``contract`` (code = contract id: declarations ``n`` and ``made``); ``points`` and ``money``
    (code = seat: ``n``, ``total`` and ``squares`` of the seat's score). Chunk summaries add up
    (:func:`merge_rounds_moments`)."""
    declared = declarations(rounds)
    contracts = np.sort(declared["contract"].unique())
    made = declared.groupby("contract")["made"].sum().reindex(contracts).to_numpy()
    count = declared.groupby("contract").size().reindex(contracts).to_numpy()
    parts = [pd.DataFrame({"key": ["rounds", "passed-out"], "code": 0,
                           "n": [len(rounds), int(rounds["passed_out"].sum())]}),
             pd.DataFrame({"key": "contract", "code": contracts.astype(np.int64), "n": count, "made": made})]
    for mode in ("points", "money"):
        scores = [rounds[f"{mode}_{seat}"].to_numpy(dtype=np.float64) for seat in range(4)]
        parts.append(pd.DataFrame({"key": mode, "code": np.arange(4), "n": len(rounds),
                                   "total": [x.sum() for x in scores], "squares": [(x * x).sum() for x in scores]}))
    return pd.concat(parts, ignore_index=True).fillna(0)


def merge_rounds_moments(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up chunk summaries of :func:`rounds_moments`."""
    return pd.concat(parts, ignore_index=True).groupby(["key", "code"], sort=True).sum().reset_index()


def _moment(moments: pd.DataFrame, key: str) -> pd.DataFrame:
    return moments[moments["key"] == key].sort_values("code")


def contract_summary(moments: pd.DataFrame) -> pd.DataFrame:
    """Per contract: declarations, share of rounds, make rate with its 95% Wilson interval; plus passed-out deals."""
    n_rounds = int(_moment(moments, "rounds")["n"].sum())
    grouped = _moment(moments, "contract")
    size = grouped["n"].to_numpy().astype(np.int64)
    made = grouped["made"].to_numpy().astype(np.int64)
    rate_lo, rate_hi = wilson_interval(made, size)
    freq_lo, freq_hi = wilson_interval(size, n_rounds)
    table = pd.DataFrame({"contract": [CONTRACT_CLI_NAMES[c] for c in grouped["code"]],
                          "declared": size, "per_round": size / n_rounds,
                          "per_round_lo": freq_lo, "per_round_hi": freq_hi, "made": made,
                          "make_rate": made / size, "make_lo": rate_lo, "make_hi": rate_hi})
    passed = int(_moment(moments, "passed-out")["n"].sum())
    low, high = wilson_interval(passed, n_rounds)
    passed_row = pd.DataFrame([{"contract": "passed-out", "declared": passed, "per_round": passed / max(n_rounds, 1),
                                "per_round_lo": low, "per_round_hi": high}])
    return pd.concat([table, passed_row], ignore_index=True)


def seat_summary(moments: pd.DataFrame) -> pd.DataFrame:
    """Mean score per round for each seat in both scoring modes, with 95% intervals."""
    records = []
    for mode in ("points", "money"):
        for seat, row in zip(range(4), _moment(moments, mode).itertuples()):
            mean, low, high = moments_interval(row.n, row.total, row.squares)
            records.append({"mode": mode, "seat": SEAT_LETTERS[seat], "rounds": int(row.n), "mean": mean,
                            "low": low, "high": high})
    return pd.DataFrame.from_records(records)
