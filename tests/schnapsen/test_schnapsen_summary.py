"""Schnapsen summaries from per-chunk aggregates: hand-counted values, and chunk aggregates that add up."""

import numpy as np
import pandas as pd
import pytest

from analyzer.games.schnapsen.experiments import closing_task, match_task, parse_bot
from analyzer.games.schnapsen.summary import (
    closing_positions,
    closing_sums,
    match_sums,
    summarize_closing,
    summarize_matches,
)
from analyzer.reports.stats import Z95, merge_sums
from statsmodels.stats.proportion import proportion_confint

# Two pairs of matches. Pair 0: A wins with seat 0 (3 deals, 7-2), loses with seat 1 (4 deals, 5-7).
# Pair 1: A wins both (2 deals, 7-0; 5 deals, 7-4). A closes 1 + 0 + 2 + 1 = 4 times and wins 3 of them;
# B closes once, in pair 0's second match, and loses it.
MATCHES = pd.DataFrame({"pair": [0, 0, 1, 1], "seating": [0, 1, 0, 1], "a_seat": [0, 1, 0, 1],
                        "winner": ["A", "B", "A", "A"], "deals": [3, 4, 2, 5], "gp_a": [7, 5, 7, 7],
                        "gp_b": [2, 7, 0, 4], "closes_a": [1, 0, 2, 1], "closes_b": [0, 1, 0, 0],
                        "close_wins_a": [1, 0, 1, 1], "close_wins_b": [0, 0, 0, 0]})


def test_match_summary_on_hand_made_rows():
    summary = summarize_matches(merge_sums([match_sums(MATCHES)]), "x", "y")
    overall = summary["overall"].iloc[0]
    assert (overall["matches"], overall["a_wins"], overall["deals"]) == (4, 3, 14)
    assert overall["a_gp_per_deal"] == pytest.approx(26 / 14) and overall["b_gp_per_deal"] == pytest.approx(13 / 14)
    wins, points = summary["paired"].itertuples()
    # Match wins A - B per pair: 1 - 1 = 0 and 2 - 0 = 2: mean 1; A's shares of the pairs 1/2 and 1, so the
    # interval is 4 x the Wilson interval of 1.5 "successes" in 2 pairs, minus 2 (a normal one is 1 +- z).
    assert wins.pairs == 2 and wins.mean == pytest.approx(1.0)
    share_lo, share_hi = proportion_confint(1.5, 2, alpha=0.05, method="wilson")
    assert (wins.lo, wins.hi) == pytest.approx((4 * share_lo - 2, 4 * share_hi - 2))
    # Game points per deal A - B: 12/7 - 9/7 = 3/7 and 14/7 - 4/7 = 10/7: mean 13/14, sd sqrt(1/2), half z/2.
    assert points.mean == pytest.approx(13 / 14)
    assert (points.lo, points.hi) == pytest.approx((13 / 14 - Z95 / 2, 13 / 14 + Z95 / 2))
    per_bot = summary["per_bot"].set_index("bot")
    # A: 3 of 4 matches; per pair game points per deal 12/7 and 14/7 (mean 13/7, sd sqrt(2)/7, half z/7).
    assert per_bot.loc["A", ["wins", "win_rate"]].tolist() == [3, 0.75]
    assert per_bot.loc["A", ["gp_per_deal", "gp_lo", "gp_hi"]].tolist() == pytest.approx(
        [13 / 7, 13 / 7 - Z95 / 7, 13 / 7 + Z95 / 7])
    # B: 9/7 and 4/7 per deal (mean 13/14); closings: 1 in 14 deals, none won (success 0, Wilson from 0).
    assert per_bot.loc["B", "gp_per_deal"] == pytest.approx(13 / 14)
    assert per_bot.loc["A", ["closes", "close_wins", "close_success"]].tolist() == [4, 3, 0.75]
    assert per_bot.loc["A", "closes_per_deal"] == pytest.approx(4 / 14)
    assert per_bot.loc["B", ["closes", "close_wins", "close_success"]].tolist() == [1, 0, 0.0]
    assert per_bot.loc["B", "close_lo"] == pytest.approx(0.0, abs=1e-12) and 0 < per_bot.loc["B", "close_hi"] < 1
    by_seat = summary["by_seat"].set_index("a_seat")
    assert by_seat.loc[0, ["matches", "a_wins", "deals", "gp_a", "gp_b"]].tolist() == [2, 2, 5, 14, 2]
    assert by_seat.loc[1, ["matches", "a_wins", "deals", "gp_a", "gp_b"]].tolist() == [2, 1, 9, 12, 11]


