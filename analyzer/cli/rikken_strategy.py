"""``analyzer rikken strategy fit RUN_DIR``: a bidding strategy learned from a ``rikken bids`` run."""

import os
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.options import JsonOut, Seed, json_dumps
from analyzer.cli.running import print_results, print_table

app = typer.Typer(help="Bidding strategies learned from `rikken bids` runs.", no_args_is_help=True)

# 200,000 hands (50,000 deals) fit all 16 contracts in a few CPU-minutes; calibration deciles then hold
# about 4,000 held-out hands for a common contract.
DEFAULT_MAX_HANDS = 200_000
MAX_HANDS = 10**7


def idle_cores() -> int:
    """Cores not busy with other work (the last minute's load average), at least 1: OpenMP threads beyond
    them spin against that work, and a fit on a busy machine then runs far slower than on one thread."""
    return max(1, (os.cpu_count() or 1) - round(os.getloadavg()[0]))


@app.command()
def fit(
    run_dir: Annotated[str, typer.Argument(help="A `rikken bids` run directory (its hands/ table).")],
    out: Annotated[str | None, typer.Option("--out", help="Strategy file to write; the calibration and the "
                                            "strategy card go beside it.",
                                            show_default="RUN_DIR/strategy.zip")] = None,
    max_hands: Annotated[int, typer.Option("--max-hands", min=1, max=MAX_HANDS,
                                           help="Fit on at most this many hands: whole deals drawn with "
                                                "--seed.")] = DEFAULT_MAX_HANDS,
    max_iter: Annotated[int, typer.Option("--max-iter", min=1, max=10_000,
                                          help="Boosting iterations per model.")] = 100,
    margin: Annotated[float, typer.Option("--margin", help="Money a bid must be predicted to beat, for the "
                                          "strategy card.")] = 0.0,
    threads: Annotated[int | None, typer.Option("--threads", min=1, max=256,
                                                help="Threads of the fit (the models do not depend on it).",
                                                show_default="idle cores, at least 1")] = None,
    seed: Seed = 0,
    json_out: JsonOut = False,
) -> None:
    """Fit each contract's make probability and expected money from the hands of a bids run.

    20% of the deals (all four hands of each) are held out: the calibration (predicted against observed
    make rate by decile of prediction, 95% Wilson intervals) and the strategy card are measured on them.
    """
    from analyzer.games.rikken.strategy_fit import fit_and_write
    from analyzer.reports.store import user_file

    path = user_file(out, "--out") if out is not None else Path(run_dir) / "strategy.zip"
    result = fit_and_write(run_dir, path, max_hands=max_hands, max_iter=max_iter, margin=margin,
                           threads=threads or idle_cores(), seed=seed)
    if json_out:
        typer.echo(json_dumps(result.payload))
        return
    for title, table in result.shown:
        print_table(table, title)
    typer.echo(f"strategy file {path.name}\nstrategy card {result.outputs['card.png'].name}, "
               f"calibration {result.outputs['calibration.png'].name}")
    print_results(path.parent)
