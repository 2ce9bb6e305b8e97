"""Help as a person reads it: plain text without markup noise on every page, and the root's help at once."""

import re
import subprocess
import sys

import typer

from analyzer.cli.app import _COMMANDS, app

# RST roles and literals, typer's type labels (``<bool>`` on a flag, ``<int range>``), braces round arguments.
NOISE = re.compile(r"``|:class:|:func:|<bool>|<str>|<int|<float|<list|<path|<Path>|\{[A-Za-z_]+\}")


def _pages(command, path):
    ctx = command.context_class(command, info_name=" ".join(path), terminal_width=80)
    yield " ".join(path), command.get_help(ctx)
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            yield from _pages(command.get_command(ctx, name), [*path, name])


def test_every_help_page_is_plain_text_within_80_columns():
    pages = dict(_pages(typer.main.get_command(app), ["analyzer"]))
    assert len(pages) >= 20 and "analyzer rikken bids" in pages
    noisy = [(page, line) for page, text in pages.items() for line in text.splitlines()
             if NOISE.search(line) or len(line) > 80]
    assert noisy == []
    assert "Usage: analyzer rikken compare [OPTIONS] RUN_A RUN_B" in pages["analyzer rikken compare"]
    assert "--json  " in pages["analyzer rikken compare"]


def test_the_root_lists_each_command_with_its_own_words():
    for name, (load, summary) in _COMMANDS.items():
        assert load().get_short_help_str(limit=1000).startswith(summary.rstrip(".")), name


def test_root_help_loads_no_command_and_offers_completion():
    code = ("import sys\nfrom analyzer.cli.app import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'pandas', 'numpy', 'rich')"
            " or m.startswith(('analyzer.games', 'analyzer.cli.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[-1] == "['analyzer.cli.app']"
    assert any(line.split()[:1] == ["schnapsen"] for line in lines) and "--install-completion" in done.stdout
