"""Report statistics against published values, table comparison, and the rendered reports."""

import base64
import html
import json
import re

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.reports.catalog import split_command
from analyzer.reports.comparison import (
    compare_tables,
    difference_of_means,
    difference_of_proportions,
    significant_differences,
)
from analyzer.reports.formatting import (
    console_table,
    fill_console,
    format_number,
    format_percent,
    formatted_columns,
    mean_with_interval,
)
from analyzer.reports.report import build_report, write_report
from analyzer.reports.report_spec import MeanMeasure, ReportSpec, TableSpec
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


def test_difference_of_means_adds_a_bounded_sides_half_widths():
    # B holds bounded rows: low-end mean 1.0, interval [0.9, 2.6]; A is exact: 2.0 [1.9, 2.1]. B's
    # sampling part cannot be told from its bound, so the half-widths add: B - A = -1.0 reaching
    # 0.1 + 0.1 down and 1.6 + 0.1 up.
    difference, low, high = difference_of_means(2.0, 1.9, 2.1, 1.0, 0.9, 2.6)
    assert (difference, low, high) == pytest.approx((-1.0, -1.2, 0.7))
    # The same with the runs swapped: A's long side goes on the lower side of B - A.
    difference, low, high = difference_of_means(1.0, 0.9, 2.6, 2.0, 1.9, 2.1)
    assert (difference, low, high) == pytest.approx((1.0, -0.7, 1.2))


def test_difference_of_means_covers_a_bound_whose_high_end_varies_less():
    # B: low-end mean 0 with sampling half-width 0.3; high-end mean 0.2 with half-width 0.05, so its
    # interval [-0.3, 0.25] is longer below although the bound lies above. A: 0 [-0.1, 0.1]. The honest
    # upper end of B - A is the bound plus the high end's and A's sampling in quadrature.
    honest_high = 0.2 + np.sqrt(0.05 ** 2 + 0.1 ** 2)
    _, _, high = difference_of_means(0.0, -0.1, 0.1, 0.0, -0.3, 0.25)
    assert high >= honest_high


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
    # Each compared value shows the sample sizes behind it: the shared count column n of each run.
    assert (solo["n A"], solo["n B"]) == (80, 70)
    assert (result.loc[result["contract"] == "pass", ["n A", "n B"]] == 70).all().all()


def test_compare_tables_shows_a_means_count_only_when_named():
    table = pd.DataFrame({"key": ["x"], "deals": [40], "gain": [1.0], "gain_lo": [0.5], "gain_hi": [1.5]})
    named = compare_tables(table, table.assign(deals=50), TableSpec(keys=("key",), measures=(
        MeanMeasure("gain", "gain_lo", "gain_hi", "deals"),)))
    assert (named["n A"].iloc[0], named["n B"].iloc[0]) == (40, 50)
    unnamed = compare_tables(table, table, TableSpec(keys=("key",), measures=(
        MeanMeasure("gain", "gain_lo", "gain_hi"),)))
    assert "n A" not in unnamed.columns


def test_compare_tables_without_keys_needs_equal_rows():
    with pytest.raises(InputError):
        compare_tables(pd.DataFrame({"rate": [0.5], "n": [10]}), pd.DataFrame({"rate": [0.5, 0.4], "n": [10, 10]}))


def test_split_command_drops_execution_options():
    words, parameters = split_command(["rikken", "bids", "--deals", "10", "--out", "x", "--workers=2",
                                       "--scheduler", "local:2", "--seed", "3"])
    assert words == ["rikken", "bids"]
    assert parameters == ["--deals", "10", "--seed", "3"]


def findings_of_test(tables, manifest):
    """A findings function that reads the table it is given."""
    return [f"solo was won {tables['summary']['win_rate'].iloc[0]:.2f} of the time (seed {manifest['seed']})"]


SPECS = {"rikken-bids": ReportSpec(findings=findings_of_test, glossary={"win_rate": "share of games won"},
                                   captions={"chart": "What the chart shows."})}


def positions(text: str, *needles: str) -> list[int]:
    found = [text.find(needle) for needle in needles]
    assert -1 not in found, [n for n, f in zip(needles, found) if f == -1]
    return found


