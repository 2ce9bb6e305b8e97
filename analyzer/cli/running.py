"""The one way a command prints: tables in one style (:func:`print_table`), and an experiment run ends
with its tables or its JSON and the line ``results in <run directory>``."""

import typer

from analyzer.cli.options import json_dumps


def run_and_print(experiment, plan, *, out: str | None, workers: int, scheduler: str | None,
                  json_out: bool) -> None:
    """Run ``plan`` of ``experiment`` (see :func:`run_experiment`) and print its summary: the tables it
    shows (columns headed in words, ``reports.headings``) and the run directory, or with ``json_out`` one JSON
    object holding ``run_dir`` and its payload."""
    from analyzer.experiments.experiment import run_experiment
    from analyzer.reports.headings import column_headings

    store, summary = run_experiment(experiment, plan, out=out, workers=workers, scheduler=scheduler)
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), **summary.payload}))
        return
    for title, table in summary.shown:  # headed as its report and `runs show` head it
        print_table(table, title, column_headings(table.columns, experiment.name))
    print_results(store.root)


def print_table(table, title: str, headings: dict[str, str] | None = None) -> None:
    """Print ``title:`` (each paragraph wrapped to the console's width) and the table as every command prints
    one (:func:`reports.formatting.console_table`: rates as ``59.2% [59.0, 59.3]``, counts as integers, ``–``
    for an undefined value, with a line that says why; columns headed ``headings[column]`` where given), then a
    blank line."""
    from analyzer.reports.formatting import MISSING, MISSING_REASON, console_table, fill_console

    heading = "\n\n".join(fill_console(paragraph) for paragraph in f"{title}:".split("\n\n"))
    text = console_table(table, headings=headings)
    reason = f"\n{fill_console(f'{MISSING} {MISSING_REASON}')}" if MISSING in text else ""
    typer.echo(f"{heading}\n{text}{reason}\n")


def print_results(where) -> None:
    """The last line of every command that writes results: ``results in <where>``."""
    typer.echo(f"results in {where}")
