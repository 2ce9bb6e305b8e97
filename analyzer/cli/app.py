"""The root ``analyzer`` command; turns bad input into one-line errors with exit code 2."""

import sys
from collections.abc import Callable
from functools import cache
from typing import Annotated

import typer
from typer.core import TyperGroup

from analyzer import __version__
from analyzer.errors import InputError


@cache
def _rikken() -> object:
    from analyzer.cli import rikken, rikken_advise, rikken_replay, rikken_strategy

    rikken.app.command("advise")(rikken_advise.advise)
    rikken.app.command("replay")(rikken_replay.replay)
    rikken.app.add_typer(rikken_strategy.app, name="strategy")
    return typer.main.get_command(rikken.app)


def _group(module: str) -> Callable[[], object]:
    @cache
    def load() -> object:
        from importlib import import_module

        return typer.main.get_command(import_module(f"analyzer.cli.{module}").app)
    return load


def _runs_command(name: str) -> Callable[[], object]:
    @cache
    def load() -> object:
        from analyzer.cli import runs

        single = typer.Typer(add_completion=False)
        single.command(name)(getattr(runs, name))
        return typer.main.get_command(single)
    return load


#: the root's commands in the order ``--help`` lists them, each imported only when named
_COMMANDS: dict[str, Callable[[], object]] = {
    "rikken": _rikken, "schnapsen": _group("schnapsen"), "seconds": _group("seconds"), "runs": _group("runs"),
    "resume": _runs_command("resume"), "report": _runs_command("report"), "query": _runs_command("query")}


class _LazyRoot(TyperGroup):
    """The root group: a command's module (its game, numba, pandas) is imported when the command is named,
    so ``analyzer --version`` answers without loading any game."""

    def list_commands(self, ctx: object) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: object, name: str) -> object:
        load = _COMMANDS.get(name)
        if load is None:
            return None
        command = load()
        command.name = name  # a sub-app's group is built without the name the root gives it
        return command


app = typer.Typer(cls=_LazyRoot, help="Monte Carlo strategy analyzer for trick-taking card games.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"analyzer {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    """Monte Carlo strategy analyzer for trick-taking card games."""

# Typer re-exports BadParameter but not its base UsageError (bad option, missing argument, ...),
# which lives in click or in typer's vendored copy depending on the version.
_UsageError = typer.BadParameter.__mro__[1]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``analyzer`` console script."""
    try:
        code = app(args=argv, standalone_mode=False, prog_name="analyzer")
        if code == 130:  # typer reports Ctrl-C / SIGTERM as exit code 130 instead of raising
            print("error: interrupted", file=sys.stderr)
    except typer.Exit as exc:
        code = exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        print("error: interrupted", file=sys.stderr)
        code = 130
    except _UsageError as exc:
        if exc.format_message():  # empty after a bare group command, whose help is already shown
            _error(exc.format_message())
        code = 2
    except InputError as exc:
        _error(str(exc))
        code = 2
    except OSError as exc:  # a folder made read-only or full, a name too long: the system's reason, on one line
        _error(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))
        code = 2
    sys.exit(code if isinstance(code, int) else 0)


def _error(message: str) -> None:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)  # one line, whatever the message holds