def test_a_command_keeps_its_quoting_and_a_non_command_reads_as_written():
    from analyzer.reports.html_writer import _command

    quoted = "analyzer schnapsen advise 'hand0=HJ SA; leader=0' --seed 7"
    html_text = _command(quoted)
    assert html.unescape(re.sub(r"</?span>|</?code[^>]*>", "", html_text)) == quoted
    assert re.findall(r"<span>(.*?)</span>", html_text)[3] == html.escape("'hand0=HJ SA; leader=0'")
    assert html.unescape(re.sub(r"</?span>|</?code[^>]*>", "", _command("(not recorded)"))) == "(not recorded)"


def test_single_run_reads_top_to_bottom(sample_runs, pixel):
    text = build_report(sample_runs[:1], "html", SPECS).text
    # Headline first: what was run, the findings, the contents, then charts, tables and the glossary.
    order = positions(text, "<h1", ">What was run<", ">Findings<", '<nav class="toc">', "<img", "<table",
                      '<h2 id="glossary">')
    assert order == sorted(order)
    assert "solo was won 0.50 of the time (seed 1)" in text
    # The command as typed, each argument kept whole on a narrow page (no break at the hyphens of --deals).
    [command] = re.findall(r'<code class="command">(.*?)</code>', text)
    argv = ["analyzer", "rikken", "bids", "--deals", "100", "--seed", "1", "--out", str(sample_runs[0])]
    assert html.unescape(re.sub(r"</?span>", "", command)) == " ".join(argv)
    assert re.findall(r"<span>(.*?)</span>", command) == [arg for arg in argv if len(arg) <= 40]
    assert "2 deals" not in text and "100 deals" in text  # the size, from the command
    assert "What the chart shows." in text
    assert "<dt>win rate</dt><dd>share of games won (CSV column win_rate)</dd>" in text
    # Every contents entry links a heading of the page.
    anchors = re.findall(r'<a href="#([^"]+)">', text)
    assert anchors and all(f'id="{anchor}"' in text for anchor in anchors)
    assert "data:image/png;base64," + base64.b64encode(pixel).decode() in text
    assert '<table class=sortable>' in text and "addEventListener('click'" in text
    assert "<script src" not in text and "<link" not in text  # nothing to fetch: it opens offline


def test_a_report_without_spec_still_has_every_part(sample_runs):
    text = build_report(sample_runs[:1], "html").text
    positions(text, ">What was run<", ">Findings<", "No findings", "<img", "<table")


def test_comparison_has_findings_runs_and_differences(sample_runs):
    text = build_report(sample_runs, "html", SPECS).text
    order = positions(text, ">What was run<", ">Findings<", '<nav class="toc">', '<h2 id="differences">',
                      '<h3 id="summary-run-b-against-run-a">', '<h2 id="run-a-', '<h2 id="run-b-', '<h2 id="glossary">')
    assert order == sorted(order)
    assert "run B differs from run A in: seed 1 in run A, 2 in run B." in text
    # 60/100 against 50/100: the interval straddles zero, so nothing is highlighted.
    _, low, high = difference_of_proportions(50, 100, 60, 100)
    assert low < 0 < high
    assert "none of the 1 compared values differs" in text and 'class="up"' not in text


def test_markdown_writes_images_and_csvs_as_files_beside_it(sample_runs, pixel, tmp_path):
    report = build_report(sample_runs, "md", SPECS, assets="compare_files")
    assert "base64" not in report.text
    images = re.findall(r"!\[[^]]*\]\(([^)]+)\)", report.text)
    assert images == ["compare_files/run-A-chart.png", "compare_files/run-B-chart.png"]
    out = write_report(report, tmp_path / "out" / "compare.md")
    for image in images:
        assert (out.parent / image).read_bytes() == pixel
    csvs = re.findall(r"\]\(([^)]+\.csv)\)", report.text)
    assert csvs and all((out.parent / csv).is_file() for csv in csvs)
    assert out.read_text() == report.text
    positions(report.text, "## What was run", "## Findings", "**Contents**", "## Glossary")


def test_long_tables_show_headline_rows_and_keep_every_row(tmp_path, make_run):
    table = pd.DataFrame({"contract": [f"c{i}" for i in range(30)], "feature": ["all"] * 3 + ["hcp"] * 27,
                          "n": range(30), "rate": np.linspace(0, 1, 30)})
    run = make_run(tmp_path / "a", 1, table)
    spec = {"rikken-bids": ReportSpec(tables={"summary": TableSpec(headline=lambda t: t[t["feature"] == "all"])})}
    text = build_report([run], "html", spec).text
    assert "headline rows: 3 of 30" in text and "<summary>all 30 rows</summary>" in text
    csv = re.search(r'download="summary.csv" href="data:text/csv;base64,([^"]+)"', text).group(1)
    assert base64.b64decode(csv).decode() == table.to_csv(index=False)  # the full table, not the shown rows
    plain = build_report([run], "md").text
    assert "first rows: 20 of 30" in plain and "c19" in plain and "c20" not in plain


