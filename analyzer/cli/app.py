"""The root ``analyzer`` command; turns bad input into one-line errors with exit code 2."""

import sys
from typing import Annotated

import typer

from analyzer import __version__
from analyzer.cli import rikken, rikken_advise, rikken_replay, rikken_strategy, runs, schnapsen, seconds
from analyzer.errors import InputError

app = typer.Typer(help="Monte Carlo strategy analyzer for trick-taking card games.", no_args_is_help=True,
                  pretty_exceptions_enable=False, add_completion=False)
rikken.app.command("advise")(rikken_advise.advise)
rikken.app.command("replay")(rikken_replay.replay)
rikken.app.add_typer(rikken_strategy.app, name="strategy")
app.add_typer(rikken.app, name="rikken")
app.add_typer(schnapsen.app, name="schnapsen")
app.add_typer(seconds.app, name="seconds")
app.add_typer(runs.app, name="runs")
app.command("resume")(runs.resume)
app.command("report")(runs.report)
app.command("query")(runs.query)


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
