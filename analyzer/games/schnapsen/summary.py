"""Summary tables of the Schnapsen experiments: match results and closing odds, with intervals.

Each summary is built from per-chunk aggregates (:func:`match_sums`, :func:`closing_sums`) merged
with :func:`analyzer.reports.stats.merge_sums`, so its memory does not grow with the run.
"""

import numpy as np
import pandas as pd

from analyzer.reports.stats import moments_interval, wilson_interval

PAIRED_METRICS = ("match wins per pair (A - B)", "game points per deal (A - B)")


def match_sums(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Mergeable aggregate of ``match_task`` rows.

    ``by_seat``: per seat of bot A, matches, A's wins, deals, both bots' game points, closings and
    closings won. ``paired``: per paired metric (code into ``PAIRED_METRICS``), the pairs and the sum
    and sum of squares of the per-pair difference A - B. ``per_bot``: per bot (0 = A, 1 = B), the pairs
    and the sum and sum of squares of its game points per deal in each pair. Both matches of a pair are
    played in one chunk, so each chunk holds whole pairs.
    """
    frame = rows.assign(a_wins=(rows["winner"] == "A").astype(np.int64))
    by_seat = frame.groupby("a_seat").agg(matches=("a_wins", "size"), a_wins=("a_wins", "sum"),
                                          deals=("deals", "sum"), gp_a=("gp_a", "sum"), gp_b=("gp_b", "sum"),
                                          closes_a=("closes_a", "sum"), closes_b=("closes_b", "sum"),
                                          close_wins_a=("close_wins_a", "sum"), close_wins_b=("close_wins_b", "sum"))
    per_pair = frame.groupby("pair")[["a_wins", "deals", "gp_a", "gp_b"]].sum()
    wins = per_pair["a_wins"].to_numpy()
    deals = per_pair["deals"].to_numpy()
    gp_per_deal = [per_pair["gp_a"].to_numpy() / deals, per_pair["gp_b"].to_numpy() / deals]
    diffs = [wins - (2 - wins), gp_per_deal[0] - gp_per_deal[1]]

    def moments(values, index_name):
        values = [np.asarray(v, dtype=np.float64) for v in values]
        return pd.DataFrame({"n": [v.size for v in values], "total": [v.sum() for v in values],
                             "squares": [(v * v).sum() for v in values]},
                            index=pd.RangeIndex(len(values), name=index_name))

    return {"by_seat": by_seat, "paired": moments(diffs, "metric"), "per_bot": moments(gp_per_deal, "bot")}


def summarize_matches(sums: dict[str, pd.DataFrame], label_a: str, label_b: str) -> dict[str, pd.DataFrame]:
    """Win rate with its Wilson interval, game points per deal, and paired differences per deal pair,
    from merged :func:`match_sums`.

    Tables: ``overall`` (A's win rate and both bots' game points per deal, the mean over the pairs of
    matches as in ``per_bot``), ``paired`` (A - B per pair of matches on the same deals; match wins with
    the interval of :func:`_wins_per_pair`), ``by_seat`` (A's win rate with its Wilson interval in each seat) and
    ``per_bot`` (each bot's match win rate, its game points per deal averaged over the pairs, with the
    95% interval, its closings per deal and the share of its closings that won the deal, with a Wilson
    interval).
    """
    seats = sums["by_seat"]
    n = int(seats["matches"].sum())
    a_wins = int(seats["a_wins"].sum())
    lo, hi = wilson_interval(a_wins, n)
    deals = int(seats["deals"].sum())
    # One "game points per deal" everywhere: the mean over the pairs of each pair's points per deal, the
    # quantity the paired difference and the per-bot intervals are taken of.
    gp = sums["per_bot"].sort_index()
    gp_per_deal = gp["total"].to_numpy() / gp["n"].to_numpy()
    overall = pd.DataFrame([{
        "bot_a": label_a, "bot_b": label_b, "matches": n, "a_wins": a_wins, "a_win_rate": a_wins / n,
        "a_win_lo": lo, "a_win_hi": hi, "deals": deals, "a_gp_per_deal": gp_per_deal[0],
        "b_gp_per_deal": gp_per_deal[1]}])
    diffs = []
    for metric, row in zip(PAIRED_METRICS, sums["paired"].sort_index().itertuples()):
        if metric == PAIRED_METRICS[0]:
            mean, low, high = _wins_per_pair(row.n, row.total)
        else:
            mean, low, high = moments_interval(row.n, row.total, row.squares)
        diffs.append({"metric": metric, "pairs": int(row.n), "mean": mean, "lo": low, "hi": high})
    by_seat = seats.reset_index()
    by_seat["a_win_rate"] = by_seat["a_wins"] / by_seat["matches"]
    by_seat["a_win_lo"], by_seat["a_win_hi"] = wilson_interval(by_seat["a_wins"].to_numpy(),
                                                               by_seat["matches"].to_numpy())
    per_bot = []
    for code, (label, wins, side) in enumerate(((label_a, a_wins, "a"), (label_b, n - a_wins, "b"))):
        gp = sums["per_bot"].loc[code]
        gp_mean, gp_lo, gp_hi = moments_interval(gp["n"], gp["total"], gp["squares"])
        closes = int(seats[f"closes_{side}"].sum())
        close_wins = int(seats[f"close_wins_{side}"].sum())
        win_lo, win_hi = wilson_interval(wins, n)
        close_lo, close_hi = wilson_interval(close_wins, closes)
        per_bot.append({"bot": "AB"[code], "label": label, "matches": n, "wins": wins, "win_rate": wins / n,
                        "win_lo": win_lo, "win_hi": win_hi, "deals": deals,
                        "gp_per_deal": gp_mean, "gp_lo": gp_lo, "gp_hi": gp_hi,
                        "closes": closes, "closes_per_deal": closes / deals, "close_wins": close_wins,
                        "close_success": close_wins / closes if closes else float("nan"),
                        "close_lo": close_lo, "close_hi": close_hi})
    return {"overall": overall, "paired": pd.DataFrame(diffs), "by_seat": by_seat, "per_bot": pd.DataFrame(per_bot)}


def _wins_per_pair(pairs: int, total: float) -> tuple[float, float, float]:
    """Mean match wins A - B per pair (-2, 0 or 2) with a 95% interval inside the possible [-2, 2].

    A's share of a pair's two matches, ``(difference + 2) / 4``, lies in [0, 1], so its variance is at most
    ``m (1 - m)`` for its mean ``m``: the Wilson score interval of the mean share over the pairs uses that
    bound (a normal interval of the differences can pass 2, and is empty when every pair ends alike).
    """
    share_lo, share_hi = wilson_interval((total + 2 * pairs) / 4, pairs)
    return total / pairs, 4 * share_lo - 2, 4 * share_hi - 2


POINT_BINS = [0, 1, 20, 33, 45, 55, 66]


POINT_LABELS = ["0", "1-19", "20-32", "33-44", "45-54", "55-65"]

CLOSING_FACTORS = ("all", "stock_size", "own_points_bin", "opp_points_bin", "trumps_held", "high_trumps_held")
CLOSING_VALUES = ("close_win", "playon_win", "close_gp", "playon_gp", "gain")


def bin_points(points) -> pd.Categorical:
    """Bin counted points for the closing tables (0 kept apart: no trick yet)."""
    return pd.cut(points, bins=POINT_BINS, labels=POINT_LABELS, right=False)


def _factor_codes(rows: pd.DataFrame, factor: str) -> np.ndarray:
    """Integer code of each row's group: 0 for ``all``, the bin for points (-1 outside the bins), else
    the value."""
    if factor == "all":
        return np.zeros(len(rows), dtype=np.int64)
    if factor.endswith("_bin"):
        return bin_points(rows[factor.removesuffix("_bin")].to_numpy()).codes.astype(np.int64)
    return rows[factor].to_numpy().astype(np.int64)


def _group_sums(rows: pd.DataFrame, keys: dict[str, np.ndarray]) -> pd.DataFrame:
    """Per group of ``keys`` (name -> integer codes; a row with a negative code, outside every points
    bin, is left out): positions, sums of ``CLOSING_VALUES``, the gain's sum of squares, the
    positions where closing gains (``better``), those evaluated on every world (``exact``) and those where
    the bot closed (``bot_closed``)."""
    gain = rows["gain"].to_numpy(dtype=np.float64)
    frame = pd.DataFrame({**keys, "n": np.ones(len(rows), dtype=np.int64),
                          **{v: rows[v].to_numpy(dtype=np.float64) for v in CLOSING_VALUES},
                          "gain_sq": gain * gain, "better": (gain > 0).astype(np.int64),
                          "exact": rows["exact"].to_numpy().astype(np.int64),
                          "bot_closed": (rows["bot_action"] == "close").to_numpy().astype(np.int64)})
    inside = np.all([codes >= 0 for codes in keys.values()], axis=0)
    return frame[inside].groupby(list(keys)).sum()


def closing_sums(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Mergeable aggregate of ``closing_task`` rows.

    ``factors``: per ``(factor, code)`` of ``CLOSING_FACTORS`` (code: the value, or the points bin),
    the sums of :func:`_group_sums`. ``by_points_and_stock`` and ``by_points_and_trumps``: the same
    per (own points bin, stock size) and (own points bin, trumps held), for the charts.
    """
    own_bin = _factor_codes(rows, "own_points_bin")
    factors = {factor: _group_sums(rows, {"code": _factor_codes(rows, factor)}) for factor in CLOSING_FACTORS}
    return {"factors": pd.concat(factors, names=["factor"]),
            "by_points_and_stock": _group_sums(rows, {"own_points_bin": own_bin,
                                                      "stock_size": rows["stock_size"].to_numpy()}),
            "by_points_and_trumps": _group_sums(rows, {"own_points_bin": own_bin,
                                                       "trumps_held": rows["trumps_held"].to_numpy()})}


def closing_positions(sums: dict[str, pd.DataFrame]) -> int:
    """Number of positions in merged :func:`closing_sums`."""
    factors = sums["factors"]
    return int(factors["n"].to_numpy()[factors.index.get_level_values("factor") == "all"].sum())


def _value_label(factor: str, code: int) -> str:
    if factor == "all":
        return "all"
    return POINT_LABELS[code] if factor.endswith("_bin") else str(code)


def summarize_closing(sums: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Closing success, expected game points of each choice and the gain, by each factor in turn,
    from merged :func:`closing_sums`.

    Each position's values are means over its worlds (both choices played forward by the same honest
    bot); ``gain_lo``/``gain_hi`` are the 95% interval of the mean gain over the group's positions,
    ``close_better_share`` the share of positions where closing gained, ``exact_share`` the share whose
    worlds were all enumerated, ``bot_close_share`` the share where the bot itself closed."""
    factors = sums["factors"]
    out = []
    for factor in CLOSING_FACTORS:
        for code, g in factors.xs(factor, level="factor").sort_index().iterrows():
            n = g["n"]
            gain, lo, hi = moments_interval(n, g["gain"], g["gain_sq"])
            out.append({"factor": factor, "value": _value_label(factor, int(code)), "n": int(n),
                        **{v: g[v] / n for v in CLOSING_VALUES if v != "gain"}, "gain": gain, "gain_lo": lo,
                        "gain_hi": hi, "close_better_share": g["better"] / n, "exact_share": g["exact"] / n,
                        "bot_close_share": g["bot_closed"] / n})
    return pd.DataFrame(out)