def test_console_prose_keeps_a_hyphenated_option_name_whole():
    # 70 x's, a space and "open-" make 76 columns: a fill that breaks at hyphens ends the first line with "open-"
    text = "x" * 70 + " open-misery-all is the advice"
    assert fill_console(text).splitlines() == ["x" * 70, "open-misery-all is the advice"]


def test_numbers_are_rounded_for_reading():
    frame = pd.DataFrame({"noise": [5.551e-17, 0.5, 0.123456], "counts": [1.0, 2.0, np.nan],
                          "large": [12345, 2, 3], "small": [0.9, 0.0004, -1e-20], "text": ["a", "b", "c"]})
    assert formatted_columns(frame) == [["0.000", "0.500", "0.123"], ["1", "2", ""], ["12,345", "2", "3"],
                                        ["0.900", "0.00040", "0.000"], ["a", "b", "c"]]
    # Per measure of a comparison: a share and a money score in one column keep their own decimals.
    mixed = pd.DataFrame({"A": [0.0085, 0.909, 45.25]})
    assert formatted_columns(mixed, pd.Series(["per_round", "per_round", "money"])) == [["0.0085", "0.909", "45.3"]]  # a half away from zero
    # Decimals follow a column's typical value, not its largest: a rate of 1 does not cost the others a digit;
    # columns rounded together share them.
    assert formatted_columns(pd.DataFrame({"rate": [1.0, 0.12, 0.75]})) == [["1.000", "0.120", "0.750"]]
    pair = pd.DataFrame({"A": [2.0, 1.5], "B": [0.75, 0.208]})
    assert formatted_columns(pair) == [["2.00", "1.50"], ["0.750", "0.208"]]
    assert formatted_columns(pair, together=(("A", "B"),)) == [["2.00", "1.50"], ["0.75", "0.21"]]
    assert [format_number(v) for v in (1234.6, 0.012345, 5.551e-17, -0.00001, float("nan"))] == [
        "1,235", "0.0123", "0", "-0.0000100", "n/a"]
    assert [format_percent(v) for v in (0.5913, 0.0, 0.00048, 1.0)] == ["59.1%", "0%", "0.048%", "100.0%"]


def test_a_half_rounds_away_from_zero_in_sentences_and_tables():
    # 1.075 is stored as 1.07499...: format() reads "1.07" where a person, and the table, read 1.08
    assert format_number(1.075) == "1.08" and format_number(-1.075) == "-1.08" and format_number(2.675) == "2.68"
    assert formatted_columns(pd.DataFrame({"gp": [1.075, 2.345, 3.0]})) == [["1.08", "2.35", "3.00"]]
    assert format_number(1.0749) == "1.07"


def test_rendered_tables_carry_no_float_noise(tmp_path, make_run):
    run = make_run(tmp_path / "a", 1, pd.DataFrame({"contract": ["x", "y"], "n": [10, 10],
                                                    "rate": [5.551115123125783e-17, 0.3333333333333333]}))
    text = build_report([run], "html").text
    assert "e-17" not in text.replace('data-v="5.551115123125783e-17"', "")
    assert ">33.3%<" in text and ">0%<" in text  # a rate without its interval is a percentage too


# A hand-built pair: per item, a rate out of 1,000 and a mean with its 95% interval.
#   rate: x 0.50 -> 0.60: Wilson half-widths about 1.96 * sqrt(0.25 / 1000) = 0.031 and 0.030, so the
#         difference 0.10 has a half-width of about sqrt(0.031^2 + 0.030^2) = 0.043: excludes zero.
#         y 0.50 -> 0.52: 0.02 +- 0.044 straddles zero. z 0.50 -> 0.42: -0.08 +- 0.043 excludes zero.
#         w 0.50 -> 0.50: nothing.
#   mean: each interval +-1 is a standard error of 1 / 1.96, so a difference has half-width
#         1.96 * sqrt(2) / 1.96 = 1.414: x 0 -> 3 gives [1.59, 4.41], y 0 -> 1 gives [-0.41, 2.41],
#         z 0 -> -2 gives [-3.41, -0.59]; w 5 -> 6 with zero-width intervals (a degenerate sample)
#         gives [1, 1], which proves nothing and is not highlighted.
BASELINE = pd.DataFrame({"item": ["x", "y", "z", "w"], "n": [1000] * 4, "rate": [0.5] * 4,
                         "score_mean": [0.0, 0.0, 0.0, 5.0], "score_lo": [-1.0, -1.0, -1.0, 5.0],
                         "score_hi": [1.0, 1.0, 1.0, 5.0]})
