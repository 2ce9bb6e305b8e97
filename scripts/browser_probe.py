"""The reports' browser probe: headless Chromium opens a rendered report offline and says whether every image
loaded, which script or console errors it saw, and how wide and tall the page is; it can save a screenshot.
Shared by ``scripts/screenshots.py`` and ``tests/reports/test_report_browser.py``.

    .venv/bin/python scripts/browser_probe.py REPORT.html SHOT.png [WIDTH HEIGHT]

Needs Chromium (Debian: ``apt-get install chromium``).
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
# Injected first into the page's <head>: records errors and console.error calls, and after the load event
# writes what it saw (images that did not load, errors) into the DOM, which --dump-dom prints.
PROBE = """<script>
window.__errors = [];
window.addEventListener('error', function (e) { window.__errors.push('error: ' + (e.message || e.target.src)); }, true);
window.addEventListener('unhandledrejection', function (e) { window.__errors.push('rejection: ' + e.reason); });
var __consoleError = console.error;
console.error = function () { window.__errors.push('console: ' + Array.prototype.join.call(arguments, ' '));
  __consoleError.apply(console, arguments); };
window.addEventListener('load', function () {
  var images = Array.prototype.slice.call(document.images);
  var broken = images.filter(function (img) { return !img.complete || img.naturalWidth === 0; })
                     .map(function (img) { return img.alt; });
  var out = document.createElement('pre');
  out.id = '__probe';
  out.textContent = JSON.stringify({images: images.length, broken: broken, errors: window.__errors,
                                    height: document.documentElement.scrollHeight,
                                    width: document.documentElement.scrollWidth,
                                    wide_tables: Array.prototype.filter.call(document.querySelectorAll('.tablewrap'),
                                      function (w) { return w.scrollWidth > w.clientWidth + 1; }).length});
  document.body.appendChild(out);
  if (window.parent !== window) { window.parent.postMessage(out.textContent, '*'); }
});
</script>"""
#: Headless Chromium's narrowest window (px): a narrower page (a phone's) is laid out in a frame that wide.
NARROWEST = 500
# The page holding such a frame: it writes the frame's probe message into its own DOM.
FRAME = """<!DOCTYPE html><html><head><style>body{{margin:0}}iframe{{border:0;display:block}}</style></head>
<body><iframe src="{src}" width="{width}" height="{height}"></iframe><script>
window.addEventListener('message', function (e) {{ var out = document.createElement('pre'); out.id = '__probe';
  out.textContent = e.data; document.body.appendChild(out); }});
</script></body></html>"""


def find_browser() -> str | None:
    """The first Chromium-like browser on the PATH, or None."""
    return next((path for path in map(shutil.which, BROWSERS) if path), None)


def _run(browser: str, args: list[str], timeout: float = 120) -> str:
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--no-first-run", "--hide-scrollbars", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True).stdout


def check_in_browser(report: Path, screenshot: Path | None = None, width: int = 1400,
                     height: int | None = None, browser: str | None = None) -> dict:
    """Open ``report`` in headless Chromium and say what loaded.

    Parameters
    ----------
    report : Path
        An HTML report.
    screenshot : Path, optional
        Where to save a PNG screenshot of the page (``height`` tall, default the whole page up to
        16,000 px).
    width, height : int
        The window size in CSS pixels; a page narrower than Chromium's narrowest window (500 px) is laid
        out in a frame ``width`` wide and its screenshot cut to that width.
    browser : str, optional
        The browser executable (default: :func:`find_browser`).

    Returns
    -------
    dict
        ``images`` (count), ``broken`` (alt texts of images that did not load), ``errors`` (script
        errors and console errors), ``height`` (page height in px).
    """
    browser = browser or find_browser()
    report = Path(report).resolve()
    text = report.read_text()
    probed = report.with_name(report.stem + ".probe.html")
    probed.write_text(re.sub(r"<head>", "<head>" + PROBE, text, count=1))
    framed = report.with_name(report.stem + ".frame.html")
    try:
        dom = _run(browser, [f"--window-size={max(width, NARROWEST)},900", "--virtual-time-budget=5000",
                             "--dump-dom", _page(probed, framed, width, 900)])
        found = re.search(r'<pre id="__probe">(.*?)</pre>', dom, re.DOTALL)
        if found is None:
            raise AssertionError("the page never finished loading (no probe output)")
        result = json.loads(found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                            .replace("&amp;", "&"))
        if screenshot is not None:
            tall = height or min(16_000, int(result["height"]) + 20)
            _run(browser, [f"--window-size={max(width, NARROWEST)},{tall}", "--virtual-time-budget=5000",
                           f"--screenshot={Path(screenshot).resolve()}", _page(report, framed, width, tall)])
            if width < NARROWEST:
                from PIL import Image

                with Image.open(screenshot) as shot:
                    shot.crop((0, 0, width, shot.height)).save(screenshot)
    finally:
        probed.unlink()
        framed.unlink(missing_ok=True)
    return result


def _page(report: Path, framed: Path, width: int, height: int) -> str:
    """The address to open: the report's own, or below Chromium's narrowest window that of a page holding it
    in a frame ``width`` wide (written to ``framed``)."""
    if width >= NARROWEST:
        return report.as_uri()
    framed.write_text(FRAME.format(src=report.name, width=width, height=height))
    return framed.as_uri()


if __name__ == "__main__":
    size = [int(v) for v in sys.argv[3:5]]
    print(json.dumps(check_in_browser(Path(sys.argv[1]), Path(sys.argv[2]), *size)))
