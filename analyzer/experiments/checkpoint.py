"""Chunk checkpoints: every finished chunk is pickled into the run directory at once.

Layout: ``<run>/chunks/<stage>/fingerprint.json`` says which computation the chunks belong to
(task, parameters, seed, chunk size, number of items); ``chunk-000012.pkl`` holds chunk 12's
result. Files are written to a temporary sibling and renamed, so a chunk file that exists is
complete: a crash loses at most the chunks in flight. A run re-started with the same fingerprint
reuses the chunk files and computes only the missing ones.
"""

import hashlib
import json
import pickle
import re
from pathlib import Path
from typing import Any

import numpy as np

from analyzer import __version__
from analyzer.errors import InputError
from analyzer.reports.manifest import CHUNKS_DIR
from analyzer.reports.store import atomic_write

FINGERPRINT_NAME = "fingerprint.json"
_CHUNK_FILE = re.compile(r"chunk-(\d{6})\.pkl")


def task_name(task) -> str:
    """The qualified name ``module:qualname`` of a task function."""
    return f"{getattr(task, '__module__', '?')}:{getattr(task, '__qualname__', repr(task))}"


def params_digest(params) -> str:
    """A SHA-256 digest of ``params`` that is stable across processes and runs.

    Dicts are hashed with sorted keys; numpy arrays by dtype, shape and bytes; other objects by
    ``repr`` (dataclasses and enums have stable reprs).
    """
    digest = hashlib.sha256()
    _feed(digest, params)
    return digest.hexdigest()


def _feed(digest, value) -> None:
    if isinstance(value, dict):
        digest.update(b"{")
        for key in sorted(value, key=repr):
            _feed(digest, key)
            digest.update(b":")
            _feed(digest, value[key])
        digest.update(b"}")
    elif isinstance(value, (list, tuple)):
        digest.update(b"[" if isinstance(value, list) else b"(")
        for item in value:
            _feed(digest, item)
            digest.update(b",")
        digest.update(b"]")
    elif isinstance(value, np.ndarray):
        digest.update(f"ndarray{value.dtype.str}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, np.generic):
        digest.update(f"{value.dtype.str}:{value.item()!r}".encode())
    else:
        digest.update(f"{type(value).__name__}:{value!r}".encode())


def params_summary(params):
    """A JSON-able, readable view of ``params`` for manifests: arrays become ``"int64[4, 13]"``."""
    if isinstance(params, dict):
        return {str(key): params_summary(value) for key, value in params.items()}
    if isinstance(params, (list, tuple)):
        return [params_summary(item) for item in params]
    if isinstance(params, np.ndarray):
        return f"{params.dtype}[{', '.join(map(str, params.shape))}]"
    if isinstance(params, np.generic):
        return params.item()
    if params is None or isinstance(params, (bool, int, float, str)):
        return params
    return repr(params)


def fingerprint(task, params, seed, chunk_size: int, n_items: int) -> dict:
    """What must match before a stored chunk may be reused (the analyzer version too: code changes results)."""
    return {"task": task_name(task), "params_sha256": params_digest(params), "seed": _seed_key(seed),
            "chunk_size": int(chunk_size), "n_items": int(n_items), "analyzer_version": __version__}


def _seed_key(seed):
    """A JSON-able identity of a seed: the int, or a SeedSequence's entropy and spawn key."""
    if isinstance(seed, np.random.SeedSequence):
        return {"entropy": str(seed.entropy), "spawn_key": list(seed.spawn_key)}
    return int(seed)


def remove_leftovers(directory) -> None:
    """Delete the temporary files of writes cut short by a crash or a stopped worker.

    Only for directories of one run, where nothing else writes while the run is open.
    """
    for leftover in Path(directory).glob(".*.tmp"):
        leftover.unlink(missing_ok=True)


class ChunkCheckpoint:
    """The chunk files of one stage of one run.

    Parameters
    ----------
    run_dir : path-like
        The run directory.
    stage : str
        Name of this ``run_chunks`` call within the run (a directory name).
    expected : dict
        The fingerprint (see ``fingerprint``) of the computation about to run.
    """

    def __init__(self, run_dir, stage: str, expected: dict):
        self.directory = Path(run_dir) / CHUNKS_DIR / stage
        self.stage = stage
        self.expected = expected

    def open(self, n_chunks: int) -> dict[int, Any]:
        """Check the stored fingerprint (or write it) and load every finished chunk.

        Returns
        -------
        dict
            Finished results by chunk index.

        Raises
        ------
        InputError
            If the stored chunks belong to a different computation, or a stored file is unreadable.
        """
        if not self.verify():
            atomic_write(self.directory / FINGERPRINT_NAME,
                         lambda p: p.write_text(json.dumps(self.expected, indent=2) + "\n"))
        remove_leftovers(self.directory)
        return {index: self._load(index) for index in self._stored_indices(n_chunks)}

    def verify(self) -> bool:
        """Check, writing nothing, that chunks stored for this stage belong to the expected computation.

        Returns
        -------
        bool
            Whether the stage has a stored fingerprint (chunks of an earlier session may follow).

        Raises
        ------
        InputError
            If the stored fingerprint is unreadable or differs from the expected one.
        """
        path = self.directory / FINGERPRINT_NAME
        if not path.exists():
            return False
        try:
            stored = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{path} is corrupt: {exc}") from None
        if stored != self.expected:
            differing = sorted(k for k in set(stored) | set(self.expected) if stored.get(k) != self.expected.get(k))
            raise InputError(f"{self.directory.parent.parent} holds chunks of a different run (stage "
                             f"'{self.stage}' differs in {', '.join(differing)}); use another --out or delete it")
        return True

    def save(self, index: int, result) -> None:
        """Write one chunk's result atomically."""
        atomic_write(self._path(index), lambda p: p.write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)))

    def count(self, n_chunks: int) -> int:
        """How many chunks are stored: what a resume will reuse."""
        return len(self._stored_indices(n_chunks))

    def _stored_indices(self, n_chunks: int) -> list[int]:
        indices = []
        for entry in self.directory.iterdir():
            match = _CHUNK_FILE.fullmatch(entry.name)
            if match is None:
                continue
            index = int(match.group(1))
            if index >= n_chunks:
                raise InputError(f"{entry} is outside the run's {n_chunks} chunks; the run directory is corrupt")
            indices.append(index)
        return sorted(indices)

    def _load(self, index: int):
        path = self._path(index)
        try:
            return pickle.loads(path.read_bytes())
        except Exception as exc:
            raise InputError(f"{path} is corrupt ({type(exc).__name__}); delete it to recompute that chunk") from None

    def _path(self, index: int) -> Path:
        return self.directory / f"chunk-{index:06d}.pkl"
