"""What a report says about the Sloppy Seconds experiments: findings in a few sentences from the summary
tables, the glossary of their columns and chart captions.

``PLAY_REPORT`` and ``VARIANTS_REPORT`` are the experiments' :class:`analyzer.reports.report.ReportSpec`;
their declarations in :mod:`analyzer.games.seconds.experiments` hand them to ``analyzer report``.
"""

import pandas as pd

from analyzer.reports.formatting import (
    format_number,
    format_percent,
    mean_with_interval,
    paired_difference_text,
    rate_with_interval,
)
from analyzer.reports.report_spec import MeanMeasure, RateMeasure, ReportSpec, TableSpec


def play_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``seconds play`` run, each sentence a new fact: each policy's share of games won against
    the equal share 1/n (above, below, or within noise of it), each paired difference on the same deals,
    and the seats.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``summary_by_policy``, ``summary_paired``, ``summary_by_seat``).
    manifest : dict
        The run's manifest (``params.rules.n_players``).

    Returns
    -------
    list of str
        One sentence per finding.
    """
    players = manifest.get("params", {}).get("rules", {}).get("n_players")
    equal = 1 / players if isinstance(players, int) and players > 0 else None
    sentences = []
    policies = tables.get("summary_by_policy")
    if policies is not None and not policies.empty:
        for r in policies.sort_values("win_rate", ascending=False).itertuples():
            share = rate_with_interval(r.win_rate, r.win_lo, r.win_hi)
            sentences.append(f"{r.policy} won {share} of its {r.games:,} games"
                             f"{_against_equal(r.win_lo, r.win_hi, equal)}, scoring "
                             f"{format_number(r.mean_score_per_deal)} points a deal.")
    paired = tables.get("summary_paired")
    if paired is not None and not paired.empty:
        sentences += ["On the same deals, " + paired_difference_text(
            r.policy_a, r.policy_b, r.score_diff, r.score_diff_lo, r.score_diff_hi, "points a deal")
            + f" over {r.units:,} pairs." for r in paired.itertuples()]
    seats = tables.get("summary_by_seat")
    if seats is not None and not seats.empty:
        sentences.append("By seat, games won: " + "; ".join(
            f"seat {r.seat} {rate_with_interval(r.win_rate, r.win_lo, r.win_hi)} of {r.games:,}"
            for r in seats.itertuples()) + ".")
    return sentences or ["The run has no summary tables."]


def _against_equal(low: float, high: float, equal: float | None) -> str:
    """``, more than an equal share of 25.0%`` (or less, or within noise of it) for a win-share interval."""
    if equal is None:
        return ""
    relation = "more than" if low > equal else "less than" if high < equal else "within noise of"
    return f", {relation} an equal share of {format_percent(equal)}"


def variants_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``seconds variants`` run: when trump appears under each trump rule, the mean deal
    score under each rule pair, and the largest seat advantages.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``summary_trump``, ``summary_scores``, ``summary_seats``).
    manifest : dict
        The run's manifest.

    Returns
    -------
    list of str
        One sentence per finding.
    """
    sentences = []
    trump = tables.get("summary_trump")
    if trump is not None and not trump.empty:
        rules = trump.drop_duplicates("trump_rule")
        sentences.append("Trump appears on average at trick " + "; ".join(
            f"{format_number(r.mean_trump_trick)} under the {r.trump_rule} rule (never in "
            f"{format_percent(r.no_trump_rate)} of deals)" for r in rules.itertuples()) + ".")
    scores = tables.get("summary_scores")
    if scores is not None and not scores.empty:
        sentences.append("Mean deal score of a player: " + "; ".join(
            f"{r.trump_rule} / {r.minimum_rule} {mean_with_interval(r.mean_score, r.score_lo, r.score_hi)}"
            for r in scores.itertuples()) + ".")
    seats = tables.get("summary_seats")
    if seats is not None and not seats.empty:
        clear = seats[(seats["advantage_lo"] > 0) | (seats["advantage_hi"] < 0)]
        clear = clear.reindex(clear["advantage"].abs().sort_values(ascending=False).index).head(3)
        sentences.append("Seat advantages (score minus the other seats' mean on the same deal) with a 95% interval "
                         "excluding zero: " + ("; ".join(
                             f"seat {r.seat} under {r.trump_rule} / {r.minimum_rule} "
                             + mean_with_interval(r.advantage, r.advantage_lo, r.advantage_hi)
                             for r in clear.itertuples())
                             if not clear.empty else "none") + ".")
    return sentences or ["The run has no summary tables."]


