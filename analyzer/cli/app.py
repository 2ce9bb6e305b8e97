"""The root ``analyzer`` command; turns bad input into one-line errors with exit code 2."""

import sys
from collections.abc import Callable
from functools import cache
from typing import Annotated

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from analyzer import __version__
from analyzer.errors import InputError
from analyzer.experiments.code_digest import use_digest_cache


def _plain(group: typer.Typer) -> object:
    """The click command of ``group`` with plain help text (click's layout: no boxes, no ``<bool>`` after
    every flag, paragraphs wrapped to the terminal, which its sub-groups inherit) and each option's value
    named as click names it (``--seed SEED``, ``--policy [random|heuristic]``) instead of ``<int range>``."""
    group.rich_markup_mode = None
    command = typer.main.get_command(group)
    _name_values(command)
    return command


class _PlainArgument(TyperArgument):
    """An argument shown as click shows one: ``RUN_DIR`` (``[RUN_DIR]`` when optional, ``RUN_DIR...`` when
    repeated) in the usage line, without a type after its name in the list."""

    def _usage_display_name(self) -> str:
        name = self.name.upper() if self.required else f"[{self.name.upper()}]"
        return name + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: object) -> None:
        return None


class _NoneUncoerced(TyperOption):
    """An option whose missing value stays None without typer's coercion, which imports pydantic (0.1 CPU-s)
    for any option it processes: a group's option (``runs --root``) is processed before a sub-command's
    ``--help`` answers."""

    def process_value(self, ctx: object, value: object) -> object:
        if value is None and not (self.required or self.multiple or self.nargs != 1 or self.callback):
            return None
        return super().process_value(ctx, value)


def _name_values(command) -> None:
    for sub in getattr(command, "commands", {}).values():
        _name_values(sub)
    _flags_default_false(command.get_params(command.context_class(command)))
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.__class__ = _PlainArgument
            param.metavar = param.metavar or param.name.upper()
            continue
        if type(param) is TyperOption and param.default is None:
            param.__class__ = _NoneUncoerced
        if param.metavar is not None or getattr(param, "is_flag", False) or getattr(param, "count", False):
            continue
        described = getattr(param, "type_descriptor", None)
        if described is not None and described.is_choice and described.choices:
            param.metavar = "[" + "|".join(str(getattr(c, "value", c)) for c in described.choices) + "]"
        else:
            param.metavar = param.name.upper()


def _flags_default_false(params: list) -> list:
    """``params`` with typer's own flags (``--help``, the completion flags) defaulting to False instead of None:
    typer coerces a None through pydantic (0.1 CPU-s to import) before ``--help`` answers, a bool it passes."""
    for param in params:
        if getattr(param, "is_flag", False) and param.default is None:
            param.default = False
    return params


@cache
def _rikken() -> object:
    from analyzer.cli import rikken, rikken_advise, rikken_replay, rikken_strategy

    rikken.app.command("advise")(rikken_advise.advise)
    rikken.app.command("replay")(rikken_replay.replay)
    rikken.app.add_typer(rikken_strategy.app, name="strategy")
    return _plain(rikken.app)


def _group(module: str) -> Callable[[], object]:
    @cache
    def load() -> object:
        from importlib import import_module

        return _plain(import_module(f"analyzer.cli.{module}").app)
    return load


def _runs_command(name: str) -> Callable[[], object]:
    @cache
    def load() -> object:
        from analyzer.cli import runs

        single = typer.Typer(add_completion=False)
        single.command(name)(getattr(runs, name))
        return _plain(single)
    return load


#: the root's commands in the order ``--help`` lists them, each imported only when named, with the line
#: the root's help shows for it (so that help loads no command)
_COMMANDS: dict[str, tuple[Callable[[], object], str]] = {
    "rikken": (_rikken, "Rikken: 4 players, auction, called-ace partnerships."),
    "schnapsen": (_group("schnapsen"), "Schnapsen (2 players, 20 cards): bots, Bummerl matches, closing odds, advice."),
    "seconds": (_group("seconds"), "Sloppy Seconds: 2-8 players, be second in every suit."),
    "runs": (_group("runs"), "List and inspect batch runs (under results/ by default)."),
    "resume": (_runs_command("resume"), "Finish an interrupted run or repair a damaged one."),
    "report": (_runs_command("report"), "Write a report of one or several runs."),
    "query": (_runs_command("query"),
              "Ask a stored run: count, rates with 95% Wilson intervals and means with intervals.")}


class _LazyRoot(TyperGroup):
    """The root group: a command's module (its game, numba, pandas) is imported when the command is named,
    so ``analyzer --version`` answers without loading any game."""

    def get_params(self, ctx: object) -> list:
        return _flags_default_false(super().get_params(ctx))

    def list_commands(self, ctx: object) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: object, name: str) -> object:
        if name not in _COMMANDS:
            return None
        command = _COMMANDS[name][0]()
        command.name = name  # a sub-app's group is built without the name the root gives it
        return command

    def format_commands(self, ctx: object, formatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in _COMMANDS.items()])


app = typer.Typer(cls=_LazyRoot, help="Monte Carlo strategy analyzer for trick-taking card games.",
                  no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None)


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


def _with_hint(message: str, argv: list[str]) -> str:
    """Click's message, or the reason behind it where click cannot see it: ``--bots heuristic,random`` as the
    last option reads as one bot of two."""
    given = argv[argv.index("--bots") + 1:][:1] if "--bots" in argv else []
    given += [arg for arg in argv if arg.startswith("--bots=")]
    if "'--bots' requires 2 arguments" in message and any("," in arg for arg in given):
        from analyzer.cli.schnapsen import BOTS_COMMA_HINT

        return BOTS_COMMA_HINT
    return message


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``analyzer`` console script."""
    use_digest_cache()
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
            _error(_with_hint(exc.format_message(), sys.argv[1:] if argv is None else argv))
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
