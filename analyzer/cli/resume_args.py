"""The command ``analyzer resume`` runs: rebuilt from a run's recorded arguments after parsing them as
the experiment's own options, never replayed as stored.

A manifest is data from wherever the run folder came from. Its ``argv`` is only read: the command
words must name a batch experiment (nothing else writes into a run folder), every argument must parse
as that command's option with its types and bounds, and the arguments passed on are rebuilt from the
parsed values, with ``--out`` set to the run folder itself and no ``--scheduler`` (resume runs locally).
"""

from enum import Enum
from pathlib import Path

import typer

from analyzer.errors import InputError

# Typer ships its own copy of click (or uses click's, by version): reach its classes through typer.
_ClickError = next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == "ClickException")



def _resumable() -> set[tuple[str, ...]]:
    """The commands that run chunks into a run folder, by their words after ``analyzer``: every experiment
    of the catalog (which loads every game), whose names are the command's words joined by a dash
    (``rikken-bids``) or a space."""
    from analyzer.cli.catalog import EXPERIMENTS

    return {tuple(name.replace("-", " ", 1).split()) for name in EXPERIMENTS}

OUT_OPTION = "--out"
# Where to run is the resuming user's choice, never the run folder's: a recorded scheduler address would
# make resume connect to a host the folder names (and unpickle what it sends back).
SCHEDULER_OPTION = "--scheduler"


def _without_scheduler(args: list[str]) -> list[str]:
    """``args`` without ``--scheduler ADDRESS`` / ``--scheduler=ADDRESS`` (options before a ``--`` only)."""
    kept, skip, options_over = [], False, False
    for arg in args:
        if skip:
            skip = False
        elif options_over:
            kept.append(arg)
        elif arg == SCHEDULER_OPTION:
            skip = True
        elif not arg.startswith(SCHEDULER_OPTION + "="):
            kept.append(arg)
            options_over = arg == "--"
    return kept


def rebuilt_arguments(root, argv, run_dir: Path) -> list[str]:
    """The arguments (after ``analyzer``) that finish the run recorded by ``argv``.

    Parameters
    ----------
    root : click Group
        The ``analyzer`` command.
    argv : object
        The manifest's ``argv`` (program name first), as read from JSON.
    run_dir : Path
        The run folder (absolute), written as ``--out``.

    Raises
    ------
    InputError
        If ``argv`` is not a list of strings, names no resumable experiment, or does not parse as its options.
    """
    if not isinstance(argv, list) or len(argv) < 2 or not all(isinstance(a, str) for a in argv):
        raise InputError(f"{run_dir} records no command line to resume")
    args = argv[1:]
    words = tuple(args[:2])
    if words not in _resumable():
        raise InputError(f"{run_dir} records the command {' '.join(words)!r}, which is not a batch experiment "
                         "that resume can finish")
    command = root
    for word in words:
        command = command.get_command(None, word) if hasattr(command, "get_command") else None
        if command is None:
            raise InputError(f"{run_dir} records the command {' '.join(words)!r}, unknown to this analyzer")
    try:
        parsed = command.make_context(" ".join(words), _without_scheduler(args[2:]))
    except _ClickError as exc:
        raise InputError(f"{run_dir}'s recorded command does not parse: {exc.format_message()}") from None
    return [*words, *_arguments(command, parsed.params, run_dir)]


def _arguments(command, values: dict, run_dir: Path) -> list[str]:
    """Command-line arguments giving every parameter its parsed value (options by their first name)."""
    positional, options = [], []
    for param in command.params:
        value = values.get(param.name)
        if param.param_type_name == "argument":
            positional.append(_text(value))
            continue
        name = param.opts[0]
        if name == OUT_OPTION:
            options += [OUT_OPTION, str(run_dir)]
        elif value is None or getattr(param, "is_eager", False):
            continue
        elif getattr(param, "is_flag", False) and isinstance(value, bool):
            if value:
                options.append(name)
            elif param.secondary_opts:
                options.append(param.secondary_opts[0])
        elif isinstance(value, (list, tuple)) and getattr(param, "multiple", False):  # once per value
            for item in value:
                options += [name, _text(item)]
        elif isinstance(value, (list, tuple)):  # an option of several values (``--bots A B``): once, all of them
            options += [name, *(_text(item) for item in value)]
        else:
            options += [name, _text(value)]
    return [*options, "--", *positional] if positional else options


def _text(value) -> str:
    return str(value.value if isinstance(value, Enum) else value)