OTHER = pd.DataFrame({"item": ["x", "y", "z", "w"], "n": [1000] * 4, "rate": [0.6, 0.52, 0.42, 0.5],
                      "score_mean": [3.0, 1.0, -2.0, 6.0], "score_lo": [2.0, 0.0, -3.0, 6.0],
                      "score_hi": [4.0, 2.0, -1.0, 6.0]})
# Measure by measure in column order, largest difference first.
EXPECTED_SIGNIFICANT = [("x", "rate", 0.1), ("z", "rate", -0.08), ("x", "score_mean", 3.0), ("z", "score_mean", -2.0)]


def test_significant_differences_worked_by_hand():
    comparison = compare_tables(BASELINE, OTHER)
    significant = significant_differences(comparison)
    assert list(zip(significant["item"], significant["measure"], significant["B - A"].round(6))) == \
        EXPECTED_SIGNIFICANT
    x_mean = significant.iloc[2]
    assert (x_mean["lo"], x_mean["hi"]) == pytest.approx((3 - np.sqrt(2), 3 + np.sqrt(2)))
    x_rate = significant.iloc[0]
    assert x_rate["lo"] == pytest.approx(0.1 - 0.043, abs=0.002) and x_rate["hi"] == pytest.approx(0.143, abs=0.002)


def test_comparison_report_highlights_and_sorts_the_differences(tmp_path, make_run):
    runs = [make_run(tmp_path / "a", 1, BASELINE), make_run(tmp_path / "b", 1, OTHER.iloc[::-1])]
    spec = {"rikken-bids": ReportSpec(tables={"summary": TableSpec(measures=(
        MeanMeasure("score_mean", "score_lo", "score_hi"),))})}
    text = build_report(runs, "html").text
    assert "summary: 4 of 8 compared values differ between run A and run B" in text
    assert "rate for item x: 50.0% in run A, 60.0% in run B (B - A 10.0" in text
    assert "score_mean for item x: 0 in run A, 3.00 in run B (B - A 3.00, 95% interval 1.59 to 4.41)" in text
    # The highlighted table first (two rows up, two down), then the same rows within all compared values.
    first = text[text.index("summary: run B against run A</h3>"):]
    first = first[:first.index("</table>")]
    rows = re.findall(r'<tr( class="(up|down)")?><td[^>]*>([a-z])</td><td[^>]*>([a-z_]+)</td>', first)
    assert [(item, measure, css) for _, css, item, measure in rows] == [
        ("x", "rate", "up"), ("z", "rate", "down"), ("x", "score_mean", "up"), ("z", "score_mean", "down")]
    assert text.count('<tr class="up">') == 4 and text.count('<tr class="down">') == 4
    # A spec can restrict the measures compared: then only the mean is.
    only_mean = build_report(runs, "html", spec).text
    assert "summary: 2 of 4 compared values differ" in only_mean


def test_report_of_different_experiments_has_no_comparison(sample_runs):
    a, b = sample_runs
    manifest = json.loads((b / "manifest.json").read_text())
    manifest["experiment"] = "seconds-play"
    (b / "manifest.json").write_text(json.dumps(manifest))
    text = build_report([a, b], "md").text
    assert "different experiments" in text and "against run A" not in text


def test_report_rejects_unknown_format(sample_runs):
    with pytest.raises(InputError):
        build_report(sample_runs[:1], "pdf")


def test_console_tables_read_alike_for_every_command():
    from analyzer.reports.formatting import console_table

    frame = pd.DataFrame({"policy": ["a", "b"], "games": [160.0, 0.0], "win_rate": [0.4375, np.nan],
                          "win_lo": [0.36325, np.nan], "win_hi": [0.5148, np.nan], "score": [37.6, np.nan],
                          "score_lo": [36.512, np.nan], "score_hi": [38.7, np.nan], "ratio": [1.0, 1e-5]})
    lines = console_table(frame).splitlines()
    assert lines[0].split() == ["policy", "games", "win_rate", "score", "ratio"]
    # a rate with its interval in percent, a mean with its bounds to the same decimals, counts as integers
    assert lines[1].split() == ["a", "160", "43.8%", "[36.3,", "51.5]", "37.6", "[36.5,", "38.7]", "1.000"]
    # an undefined value is a dash, never nan or NaN; no scientific notation
    assert lines[2].split() == ["b", "0", "–", "–", "0.000010"]
    assert "e-0" not in console_table(frame) and "nan" not in console_table(frame).lower()


