"""The bids report's findings say what the tables add, not what a contract's definition already says."""

import pandas as pd

from analyzer.games.rikken.findings import bids_findings


def _row(contract, feature, bin_, n, rate, score_lo):
    return {"contract": contract, "feature": feature, "bin": bin_, "n": n, "rate": rate, "rate_lo": max(0, rate - 0.05),
            "rate_hi": rate + 0.05 if rate else 0.0024, "mean_score": score_lo + 1, "score_lo": score_lo,
            "score_hi": score_lo + 2, "mean_points": 0.0, "bounded": 0}


def test_never_made_contracts_are_named_together_and_a_defining_bin_is_not_a_finding():
    summary = pd.DataFrame([
        _row("rik", "all", "", 1600, 0.586, 0.5), _row("rik", "longest", "6", 400, 0.7, 0.4),
        _row("troela", "all", "", 60, 0.88, 2.2), _row("troela", "aces", "3", 60, 0.88, 2.2),
        _row("13-alone", "all", "", 1600, 0.0, -70), _row("12-alone", "all", "", 1600, 0.0, -25)])
    text = " ".join(bids_findings({"summary": summary}, {"hands": 1600}))
    assert "Never made: 13-alone, 12-alone (below 0.24% with 95% confidence)." in text
    assert "Least often made" not in text  # two contracts made: both already listed as most often
    assert "with aces 3" not in text and "troela on all its 60 hands" in text
    assert "rik with cards in the longest suit 6 (400 hands)" in text
