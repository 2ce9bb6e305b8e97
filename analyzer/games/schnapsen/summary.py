"""Summary tables of the Schnapsen experiments: match results and closing odds, with intervals."""

import pandas as pd

from analyzer.reports.stats import mean_interval, paired_difference, wilson_interval


def summarize_matches(rows: pd.DataFrame, label_a: str, label_b: str) -> dict[str, pd.DataFrame]:
    """Win rate with its Wilson interval, game points per deal, and paired differences per deal pair."""
    n = len(rows)
    a_wins = int((rows["winner"] == "A").sum())
    lo, hi = wilson_interval(a_wins, n)
    deals = int(rows["deals"].sum())
    overall = pd.DataFrame([{
        "bot_a": label_a, "bot_b": label_b, "matches": n, "a_wins": a_wins, "a_win_rate": a_wins / n,
        "a_win_lo": lo, "a_win_hi": hi, "deals": deals, "a_gp_per_deal": rows["gp_a"].sum() / deals,
        "b_gp_per_deal": rows["gp_b"].sum() / deals}])
    per_pair = rows.groupby("pair").agg(a_wins=("winner", lambda w: (w == "A").sum()), deals=("deals", "sum"),
                                        gp_a=("gp_a", "sum"), gp_b=("gp_b", "sum"))
    diffs = []
    for metric, x, y in [
        ("match wins per pair (A - B)", per_pair["a_wins"], 2 - per_pair["a_wins"]),
        ("game points per deal (A - B)", per_pair["gp_a"] / per_pair["deals"], per_pair["gp_b"] / per_pair["deals"]),
    ]:
        mean, low, high = paired_difference(x.to_numpy(), y.to_numpy())
        diffs.append({"metric": metric, "pairs": len(per_pair), "mean": mean, "lo": low, "hi": high})
    by_seat = rows.groupby("a_seat").agg(matches=("winner", "size"), a_wins=("winner", lambda w: (w == "A").sum()),
                                         deals=("deals", "sum"), gp_a=("gp_a", "sum"), gp_b=("gp_b", "sum"))
    by_seat = by_seat.reset_index()
    by_seat["a_win_rate"] = by_seat["a_wins"] / by_seat["matches"]
    return {"overall": overall, "paired": pd.DataFrame(diffs), "by_seat": by_seat}


POINT_BINS = [0, 1, 20, 33, 45, 55, 66]


POINT_LABELS = ["0", "1-19", "20-32", "33-44", "45-54", "55-65"]


def bin_points(points) -> pd.Categorical:
    """Bin counted points for the closing tables (0 kept apart: no trick yet)."""
    return pd.cut(points, bins=POINT_BINS, labels=POINT_LABELS, right=False)


def summarize_closing(rows: pd.DataFrame) -> pd.DataFrame:
    """Closing success, expected game points of each choice and the gain, by each factor in turn."""
    frame = rows.assign(own_points_bin=bin_points(rows["own_points"]), opp_points_bin=bin_points(rows["opp_points"]))
    out = []
    for factor in ["all", "stock_size", "own_points_bin", "opp_points_bin", "trumps_held", "high_trumps_held"]:
        groups = [("all", frame)] if factor == "all" else frame.groupby(factor, observed=True)
        for value, g in groups:
            gain, lo, hi = mean_interval(g["gain"])
            out.append({"factor": factor, "value": str(value), "n": len(g), "close_win": g["close_win"].mean(),
                        "playon_win": g["playon_win"].mean(), "close_gp": g["close_gp"].mean(),
                        "playon_gp": g["playon_gp"].mean(), "gain": gain, "gain_lo": lo, "gain_hi": hi,
                        "close_better_share": float((g["gain"] > 0).mean())})
    return pd.DataFrame(out)