def test_shares_and_probabilities_print_as_percentages_and_their_differences_in_points():
    """Seconds' paired ``win_diff`` of 0.335 [0.309, 0.361] (a difference of win shares) is 33.5 percentage
    points; a share or a probability is a rate, with or without its interval (hand-written cells)."""
    from analyzer.reports.formatting import console_table

    frame = pd.DataFrame({"pair": ["a-b"], "win_diff": [0.335], "win_diff_lo": [0.309], "win_diff_hi": [0.361],
                          "score_diff": [6.39], "score_diff_lo": [6.0], "score_diff_hi": [6.79],
                          "win_prob": [0.25], "win_lo": [0.2], "win_hi": [0.3], "close_better_share": [0.125]})
    assert console_table(frame, width=200).splitlines()[1].split() == [
        "a-b", "33.5", "pp", "[30.9,", "36.1]", "6.39", "[6.00,", "6.79]", "25.0%", "[20.0,", "30.0]", "12.5%"]
    # Schnapsen closing's shares of the worlds won by closing and by playing on; its counts stay counts.
    closing = pd.DataFrame({"n": [31], "close_win": [0.317], "playon_win": [0.546], "close_wins_a": [33]})
    assert console_table(closing).splitlines()[1].split() == ["31", "31.7%", "54.6%", "33"]


# Ranked by evidence, named only on enough items. Rates out of n (Wald half-widths, near enough to the
# score intervals for the order): p 0.50 -> 0.60 of 1,000 each, difference 0.10 +- about 0.043, so about
# 2.3 half-widths from zero; q 0.50 -> 0.80 of 40 each, 0.30 +- about 0.19 (1.6 half-widths): larger but
# less sure, so ranked after p; r 0/3 -> 3/3 excludes zero too, but on three items: never named.
SMALL_A = pd.DataFrame({"item": ["p", "q", "r"], "n": [1000, 40, 3], "rate": [0.5, 0.5, 0.0]})
SMALL_B = pd.DataFrame({"item": ["p", "q", "r"], "n": [1000, 40, 3], "rate": [0.6, 0.8, 1.0]})


def test_differences_are_ranked_by_evidence_and_need_a_minimum_sample():
    comparison = compare_tables(SMALL_A, SMALL_B)
    assert comparison.set_index("item").loc["r", "lo"] > 0  # excludes zero, on three items
    assert list(significant_differences(comparison)["item"]) == ["p", "q"]
    assert set(significant_differences(comparison, min_sample=1)["item"]) == {"p", "q", "r"}


def test_a_comparison_names_no_small_sample_row_and_points_to_a_paired_command(tmp_path, make_run):
    runs = [make_run(tmp_path / "a", 1, SMALL_A), make_run(tmp_path / "b", 1, SMALL_B)]
    spec = {"rikken-bids": ReportSpec(shared_deals=lambda a, b: f"same deals: pair {a.name} {b.name}")}
    text = build_report(runs, "html", spec).text
    assert "2 of 3 compared values differ" in text and "1 more exclude zero on fewer than 30 items" in text
    assert "rate for item p: 50.0% in run A" in text and "for item r" not in text
    assert "same deals: pair a b" in text
    assert text.count('<tr class="up">') == 4  # p and q, atop the Differences table and among all values


def test_report_of_several_runs_is_written_beside_them_not_here(tmp_path, make_run, monkeypatch, capsys):
    from analyzer.cli.app import main

    runs = tmp_path / "results"
    runs.mkdir()
    a, b = (make_run(runs / name, seed, table, "hand-built")
            for name, seed, table in (("a", 1, SMALL_A), ("b", 2, SMALL_B)))
    here = tmp_path / "elsewhere"
    here.mkdir()
    monkeypatch.chdir(here)
    with pytest.raises(SystemExit) as stop:
        main(["report", str(a), str(b)])
    assert stop.value.code == 0
    assert (runs / "compare-a-b.html").is_file() and list(here.iterdir()) == []
    assert capsys.readouterr().out.strip() == str(runs / "compare-a-b.html")


