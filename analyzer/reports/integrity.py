"""Checksums of a run's stored files, so that damage is found before anything is read from them.

Every finished chunk appends one JSON line to its stage's ledger (``chunks/<stage>/ledger.jsonl``):
the chunk file's SHA-256 and size and, when the chunk wrote rows, its Parquet part's path, SHA-256
and row count. Appending one short line is the only write per chunk, so the cost stays flat in the
number of chunks (a manifest holding every checksum would be rewritten whole after every chunk). When
a stage completes, the manifest records the ledger's own SHA-256 and the stage's row count, so the
chain manifest -> ledger -> files covers every byte a reader uses.

This detects damage (a disk error, an edit, a lost file), not forgery: whoever can rewrite the files
can rewrite their checksums too. That is safe because nothing in a run folder can run code.
"""

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import InputError
from analyzer.reports.manifest import CHUNKS_DIR, STAGE_NAME
from analyzer.reports.store import atomic_write, file_sha256

LEDGER_NAME = "ledger.jsonl"
# A part is named by its chunk's first item inside a dataset folder of the run: nothing else is read.
_PART_PATH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*/part-\d{12}\.parquet")


@dataclass(frozen=True)
class PartRecord:
    """What a worker reports of the Parquet part it wrote: its absolute path, checksum and row count."""

    path: str
    sha256: str
    rows: int


def describe_part(path, rows: int) -> PartRecord:
    """The record of a part file just written."""
    return PartRecord(str(Path(path).resolve()), file_sha256(path), int(rows))


class Ledger:
    """The append-only checksum list of one stage.

    Parameters
    ----------
    run_dir : path-like
        The run directory.
    stage : str
        The stage (a directory name under ``chunks/``).
    """

    def __init__(self, run_dir, stage: str):
        self.root = Path(run_dir).resolve()
        self.path = self.root / CHUNKS_DIR / stage / LEDGER_NAME

    def append(self, index: int, chunk_sha256: str, chunk_bytes: int, part: PartRecord | None) -> None:
        """Record one finished chunk (one ``write`` of one line; a line cut short by a crash is skipped on reading)."""
        entry = {"chunk": int(index), "sha256": chunk_sha256, "bytes": int(chunk_bytes)}
        if part is not None:
            entry.update(part=Path(part.path).relative_to(self.root).as_posix(), part_sha256=part.sha256,
                         rows=part.rows)
        line = (json.dumps(entry, sort_keys=True) + "\n").encode()
        descriptor = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            size = os.fstat(descriptor).st_size
            if size and os.pread(descriptor, 1, size - 1) != b"\n":
                line = b"\n" + line  # after a line torn by a crash: start a fresh one
            os.write(descriptor, line)
        finally:
            os.close(descriptor)

    def entries(self) -> dict[int, dict]:
        """The latest well-formed entry of every recorded chunk (a recomputed chunk appends a new one)."""
        if not self.path.is_file():
            return {}
        found = {}
        for line in self.path.read_bytes().splitlines():
            entry = _parse(line)
            if entry is not None:
                found[entry["chunk"]] = entry
        return found

    def seal(self) -> dict:
        """Rewrite the ledger in chunk order, one entry per chunk (the same bytes whatever order the
        chunks finished in), and return what the manifest records of the completed stage: the ledger's
        checksum and the rows it lists."""
        if not self.path.is_file():
            return {}
        entries = [entry for _, entry in sorted(self.entries().items())]
        text = "".join(json.dumps(entry, sort_keys=True) + "\n" for entry in entries)
        atomic_write(self.path, lambda p: p.write_text(text))
        return {"ledger_sha256": file_sha256(self.path), "rows": sum(entry.get("rows", 0) for entry in entries)}


def _parse(line: bytes) -> dict | None:
    try:
        entry = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("chunk"), int) or entry["chunk"] < 0:
        return None
    if not isinstance(entry.get("sha256"), str) or not isinstance(entry.get("bytes"), int):
        return None
    if "part" in entry and not (isinstance(entry["part"], str) and _PART_PATH.fullmatch(entry["part"])
                                and isinstance(entry.get("part_sha256"), str)
                                and isinstance(entry.get("rows"), int) and entry["rows"] >= 0):
        return None
    return entry


