"""``analyzer runs``, ``analyzer resume`` and ``analyzer report``: the batch-run catalog and its tools.

The catalog of experiments loads every game, so the command bodies import it (``--help`` loads none).
"""

import os
import shutil
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.options import MAX_ITEMS, ChunkSize, JsonOut, OutDir, Scheduler, Seed, Workers, json_dumps
from analyzer.cli.running import print_results, print_table, run_and_print
from analyzer.errors import InputError

app = typer.Typer(help="List and inspect batch runs (under results/ by default).", invoke_without_command=True)

RunDir = Annotated[Path, typer.Argument(help="A run directory (holding manifest.json).", show_default=False)]
DEFAULT_ROOT = Path("results")


RUN_LIST_HEADER = ["run", "experiment", "status", "chunks", "size", "updated (UTC)"]


def run_list(rows: list[list[str]], width: int) -> str:
    """The runs one to a block, readable at any width: a line of aligned facts (``RUN_LIST_HEADER``) and
    the settings below it, indented and wrapped to ``width`` (they are the long part). When a run's path
    makes the line of facts wider than ``width``, every path gets a line of its own above its facts."""
    from analyzer.reports.formatting import fill_console

    facts = [RUN_LIST_HEADER, *(row[:-1] for row in rows)]
    widths = [max(len(line[i]) for line in facts) for i in range(len(RUN_LIST_HEADER))]

    def line(cells: list[str], first: int = 0) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(cells[first:], widths[first:])).rstrip()

    own_line = len(line(RUN_LIST_HEADER)) > width
    indent = "    "

    def head(cells: list[str]) -> str:
        return f"{cells[0]}\n{indent}{line(cells, 1)}" if own_line else line(cells)

    blocks = [head(RUN_LIST_HEADER)]
    for row in rows:
        settings = fill_console(row[-1] or "(defaults)", max(40, width), initial_indent=indent,
                                subsequent_indent=indent)
        blocks.append(f"{head(row[:-1])}\n{settings}")
    return "\n".join(blocks)


@app.callback()
def runs(ctx: typer.Context,
         root: Annotated[Path | None, typer.Option("--root", help="Directory to search for runs.",
                                                   show_default=str(DEFAULT_ROOT))] = None) -> None:
    """List runs: experiment, settings (as its report names them), status, size and time, newest first."""
    if ctx.invoked_subcommand is not None:
        return
    from analyzer.cli.catalog import REPORT_SPECS
    from analyzer.reports.catalog import find_runs, format_size
    from analyzer.reports.formatting import CONSOLE_WIDTH
    from analyzer.reports.report import run_settings

    if root is None:
        root = DEFAULT_ROOT
        if not root.exists():  # no run made here yet; a --root that is missing is an error instead
            typer.echo(f"no runs under {root}")
            return
    found, problems = find_runs(root)
    rows = [[str(run.path), run.experiment, run.status,
             f"{run.chunks_done}/{run.chunks_total}" if run.chunks_total else "", format_size(run.size_bytes),
             run.updated.replace("T", " ").removesuffix("Z")[:16], run_settings(run, REPORT_SPECS.get(run.experiment))]
            for run in found]
    if found:
        typer.echo(run_list(rows, shutil.get_terminal_size((CONSOLE_WIDTH, 24)).columns))
    else:
        typer.echo(f"no runs under {root}")
    for path, message in problems:
        typer.echo(f"warning: {path}: {message}", err=True)


@app.command()
def show(run_dir: RunDir) -> None:
    """Print a run's status and its summary tables (a long one cut as its report cuts it)."""
    from analyzer.cli.catalog import REPORT_SPECS
    from analyzer.reports.catalog import describe_run, summary_tables
    from analyzer.reports.formatting import CONSOLE_WIDTH, fill_console
    from analyzer.reports.headings import column_headings
    from analyzer.reports.report import run_settings, table_as_shown, without_idle_bounds
    from analyzer.reports.report_spec import ReportSpec, TableSpec

    run = describe_run(run_dir)
    width = shutil.get_terminal_size((CONSOLE_WIDTH, 24)).columns
    typer.echo(f"{run.path}: {run.experiment}")
    spec = REPORT_SPECS.get(run.experiment) or ReportSpec()
    settings = run_settings(run, spec)
    if settings:
        typer.echo(fill_console(settings, max(40, width)))
    chunks = f", chunks {run.chunks_done}/{run.chunks_total}" if run.chunks_total else ""
    typer.echo(f"status {run.status}{chunks}, seed {run.seed}, updated {run.updated}")
    tables = summary_tables(run.path)
    if not tables:
        typer.echo("no summary tables yet")
    typer.echo("")
    for name, frame in tables.items():
        _, shown, notes = table_as_shown(without_idle_bounds(frame), spec.tables.get(name, TableSpec()))
        print_table(shown, f"{name} ({'; '.join(notes)}; all in {run.path / name}.csv)" if notes else name,
                    column_headings(shown.columns, run.experiment))
    print_results(run.path)


@app.command()
def demo(
    workers: Workers,
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, max=MAX_ITEMS, help="Number of deals.")] = 100_000,
    threshold: Annotated[int, typer.Option("--threshold", min=0, max=37, help="Points of a 'strong' hand.")] = 12,
    rounds: Annotated[int, typer.Option("--rounds", min=1, max=1000, help="Repeat each chunk's dealing (heavier "
                                                                         "chunks, same result): for benchmarks.")] = 1,
    seed: Seed = 0,
    chunk_size: ChunkSize = 10_000,
    scheduler: Scheduler = None,
    out: OutDir = None,
) -> None:
    """Self-test experiment: high-card points per seat on random deals, as a checkpointed batch run."""
    from analyzer.experiments.demo import DEMO, demo_plan

    run_and_print(DEMO, demo_plan(deals, threshold, rounds, seed, chunk_size), out=out, workers=workers,
                  scheduler=scheduler, json_out=False)