def test_the_stored_size_leaves_out_earlier_reports(tmp_path, make_run):
    run = make_run(tmp_path / "a", 1, SMALL_A)
    before = build_report([run], "html").text
    write_report(build_report([run], "md"), run / "report.md")
    (run / "report.html").write_text(before)
    stored = re.compile(r"<dt>stored</dt><dd>([^<]+)</dd>")
    assert stored.search(before) and stored.search(build_report([run], "html").text).group(1) == \
        stored.search(before).group(1)


def test_the_size_names_what_the_run_counted(tmp_path, make_run):
    run = make_run(tmp_path / "a", 1, SMALL_A)
    manifest = json.loads((run / "manifest.json").read_text())
    # A command that gave its size by default (advise) or as -n: the unit comes from the manifest's count.
    for argv, expected in ((["analyzer", "rikken", "advise", "N:AKQ2.T93.K4.J876"], "50,000 deals"),
                           (["analyzer", "rikken", "advise", "-n", "50000"], "50,000 deals")):
        (run / "manifest.json").write_text(json.dumps({**manifest, "argv": argv, "deals": 50_000,
                                                       "stages": {"run": {"n_items": 150_000}}}))
        assert f"<dt>size</dt><dd>{expected}</dd>" in build_report([run], "html").text
    # No count recorded: the experiment's unit from its spec.
    (run / "manifest.json").write_text(json.dumps({**manifest, "argv": ["analyzer", "rikken", "bids", "-n", "400"]}))
    spec = {"rikken-bids": ReportSpec(unit="deals")}
    assert "<dt>size</dt><dd>400 deals</dd>" in build_report([run], "html", spec).text


def test_a_mean_prints_apart_from_the_ends_of_its_interval():
    # Three significant digits of the typical magnitude (about 20) give one decimal: 17.4 [17.4, 17.4].
    money = pd.DataFrame({"option": ["a", "b"], "mean_money": [17.412, -22.5], "money_lo": [17.384, -22.9],
                          "money_hi": [17.443, -22.1]})
    assert formatted_columns(money)[1:] == [["17.41", "-22.50"], ["17.38", "-22.90"], ["17.44", "-22.10"]]
    assert "17.41 [17.38, 17.44]" in console_table(money)
    # Bounds that already print apart keep the column's decimals.
    wide = money.assign(money_lo=[15.0, -24.0], money_hi=[19.0, -21.0])
    assert formatted_columns(wide)[1] == ["17.4", "-22.5"]


def test_a_rate_whose_bound_rounds_onto_zero_or_one_hundred_shows_it_apart():
    # 0 of 8,000: Wilson's upper bound 0.048%; 8,000 of 8,000: lower bound 99.952%.
    rates = pd.DataFrame({"contract": ["13-alone", "pass"], "rate": [0.0, 1.0], "lo": [0.0, 0.99952],
                          "hi": [0.00048, 1.0]})
    table = console_table(rates)
    assert "0.00% [0.00, 0.05]" in table and "100.00% [99.95, 100.00]" in table
    assert "59.2% [59.0, 59.3]" in console_table(rates.assign(rate=[0.5921, 0.5], lo=[0.5902, 0.4], hi=[0.5934, 0.6]))
    # 7,999 of 8,000 (Wilson 99.929% to 99.998%) is not certain either, in a cell or in a sentence.
    nearly = rates.assign(rate=[0.5, 7999 / 8000], lo=[0.4, 0.99929], hi=[0.6, 0.999978])
    assert "99.988% [99.929, 99.998]" in console_table(nearly)
    assert format_percent(7999 / 8000) == "99.99%" and format_percent(0.99951) == "99.95%"
    # 34 of 34 with Wilson's own bounds reads as certain at the top, not 100.000000%
    from analyzer.reports.formatting import rate_with_interval
    from analyzer.reports.stats import wilson_interval
    assert rate_with_interval(1.0, *wilson_interval(34, 34)) == "100.0% (95% 89.8% to 100.0%)"


def test_percentages_and_interval_cells_round_a_half_as_sentences_do():
    # 49 of 400 is 12.25%: half away from zero everywhere, as fixed() rounds (format gave 12.2)
    assert format_percent(49 / 400) == "12.3%"
    cells = console_table(pd.DataFrame({"action": ["ST"], "expected_gp": [2.125], "gp_lo": [1.55], "gp_hi": [2.7]}))
    assert "2.13 [1.55, 2.70]" in cells


