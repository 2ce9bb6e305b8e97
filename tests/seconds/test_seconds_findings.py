"""The Sloppy Seconds report's findings on hand-built summary tables."""

import pandas as pd

from analyzer.games.seconds.findings import play_findings


def test_play_findings_rank_policies_against_the_equal_share():
    """Each policy's win share is set against 1/n by its interval; a paired difference is stated once with its
    sign in words."""
    tables = {"summary_by_policy": pd.DataFrame([
                  {"policy": "random", "win_rate": 0.15, "win_lo": 0.10, "win_hi": 0.20, "mean_score_per_deal": -2.0,
                   "games": 200},
                  {"policy": "heuristic", "win_rate": 0.35, "win_lo": 0.30, "win_hi": 0.40, "mean_score_per_deal": 1.5,
                   "games": 1200},
                  {"policy": "sampling", "win_rate": 0.26, "win_lo": 0.20, "win_hi": 0.31, "mean_score_per_deal": 0.1,
                   "games": 200}]),
              "summary_paired": pd.DataFrame([{"policy_a": "heuristic", "policy_b": "random", "score_diff": -3.5,
                                               "score_diff_lo": -4.0, "score_diff_hi": -3.0, "units": 1500}]),
              "summary_by_seat": pd.DataFrame([{"seat": 0, "win_rate": 0.3, "win_lo": 0.2, "win_hi": 0.4, "games": 80},
                                               {"seat": 1, "win_rate": 0.2, "win_lo": 0.1, "win_hi": 0.3, "games": 80}])}
    text = play_findings(tables, {"params": {"rules": {"n_players": 4}}})
    assert text[0] == ("heuristic won 35.0% (95% 30.0% to 40.0%) of its 1,200 games, more than an equal "
                       "share of 25.0%, scoring 1.50 points a deal.")
    assert text[1].startswith("sampling won 26.0%") and ", within noise of an equal share of 25.0%," in text[1]
    assert text[2].startswith("random won 15.0%") and ", less than an equal share of 25.0%," in text[2]
    assert text[3] == ("On the same deals, heuristic minus random: -3.50 points a deal (95% -4.00 to -3.00) over "
                       "1,500 pairs.")
    assert text[4] == ("By seat, games won: seat 0 30.0% (95% 20.0% to 40.0%) of 80; seat 1 20.0% (95% 10.0% to "
                       "30.0%) of 80.")


def test_a_paired_difference_reads_the_same_way_in_words_and_numbers():
    from analyzer.reports.formatting import paired_difference_text

    behind = paired_difference_text("random", "heuristic", -2.15, -2.87, -1.43, "game points a deal")
    assert behind == "random minus heuristic: -2.15 game points a deal (95% -2.87 to -1.43)"
    assert "+0.300" in paired_difference_text("a", "b", 0.3, -0.1, 0.7, "points") and "-0.100" in \
        paired_difference_text("a", "b", 0.3, -0.1, 0.7, "points")
    assert paired_difference_text("A", "B", 0.0, 0.0, 0.0, "points a deal") == (
        "A and B scored the same points a deal on every pair")
