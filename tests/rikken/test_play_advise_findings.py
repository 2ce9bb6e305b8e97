"""The play and advise reports' findings: every rate and mean with its interval, a difference to the best
option as a signed paired difference (hand-built summary tables)."""

import pandas as pd

from analyzer.games.rikken.findings import advise_findings, play_findings


def test_play_findings_give_rates_and_seat_scores_with_intervals():
    summary = pd.DataFrame([
        {"contract": "rik", "declared": 400, "per_round": 0.4, "make_rate": 0.8, "make_lo": 0.76, "make_hi": 0.84},
        {"contract": "9-alone", "declared": 100, "per_round": 0.1, "make_rate": 0.5, "make_lo": 0.4, "make_hi": 0.6},
        {"contract": "passed-out", "declared": 0, "per_round": 0.2, "make_rate": float("nan"), "make_lo": float("nan"),
         "make_hi": float("nan")}])
    seats = pd.DataFrame([{"mode": "money", "seat": s, "mean": m, "low": m - 0.5, "high": m + 0.5}
                          for s, m in zip("NESW", (1.25, -0.5, 0.0, -0.75))])
    text = play_findings({"summary": summary, "seats": seats}, {"rounds": 1000})
    assert text[1] == ("Among contracts declared at least 30 times, 9-alone was made least often, 50.0% (95% 40.0% "
                       "to 60.0%), and rik most, 80.0% (95% 76.0% to 84.0%).")
    assert text[2] == ("Mean money score per round by seat: N 1.25 (95% 0.75 to 1.75), E -0.50 (95% -1.00 to "
                       "0.00), S 0.000 (95% -0.500 to 0.500), W -0.75 (95% -1.25 to -0.25); N scores more than W "
                       "(their intervals do not overlap).")


def test_advise_findings_give_each_option_its_intervals_and_paired_difference():
    def option(name, rate, money, diff):
        return {"option": name, "play": "trump spades", "contract": "Rik", "n": 2000, "rate": rate, "rate_lo": rate - 0.02, "rate_hi": rate + 0.02,
                "mean_money": money, "money_lo": money - 0.1, "money_hi": money + 0.1, "money_vs_best": diff,
                "vs_best_lo": diff - 0.05, "vs_best_hi": diff + 0.05, "bounded": 0}

    advice = pd.DataFrame([option("rik-S", 0.9, 3.0, 0.0), option("9-alone", 0.4, 1.0, -2.0)])
    text = advise_findings({"advice": advice}, {"params": {"hand": "AKQT86.A2.K73.95", "seat": 0}})
    assert text[-1] == ("9-alone: made 40.0% (95% 38.0% to 42.0%), money 1.00 (95% 0.90 to 1.10); on the same deals, "
                        "9-alone minus rik-S: -2.00 money a deal (95% -2.05 to -1.95).")