def test_report_tables_show_rates_as_the_terminal_does():
    """A report's table (Markdown and HTML) holds the terminal's cells: a rate in % with its interval in one
    cell, its bounds not apart, n as an integer; the HTML cell sorts by the rate itself."""
    from analyzer.reports.html_writer import HtmlWriter
    from analyzer.reports.markdown_writer import MarkdownWriter

    frame = pd.DataFrame({"contract": ["rik", "troela"], "n": [160, 68], "rate": [0.588, 0.8088],
                          "rate_lo": [0.510, 0.6999], "rate_hi": [0.661, 0.8847]})
    markdown = MarkdownWriter("files")
    markdown.table(frame, "summary")
    lines = markdown.parts[-1].splitlines()
    assert lines[0] == "| contract | n | rate |"
    assert lines[2:] == ["| rik | 160 | 58.8% [51.0, 66.1] |", "| troela | 68 | 80.9% [70.0, 88.5] |"]
    page = HtmlWriter()
    page.table(frame, "summary")
    assert "<th>rate_lo</th>" not in page.parts[-1] and "<th>n</th>" in page.parts[-1]
    assert '<td class=num data-v="0.588">58.8% [51.0, 66.1]</td>' in page.parts[-1]


def test_a_wide_console_table_prints_in_blocks_that_keep_the_row_names():
    from analyzer.reports.formatting import console_table

    frame = pd.DataFrame({"bot": ["heuristic", "random"], **{f"measure_{k}": [1000.0 + k, 2000.0 + k]
                                                             for k in range(12)}})
    text = console_table(frame)
    blocks = [block.splitlines() for block in text.split("\n\n")]
    assert len(blocks) >= 2 and max(len(line) for block in blocks for line in block) <= 80
    assert all(block[0].split()[0] == "bot" and block[1].split()[0] == "heuristic" for block in blocks)
    headers = [name for block in blocks for name in block[0].split()[1:]]
    assert headers == [f"measure_{k}" for k in range(12)]
    assert "\n\n" not in console_table(frame.iloc[:, :4])  # a table that fits stays whole


def test_wide_table_blocks_repeat_every_column_that_names_a_row():
    # A query by aces: the contract alone names no row, contract and aces do.
    frame = pd.DataFrame({"contract": ["rik"] * 3, "aces": [0, 1, 2],
                          **{f"measure_{k}": [1000.0 + k, 2000.0 + k, 3000.0 + k] for k in range(12)}})
    blocks = [block.splitlines() for block in console_table(frame).split("\n\n")]
    assert len(blocks) >= 2
    assert all(block[0].split()[:2] == ["contract", "aces"] for block in blocks)
    assert all([line.split()[1] for line in block[1:]] == ["0", "1", "2"] for block in blocks)
    assert console_table(frame.iloc[:0]) == "(no rows)"


def test_bounds_columns_are_shown_only_when_some_row_is_bounded(tmp_path, make_run):
    # a heuristic run bounds nothing: its mean_score_high repeats mean_score, and the report leaves it out
    def summary(bounded):
        return pd.DataFrame({"contract": ["rik", "misery"], "n": [10, 10], "mean_score": [1.5, -2.0],
                             "bounded": [bounded, 0], "mean_score_high": [1.5 + bounded, -2.0],
                             "mean_points_high": [0.5, 0.25]})

    idle = build_report([make_run(tmp_path / "a", 1, summary(0))], "md")
    assert "high end" not in idle.text and "bounded" not in idle.text.split("## Tables")[-1]
    assert "| money/hand |" in idle.text
    some = build_report([make_run(tmp_path / "b", 1, summary(3))], "md")
    assert "| money/hand, high end | points/hand, high end |" in some.text


