"""The run catalog: find run directories and describe each one (experiment, parameters, status, size, time)."""

import os
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analyzer.errors import InputError
from analyzer.reports.integrity import check_outputs
from analyzer.reports.manifest import CHUNKS_DIR, MANIFEST_NAME, read_manifest

# Options that say where or how fast a run goes, not what it computes.
_EXECUTION_OPTIONS = {"--out", "--workers", "--scheduler"}
# Manifest keys that describe the environment or the bookkeeping, not the experiment's parameters.
_BOOKKEEPING_KEYS = {"analyzer_version", "python", "platform", "command", "experiment", "seed", "timings", "status",
                     "updated", "started", "stages", "argv", "cwd", "out_dir", "pid", "host", "format_version"}


@dataclass
class RunInfo:
    """What the catalog knows about one run directory."""

    path: Path
    experiment: str
    parameters: list[str]
    status: str
    seed: object
    size_bytes: int
    updated: str
    chunks_done: int
    chunks_total: int
    manifest: dict = field(repr=False)

    @property
    def command(self) -> list[str]:
        """The command-line arguments (after ``analyzer``) that produced the run, if recorded."""
        argv = self.manifest.get("argv")
        return list(argv[1:]) if isinstance(argv, list) else []


def describe_run(run_dir) -> RunInfo:
    """Describe one run directory.

    Raises
    ------
    InputError
        If it is not a run, is corrupt, or comes from a newer analyzer.
    """
    root = Path(run_dir)
    manifest = read_manifest(root)
    argv = manifest.get("argv") if isinstance(manifest.get("argv"), list) else []
    words, parameters = split_command(argv[1:])
    if not argv:
        # Written without the batch runner: its scalar manifest entries are its parameters.
        parameters = [f"{key}={value}" for key, value in manifest.items()
                      if key not in _BOOKKEEPING_KEYS and isinstance(value, (str, int, float, bool))]
    experiment = str(manifest.get("experiment") or " ".join(words) or manifest.get("command") or root.name)
    stages = manifest.get("stages") if isinstance(manifest.get("stages"), dict) else {}
    done = sum(int(stage.get("chunks_done", 0)) for stage in stages.values())
    total = sum(int(stage.get("chunks_total", 0)) for stage in stages.values())
    return RunInfo(path=root, experiment=experiment, parameters=parameters, status=run_status(manifest, root),
                   seed=manifest.get("seed", _option_value(parameters, "--seed")), size_bytes=_size(root),
                   updated=str(manifest.get("updated") or _modified(root / MANIFEST_NAME)), chunks_done=done,
                   chunks_total=total, manifest=manifest)


def split_command(args: list[str]) -> tuple[list[str], list[str]]:
    """Split command-line arguments into the command words and the parameters that define the result.

    ``["rikken", "bids", "--deals", "10", "--out", "x"]`` -> ``(["rikken", "bids"], ["--deals", "10"])``.
    """
    words = []
    index = 0
    while index < len(args) and not args[index].startswith("-"):
        words.append(args[index])
        index += 1
    parameters = []
    rest = args[index:]
    skip_value = False
    for position, arg in enumerate(rest):
        if skip_value:
            skip_value = False
            continue
        name = arg.split("=", 1)[0]
        if name in _EXECUTION_OPTIONS:
            next_is_value = position + 1 < len(rest) and not rest[position + 1].startswith("-")
            skip_value = "=" not in arg and next_is_value
            continue
        parameters.append(arg)
    return words, parameters


def _option_value(parameters: list[str], option: str):
    for position, arg in enumerate(parameters):
        if arg == option and position + 1 < len(parameters):
            return parameters[position + 1]
        if arg.startswith(option + "="):
            return arg.split("=", 1)[1]
    return None


def run_status(manifest: dict, root: Path) -> str:
    """The run's status; a ``running`` run whose process is gone from this host shows as ``crashed``."""
    status = manifest.get("status")
    if status is None:
        # Written without the batch runner (no chunks): complete once it has written its outputs.
        has_outputs = any(root.glob("*.parquet")) or any(root.glob("*.csv"))
        return "complete" if has_outputs else "incomplete"
    if status == "running" and manifest.get("host") == socket.gethostname() and not _alive(manifest.get("pid")):
        return "crashed"
    return str(status)


def _alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _modified(path: Path) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(path.stat().st_mtime))


def _size(root: Path) -> int:
    return sum(entry.stat().st_size for entry in root.rglob("*") if entry.is_file())


def find_runs(root) -> tuple[list[RunInfo], list[tuple[Path, str]]]:
    """Find run directories (those with a manifest) under ``root``, newest first.

    Returns
    -------
    tuple
        ``(runs, problems)``: described runs, and ``(path, message)`` for directories that look like
        runs but cannot be read.
    """
    base = Path(root)
    if not base.exists():
        raise InputError(f"{base}: no such folder")
    if not base.is_dir():
        raise InputError(f"{base} is not a directory")
    runs, problems = [], []
    for manifest_path in sorted(base.rglob(MANIFEST_NAME)):
        run_dir = manifest_path.parent
        if CHUNKS_DIR in run_dir.relative_to(base).parts:
            continue
        try:
            runs.append(describe_run(run_dir))
        except InputError as exc:
            problems.append((run_dir, str(exc)))
    runs.sort(key=lambda run: run.updated, reverse=True)
    return runs, problems


def summary_tables(run_dir) -> dict[str, pd.DataFrame]:
    """The run's CSV summaries by name (file stem), in name order, each checked against its recorded checksum."""
    tables = {}
    paths = sorted(Path(run_dir).glob("*.csv"))
    check_outputs(run_dir, paths)
    for path in paths:
        try:
            tables[path.stem] = pd.read_csv(path)
        except (OSError, ValueError) as exc:
            raise InputError(f"{path} is corrupt: {exc}") from None
    return tables


def figure_files(run_dir) -> list[Path]:
    """The run's charts: one file per figure stem, PNG preferred over SVG."""
    chosen: dict[str, Path] = {}
    for path in sorted(Path(run_dir).glob("*.svg")) + sorted(Path(run_dir).glob("*.png")):
        chosen[path.stem] = path
    figures = [chosen[stem] for stem in sorted(chosen)]
    check_outputs(run_dir, figures)
    return figures


def format_size(size_bytes: int) -> str:
    """A human-readable size: ``1536`` -> ``"1.5 KiB"``."""
    units = ("B", "KiB", "MiB", "GiB")
    size, power = float(size_bytes), 0
    while size >= 1024 and power < len(units) - 1:
        size /= 1024
        power += 1
    return f"{size_bytes} B" if power == 0 else f"{size:.1f} {units[power]}"
