"""An experiment declared once, and the one function that runs any experiment.

A game declares each experiment as an :class:`Experiment`: its name (as the manifest records it), the
chunk task and the aggregate of a chunk's rows, the folder of those rows, how the merged aggregates
become a :class:`Summary` (tables, figures, console and JSON views), and what ``analyzer report`` and
``analyzer query`` say about its runs. A command turns its options into a :class:`Plan` (the checked
parameters of one run) and hands both to :func:`run_experiment`, which does the rest the same way for
every experiment: refuse a run directory holding another run, write the first manifest, run the
chunks on any backend with checkpoints, write the tables and figures, and finish the manifest.
"""

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.experiments.parallel_compile import cache_folder
from analyzer.experiments.runner import check_chunk_count, check_run_dir, run_chunks
from analyzer.experiments.runstate import finish_run
from analyzer.reports.manifest import MANIFEST_NAME
from analyzer.reports.progress import stage
from analyzer.reports.store import RunStore


def records(table: pd.DataFrame) -> list[dict]:
    """A table as JSON-able records, one dict per row (for :attr:`Summary.payload`)."""
    return table.to_dict(orient="records")


@dataclass(frozen=True)
class Summary:
    """What a finished run shows: CSV tables, figures, final manifest fields, console and JSON views.

    Attributes
    ----------
    tables : dict
        CSV name (without ``.csv``) -> table, written into the run directory.
    figures : dict
        File stem -> function drawing the figure, called while the charts are drawn; a function may
        return None (nothing to draw for this run).
    manifest : dict
        Fields the final manifest adds (counts, labels).
    shown : list
        ``(title, table)`` pairs printed on the console, in order.
    payload : dict
        The ``--json`` output, besides the run directory.
    """

    tables: dict[str, pd.DataFrame]
    figures: dict[str, Callable[[], Any]] = field(default_factory=dict)
    manifest: dict = field(default_factory=dict)
    shown: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    payload: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """One run of an experiment, its arguments checked.

    Attributes
    ----------
    params : dict
        The task's parameters: with the task, seed, chunk size and number of items they define the chunks.
    n_items : int
        Items to compute (deals, matches, games, rounds).
    seed : int
        Run seed.
    chunk_size : int
        Items per chunk; part of what defines the result.
    manifest : dict
        The first manifest's fields besides the experiment, command, seed and chunk size (its ``params``,
        ``rules`` as made by :func:`game_rules`).
    context : Any
        What the summary needs besides the chunks (bot labels, the options of a hand).
    aggregate : callable, optional
        The aggregate of one chunk's rows when it depends on the run (picklable); else the experiment's.
    """

    params: dict
    n_items: int
    seed: int
    chunk_size: int
    manifest: dict = field(default_factory=dict)
    context: Any = None
    aggregate: Callable | None = None

    def __post_init__(self):
        rules = self.manifest.get("rules")
        if rules is not None and not (isinstance(rules, dict) and isinstance(rules.get("game"), str)):
            raise TypeError(f"a plan's manifest rules must come from game_rules(), not {rules!r}")


def game_rules(game: str, **settings) -> dict:
    """The manifest's ``rules`` of a run, one shape for every game: ``{"game": game, **settings}``, the
    settings being the rule variants the run used (and where the rules are written down)."""
    return {"game": game, **settings}


@dataclass(frozen=True)
class Experiment:
    """An experiment, declared once by its game.

    Attributes
    ----------
    name : str
        The name its manifests record, by which ``runs``, ``resume``, ``report`` and ``query`` find it.
    task : callable
        The chunk task ``task(params, start, count, seed_seq) -> rows`` (top level, picklable).
    aggregate : callable
        Mergeable summary of one chunk's rows (top level, picklable).
    rows : str
        Folder of the run directory that keeps the rows as Parquet parts.
    description : str
        Label of the progress bar.
    summarize : callable
        ``summarize(plan, chunk_results) -> Summary``.
    stage : str, optional
        Name of the chunk stage (default: the runner's first unnamed stage).
    report : ReportSpec, optional
        What ``analyzer report`` says about its runs.
    query : QuerySpec, optional
        What ``analyzer query`` measures on its rows.
    kernels : str, optional
        The game whose numba kernels the task compiles on its first run (``"Schnapsen"``): while its
        package holds no compiled kernels yet, the run says so and compiles them once in this process
        (workers then load them) before the chunks start.
    compile_seconds : int, optional
        About how long that first compile takes on 2 cores, for the message.
    warm_up : callable, optional
        ``warm_up(params)`` compiles what the run's items use, in place of that first compile's one item
        (item 0 of seed 0): for a task whose item can take minutes (a round played by the solver).
    compiled : callable, optional
        ``compiled(params)``: whether numba's cache holds the kernels this run uses, in place of
        :func:`kernels_cached`'s test for any kernel of the task's package (which a kernel compiled while
        planning, or another command's, satisfies).
    """

    name: str
    task: Callable
    aggregate: Callable
    rows: str
    description: str
    summarize: Callable[[Plan, list], Summary]
    stage: str | None = None
    report: Any = None
    query: Any = None
    kernels: str = ""
    compile_seconds: int | None = None
    warm_up: Callable[[dict], None] | None = None
    compiled: Callable[[dict], bool] | None = None

    @property
    def folder(self) -> str:
        """Prefix of a default run directory's name."""
        return self.name.replace(" ", "-")


