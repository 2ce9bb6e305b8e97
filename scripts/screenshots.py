"""Every page of output as a person sees it: each command's terminal output captured at 80 and 120 columns
in a tmux pane, and each report screenshotted in headless Chromium at a desktop and a phone width.

    .venv/bin/python scripts/screenshots.py [--out /tmp/analyzer-pages] [--only schnapsen] [--seed 7]

Run by hand (not in CI): it runs a small run of every command that writes a report, and the commands that
only print, in ``OUT/runs-<width>/`` (one folder per terminal width, the same seeds; runs under its
``results/``), writes each run's report and the comparison of two ``rikken bids`` runs, and saves

- ``OUT/terminal-<width>/<step>.txt``: what the pane showed (stdout and stderr, wrapped lines joined), with
  the command and its exit code on the first line;
- ``OUT/shots/<report>-desktop.png`` and ``-phone.png``: the whole page at 1280 px and at 390 px.

It prints one line per page: exit codes, lines wider than the terminal, and a report's broken images, script
errors, horizontal overflow (the page, or a table in its frame, wider than the window) and the
machine's paths (the work folder's) seen in its text. Needs tmux and Chromium (Debian: ``apt-get install
tmux chromium``). The first run compiles every game's kernels (minutes); the numba cache is the code
digest's, as under ``analyzer``.
"""

import argparse
import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from browser_probe import check_in_browser, find_browser  # noqa: E402

WIDTHS = (80, 120)
PAGE_WIDTHS = {"desktop": 1280, "phone": 390}
HAND = "AKQT86.A2.K73.95"
DEAL = "N:AKQT86.A2.K73.95 J32.KQJ5.Q84.AK2 974.T987.AJ2.QJ8 5.643.T965.T7643"
FIRST_LEAD = "hand0=HJ SA SK SQ CJ; hand1=?; stock=? ? ? ? ? ? ? ? ? HA; leader=0"


def steps(seed: int) -> list[tuple[str, list[str]]]:
    """The commands in order, each named, run as a newcomer runs them: in one folder, each run under
    ``results/`` (a later step reads an earlier step's run). Sizes are small: the pages, not the numbers, are
    what is looked at."""
    s, runs = str(seed), "results"
    return [
        ("rikken-deal", ["rikken", "deal", "-n", "3", "--seed", s]),
        ("rikken-solve", ["rikken", "solve", DEAL]),
        ("rikken-replay", ["rikken", "replay", DEAL]),
        ("rikken-bids", ["rikken", "bids", "--deals", "4000", "--seed", s, "--out", f"{runs}/bids"]),
        ("rikken-bids-random", ["rikken", "bids", "--deals", "1000", "--seed", s, "--policy", "random",
                                "--out", f"{runs}/bids-random"]),
        ("rikken-strategy-fit", ["rikken", "strategy", "fit", f"{runs}/bids", "--max-hands", "8000",
                                 "--max-iter", "30", "--threads", "1", "--seed", s]),
        ("rikken-play", ["rikken", "play", "--rounds", "1000", "--seed", s, "--out", f"{runs}/play"]),
        ("rikken-advise", ["rikken", "advise", HAND, "--deals", "2000", "--seed", s, "--out", f"{runs}/advise"]),
        ("schnapsen-match", ["schnapsen", "match", "--matches", "30", "--seed", s, "--out", f"{runs}/match"]),
        ("schnapsen-closing", ["schnapsen", "closing", "--deals", "6", "--seed", s, "--out", f"{runs}/closing"]),
        ("schnapsen-advise", ["schnapsen", "advise", FIRST_LEAD, "--seed", s, "--out", f"{runs}/schnapsen-advise"]),
        ("seconds-play", ["seconds", "play", "--players", "4", "--games", "100", "--seed", s,
                          "--out", f"{runs}/seconds"]),
        ("seconds-variants", ["seconds", "variants", "--players", "4", "--deals", "500", "--seed", s,
                              "--out", f"{runs}/variants"]),
        ("runs", ["runs"]),
        ("runs-show", ["runs", "show", f"{runs}/bids"]),
        ("query", ["query", f"{runs}/bids", "--contract", "rik", "--by", "aces"]),
        *((f"report-{name}", ["report", f"{runs}/{name}"])
          for name in ("bids", "play", "advise", "match", "closing", "schnapsen-advise", "seconds", "variants")),
        ("report-compare", ["report", f"{runs}/bids", f"{runs}/bids-random"]),
    ]


