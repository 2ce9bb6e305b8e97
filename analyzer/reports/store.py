"""The results store: one directory per run with tables, a manifest and figures, written atomically."""

import hashlib
import json
import os
import platform
import sys
from pathlib import Path

import pandas as pd

from analyzer import __version__
from analyzer.errors import InputError


def file_sha256(path) -> str:
    """SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def atomic_write(path: Path, write) -> None:
    """Write a file via a temporary sibling and a rename, so readers never see half a file.

    Parameters
    ----------
    path : Path
        The file to write; its directory is created if missing.
    write : callable
        ``write(temp_path)`` writes the content to the temporary file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # Opened like any new file, so the umask sets its mode (mkstemp would make it 0600); O_EXCL and
    # 48 random bits keep concurrent writers of the same file apart.
    temp = path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp"
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        write(temp)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def user_file(text: str, option: str) -> Path:
    """The file a user named with ``option``, checked before any work, for :func:`atomic_write`.

    A symbolic link is followed, so the file it points to is written and the link kept; a missing folder
    is refused rather than created (a typo must not grow a tree of folders), and so is anything that
    is not a regular file (a directory, a device such as ``/dev/full``), which a rename would replace.

    Raises
    ------
    InputError
        If the name is empty, names a directory or a file that is not regular, or its folder is missing.
    """
    if not text.strip():
        raise InputError(f"{option} is empty: name a file")
    try:
        path = Path(text).resolve() if Path(text).is_symlink() else Path(text)
    except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13)
        raise InputError(f"{option} {text} is a loop of links: name a file") from None
    if path.is_dir() or text.endswith(("/", "\\")):
        raise InputError(f"{option} {text} names a folder: name a file")
    if path.exists() and not path.is_file():
        raise InputError(f"{option} {text} is not a regular file; name a file to write")
    if not path.parent.is_dir():
        raise InputError(f"{option} {text}: the folder {path.parent} does not exist")
    return path


class RunStore:
    """A run directory: ``<name>.csv`` summaries, ``manifest.json``, figures, and row datasets (folders
    of Parquet parts written by the workers, see :mod:`analyzer.reports.dataset`).

    Parameters
    ----------
    out_dir : path-like
        Directory to write into (created if missing).
    """

    def __init__(self, out_dir):
        self.root = Path(out_dir)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create output directory {self.root}: {exc.strerror}") from None
        if not self.root.is_dir():
            raise InputError(f"output path {self.root} is not a directory")

    def write_csv(self, name: str, frame: pd.DataFrame) -> Path:
        """Write a CSV summary and return its path."""
        path = self.root / f"{name}.csv"
        atomic_write(path, lambda p: frame.to_csv(p, index=False))
        self._record_outputs([path])
        return path

    def write_manifest(self, manifest: dict) -> Path:
        """Merge ``manifest`` into ``manifest.json`` (keys already there, such as the run status, are
        kept unless given again), adding the version and platform so a run can be reproduced."""
        path = self.root / "manifest.json"
        try:
            existing = json.loads(path.read_text()) if path.is_file() else {}
        except json.JSONDecodeError:
            existing = {}
        content = {**existing, "analyzer_version": __version__, "python": sys.version.split()[0],
                   "platform": platform.platform(), **manifest}
        atomic_write(path, lambda p: p.write_text(json.dumps(content, indent=2, default=str) + "\n"))
        return path

    def save_figure(self, figure, stem: str) -> list[Path]:
        """Save a matplotlib figure as PNG and SVG and close it."""
        import matplotlib.pyplot as plt

        paths = []
        for suffix in ("png", "svg"):
            path = self.root / f"{stem}.{suffix}"
            atomic_write(path, lambda p, s=suffix: figure.savefig(p, format=s, dpi=130, bbox_inches="tight"))
            paths.append(path)
        plt.close(figure)
        self._record_outputs(paths)
        return paths

    def _record_outputs(self, paths: list[Path]) -> None:
        """Record the checksums of files just written in the manifest's ``outputs``, which readers check."""
        path = self.root / "manifest.json"
        try:
            outputs = json.loads(path.read_text()).get("outputs", {}) if path.is_file() else {}
        except (json.JSONDecodeError, AttributeError):
            outputs = {}
        self.write_manifest({"outputs": {**outputs, **{p.name: file_sha256(p) for p in paths}}})