def run_directory(out: str | None, folder: str) -> Path:
    """The run directory: ``out`` (``--out``) if given, else a new ``results/<folder>-<UTC time>``.

    Raises
    ------
    InputError
        For an empty ``out``, which would otherwise write the run into the current folder, or a folder
        holding files but no run (a run would mix its files with them and overwrite same-named ones).
    """
    if out is not None:
        if not out.strip():
            raise InputError("--out is empty: name a run directory, e.g. --out results/my-run")
        path = Path(out)
        if path.is_dir() and not (path / MANIFEST_NAME).exists() and any(path.iterdir()):
            raise InputError(f"--out {out} holds files but no run: name a new or empty folder")
        return path
    return Path("results") / f"{folder}-{datetime.now(UTC):%Y%m%d-%H%M%S}"


def kernels_cached(task: Callable) -> bool:
    """True when numba's cache holds compiled kernels (a ``*.nbi`` index) of the package of ``task``'s module.

    Numba keeps a module's kernels in ``__pycache__`` beside it, or with ``NUMBA_CACHE_DIR`` set (as the
    command line sets it, a folder per code digest) in ``<dir name>_<sha1 of the dir's absolute path>``
    below it. A set of bots not played before still compiles, in the workers, without the notice.
    """
    module = sys.modules.get(task.__module__)
    if module is None or not getattr(module, "__file__", None):
        return False
    return package_cached(os.path.dirname(os.path.abspath(module.__file__)))


def kernel_cached(kernel) -> bool:
    """Whether numba's cache holds machine code of the cached kernel ``kernel`` (its index file exists), so
    that calling it loads rather than compiles; a kernel's index is written after all it calls. Finer than
    :func:`kernels_cached`, which any kernel of the package satisfies."""
    # numba keeps the path on the dispatcher's cache object only (no public accessor)
    return os.path.exists(kernel._cache._cache_file._index_path)


def package_cached(package: str) -> bool:
    """True when numba's cache holds compiled kernels (a ``*.nbi`` index) of the package in folder ``package``
    (see :func:`kernels_cached`); the package need not be imported."""
    return any(cache_folder(package).glob("*.nbi"))


def run_experiment(experiment: Experiment, plan: Plan, *, out: str | None, workers: int,
                   scheduler: str | None) -> tuple[RunStore, Summary]:
    """Run ``plan`` of ``experiment`` into a run directory and return its store and summary.

    Parameters
    ----------
    experiment : Experiment
        What to run.
    plan : Plan
        The run's checked parameters.
    out : str or None
        The run directory as given (``--out``); None for a fresh one (see :func:`run_directory`).
    workers : int
        Local worker processes.
    scheduler : str or None
        Backend of the chunks (see :func:`analyzer.experiments.runner.run_chunks`).

    Raises
    ------
    InputError
        For too many chunks, or a run directory holding another run (nothing is written then).
    """
    check_chunk_count(plan.n_items, plan.chunk_size)
    check_run_dir(out, experiment.task, plan.params, plan.n_items, seed=plan.seed, chunk_size=plan.chunk_size,
                  stage=experiment.stage)
    store = RunStore(run_directory(out, experiment.folder))
    store.write_manifest({"experiment": experiment.name, "command": " ".join(["analyzer", *sys.argv[1:]]),
                          "seed": plan.seed, "chunk_size": plan.chunk_size, **plan.manifest})
    started = time.perf_counter()
    cached = experiment.compiled(plan.params) if experiment.compiled else kernels_cached(experiment.task)
    if experiment.kernels and not cached:
        # One item here compiles the kernels the run uses, saying so when numba compiles, before the workers
        # start: each would compile them again. Not on a warm run: one item can cost seconds (a dd round).
        from analyzer.experiments.compile_notice import compile_notice  # numba: only commands that compute

        with compile_notice(experiment.kernels, experiment.compile_seconds):
            if experiment.warm_up is None:
                experiment.task(plan.params, 0, 1, np.random.SeedSequence(0))
            else:
                experiment.warm_up(plan.params)
    chunks = run_chunks(experiment.task, plan.params, plan.n_items, seed=plan.seed, chunk_size=plan.chunk_size,
                        workers=workers, description=experiment.description, store=store, backend=scheduler,
                        stage=experiment.stage, rows_dir=store.root / experiment.rows,
                        aggregate=plan.aggregate or experiment.aggregate)
    played = time.perf_counter()
    with stage("writing summary"):
        summary = experiment.summarize(plan, chunks)
        for name, table in summary.tables.items():
            store.write_csv(name, table)
    with stage("drawing charts"):
        for stem, draw in summary.figures.items():
            figure = draw()
            if figure is not None:
                store.save_figure(figure, stem)
    finish_run(store, {**summary.manifest, "timings": {"play_seconds": round(played - started, 3),
                                                       "summary_seconds": round(time.perf_counter() - played, 3)}})
    return store, summary