def resume(ctx: typer.Context, run_dir: RunDir) -> None:
    """Finish an interrupted run or repair a damaged one: run its recorded experiment again, rebuilt from
    its validated options, computing only the missing or damaged chunks."""
    from analyzer.cli.resume_args import rebuilt_arguments
    from analyzer.reports.catalog import run_status
    from analyzer.reports.manifest import read_manifest

    manifest = read_manifest(run_dir)
    if run_status(manifest, Path(run_dir)) == "running":
        raise InputError(f"{run_dir} is still running (process {manifest.get('pid')} on {manifest.get('host')})")
    recorded_cwd = manifest.get("cwd")
    recorded_cwd = Path(recorded_cwd) if isinstance(recorded_cwd, str) and Path(recorded_cwd).is_dir() else None
    out = _as_the_run_named_it(run_dir, recorded_cwd)
    args = rebuilt_arguments(ctx.find_root().command, manifest.get("argv"), out)
    if manifest.get("status") == "complete":
        typer.echo(f"{run_dir} is already complete; re-running it from its chunks", err=True)
    previous_cwd, previous_argv = Path.cwd(), sys.argv
    try:
        # The command's other relative paths meant what they meant where it first ran.
        if recorded_cwd is not None:
            os.chdir(recorded_cwd)
        sys.argv = ["analyzer", *args]
        code = ctx.find_root().command.main(args=args, standalone_mode=False, prog_name="analyzer")
    finally:
        sys.argv = previous_argv
        os.chdir(previous_cwd)
    # Typer reports an interrupted command (Ctrl-C, SIGTERM) as exit code 130 rather than raising.
    if isinstance(code, int) and code != 0:
        raise typer.Exit(code)


def _as_the_run_named_it(run_dir: Path, recorded_cwd: Path | None) -> Path:
    """The run folder as ``--out`` for the resumed command, which runs in ``recorded_cwd``: relative to it
    when the folder lies inside it and the user resumes from there too (so the run prints the paths it
    printed before), else absolute (a relative path would mean nothing where the user stands)."""
    folder = Path(run_dir).resolve()
    if recorded_cwd is not None and recorded_cwd.resolve() == Path.cwd().resolve():
        try:
            inside = folder.relative_to(recorded_cwd.resolve())
        except ValueError:
            inside = None
        if inside is not None and inside != Path("."):
            return inside
    return folder


class ReportFormat(str, Enum):
    html = "html"
    md = "md"


def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories; several runs of one experiment are "
                                                        "compared against the first.", show_default=False)],
    fmt: Annotated[ReportFormat | None, typer.Option("--format", help="Report format (default: md for an --out "
                                                                      "ending in .md, else html).",
                                                     show_default=False)] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Report file (default: report.<format> in the run "
                                                           "directory; for several runs compare-A-B.<format> beside "
                                                           "the first).")] = None,
) -> None:
    """Write a report of one or several runs: what was run and the findings first, then charts, tables
    and a glossary. HTML is one self-contained file; Markdown links its images and CSVs, written into a
    folder beside it (report_files/ for report.md)."""
    from analyzer.cli.catalog import REPORT_SPECS
    from analyzer.reports.report import build_report, write_report

    if fmt is None:
        fmt = ReportFormat.md if out is not None and out.suffix == ".md" else ReportFormat.html
    if out is None:
        out = run_dirs[0] / f"report.{fmt.value}" if len(run_dirs) == 1 else _beside_runs(run_dirs, fmt.value)
    written = build_report(run_dirs, fmt.value, REPORT_SPECS, assets=f"{out.stem}_files")
    typer.echo(str(write_report(written, out)))


def _beside_runs(run_dirs: list[Path], fmt: str) -> Path:
    """``compare-A-B.<fmt>`` (the runs' folder names) in the folder holding the first run, as a path relative
    to here when it can be."""
    names = "-".join(run.resolve().name for run in run_dirs)
    folder = run_dirs[0].resolve().parent
    try:
        folder = folder.relative_to(Path.cwd())
    except ValueError:
        pass
    return folder / f"compare-{names}.{fmt}"


def query(
    run_dir: RunDir,
    where: Annotated[str | None, typer.Option("--where", help="SQL condition over the stored columns, e.g. "
                                                                "\"trumps >= 6 and aces == 2\".")] = None,
    subject: Annotated[str | None, typer.Option("--contract", "--subject", help="Only this contract (Rikken) "
                                                                              "or subject.")] = None,
    by: Annotated[str | None, typer.Option("--by", help="Comma-separated columns to group by, e.g. hcp,aces.")] = None,
    json_out: JsonOut = False,
) -> None:
    """Ask a stored run: count, rates with 95% Wilson intervals and means with intervals, from its rows."""
    from analyzer.cli.catalog import QUERY_SPECS
    from analyzer.reports.manifest import read_manifest
    from analyzer.reports.query import run_query

    manifest = read_manifest(run_dir)
    experiment = manifest.get("experiment")
    spec = QUERY_SPECS.get(experiment)
    if spec is None:
        raise InputError(f"{run_dir}: the {experiment!r} experiment keeps no rows to query; queryable: "
                         f"{', '.join(sorted(QUERY_SPECS))}")
    groups = tuple(column.strip() for column in (by or "").split(",") if column.strip())
    answer = run_query(run_dir, spec, where, groups, subject)
    if json_out:
        typer.echo(json_dumps({"run_dir": str(run_dir), "where": where, "by": list(groups),
                               "rows": answer.to_dict(orient="records")}))
        return
    print_table(answer, f"{run_dir}: {experiment}" + (f" where {where}" if where else ""))
