"""``analyzer rikken strategy fit RUN_DIR``: a bidding strategy learned from a ``rikken bids`` run."""

import os
import time
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer

from analyzer.cli.options import JsonOut, Seed, json_dumps
from analyzer.cli.running import print_results, print_table
from analyzer.errors import InputError
from analyzer.games.rikken import strategy as learned
from analyzer.games.rikken.strategy_charts import calibration_chart, strategy_card
from analyzer.reports.progress import chunk_progress, stage
from analyzer.reports.store import atomic_write, user_file

app = typer.Typer(help="Bidding strategies learned from `rikken bids` runs.", no_args_is_help=True)

# 200,000 hands (50,000 deals) fit all 16 contracts in a few CPU-minutes; calibration deciles then hold
# about 4,000 held-out hands for a common contract.
DEFAULT_MAX_HANDS = 200_000
MAX_HANDS = 10**7


def idle_cores() -> int:
    """Cores not busy with other work (the last minute's load average), at least 1: OpenMP threads beyond
    them spin against that work, and a fit on a busy machine then runs far slower than on one thread."""
    return max(1, (os.cpu_count() or 1) - round(os.getloadavg()[0]))


def _outputs(path: Path) -> dict[str, Path]:
    """The files ``fit`` writes beside the strategy file ``path``."""
    stem = path.with_suffix("")
    return {name: stem.parent / f"{stem.name}.{name}" for name in
            ("calibration.csv", "calibration.png", "calibration.svg", "card.csv", "card_bids.csv", "card.png",
             "card.svg")}


def _save_figure(figure, paths) -> None:
    import matplotlib.pyplot as plt

    for path in paths:
        atomic_write(path, lambda p, fmt=path.suffix[1:]: figure.savefig(p, format=fmt, dpi=130,
                                                                         bbox_inches="tight"))
    plt.close(figure)


def _save_csv(frame: pd.DataFrame, path: Path) -> None:
    atomic_write(path, lambda p: frame.to_csv(p, index=False))


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
    path = user_file(out, "--out") if out is not None else Path(run_dir) / "strategy.zip"
    started = time.time()
    with stage("reading hands"):
        frame, manifest = learned.read_hands(run_dir, max_hands, seed)
    contracts = [int(c) for c in manifest["params"]["contracts"]]
    source = {"run": str(Path(run_dir).resolve()), "run_seed": manifest.get("seed"),
              "run_policy": manifest["params"].get("policy"), "run_dealing": manifest["params"].get("dealing"),
              "max_iter": max_iter}
    threads = threads or idle_cores()
    with chunk_progress(f"fitting on {len(frame):,} hands, {threads} thread{'s' if threads > 1 else ''}",
                        len(contracts), len(contracts)) as advance:
        strategy, held = learned.fit_strategy(frame, contracts, seed=seed, max_iter=max_iter, source=source,
                                              threads=threads, fitted=lambda _: advance(1, chunks=1))
    strategy.source["fit_seconds"] = round(time.time() - started, 1)
    learned.save_strategy(strategy, path)
    outputs = _outputs(path)
    with stage("calibration and strategy card"):
        holdout = frame[held].reset_index(drop=True)
        calibration = learned.calibration_table(strategy, holdout)
        _save_csv(calibration, outputs["calibration.csv"])
        _save_figure(calibration_chart(calibration), [outputs["calibration.png"], outputs["calibration.svg"]])
        bids = learned.opening_bids(strategy, holdout, margin)
        cells, card = learned.card_cells(bids), learned.contract_card(bids)
        _save_csv(cells, outputs["card.csv"])
        _save_csv(card, outputs["card_bids.csv"])
        title = (f"Rikken opening bids learned from run {Path(run_dir).resolve().name} "
                 f"({strategy.source['hands_fitted']:,} hands, "
                 f"{source['run_policy']} play; margin {margin:g})")
        _save_figure(strategy_card(cells, card, title), [outputs["card.png"], outputs["card.svg"]])
    error = (calibration["predicted"] - calibration["observed"]).abs() * calibration["n"]
    per_contract = (error.groupby(calibration["contract"], sort=False).sum()
                    / calibration["n"].groupby(calibration["contract"], sort=False).sum())
    if json_out:
        typer.echo(json_dumps({"strategy": str(path), "source": strategy.source,
                               "calibration": calibration.to_dict(orient="records"),
                               "card": card.to_dict(orient="records"),
                               "files": {name: str(p) for name, p in outputs.items()}}))
        return
    print_table(pd.DataFrame({"contract": per_contract.index, "held-out hands": calibration.groupby(
        "contract", sort=False)["n"].sum().to_numpy(), "mean |predicted - observed| by decile": per_contract.values}),
                f"Calibration on {len(holdout):,} held-out hands")
    print_table(card.assign(share=card["share"].round(4)), "Opening bids of the held-out hands")
    typer.echo(f"strategy file {path.name}; calibration and strategy card beside it ({outputs['card.png'].name})")
    print_results(path.parent)
