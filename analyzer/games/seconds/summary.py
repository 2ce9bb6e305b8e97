"""Summary tables of the Sloppy Seconds experiments: scores and win shares per seat and policy, variant statistics."""

import itertools

import pandas as pd

from analyzer.reports.stats import mean_interval, paired_difference, wilson_interval


def _mean_row(values) -> dict:
    mean, lo, hi = mean_interval(values)
    return {"mean_score_per_deal": mean, "score_lo": lo, "score_hi": hi}


def _win_row(wins, n) -> dict:
    lo, hi = wilson_interval(int(wins), int(n))
    return {"wins": int(wins), "games": int(n), "win_rate": wins / n if n else float("nan"), "win_lo": lo,
            "win_hi": hi}


def summarize_play(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per-seat, per-policy and paired policy-difference tables from ``play_task`` rows."""
    by_seat = pd.DataFrame([
        {"seat": int(seat), **_mean_row(g["score_per_deal"]), **_win_row(g["win"].sum(), len(g))}
        for seat, g in rows.groupby("seat")
    ])
    by_policy = pd.DataFrame([
        {"policy": policy, **_mean_row(g["score_per_deal"]), **_win_row(g["win"].sum(), len(g))}
        for policy, g in rows.groupby("policy")
    ])
    units = rows.groupby(["game", "rotation", "policy"]).agg(score=("score_per_deal", "mean"), win=("win", "mean"))
    units = units.unstack("policy")
    paired = []
    for a, b in itertools.combinations(sorted(rows["policy"].unique()), 2):
        score = paired_difference(units["score"][a], units["score"][b])
        win = paired_difference(units["win"][a], units["win"][b])
        paired.append({"policy_a": a, "policy_b": b, "units": len(units),
                       "score_diff": score[0], "score_diff_lo": score[1], "score_diff_hi": score[2],
                       "win_diff": win[0], "win_diff_lo": win[1], "win_diff_hi": win[2]})
    paired_cols = ["policy_a", "policy_b", "units", "score_diff", "score_diff_lo", "score_diff_hi", "win_diff",
                   "win_diff_lo", "win_diff_hi"]
    return {"by_seat": by_seat, "by_policy": by_policy, "paired": pd.DataFrame(paired, columns=paired_cols)}


def summarize_variants(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Trump emergence, score and seat-advantage tables from ``variants_task`` rows."""
    per_deal = rows[rows["seat"] == 0]
    trump = []
    for (t, m), g in per_deal.groupby(["trump_rule", "minimum_rule"], sort=False):
        none = int((g["trump_trick"] < 0).sum())
        lo, hi = wilson_interval(none, len(g))
        appeared = g.loc[g["trump_trick"] >= 0, "trump_trick"] + 1
        trump.append({"trump_rule": t, "minimum_rule": m, "deals": len(g), "no_trump_rate": none / len(g),
                      "no_trump_lo": lo, "no_trump_hi": hi,
                      "mean_trump_trick": float(appeared.mean()) if len(appeared) else float("nan"),
                      "median_trump_trick": float(appeared.median()) if len(appeared) else float("nan")})
    # Share of deals by the trick (1-based) at which trump appeared; 0 = never.
    trick = (per_deal["trump_trick"] + 1).rename("trump_trick")
    trump_tricks = (per_deal.assign(trump_trick=trick).groupby(["trump_rule", "minimum_rule", "trump_trick"],
                                                               sort=False).size().rename("deals").reset_index())
    trump_tricks["share"] = trump_tricks["deals"] / trump_tricks.groupby(["trump_rule", "minimum_rule"])[
        "deals"].transform("sum")
    trump_tricks = trump_tricks.sort_values(["trump_rule", "minimum_rule", "trump_trick"], ignore_index=True)
    scores = []
    for (t, m), g in rows.groupby(["trump_rule", "minimum_rule"], sort=False):
        mean, lo, hi = mean_interval(g["score"])
        scores.append({"trump_rule": t, "minimum_rule": m, "mean_score": mean, "score_lo": lo, "score_hi": hi,
                       "sd": float(g["score"].std(ddof=1)), "p10": float(g["score"].quantile(0.1)),
                       "median": float(g["score"].median()), "p90": float(g["score"].quantile(0.9))})
    seats = []
    for (t, m, seat), g in rows.groupby(["trump_rule", "minimum_rule", "seat"], sort=False):
        others = rows[(rows["trump_rule"] == t) & (rows["minimum_rule"] == m) & (rows["seat"] != seat)]
        mean_others = others.groupby("deal")["score"].mean().reindex(g["deal"]).to_numpy()
        diff = paired_difference(g["score"].to_numpy(), mean_others)
        mean, lo, hi = mean_interval(g["score"])
        seats.append({"trump_rule": t, "minimum_rule": m, "seat": int(seat), "mean_score": mean, "score_lo": lo,
                      "score_hi": hi, "advantage": diff[0], "advantage_lo": diff[1], "advantage_hi": diff[2]})
    return {"trump": pd.DataFrame(trump), "trump_tricks": trump_tricks, "scores": pd.DataFrame(scores),
            "seats": pd.DataFrame(seats)}
