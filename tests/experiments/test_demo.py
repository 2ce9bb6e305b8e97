"""``runs demo``: rows carry their deal, the summary comes from per-seat histograms that add up."""

import numpy as np
import pandas as pd
import pytest

from analyzer.experiments.demo import SEAT_NAMES, hcp_chunk, hcp_sums, summarize
from analyzer.reports.stats import Z95, merge_sums


def test_rows_carry_the_deal_whose_points_they_count():
    rows = hcp_chunk({}, 100, 200, np.random.SeedSequence(5))
    assert rows["deal"].tolist() == list(range(100, 300))
    deal = rows[[f"cards_{name.lower()}" for name in SEAT_NAMES]].to_numpy()
    assert (np.bitwise_or.reduce(deal, axis=1) == (1 << 52) - 1).all()
    assert (np.bitwise_count(deal) == 13).all()
    # Card id = 13 * suit + rank: a rank's four cards are one bit every 13.
    hcp = sum(points * np.bitwise_count(deal & (1 << rank) * 0x0008004002001)
              for rank, points in ((12, 4), (11, 3), (10, 2), (9, 1)))
    assert (hcp == rows[list(SEAT_NAMES)].to_numpy()).all()


def test_summary_on_hand_made_points():
    deals = pd.DataFrame({"deal": [0, 1, 2], "N": [10, 12, 4], "E": [10, 8, 16], "S": [10, 10, 10],
                          "W": [10, 10, 10]})
    summary = summarize(merge_sums([hcp_sums(deals)]), 12).set_index("seat")
    north = summary.loc["N"]
    # 10, 12, 4: mean 26/3, squared deviations (16 + 100 + 196) / 9, sample variance 156/9.
    half = Z95 * np.sqrt(156 / 9 / 3)
    assert north["n"] == 3 and north["strong_rate"] == pytest.approx(1 / 3)
    assert (north["hcp_mean"], north["hcp_lo"], north["hcp_hi"]) == pytest.approx((26 / 3, 26 / 3 - half,
                                                                                    26 / 3 + half))
    assert summary.loc["E", "strong_rate"] == pytest.approx(1 / 3) and summary.loc["S", "strong_rate"] == 0
    assert summary.loc["S", "hcp_lo"] == summary.loc["S", "hcp_hi"] == 10


def test_chunk_histograms_add_up_to_the_summary_of_the_whole_table():
    rows = hcp_chunk({}, 0, 500, np.random.SeedSequence(1))
    merged = merge_sums([hcp_sums(rows.iloc[:170]), hcp_sums(rows.iloc[170:])])
    whole = merge_sums([hcp_sums(rows)])
    pd.testing.assert_frame_equal(merged["hcp"], whole["hcp"])
    pd.testing.assert_frame_equal(summarize(merged, 12), summarize(whole, 12))
