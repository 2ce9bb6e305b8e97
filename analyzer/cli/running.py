"""The one way an experiment command ends: run the experiment, then print its tables or its JSON."""

import typer

from analyzer.cli.options import json_dumps
from analyzer.experiments.experiment import Experiment, Plan, run_experiment


def run_and_print(experiment: Experiment, plan: Plan, *, out: str | None, workers: int, scheduler: str | None,
                  json_out: bool) -> None:
    """Run ``plan`` of ``experiment`` (see :func:`run_experiment`) and print its summary: the tables it
    shows and the run directory, or with ``json_out`` one JSON object holding ``run_dir`` and its payload."""
    store, summary = run_experiment(experiment, plan, out=out, workers=workers, scheduler=scheduler)
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), **summary.payload}))
        return
    for title, table in summary.shown:
        typer.echo(f"{title}:\n{table.to_string(index=False, float_format=lambda v: f'{v:.3f}')}\n")
    typer.echo(f"results in {store.root}")