def part_problem(root: Path, entry: dict) -> str | None:
    """Why the part of a ledger entry cannot be used (missing, other bytes), or None if it is intact."""
    if "part" not in entry:
        return None
    path = root / entry["part"]
    if not path.is_file():
        return f"{entry['part']} is missing"
    if file_sha256(path) != entry["part_sha256"]:
        return f"{entry['part']} is damaged (checksum differs)"
    return None


def verified_parts(run_dir, dataset: str, manifest: dict) -> list[Path]:
    """The Parquet parts of a complete run's ``dataset`` folder, each checked against its checksum.

    Parameters
    ----------
    run_dir : path-like
        The run directory.
    dataset : str
        The rows folder (e.g. ``hands``).
    manifest : dict
        The run's manifest (read and validated by the caller).

    Returns
    -------
    list of Path
        The parts in row order.

    Raises
    ------
    InputError
        If the run is not complete, predates checksums, or a part, a chunk's record or the ledger is
        missing or damaged; the message names the first problem and how to repair it.
    """
    root = Path(run_dir).resolve()
    repair = f"repair it with: analyzer resume {run_dir}"
    if manifest.get("status") != "complete":
        raise InputError(f"{run_dir} is {manifest.get('status', 'incomplete')}, not complete; finish it with: "
                         f"analyzer resume {run_dir}")
    parts: dict[str, Path] = {}
    stages = manifest.get("stages") if isinstance(manifest.get("stages"), dict) else {}
    for stage, info in stages.items():
        total = info.get("chunks_total", 0) if isinstance(info, dict) else None
        if not (STAGE_NAME.fullmatch(stage) and isinstance(total, int) and total >= 0):
            raise InputError(f"{run_dir}/manifest.json is corrupt (stage {stage!r})")
        ledger = Ledger(root, stage)
        if "ledger_sha256" not in info:
            raise InputError(f"{run_dir} records no checksums (written before run format 2); re-run it "
                             "into a new --out")
        if not ledger.path.is_file() or file_sha256(ledger.path) != info["ledger_sha256"]:
            raise InputError(f"{run_dir}: {ledger.path.relative_to(root)} is missing or damaged; {repair}")
        entries = ledger.entries()
        # The first gap only: a doctored chunks_total of 10**15 must not walk the whole range.
        missing = next((index for index in range(total) if index not in entries), None)
        if missing is not None:
            raise InputError(f"{run_dir}: chunk {missing} of stage {stage} has no record; {repair}")
        for entry in entries.values():
            if "part" not in entry or not entry["part"].startswith(dataset + "/"):
                continue
            problem = part_problem(root, entry)
            if problem is not None:
                raise InputError(f"{run_dir}: {problem}; {repair}")
            parts[entry["part"]] = root / entry["part"]
    if not parts:
        raise InputError(f"{run_dir} holds no {dataset}/ rows")
    return [parts[name] for name in sorted(parts)]


def check_outputs(run_dir, paths) -> None:
    """Refuse output files that differ from the checksums their run recorded on completion.

    Files the run did not record (added later, e.g. a strategy card fitted into the folder, or a run
    written before checksums) are not checked.

    Raises
    ------
    InputError
        Naming the first damaged or missing recorded file and the repair.
    """
    from analyzer.reports.manifest import read_manifest

    root = Path(run_dir)
    recorded = read_manifest(root).get("outputs")
    if not isinstance(recorded, dict):
        return
    for path in paths:
        digest = recorded.get(Path(path).name)
        if digest is None:
            continue
        if not Path(path).is_file() or file_sha256(path) != digest:
            raise InputError(f"{run_dir}: {Path(path).name} is missing or damaged (checksum differs); repair it "
                             f"with: analyzer resume {run_dir}")