def test_an_interval_is_one_cell_and_one_glossary_entry(tmp_path, make_run):
    """Rikken play's share of rounds with its bounds: one cell in % as the findings and the chart write it
    (0.376 of the rounds is 37.6%), and one glossary entry that names the bounds the CSV keeps apart."""
    summary = pd.DataFrame({"contract": ["rik", "troela"], "declared": [376, 152], "per_round": [0.376, 0.152],
                            "per_round_lo": [0.3465, 0.1311], "per_round_hi": [0.4064, 0.1756]})
    run = make_run(tmp_path / "play", 3, summary, experiment="rikken-play")
    spec = ReportSpec(glossary={"per_round": "share of the rounds it was declared in"})
    text = build_report([run], "html", {"rikken-play": spec}).text
    assert re.findall(r"<td[^>]*>([^<]*%[^<]*)</td>", text) == ["37.6% [34.7, 40.6]", "15.2% [13.1, 17.6]"]
    glossary = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", text))
    assert glossary["share of rounds"] == ("share of the rounds it was declared in (CSV column per_round); in "
                                           "brackets its 95% interval (in the CSV per_round_lo and per_round_hi)")
    assert "per_round_lo" not in glossary and "per_round_hi" not in glossary


def test_hidden_columns_stay_in_the_csv_only(tmp_path, make_run):
    """A distribution's columns a chart draws (advise's ``p_tricks_*``) are left out of the shown table, which
    says so, and kept in its CSV."""
    summary = pd.DataFrame({"option": ["rik-S", "pass"], "n": [10, 10], "p_tricks_0": [0.1, 0.0],
                            "p_tricks_1": [0.9, 1.0]})
    run = make_run(tmp_path / "advise", 3, summary, experiment="rikken-advise")
    spec = ReportSpec(tables={"summary": TableSpec(hidden=("p_tricks_",))})
    text = build_report([run], "html", {"rikken-advise": spec}).text
    heads = re.findall(r"<th>([^<]+)</th>", text)
    assert "option" in heads and "deals" in heads and not [h for h in heads if h.startswith("p tricks")]
    assert "p_tricks_0, p_tricks_1 only in the CSV" in text
    [csv] = re.findall(r'href="data:text/csv;base64,([^"]+)"', text)
    assert base64.b64decode(csv).decode().splitlines()[0] == "option,n,p_tricks_0,p_tricks_1"


def test_a_comparison_names_a_rate_in_percent_and_its_difference_in_points(tmp_path, make_run):
    """500 of 1,000 against 800 of 1,000: 50.0% and 80.0%, B - A 30.0 percentage points, its bounds those of
    Newcombe's interval (computed apart, in points); a mean stays as it is."""
    runs = [make_run(tmp_path / name, seed, pd.DataFrame({"contract": ["rik"], "n": [1000], "rate": [rate],
                                                          "mean_score": [score]}))
            for name, seed, rate, score in (("a", 1, 0.5, 1.0), ("b", 2, 0.8, 1.0))]
    text = build_report(runs, "html").text
    _, low, high = difference_of_proportions(500, 1000, 800, 1000)
    assert (f"rate for contract rik: 50.0% in run A, 80.0% in run B (B - A 30.0 pp, 95% interval "
            f"{format_number(100 * low)} to {format_number(100 * high)} pp).") in text


def test_a_column_of_sentences_wraps_and_codes_stay_whole(tmp_path, make_run):
    """Advise's ``play`` column (a sentence over 30 characters) may wrap; ``option`` codes (hyphenated) and
    numbers keep one line."""
    summary = pd.DataFrame({"option": ["open-1-alone-all", "rik-beter"], "n": [10, 10],
                            "play": ["no trumps", "hearts trumps, calls DA; Rik in hearts, bid one step higher"]})
    text = build_report([make_run(tmp_path / "advise", 3, summary, experiment="rikken-advise")], "html").text
    assert re.findall(r'<td class=wrap data-v="([^"]+)"', text) == [
        "no trumps", "hearts trumps, calls DA; Rik in hearts, bid one step higher"]
    assert '<td data-v="open-1-alone-all">' in text and "td.wrap{white-space:normal" in text


@pytest.mark.parametrize("values, text", [
    ((1.0, -0.0735, 2.07), "1.00 (95% -0.07 to 2.07)"),  # was 1.00 (95% -0.0735 to 2.07)
    ((7.41, 7.38, 7.44), "7.41 (95% 7.38 to 7.44)"),
    ((7.4132, 7.4101, 7.4163), "7.413 (95% 7.410 to 7.416)"),  # 7.41 would read as its low bound
    ((0.242, 0.205, 0.278), "0.242 (95% 0.205 to 0.278)"),
    ((1234.4, 1180.2, 1288.9), "1,234 (95% 1,180 to 1,289)"),
    ((1.0, float("nan"), float("nan")), "1.00 (95% n/a to n/a)"),
])
def test_a_mean_and_its_bounds_share_their_decimals_in_a_sentence(values, text):
    assert mean_with_interval(*values) == text
