"""What ``analyzer rikken strategy fit`` does: read a bids run's hands, fit the strategy, save it, and
write its calibration and strategy card beside it, with progress on stderr."""

import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyzer.games.rikken import strategy as learned
from analyzer.games.rikken.strategy_charts import calibration_chart, strategy_card
from analyzer.reports.progress import chunk_progress, stage
from analyzer.reports.store import atomic_write


@dataclass
class FitResult:
    """A finished fit: the strategy file, the files beside it, the tables the command shows and its JSON."""

    path: Path
    outputs: dict[str, Path]
    shown: list[tuple[str, pd.DataFrame]]
    payload: dict


def fit_outputs(path: Path) -> dict[str, Path]:
    """The files written beside the strategy file ``path``."""
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


def fit_and_write(run_dir: str, path: Path, *, max_hands: int, max_iter: int, margin: float, threads: int,
                  seed: int) -> FitResult:
    """Fit each contract's make probability and expected money on at most ``max_hands`` hands of the bids
    run ``run_dir`` and save the strategy to ``path``; the calibration and the strategy card are measured
    on the held-out deals and written beside it (:func:`fit_outputs`).

    Returns
    -------
    FitResult
        The shown tables: the calibration error per contract and the opening bids of the held-out hands.
    """
    started = time.time()
    with stage("reading hands"):
        frame, manifest = learned.read_hands(run_dir, max_hands, seed)
    contracts = [int(c) for c in manifest["params"]["contracts"]]
    source = {"run": str(Path(run_dir).resolve()), "run_seed": manifest.get("seed"),
              "run_policy": manifest["params"].get("policy"), "run_dealing": manifest["params"].get("dealing"),
              "max_iter": max_iter}
    with chunk_progress(f"fitting on {len(frame):,} hands, {threads} thread{'s' if threads > 1 else ''}",
                        len(contracts), len(contracts)) as advance:
        strategy, held = learned.fit_strategy(frame, contracts, seed=seed, max_iter=max_iter, source=source,
                                              threads=threads, fitted=lambda _: advance(1, chunks=1))
    strategy.source["fit_seconds"] = round(time.time() - started, 1)
    learned.save_strategy(strategy, path)
    outputs = fit_outputs(path)
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
    hands = calibration.groupby("contract", sort=False)["n"].sum().to_numpy()
    # rates in % and their errors in percentage points, as every table prints them ("predicted rate" reads as one)
    shown = [(f"Calibration on {len(holdout):,} held-out hands",
              pd.DataFrame({"contract": per_contract.index, "held-out hands": hands,
                            "mean |predicted - observed| by decile, pp": 100 * per_contract.values})),
             ("Opening bids of the held-out hands",
              card.assign(share=card["share"].round(4)).rename(columns={"predicted": "predicted rate"}))]
    payload = {"strategy": str(path), "source": strategy.source, "calibration": calibration.to_dict(orient="records"),
               "card": card.to_dict(orient="records"), "files": {name: str(p) for name, p in outputs.items()}}
    return FitResult(path, outputs, shown, payload)
