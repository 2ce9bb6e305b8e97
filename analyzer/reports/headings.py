"""Column headings as a reader reads them: the one map from the summary tables' field names (``best_ev_value``,
``a_gp_per_deal``) to the headings the reports and ``runs show`` print. The CSVs, ``query`` and the glossary's
"CSV column" notes keep the field names."""

#: field name -> heading, for every experiment; ``"<experiment>:<field>"`` for one experiment's meaning of a
#: field (``mean_score`` is money a hand in ``rikken bids``, points a deal in Sloppy Seconds)
HEADINGS = {
    # Rikken
    "rikken-bids:mean_score": "money/hand",
    "rikken-bids:mean_points": "points/hand",
    "rikken-bids:mean_score_high": "money/hand, high end",
    "rikken-bids:mean_points_high": "points/hand, high end",
    "rikken-bids:rate": "make rate",
    "rikken-advise:rate": "make rate",
    "rikken-advise:n": "deals",
    "rikken-advise:mean_points": "points",
    "rikken-advise:mean_money": "money",
    "rikken-advise:mean_points_high": "points, high end",
    "rikken-advise:mean_money_high": "money, high end",
    "rikken-advise:money_vs_best": "money vs best",
    "rikken-play:mean": "mean/round",
    "hcp_bin": "HCP",
    "highest_safe": "highest made ≥ 50%",
    "rik_beter_safe_hearts": "else Rik Beter with ♥",
    "best_ev": "best by money",
    "best_ev_value": "its money/hand",
    "rik_beter_ev_hearts": "else Rik Beter by money with ♥",
    "bounded": "bounded rows",
    "per_round": "share of rounds",
    "make_rate": "make rate",
    "undecided": "undecided dd turns",
    "low_cards": "low cards",
    "predicted_money": "predicted money",
    "observed_money": "observed money",
    # Schnapsen
    "bot_a": "bot A",
    "bot_b": "bot B",
    "a_wins": "A won",
    "a_win_rate": "A win rate",
    "a_seat": "seat of A",
    "a_gp_per_deal": "A game points/deal",
    "b_gp_per_deal": "B game points/deal",
    "gp_a": "A game points",
    "gp_b": "B game points",
    "closes_a": "A closings",
    "closes_b": "B closings",
    "close_wins_a": "A closings won",
    "close_wins_b": "B closings won",
    "win_rate": "win rate",
    "gp_per_deal": "game points/deal",
    "closes": "closings",
    "closes_per_deal": "closings/deal",
    "close_wins": "closings won",
    "close_success": "closing success",
    "close_win": "closing wins",
    "playon_win": "playing on wins",
    "close_gp": "closing: game points",
    "playon_gp": "playing on: game points",
    "gain": "gain of closing",
    "close_better_share": "closing better",
    "exact_share": "solved exactly",
    "bot_close_share": "bot closes",
    "expected_gp": "expected game points",
    "win_probability": "win probability",
    "vs_best": "vs best",
    # Sloppy Seconds
    "mean_score_per_deal": "score/deal",
    "policy_a": "policy A",
    "policy_b": "policy B",
    "score_diff": "score difference",
    "win_diff": "win difference",
    "trump_rule": "trump rule",
    "minimum_rule": "minimum rule",
    "mean_score": "mean score",
    "no_trump_rate": "no trump",
    "mean_trump_trick": "mean trump trick",
    "median_trump_trick": "median trump trick",
    "trump_trick": "trump trick",
}


def heading(column: str, experiment: str = "") -> str:
    """The heading of field ``column`` in a table of ``experiment`` (its manifest's name): the experiment's own
    entry of :data:`HEADINGS`, else the shared one, else the field name with spaces for underscores."""
    return HEADINGS.get(f"{experiment}:{column}", HEADINGS.get(column, column.replace("_", " ")))


def column_headings(columns, experiment: str = "") -> dict[str, str]:
    """Each of ``columns`` (field names of a table of ``experiment``) with its :func:`heading`."""
    return {column: heading(column, experiment) for column in columns}
