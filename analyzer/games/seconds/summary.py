"""Summary tables of the Sloppy Seconds experiments: scores and win shares per seat and policy, variant statistics.

Each summary is built from per-chunk aggregates (:func:`play_sums`, :func:`variants_sums`) merged with
:func:`analyzer.reports.stats.merge_sums`, so its memory does not grow with the run.
"""

import itertools

import numpy as np
import pandas as pd

from analyzer.games.seconds.rules import MINIMUM_VARIANTS, TRUMP_VARIANTS
from analyzer.reports.stats import histogram_quantile, moments_interval, wilson_interval

PAIRED_COLUMNS = ["policy_a", "policy_b", "units", "score_diff", "score_diff_lo", "score_diff_hi", "win_diff",
                  "win_diff_lo", "win_diff_hi"]


def _moments(values, prefix: str) -> dict:
    """Count, sum and sum of squares of ``values`` as ``n``, ``<prefix>_sum``, ``<prefix>_sq``."""
    x = np.asarray(values, dtype=np.float64)
    return {"n": x.size, f"{prefix}_sum": x.sum(), f"{prefix}_sq": (x * x).sum()}


def _score_and_wins(rows: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per value of ``by``: rows, sum and sum of squares of the score per deal, and wins."""
    frame = pd.DataFrame({by: rows[by].to_numpy(), "n": np.ones(len(rows), dtype=np.int64),
                          "score_sum": rows["score_per_deal"].to_numpy(dtype=np.float64)})
    frame["score_sq"] = frame["score_sum"] ** 2
    frame["wins"] = rows["win"].to_numpy().astype(np.int64)
    return frame.groupby(by).sum()


def play_sums(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Mergeable aggregate of ``play_task`` rows.

    ``by_seat`` and ``by_policy``: rows, sum and sum of squares of the score per deal, and wins.
    ``paired``: per pair of policies (in name order), the (game, rotation) units and the sums and sums
    of squares of the per-unit differences A - B of the mean score per deal (``score_*``) and of the
    win share (``win_*``). All rotations of a game are played in one chunk, so each chunk holds whole
    units.
    """
    units = rows.groupby(["game", "rotation", "policy"]).agg(score=("score_per_deal", "mean"), win=("win", "mean"))
    units = units.unstack("policy")
    pairs = list(itertools.combinations(sorted(rows["policy"].unique()), 2))
    paired = pd.DataFrame([{**_moments(units["score"][a] - units["score"][b], "score"),
                            **_moments(units["win"][a] - units["win"][b], "win")} for a, b in pairs],
                          columns=["n", "score_sum", "score_sq", "win_sum", "win_sq"],
                          index=pd.MultiIndex.from_tuples(pairs, names=["policy_a", "policy_b"]))
    return {"by_seat": _score_and_wins(rows, "seat"), "by_policy": _score_and_wins(rows, "policy"),
            "paired": paired}


def _mean_row(row) -> dict:
    mean, lo, hi = moments_interval(row["n"], row["score_sum"], row["score_sq"])
    return {"mean_score_per_deal": mean, "score_lo": lo, "score_hi": hi}


def _win_row(wins, n) -> dict:
    lo, hi = wilson_interval(int(wins), int(n))
    return {"wins": int(wins), "games": int(n), "win_rate": wins / n if n else float("nan"), "win_lo": lo,
            "win_hi": hi}


def summarize_play(sums: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Per-seat, per-policy and paired policy-difference tables from merged :func:`play_sums`."""
    by_seat = pd.DataFrame([{"seat": int(seat), **_mean_row(row), **_win_row(row["wins"], row["n"])}
                            for seat, row in sums["by_seat"].iterrows()])
    by_policy = pd.DataFrame([{"policy": policy, **_mean_row(row), **_win_row(row["wins"], row["n"])}
                              for policy, row in sums["by_policy"].iterrows()])
    paired = []
    for (a, b), row in sums["paired"].iterrows():
        score = moments_interval(row["n"], row["score_sum"], row["score_sq"])
        win = moments_interval(row["n"], row["win_sum"], row["win_sq"])
        paired.append({"policy_a": a, "policy_b": b, "units": int(row["n"]),
                       "score_diff": score[0], "score_diff_lo": score[1], "score_diff_hi": score[2],
                       "win_diff": win[0], "win_diff_lo": win[1], "win_diff_hi": win[2]})
    return {"by_seat": by_seat, "by_policy": by_policy, "paired": pd.DataFrame(paired, columns=PAIRED_COLUMNS)}


RULE_PAIRS = list(itertools.product(TRUMP_VARIANTS, MINIMUM_VARIANTS))


def _seat_moments(group: pd.DataFrame) -> pd.DataFrame:
    """Per seat of one rule pair: the score's and the seat advantage's (score minus the mean of the other
    seats on the same deal) count, sum and sum of squares."""
    scores = group.pivot(index="deal", columns="seat", values="score")
    table = scores.to_numpy(dtype=np.float64)
    others = (table.sum(axis=1, keepdims=True) - table) / (table.shape[1] - 1)
    advantage = table - others
    return pd.DataFrame({"n": np.full(table.shape[1], table.shape[0]), "score_sum": table.sum(axis=0),
                         "score_sq": (table * table).sum(axis=0), "advantage_sum": advantage.sum(axis=0),
                         "advantage_sq": (advantage * advantage).sum(axis=0)},
                        index=pd.Index(scores.columns, name="seat"))


def variants_sums(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Mergeable aggregate of ``variants_task`` rows, per (trump rule, minimum rule).

    ``trump_tricks``: deals by the trick at which trump appeared (``trump_trick``, -1 = never).
    ``scores``: a histogram of the players' deal scores (they are integers: the histogram gives exact
    moments and quantiles). ``seats``: per seat, the moments of :func:`_seat_moments`. A deal's rows
    all come from one chunk, so the seat advantage is complete in each chunk.
    """
    rules = ["trump_rule", "minimum_rule"]
    per_deal = rows[rows["seat"] == 0]
    seats = {pair: _seat_moments(group) for pair, group in rows.groupby(rules, sort=False)}
    return {"trump_tricks": per_deal.groupby([*rules, "trump_trick"]).size().to_frame("deals"),
            "scores": rows.groupby([*rules, "score"]).size().to_frame("count"),
            "seats": pd.concat(seats, names=rules)}


def _histogram(table: pd.DataFrame, pair, column: str) -> tuple[np.ndarray, np.ndarray]:
    """Values and counts of one rule pair's histogram."""
    part = table.xs(pair, level=["trump_rule", "minimum_rule"])
    return part.index.to_numpy(), part[column].to_numpy()


def _trump_row(sums, pair) -> dict:
    tricks, deals = _histogram(sums["trump_tricks"], pair, "deals")
    n = int(deals.sum())
    none = int(deals[tricks < 0].sum())
    lo, hi = wilson_interval(none, n)
    appeared, counts = tricks[tricks >= 0] + 1, deals[tricks >= 0]
    mean = float((appeared * counts).sum() / counts.sum()) if counts.sum() else float("nan")
    return {"trump_rule": pair[0], "minimum_rule": pair[1], "deals": n, "no_trump_rate": none / n,
            "no_trump_lo": lo, "no_trump_hi": hi, "mean_trump_trick": mean,
            "median_trump_trick": histogram_quantile(appeared, counts, 0.5)}


def _score_row(sums, pair) -> dict:
    scores, counts = _histogram(sums["scores"], pair, "count")
    x = scores.astype(np.float64)
    n = int(counts.sum())
    total, squares = (x * counts).sum(), (x * x * counts).sum()
    mean, lo, hi = moments_interval(n, total, squares)
    sd = float(np.sqrt(max(squares - n * mean * mean, 0.0) / (n - 1))) if n > 1 else float("nan")
    return {"trump_rule": pair[0], "minimum_rule": pair[1], "mean_score": mean, "score_lo": lo, "score_hi": hi,
            "sd": sd, "p10": histogram_quantile(scores, counts, 0.1),
            "median": histogram_quantile(scores, counts, 0.5), "p90": histogram_quantile(scores, counts, 0.9)}


def summarize_variants(sums: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Trump emergence, score and seat-advantage tables from merged :func:`variants_sums` (every rule
    pair in ``RULE_PAIRS`` order)."""
    # Share of deals by the trick (1-based) at which trump appeared; 0 = never.
    trump_tricks = sums["trump_tricks"].reset_index()
    trump_tricks["trump_trick"] += 1
    trump_tricks["share"] = trump_tricks["deals"] / trump_tricks.groupby(["trump_rule", "minimum_rule"])[
        "deals"].transform("sum")
    trump_tricks = trump_tricks.sort_values(["trump_rule", "minimum_rule", "trump_trick"], ignore_index=True)
    seats = []
    for pair in RULE_PAIRS:
        for seat, row in sums["seats"].xs(pair, level=["trump_rule", "minimum_rule"]).iterrows():
            mean, lo, hi = moments_interval(row["n"], row["score_sum"], row["score_sq"])
            diff = moments_interval(row["n"], row["advantage_sum"], row["advantage_sq"])
            seats.append({"trump_rule": pair[0], "minimum_rule": pair[1], "seat": int(seat), "mean_score": mean,
                          "score_lo": lo, "score_hi": hi, "advantage": diff[0], "advantage_lo": diff[1],
                          "advantage_hi": diff[2]})
    return {"trump": pd.DataFrame([_trump_row(sums, pair) for pair in RULE_PAIRS]), "trump_tricks": trump_tricks,
            "scores": pd.DataFrame([_score_row(sums, pair) for pair in RULE_PAIRS]), "seats": pd.DataFrame(seats)}