def test_game_points_per_deal_is_one_number_and_match_wins_stay_possible():
    # Pair 0 as above (A 12 points in 7 deals, B 9); pair 1 is shorter: A wins both 7-0 in 2 deals each
    # (14 points in 4 deals). Per pair A makes 12/7 and 14/4 a deal: mean (12/7 + 7/2) / 2 = 73/28, while
    # the ratio of the totals would be 26/11. B: 9/7 and 0: mean 9/14.
    rows = MATCHES.assign(deals=[3, 4, 2, 2], gp_b=[2, 7, 0, 0])
    summary = summarize_matches(merge_sums([match_sums(rows)]), "x", "y")
    overall = summary["overall"].iloc[0]
    per_bot = summary["per_bot"].set_index("bot")
    assert overall["a_gp_per_deal"] == pytest.approx(73 / 28) == per_bot.loc["A", "gp_per_deal"]
    assert overall["b_gp_per_deal"] == pytest.approx(9 / 14) == per_bot.loc["B", "gp_per_deal"]
    assert summary["paired"].iloc[1]["mean"] == pytest.approx(73 / 28 - 9 / 14)
    # 19 pairs won 2-0 and one 1-1: the differences' normal interval would reach past 2 (1.9 + 0.14)
    pairs = pd.concat([MATCHES.assign(pair=MATCHES["pair"] + 2 * k, winner="A") for k in range(10)])
    pairs.loc[(pairs["pair"] == 0) & (pairs["seating"] == 1), "winner"] = "B"
    wins = summarize_matches(merge_sums([match_sums(pairs)]), "x", "y")["paired"].iloc[0]
    assert wins["pairs"] == 20 and wins["mean"] == pytest.approx(1.9)
    assert -2 <= wins["lo"] < 1.9 < wins["hi"] <= 2
    share_lo, share_hi = proportion_confint(19.5, 20, alpha=0.05, method="wilson")
    assert (wins["lo"], wins["hi"]) == pytest.approx((4 * share_lo - 2, 4 * share_hi - 2))


def test_match_chunk_aggregates_add_up_to_the_summary_of_the_whole_table():
    params = {"a": parse_bot("heuristic").as_dict(), "b": parse_bot("random").as_dict()}
    rows = match_task(params, 0, 6, np.random.SeedSequence(4))
    # Split between pairs, as chunks are: both matches of a pair are always played in one chunk.
    halves = [rows[rows["pair"] < 2], rows[rows["pair"] >= 2]]
    merged = merge_sums([match_sums(half) for half in halves])
    whole = merge_sums([match_sums(rows)])
    for name, table in summarize_matches(whole, "a", "b").items():
        pd.testing.assert_frame_equal(summarize_matches(merged, "a", "b")[name], table)


# Three closing positions: (stock, own points, opponent points, trumps, high trumps, close win, play-on win,
# close gp, play-on gp, gain, exact).
CLOSING = pd.DataFrame([(10, 0, 0, 2, 1, 0.5, 0.75, 1.0, 2.0, -1.0, False),
                        (10, 25, 12, 1, 0, 1.0, 0.5, 3.0, 1.0, 2.0, False),
                        (6, 30, 40, 2, 2, 0.25, 0.5, -1.0, -0.5, -0.5, True)],
                       columns=["stock_size", "own_points", "opp_points", "trumps_held", "high_trumps_held",
                                "close_win", "playon_win", "close_gp", "playon_gp", "gain", "exact"]
                       ).assign(bot_action=["close", "SA", "close"])


def test_closing_summary_on_hand_made_rows():
    sums = merge_sums([closing_sums(CLOSING)])
    assert closing_positions(sums) == 3
    summary = summarize_closing(sums).set_index(["factor", "value"])
    overall = summary.loc[("all", "all")]
    assert overall["n"] == 3 and overall["close_win"] == pytest.approx(1.75 / 3)
    # Gains -1, 2, -0.5: mean 1/6, squared deviations (49 + 121 + 16) / 36, sample variance 93/36.
    half = Z95 * np.sqrt(93 / 36 / 3)
    assert (overall["gain"], overall["gain_lo"], overall["gain_hi"]) == pytest.approx((1 / 6, 1 / 6 - half,
                                                                                        1 / 6 + half))
    assert overall["close_better_share"] == pytest.approx(1 / 3) and overall["exact_share"] == pytest.approx(1 / 3)
    stock = summary.loc["stock_size"]
    assert list(stock.index) == ["6", "10"] and stock["n"].tolist() == [1, 2]
    assert stock.loc["10", "gain"] == pytest.approx(0.5) and np.isnan(stock.loc["6", "gain_lo"])
    assert stock.loc["6", "exact_share"] == 1 and stock.loc["10", "exact_share"] == 0
    assert overall["bot_close_share"] == pytest.approx(2 / 3) and stock.loc["10", "bot_close_share"] == 0.5
    own = summary.loc["own_points_bin"]
    assert list(own.index) == ["0", "20-32"] and own.loc["20-32", "close_win"] == pytest.approx(0.625)
    assert list(summary.loc["opp_points_bin"].index) == ["0", "1-19", "33-44"]


