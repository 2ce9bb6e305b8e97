"""Reports in a real browser: headless Chromium opens a rendered report offline, every image must load and
the console must stay free of errors; a screenshot is saved to look at.

Skipped, saying so, where no Chromium is installed (Debian: ``apt-get install chromium``). The probe itself
is ``scripts/browser_probe.py`` (also a script that checks one report and saves its screenshot).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from browser_probe import check_in_browser, find_browser  # noqa: E402

needs_browser = pytest.mark.skipif(find_browser() is None, reason="no Chromium on the PATH: install it (Debian: "
                                   "apt-get install chromium) to check reports in a real browser")


@needs_browser
def test_report_loads_every_image_without_console_errors(tmp_path, sample_runs):
    from analyzer.reports.report import build_report, write_report

    for name, runs in (("single", sample_runs[:1]), ("comparison", sample_runs)):
        out = write_report(build_report(runs, "html"), tmp_path / f"{name}.html")
        shot = tmp_path / f"{name}.png"
        result = check_in_browser(out, shot, height=1200)
        assert result["images"] == 1 * len(runs)
        assert result["broken"] == [] and result["errors"] == []
        assert shot.stat().st_size > 1000


@needs_browser
def test_the_browser_check_catches_a_broken_image_and_a_script_error(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><head></head><body><img alt="gone" src="data:image/png;base64,AAAA">'
                    "<script>undefinedFunction();</script></body></html>")
    result = check_in_browser(page)
    assert result["broken"] == ["gone"]
    assert any("undefinedFunction" in error for error in result["errors"])


@needs_browser
def test_a_phone_width_page_is_laid_out_that_wide(tmp_path, sample_runs):
    """Below Chromium's narrowest window the report is laid out in a frame as wide as a phone: the page
    measures 390 px (not the window's 500) and so does its screenshot; the probe still reports."""
    from PIL import Image

    from analyzer.reports.report import build_report, write_report

    out = write_report(build_report(sample_runs[:1], "html"), tmp_path / "phone.html")
    shot = tmp_path / "phone.png"
    result = check_in_browser(out, shot, width=390)
    assert result["width"] == 390 and result["images"] == 1 and result["errors"] == []
    assert result["wide_tables"] == 0
    with Image.open(shot) as image:
        assert image.width == 390


# Rows of a `rikken advise` run's advice.csv (seed 0, 200 deals, hand AKQJ.T98.765.432 at N): its widest cells,
# the play sentence, the longest option and target, money in the tens with intervals.
ADVICE_CSV = """option,contract,play,n,made,rate,rate_lo,rate_hi,bounded,mean_points,points_lo,points_hi,\
mean_points_high,mean_money,money_lo,money_hi,mean_money_high,money_vs_best,vs_best_lo,vs_best_hi,p_tricks_0,p_tricks_1,\
target
pass,Pass,no contract: every seat scores 0,200,0,,,,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,-
rik-beter,Rik Beter,"hearts trumps, calls CA; Rik in hearts, bid one step higher",200,73,0.365,0.3014,0.4337,0,0.63,\
0.4922,0.7678,0.63,-1.63,-2.0118,-1.2482,-1.63,-1.63,-2.0118,-1.2482,0.0,0.0,>= 8 tricks
open-1-alone,Open 1 Alone,no trumps,200,1,0.005,0.0009,0.0278,0,0.05,-0.048,0.148,0.05,-29.7,-30.288,-29.112,-29.7,\
-29.7,-30.288,-29.112,0.0,0.005,exactly 1 trick
open-1-alone-all,Open 1 Alone All,no trumps,200,0,0.0,0.0,0.0188,0,0.0,0.0,0.0,0.0,-45.0,-45.0,-45.0,-45.0,-45.0,\
-45.0,-45.0,0.0,0.0,exactly 1 trick
open-13-alone-S,Open 13 Alone,spades trumps,200,0,0.0,0.0,0.0188,0,0.0,0.0,0.0,0.0,-86.325,-86.5134,-86.1366,-86.325,\
-86.325,-86.5134,-86.1366,0.0,0.0,>= 13 tricks
"""


@needs_browser
def test_the_rikken_advice_table_fits_a_desktop_page(tmp_path, make_run):
    """The advise report's table, with the columns its spec shows (as the terminal's: not the contract, which
    repeats the option, the made count or the points), does not scroll sideways at 1280 px."""
    import pandas as pd

    from analyzer.cli.catalog import REPORT_SPECS
    from analyzer.reports.report import build_report

    run = make_run(tmp_path / "advise", 0, pd.DataFrame({"x": [1]}), experiment="rikken-advise")
    (run / "summary.csv").unlink()
    (run / "advice.csv").write_text(ADVICE_CSV)
    text = build_report([run], "html", {"rikken-advise": REPORT_SPECS["rikken-advise"]}).text
    assert "contract, made, mean_points, points_lo, points_hi, p_tricks_0, p_tricks_1 only in the CSV" in text
    out = tmp_path / "advise.html"
    out.write_text(text)
    result = check_in_browser(out, tmp_path / "advise.png", width=1280)
    assert result["errors"] == [] and result["wide_tables"] == 0
