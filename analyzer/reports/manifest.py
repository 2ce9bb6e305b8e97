"""The manifest of a run directory (``manifest.json``): its name, its format version, and the one
place that decides whether a directory is a run this version can read."""

import json
import re
from pathlib import Path

from analyzer import __version__
from analyzer.errors import InputError

# Bumped when the layout of run directories changes in a way older versions cannot read.
FORMAT_VERSION = 2
MANIFEST_NAME = "manifest.json"
CHUNKS_DIR = "chunks"
# A stage's folder name under CHUNKS_DIR: one path component that cannot climb out of it.
STAGE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def version_tuple(version: str) -> tuple[int, ...]:
    """The leading numeric release of a version string: ``"1.2.3rc1"`` -> ``(1, 2, 3)``."""
    match = re.match(r"\d+(\.\d+)*", str(version).strip())
    if match is None:
        raise InputError(f"unreadable version {version!r}")
    return tuple(int(part) for part in match.group(0).split("."))


def read_manifest(run_dir) -> dict:
    """Read and validate the manifest of a run directory.

    Parameters
    ----------
    run_dir : path-like
        The run directory.

    Returns
    -------
    dict
        The manifest.

    Raises
    ------
    InputError
        If the directory is missing, holds no manifest, the manifest is not valid JSON, or it was
        written by a newer analyzer or a newer run-directory format.
    """
    root = Path(run_dir)
    if not root.exists():
        raise InputError(f"{root}: no such folder")
    if not root.is_dir():
        raise InputError(f"{root} is not a directory")
    path = root / MANIFEST_NAME
    if not path.is_file():
        raise InputError(f"{root} is not a run directory (no {MANIFEST_NAME})")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path} is corrupt: {exc}") from None
    if not isinstance(manifest, dict):
        raise InputError(f"{path} is corrupt: not a JSON object")
    if not isinstance(manifest.get("params", {}), dict):
        raise InputError(f"{path} is corrupt: its params are not a JSON object")
    written_by = manifest.get("analyzer_version")
    if written_by is not None and version_tuple(written_by) > version_tuple(__version__):
        raise InputError(f"{root} was written by analyzer {written_by}, newer than this {__version__}; "
                         "upgrade analyzer")
    run_format = manifest.get("format_version", FORMAT_VERSION)
    if not isinstance(run_format, int) or run_format > FORMAT_VERSION:
        raise InputError(f"{root} has run format {run_format!r}; this analyzer reads format {FORMAT_VERSION} or older")
    return manifest


def read_manifest_if_any(run_dir) -> dict:
    """The validated manifest of ``run_dir``, or an empty dict when it has none yet (a fresh run)."""
    if not (Path(run_dir) / MANIFEST_NAME).exists():
        return {}
    return read_manifest(run_dir)