def test_closing_chunk_aggregates_add_up_to_the_summary_of_the_whole_table():
    rows = closing_task({"bot": parse_bot("heuristic").as_dict()}, 0, 6, np.random.SeedSequence(2))
    halves = [rows[rows["deal"] < 3], rows[rows["deal"] >= 3]]
    merged = merge_sums([closing_sums(half) for half in halves])
    whole = merge_sums([closing_sums(rows)])
    assert closing_positions(merged) == len(rows)
    pd.testing.assert_frame_equal(summarize_closing(merged), summarize_closing(whole))
    for name in ("by_points_and_stock", "by_points_and_trumps"):
        pd.testing.assert_frame_equal(merged[name], whole[name])


def test_match_findings_are_short_sentences_each_a_new_fact():
    """Hand-built summary tables: the verdict follows A's interval against 50%, the game-point difference is
    stated once with its sign in words, self-play names the bots by seat, a bot without closings says so."""
    from analyzer.games.schnapsen.findings import match_findings

    def tables(bot_a, bot_b, lo, hi, gp):
        return {"summary_overall": pd.DataFrame([{"bot_a": bot_a, "bot_b": bot_b, "matches": 200, "a_wins": 116,
                                                  "a_win_rate": 0.58, "a_win_lo": lo, "a_win_hi": hi}]),
                "summary_paired": pd.DataFrame([
                    {"metric": "match wins per pair (A - B)", "pairs": 100, "mean": 0.3, "lo": 0.1, "hi": 0.5},
                    {"metric": "game points per deal (A - B)", "pairs": 100, "mean": gp, "lo": gp - 0.1,
                     "hi": gp + 0.1}]),
                "summary_per_bot": pd.DataFrame([
                    {"bot": "A", "label": bot_a, "closes_per_deal": 0.25, "closes": 98, "close_success": 0.9},
                    {"bot": "B", "label": bot_b, "closes_per_deal": 0.0, "closes": 0, "close_success": float("nan")}])}

    text = match_findings(tables("hybrid", "heuristic", 0.51, 0.65, 0.3), {})
    assert text[0] == "hybrid won 116 of 200 Bummerls against heuristic: 58.0% (95% 51.0% to 65.0%); hybrid is the stronger bot."
    assert text[1] == "On the same deals, hybrid minus heuristic: +0.300 game points a deal (95% +0.200 to +0.400) over 100 pairs."
    assert text[2:] == ["hybrid closed the stock 0.250 times a deal and won 90.0% of its 98 closings.",
                        "heuristic closed the stock 0 times a deal."]
    one = tables("hybrid", "heuristic", 0.51, 0.65, 0.3)
    one["summary_per_bot"].loc[0, ["closes", "close_success"]] = [1, 1.0]
    assert match_findings(one, {})[2].endswith("won 100.0% of its 1 closing.")
    self_play = match_findings(tables("pimc", "pimc", 0.48, 0.68, -0.2), {})
    assert self_play[0].endswith("neither bot is clearly stronger at this size.")
    assert self_play[1].startswith("On the same deals, pimc (A) minus pimc (B): -0.200 game points a deal")
    assert match_findings(tables("random", "hybrid", 0.2, 0.45, -1.0), {})[0].endswith("hybrid is the stronger bot.")
    seats = pd.DataFrame({"a_seat": [0, 1], "matches": [4, 4], "a_win_rate": [1.0, 0.5], "a_win_lo": [0.51, 0.15],
                          "a_win_hi": [1.0, 0.85]})
    by_seat = match_findings({**tables("heuristic", "random", 0.6, 0.9, 1.0), "summary_by_seat": seats}, {})
    assert ("By seat, heuristic won 100.0% (95% 51.0% to 100.0%) of 4 from seat 0 and 50.0% (95% 15.0% to 85.0%) "
            "of 4 from seat 1.") in by_seat


def test_closing_findings_give_every_share_its_interval():
    """Hand-built closing table: each share gets a Wilson interval over the positions (statsmodels by hand
    here: 60 of 100 is 50.2% to 69.1%), and the gain its own interval."""
    from analyzer.games.schnapsen.findings import closing_findings

    table = pd.DataFrame([{"factor": "all", "value": "all", "n": 100, "close_win": 0.6, "playon_win": 0.45,
                           "gain": 0.2, "gain_lo": 0.05, "gain_hi": 0.35, "close_better_share": 0.55}])
    text = closing_findings({"summary_closing": table}, {})
    assert text[0] == ("Over 100 positions where closing was legal, closing won the deal 60.0% (95% 50.2% to 69.1%) "
                       "of the time and playing on 45.0% (95% 35.6% to 54.8%).")
    assert text[1] == ("Closing gained 0.200 (95% 0.050 to 0.350) game points on average and was the better choice "
                       "in 55.0% (95% 45.2% to 64.4%) of positions.")
