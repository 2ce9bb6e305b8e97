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


HEAVY = ("numpy", "pydantic", "numba", "pandas", "sklearn", "matplotlib", "dask", "duckdb", "pyarrow")


def _leaf_commands(command, path):
    ctx = command.context_class(command, info_name=path[-1])
    names = command.list_commands(ctx) if hasattr(command, "list_commands") else []
    if not names or path == ["runs"]:  # `runs` both lists runs and holds sub-commands
        yield path
    for name in names:
        yield from _leaf_commands(command.get_command(ctx, name), [*path, name])


def test_every_command_help_loads_no_game():
    """``analyzer CMD --help`` for every command, each in a fresh process started as a user starts it
    (``python -m analyzer``): none imports numpy, numba, pandas or another heavy library, nor pydantic (typer
    coerces an option's value through it), not even under ``runs``, whose own ``--root`` is processed first."""
    commands = [path for name in _COMMANDS for path in _leaf_commands(_COMMANDS[name][0](), [name])]
    assert len(commands) >= 19 and ["rikken", "bids"] in commands and ["rikken", "strategy", "fit"] in commands
    probe = ("import runpy, sys\nsys.argv = ['analyzer', *sys.argv[1:], '--help']\ntry:\n"
             "    runpy.run_module('analyzer', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             f"print('loaded:', sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))")
    loaded = {}
    for path in commands:
        done = subprocess.run([sys.executable, "-c", probe, *path], capture_output=True, text=True, check=True)
        assert "Usage: analyzer " + " ".join(path) in done.stdout, (path, done.stderr)
        loaded[" ".join(path)] = done.stdout.splitlines()[-1]
    assert loaded == {page: "loaded: []" for page in loaded}


def test_the_registries_are_built_from_the_catalog():
    """Every name, default and limit ``--help`` shows (``analyzer.catalog``) is the one the games use: each
    registry takes them from the catalog, and every bot named there has code."""
    from analyzer import catalog
    from analyzer.experiments import backends
    from analyzer.games.rikken import bots as rikken_bots
    from analyzer.games.rikken import dd as rikken_dd
    from analyzer.games.rikken import experiments as rikken_experiments
    from analyzer.games.schnapsen import advice, play, rollout_bot, search
    from analyzer.games.seconds import policies
    from analyzer.solvers.dd import api

    assert backends.MAX_WORKERS is catalog.MAX_WORKERS
    assert catalog.RIKKEN_BOTS == {name: bot.help for name, bot in rikken_bots.BOTS.items()}
    assert (rikken_bots.DEFAULT_WORLDS, rikken_bots.MAX_WORLDS) == (catalog.RIKKEN_DEFAULT_WORLDS,
                                                                    catalog.RIKKEN_MAX_WORLDS)
    assert (rikken_experiments.DEALINGS, rikken_experiments.CONSTRAINT_OPTIONS) == (
        catalog.RIKKEN_DEALINGS, catalog.RIKKEN_CONSTRAINT_OPTIONS)
    assert (rikken_dd.DEFAULT_BUDGET, api.MAX_BUDGET) == (catalog.DD_DEFAULT_BUDGET, catalog.DD_MAX_BUDGET)
    assert catalog.SCHNAPSEN_BOTS == {name: (kind.sampling, kind.honest, kind.help) for name, kind in play.BOTS.items()}
    assert len({kind.policy for kind in play.BOTS.values()}) == len(play.BOTS)
    assert (advice.DEFAULT_BOT, advice.DEFAULT_WORLDS) == (catalog.SCHNAPSEN_ADVICE_BOT, catalog.SCHNAPSEN_ADVICE_WORLDS)
    assert (search.DEFAULT_SAMPLES, rollout_bot.PLAYOUTS_PER_SAMPLE) == (catalog.SCHNAPSEN_SAMPLES,
                                                                         catalog.SCHNAPSEN_PLAYOUTS_PER_SAMPLE)
    assert (policies.POLICY_NAMES, policies.PARAM_NAMES) == (catalog.SECONDS_POLICIES, catalog.SECONDS_PARAMS)


def test_a_long_table_title_wraps_to_80_columns(capsys):
    import pandas as pd

    from analyzer.cli.running import print_table

    title = ("Rikken bids: 400 deals, 1,600 hands, policy heuristic, dealing random (rates with 95% Wilson "
             "intervals)")
    print_table(pd.DataFrame({"contract": ["rik"], "n": [3]}), title)
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= 80 and " ".join(lines[:2]) == title + ":"
