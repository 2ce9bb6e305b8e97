"""Chunk checkpoints: every finished chunk is stored in the run directory at once, as data.

Layout: ``<run>/chunks/<stage>/fingerprint.json`` says which computation the chunks belong to
(task, parameters, seed, chunk size, number of items); ``chunk-000012.npz`` holds chunk 12's
aggregate (:mod:`analyzer.experiments.chunkfile`: no pickle, so a run folder from elsewhere runs no
code); ``ledger.jsonl`` holds each chunk's checksums (:mod:`analyzer.reports.integrity`). Files
are written to a temporary sibling and renamed, and a chunk counts as done once its ledger line is
written: a crash loses at most the chunks in flight. A run re-started with the same fingerprint reuses
every chunk whose file and Parquet part match their checksums; a damaged or missing one is named on
stderr and recomputed, never merged.
"""

import hashlib
import json
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from analyzer import __version__
from analyzer.errors import InputError
from analyzer.experiments import chunkfile
from analyzer.experiments.code_digest import code_digest
from analyzer.reports.integrity import Ledger, PartRecord, part_problem
from analyzer.reports.manifest import CHUNKS_DIR
from analyzer.reports.store import atomic_write

FINGERPRINT_NAME = "fingerprint.json"
# Chunk files of analyzer versions that pickled them: never opened.
LEGACY_PATTERN = "chunk-*.pkl"


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
    """What must match before a stored chunk may be reused: the computation, and the code that made it (a
    change of the solver or a bot changes results without a new version number, so its sources count)."""
    return {"task": task_name(task), "params_sha256": params_digest(params), "seed": _seed_key(seed),
            "chunk_size": int(chunk_size), "n_items": int(n_items), "analyzer_version": __version__,
            "code_sha256": code_digest()}


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


@contextmanager
def _stop_signals_deferred():
    """Hold Ctrl-C and SIGTERM until the block ends, then deliver the first one to the usual handler.

    Python runs signal handlers in the main thread at its next instruction, whichever thread the
    signal reached, so handlers that only note the signal are what makes the block uninterruptible
    (blocking the signal in this thread would not: another thread can take it).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {number: signal.signal(number, lambda signum, frame: caught.append(signum))
                for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        if caught:
            signal.raise_signal(caught[0])


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
        self.run_dir = Path(run_dir)
        self.directory = self.run_dir / CHUNKS_DIR / stage
        self.stage = stage
        self.expected = expected
        self.ledger = Ledger(run_dir, stage)

    def open(self, n_chunks: int) -> dict[int, Any]:
        """Check the stored fingerprint (or write it) and load every intact finished chunk.

        A recorded chunk whose file or part is missing or damaged is named on stderr, its file
        deleted, and left out: the run computes it again.

        Returns
        -------
        dict
            Finished results by chunk index.

        Raises
        ------
        InputError
            If the stored chunks belong to a different computation or to an analyzer that pickled them.
        """
        if not self.verify():
            atomic_write(self.directory / FINGERPRINT_NAME,
                         lambda p: p.write_text(json.dumps(self.expected, indent=2) + "\n"))
        remove_leftovers(self.directory)
        results = {}
        entries = self.ledger.entries()
        for path in sorted(self.directory.glob(f"chunk-*{chunkfile.SUFFIX}")):
            index = path.name[len("chunk-"):-len(chunkfile.SUFFIX)]
            if index.isdigit() and int(index) not in entries:  # its ledger line was lost (a crash, damage)
                print(f"warning: {self.run_dir} stage {self.stage} chunk {int(index)}: {path.name} has no checksum "
                      "record; computing it again", file=sys.stderr)
        for index, entry in sorted(entries.items()):
            if index >= n_chunks:
                raise InputError(f"{self.ledger.path} records chunk {index}, outside the run's {n_chunks} chunks; "
                                 "the run directory is corrupt")
            problem, result = self._load(index, entry)
            if problem is None:
                results[index] = result
                continue
            self._path(index).unlink(missing_ok=True)
            print(f"warning: {self.run_dir} stage {self.stage} chunk {index}: {problem}; computing it again",
                  file=sys.stderr)
        return results

    def verify(self) -> bool:
        """Check, writing nothing, that chunks stored for this stage belong to the expected computation.

        Returns
        -------
        bool
            Whether the stage has a stored fingerprint (chunks of an earlier session may follow).

        Raises
        ------
        InputError
            If the stored fingerprint is unreadable or differs from the expected one, or the stage holds
            pickled chunks of an older analyzer.
        """
        if self.directory.is_dir() and any(self.directory.glob(LEGACY_PATTERN)):
            raise InputError(f"{self.run_dir} holds pickled chunks of an older analyzer, which are never opened "
                             "(a pickle can run code); run the experiment again into a new --out")
        path = self.directory / FINGERPRINT_NAME
        if not path.exists():
            return False
        try:
            stored = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{path} is corrupt: {exc}") from None
        if stored != self.expected:
            differing = sorted(k for k in set(stored) | set(self.expected) if stored.get(k) != self.expected.get(k))
            if differing == ["code_sha256"]:
                made_by = str(stored.get('code_sha256') or 'unrecorded')[:12]
                codes = f"code {made_by}, this is {self.expected['code_sha256'][:12]}"
                raise InputError(f"{self.run_dir}'s chunks were made by other analyzer code ({codes}): finish it "
                                 "with the analyzer that started it, or run it again into a new --out")
            raise InputError(f"{self.run_dir} holds chunks of a different run (stage "
                             f"'{self.stage}' differs in {', '.join(differing)}); use another --out or delete it")
        return True

    def save(self, index: int, result, part: PartRecord | None = None) -> None:
        """Write one chunk's result atomically, then record its checksums (and its part's) in the ledger;
        Ctrl-C and SIGTERM wait until both are written, so a stop never orphans a finished chunk."""
        data = chunkfile.encode(result)
        with _stop_signals_deferred():
            atomic_write(self._path(index), lambda p: p.write_bytes(data))
            self.ledger.append(index, hashlib.sha256(data).hexdigest(), len(data), part)

    def count(self, n_chunks: int) -> int:
        """How many chunks are recorded: what a resume will reuse if their files are intact."""
        return sum(1 for index in self.ledger.entries() if index < n_chunks)

    def seal(self) -> dict:
        """The stage's checksum summary for the manifest (see ``Ledger.seal``)."""
        return self.ledger.seal()

    def _load(self, index: int, entry: dict) -> tuple[str | None, Any]:
        """``(None, result)`` for an intact chunk, else ``(what is wrong, None)``."""
        path = self._path(index)
        if not path.is_file():
            return f"{path.name} is missing", None
        data = path.read_bytes()
        if len(data) != entry["bytes"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return f"{path.name} is damaged (checksum differs)", None
        problem = part_problem(self.ledger.root, entry)
        if problem is not None:
            return problem, None
        try:
            return None, chunkfile.decode(data)
        except ValueError as exc:
            return f"{path.name} is unreadable ({exc})", None

    def _path(self, index: int) -> Path:
        return self.directory / f"chunk-{index:06d}{chunkfile.SUFFIX}"
