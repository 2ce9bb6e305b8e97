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
