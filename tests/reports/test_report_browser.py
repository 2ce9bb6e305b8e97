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


# Rows of a `rikken advise` run's advice.csv (seed 7, 2,000 deals, the README's hand AKQT86.A2.K73.95): its widest cells,
# the play sentence, the longest option and target, money in the tens with intervals.
ADVICE_CSV = """option,contract,play,n,made,rate,rate_lo,rate_hi,bounded,mean_points,points_lo,points_hi,mean_points_high,\
mean_money,money_lo,money_hi,mean_money_high,money_vs_best,vs_best_lo,vs_best_hi,p_tricks_0,p_tricks_1,target
rik-S,Rik,"spades trumps, calls DA",2000,1991,0.9955,0.991469,0.997631,0,3.1475,3.102607,3.192393,3.1475,\
3.1385,3.092039,3.184961,3.1385,0.0,0.0,0.0,0.0,0.0,>= 8 tricks
pass,Pass,no contract: every seat scores 0,2000,0,,,,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,-3.1385,-3.184961,\
-3.092039,,,-
rik-beter,Rik Beter,"hearts trumps, calls DA; Rik in hearts, bid one step higher",2000,815,0.4075,0.386162,\
0.429192,0,0.7395,0.692171,0.786829,0.7395,-1.036,-1.148736,-0.923264,-1.036,-4.1745,-4.286023,-4.062977,0.0,\
0.0,>= 8 tricks
1-alone,1 Alone,no trumps,2000,44,0.022,0.016429,0.029404,0,0.11,0.077849,0.142151,0.11,-14.34,-14.532905,\
-14.147095,-14.34,-17.4785,-17.67766,-17.27934,0.0,0.022,exactly 1 trick
open-1-alone,Open 1 Alone,no trumps,2000,1,0.0005,8.8e-05,0.002827,0,0.005,-0.0048,0.0148,0.005,-29.97,\
-30.028799,-29.911201,-29.97,-33.1085,-33.183546,-33.033454,0.0,0.0005,exactly 1 trick
open-13-alone-S,Open 13 Alone,spades trumps,2000,0,0.0,0.0,0.001917,0,0.0,0.0,0.0,0.0,-76.5435,-76.640924,\
-76.446076,-76.5435,-79.682,-79.776141,-79.587859,0.0,0.0,>= 13 tricks
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
