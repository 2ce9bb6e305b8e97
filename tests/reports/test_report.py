"""Report statistics against published values, table comparison, and the rendered reports."""

import base64
import json

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.reports.catalog import split_command
from analyzer.reports.report import build_report, compare_tables, difference_of_means, difference_of_proportions
from analyzer.reports.stats import Z95

# Newcombe (1998), "Interval estimation for the difference between independent proportions",
# Statistics in Medicine 17:873-890, Table II, method 10 (hybrid score): p1 - p2 for (k1/n1, k2/n2).
NEWCOMBE_METHOD_10 = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ((0, 10, 0, 20), (-0.1611, 0.2775)),
]


@pytest.mark.parametrize("counts, expected", NEWCOMBE_METHOD_10)
def test_difference_of_proportions_matches_newcombe(counts, expected):
    k1, n1, k2, n2 = counts
    # Our difference is B - A, so run 1 of the paper is B.
    difference, low, high = difference_of_proportions(k2, n2, k1, n1)
    assert difference == pytest.approx(k1 / n1 - k2 / n2)
    assert (low, high) == pytest.approx(expected, abs=6e-5)


def test_difference_of_means_adds_standard_errors_in_quadrature():
    # A: mean 10, se 1; B: mean 13, se 2  ->  B - A = 3, se sqrt(1 + 4) = sqrt(5).
    difference, low, high = difference_of_means(10, 10 - Z95, 10 + Z95, 13, 13 - 2 * Z95, 13 + 2 * Z95)
    assert difference == pytest.approx(3)
    assert (low, high) == pytest.approx((3 - Z95 * np.sqrt(5), 3 + Z95 * np.sqrt(5)))


def test_compare_tables_matches_rows_on_keys():
    baseline = pd.DataFrame({"contract": ["solo", "pass"], "n": [80, 70], "win_rate": [0.6, 0.8],
                             "win_rate_lo": [0.5, 0.7], "rate_hi": [0.7, 0.9],
                             "score_mean": [1.0, 2.0], "score_lo": [0.0, 1.0], "score_hi": [2.0, 3.0],
                             "mean_gain": [1.0, 2.0], "gain_lo": [0.0, 1.0], "gain_hi": [2.0, 3.0],
                             "other": [5, 6]})
    other = baseline.iloc[::-1].reset_index(drop=True).copy()
    other.loc[other["contract"] == "solo", "win_rate"] = 0.8
    other.loc[other["contract"] == "solo", "n"] = 70
    result = compare_tables(baseline, other)
    assert set(result["measure"]) == {"win_rate", "score_mean", "mean_gain"}  # "other" has no interval: not compared
    solo = result[(result["contract"] == "solo") & (result["measure"] == "win_rate")].iloc[0]
    # 56/70 against 48/80: Newcombe's example (a) above.
    assert (solo["B - A"], solo["lo"], solo["hi"]) == pytest.approx((0.2, 0.0524, 0.3339), abs=6e-5)
    same = result[(result["contract"] == "pass")]
    assert (same["B - A"] == 0).all() and (same["lo"] < 0).all() and (same["hi"] > 0).all()


def test_compare_tables_without_keys_needs_equal_rows():
    with pytest.raises(InputError):
        compare_tables(pd.DataFrame({"rate": [0.5], "n": [10]}), pd.DataFrame({"rate": [0.5, 0.4], "n": [10, 10]}))


def test_split_command_drops_execution_options():
    words, parameters = split_command(["rikken", "bids", "--deals", "10", "--out", "x", "--workers=2",
                                       "--scheduler", "local:2", "--seed", "3"])
    assert words == ["rikken", "bids"]
    assert parameters == ["--deals", "10", "--seed", "3"]


# A one-pixel PNG, so the test does not depend on matplotlib.
PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")


def make_run(path, seed, rate):
    path.mkdir()
    argv = ["analyzer", "rikken", "bids", "--deals", "100", "--seed", str(seed), "--out", str(path)]
    (path / "manifest.json").write_text(json.dumps({"analyzer_version": "0.1.0", "argv": argv, "seed": seed,
                                                    "status": "complete"}))
    pd.DataFrame({"contract": ["solo"], "n": [100], "win_rate": [rate]}).to_csv(path / "summary.csv", index=False)
    (path / "chart.png").write_bytes(PIXEL)
    return path


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_report_embeds_charts_tables_command_and_comparison(tmp_path, fmt):
    a = make_run(tmp_path / "a", 1, 0.5)
    b = make_run(tmp_path / "b", 2, 0.6)
    text = build_report([a, b], fmt)
    assert "data:image/png;base64," + base64.b64encode(PIXEL).decode() in text
    assert f"analyzer rikken bids --deals 100 --seed 2 --out {b}" in text
    assert "summary: run B against run A" in text
    # 60/100 against 50/100, by the same method as the tests above.
    difference, low, high = difference_of_proportions(50, 100, 60, 100)
    assert f"{low:.4g}" in text and f"{high:.4g}" in text


def test_report_of_different_experiments_has_no_comparison(tmp_path):
    a = make_run(tmp_path / "a", 1, 0.5)
    b = make_run(tmp_path / "b", 2, 0.6)
    manifest = json.loads((b / "manifest.json").read_text())
    manifest["argv"][1:3] = ["seconds", "play"]
    (b / "manifest.json").write_text(json.dumps(manifest))
    text = build_report([a, b], "md")
    assert "different experiments" in text and "against run A" not in text


def test_report_rejects_unknown_format(tmp_path):
    with pytest.raises(InputError):
        build_report([make_run(tmp_path / "a", 1, 0.5)], "pdf")