GLOSSARY = {
    "policy": "the seat policy", "seat": "the seat (0 leads the first deal)",
    "mean_score_per_deal": "mean score per deal", "wins": "games won (one winner per game)",
    "games": "games played",
    "win_rate": "share of games won: one winner per game, so the n seats' shares add up to 1 and 1/n is an equal share",
    "policy_a": "first policy of the pair", "policy_b": "second policy of the pair",
    "units": "paired units: (game, rotation) played by both policies on the same deals",
    "score_diff": "mean difference A - B of the score per deal",
    "win_diff": "mean difference A - B of the win share (a fraction; tables show percentage points, pp)",
    "trump_rule": "trump rule variant (seed or original)",
    "minimum_rule": "minimum rule variant (per-suit or per-hand)",
    "deals": "deals", "no_trump_rate": "share of deals in which trump never appeared",
    "mean_trump_trick": "mean trick (1-based) at which trump appeared, where it did",
    "median_trump_trick": "median of that trick", "trump_trick": "the trick at which trump appeared (0: never)",
    "share": "share of the rule pair's deals", "mean_score": "mean deal score of one player",
    "sd": "standard deviation of a player's deal score", "p10": "10th percentile of a player's deal score",
    "median": "median of a player's deal score", "p90": "90th percentile of a player's deal score",
    "advantage": "the seat's score minus the mean of the other seats on the same deal",
}

def settings_as_read(params: dict) -> dict:
    """A Seconds run's parameters for the report: the policies by name (the manifest keeps their ids beside
    the names), and no policy parameters when the defaults were used."""
    shown = {}
    for key, value in params.items():
        if key in _NAMED:
            value = params.get(_NAMED[key], value)
        elif key in _NAMED.values() or (key == "policy_params" and not value):
            continue
        shown[key] = value
    return shown


#: the manifest's policy ids and the key of their names
_NAMED = {"policies": "policy_names", "policy": "policy_name"}


PLAY_REPORT = ReportSpec(
    findings=play_findings, glossary=GLOSSARY, unit="games", settings=settings_as_read,
    captions={"play": "Mean score per deal and share of games won, by policy (top) and seat (bottom), with 95% "
                      "intervals; the dashed line is the equal share 1/n."},
    tables={"summary_by_policy": TableSpec("Each policy over the seats it played.", keys=("policy",),
                                           measures=(MeanMeasure("mean_score_per_deal", "score_lo", "score_hi"),
                                                     RateMeasure("win_rate", "games"))),
            "summary_paired": TableSpec("Paired policy differences on the same deals.",
                                        keys=("policy_a", "policy_b"),
                                        measures=(MeanMeasure("score_diff", "score_diff_lo", "score_diff_hi"),
                                                  MeanMeasure("win_diff", "win_diff_lo", "win_diff_hi"))),
            "summary_by_seat": TableSpec("Each seat over all games.", keys=("seat",),
                                         measures=(MeanMeasure("mean_score_per_deal", "score_lo", "score_hi"),
                                                   RateMeasure("win_rate", "games")))})
VARIANTS_REPORT = ReportSpec(
    findings=variants_findings, glossary=GLOSSARY, unit="deals", settings=settings_as_read,
    captions={"variants": "Left: the trick at which trump first appears under each trump rule. Middle: the "
                          "cumulative distribution of one player's deal score under each rule pair (share of "
                          "scores at most x). Right: mean deal score per seat and rule pair, with 95% intervals."},
    tables={"summary_trump": TableSpec("When trump appears, per rule pair.", keys=("trump_rule", "minimum_rule"),
                                       measures=(RateMeasure("no_trump_rate", "deals"),)),
            "summary_scores": TableSpec("One player's deal score, per rule pair.",
                                        keys=("trump_rule", "minimum_rule"),
                                        measures=(MeanMeasure("mean_score", "score_lo", "score_hi"),)),
            "summary_seats": TableSpec("Each seat's score and advantage, per rule pair.",
                                       keys=("trump_rule", "minimum_rule", "seat"),
                                       measures=(MeanMeasure("mean_score", "score_lo", "score_hi"),
                                                 MeanMeasure("advantage", "advantage_lo", "advantage_hi"))),
            "summary_trump_tricks": TableSpec("Share of deals by the trick at which trump appeared.",
                                              keys=("trump_rule", "minimum_rule", "trump_trick"))})