class Pane:
    """A private tmux server whose panes stay after their command ends, with a long history."""

    def __init__(self, folder: Path):
        subprocess.run(["tmux", "-S", str(folder / "tmux.sock"), "kill-server"], capture_output=True)
        self.socket = str(folder / "tmux.sock")
        conf = folder / "tmux.conf"
        conf.write_text("set -s exit-empty off\nset -g history-limit 100000\nset -g remain-on-exit on\n"
                        "set -g remain-on-exit-format ''\n")
        self.conf = str(conf)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, "-f", self.conf, *args], capture_output=True,
                              text=True, check=True).stdout

    def run(self, name: str, command: str, width: int, timeout: float) -> tuple[str, int | None]:
        """What a ``width``-column pane shows after ``command`` (joined lines) and its exit code (None when it
        ran past ``timeout`` seconds and was stopped)."""
        status = Path(self.socket).with_name(f"{name}.status")
        status.unlink(missing_ok=True)
        self.tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", "50",
                  f"{command}; echo $? > {shlex.quote(str(status))}")  # tmux's pane_dead_status is not always set
        start, code = time.monotonic(), None
        while time.monotonic() - start < timeout:
            if status.exists() and status.read_text().strip():
                code = int(status.read_text())
                break
            time.sleep(1)
        text = self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", name)
        self.tmux("kill-session", "-t", name)
        return "\n".join(line.rstrip() for line in text.rstrip().splitlines()) + "\n", code

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def wide_lines(text: str, width: int) -> list[str]:
    """The lines of ``text`` longer than ``width`` characters (the pane wrapped them)."""
    return [line for line in text.splitlines() if len(line.rstrip()) > width]


def report_files(runs: Path) -> list[Path]:
    """Every HTML report under ``runs``, in name order."""
    return sorted(runs.glob("results/*/report.html")) + sorted(runs.glob("results/compare-*.html"))


def machine_paths(report: Path, work: Path) -> list[str]:
    """Absolute paths of this machine in the report's visible text (the work folder's, the user's home)."""
    text = re.sub(r"<[^>]+>", " ", re.sub(r'src="data:[^"]*"', "", report.read_text()))
    marks = {str(work), str(Path.home()) + "/", "/tmp/"}
    return sorted({line.strip()[:100] for line in text.splitlines() if any(m in line for m in marks)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "analyzer-pages")
    parser.add_argument("--only", default="", help="run only the steps whose name contains this")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one command may take")
    options = parser.parse_args()
    browser = find_browser()
    if browser is None:
        sys.exit("error: no Chromium on the PATH (Debian: apt-get install chromium)")
    out = options.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    pane = Pane(out)
    env = f"env -u COLUMNS -u LINES PYTHONPATH={shlex.quote(str(ROOT))}"
    try:
        for width in WIDTHS:
            runs, texts = out / f"runs-{width}", out / f"terminal-{width}"
            texts.mkdir(exist_ok=True)
            for name, args in steps(options.seed):
                if options.only not in name:
                    continue
                runs.mkdir(exist_ok=True)
                command = " ".join(map(shlex.quote, ["python", "-m", "analyzer", *args]))
                started = time.monotonic()
                text, code = pane.run(name, f"cd {shlex.quote(str(runs))} && {env} {shlex.quote(sys.executable)} "
                                      f"-m analyzer {' '.join(map(shlex.quote, args))}", width, options.timeout)
                (texts / f"{name}.txt").write_text(f"$ {command}  # exit {code}\n{text}")
                wide = wide_lines(text, width)
                print(f"{width:>3} cols  {name:<24} exit {code}  {time.monotonic() - started:6.1f} s  "
                      f"{len(text.splitlines()):4d} lines  {len(wide)} wider than {width}", flush=True)
                for line in wide:
                    print(f"          {len(line)}: {line[:140]}")
    finally:
        pane.close()
    shots = out / "shots"
    shots.mkdir(exist_ok=True)
    runs = out / f"runs-{WIDTHS[-1]}"
    for report in report_files(runs):
        name = report.parent.name if report.name == "report.html" else "compare"
        if options.only and options.only not in f"report-{name}":
            continue
        for kind, px in PAGE_WIDTHS.items():
            found = check_in_browser(report, shots / f"{name}-{kind}.png", width=px, browser=browser)
            print(f"report {name:<18} {kind:<8} {px:>5} px  images {found['images']}  broken {found['broken']}  "
                  f"errors {found['errors']}  page {found['width']} x {found['height']} px  "
                  f"tables scrolling sideways {found['wide_tables']}"
                  + ("  WIDER THAN THE WINDOW" if found["width"] > px else ""), flush=True)
        paths = machine_paths(report, out)
        if paths:
            print(f"report {name}: paths of this machine: {json.dumps(paths)}")
    print(f"terminal captures in {out}/terminal-*/, screenshots in {shots}/")


if __name__ == "__main__":
    main()
