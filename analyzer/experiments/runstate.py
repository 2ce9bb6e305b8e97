"""The batch state of a run directory, kept in its ``manifest.json``.

The runner merges its keys into whatever manifest the experiment has written (never dropping the
experiment's own keys): ``status`` (``running``, ``interrupted`` or ``complete``), the command line,
the working directory, ``format_version`` and per-stage chunk counts.
"""

import json
import os
import socket
import sys
import time
from pathlib import Path

from analyzer.reports.manifest import FORMAT_VERSION, MANIFEST_NAME, read_manifest_if_any


class RunState:
    """The runner's view of one run directory's manifest, merged and rewritten on every change.

    Parameters
    ----------
    store : RunStore
        The run's store; its manifest is read now and merged on every write.
    """

    def __init__(self, store):
        self.store = store
        self.manifest = read_manifest_if_any(store.root)
        # Runner time accumulates over every invocation (first run, resumes, later stages).
        self._seconds_before = float(self.manifest.get("timings", {}).get("batch_seconds", 0.0))
        self._started = time.time()

    def begin_stage(self, stage: str, info: dict) -> None:
        """Mark the run ``running`` and record a stage (task, sizes, chunks done so far)."""
        manifest = self.manifest
        manifest["format_version"] = FORMAT_VERSION
        manifest["argv"] = list(sys.argv)
        manifest["cwd"] = str(Path.cwd())
        manifest["out_dir"] = str(Path(self.store.root).resolve())
        # Lets the catalog tell a run still going from one killed without a chance to say so.
        manifest["pid"] = os.getpid()
        manifest["host"] = socket.gethostname()
        manifest.setdefault("started", _utc_now())
        manifest.setdefault("stages", {})[stage] = info
        self._write("running")

    def chunk_done(self, stage: str, chunks_done: int) -> None:
        """Record one more finished chunk of ``stage``."""
        self.manifest["stages"][stage]["chunks_done"] = chunks_done
        self._write("running")

    def end_stage(self, stage: str, seconds: float) -> None:
        """Record a finished stage; the run counts as complete until another stage begins."""
        self.manifest["stages"][stage]["seconds"] = round(seconds, 3)
        self._write("complete")

    def stopped(self, stage: str, chunks_done: int, status: str) -> None:
        """Record that the run stopped before finishing: ``interrupted`` (Ctrl-C, SIGTERM) or ``failed``.

        When the folder no longer takes new files (made read-only during the run, disk full), the
        manifest is overwritten in place instead, so that it does not go on saying ``running``: written
        compactly and padded with spaces (which JSON ignores) to the old file's size, never truncated, so
        that no write needs a new block and a failed one cannot leave the manifest, and its command line,
        empty.
        """
        self.manifest["stages"][stage]["chunks_done"] = chunks_done
        try:
            self._write(status)
        except OSError:
            path = Path(self.store.root) / MANIFEST_NAME
            text = (json.dumps(self.manifest, separators=(",", ":"), default=str) + "\n").encode()
            try:
                size = path.stat().st_size
                if len(text) <= size:
                    with open(path, "r+b") as handle:
                        handle.write(text.ljust(size, b" "))
            except OSError:
                pass  # nothing left to write with; the caller reports the original error

    def _write(self, status: str) -> None:
        self.manifest["status"] = status
        self.manifest["updated"] = _utc_now()
        timings = self.manifest.setdefault("timings", {})
        timings["batch_seconds"] = round(self._seconds_before + time.time() - self._started, 3)
        self.store.write_manifest(self.manifest)


def _utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def finish_run(store, manifest: dict) -> None:
    """Write an experiment's final manifest over the batch keys (command line, stages) and mark it complete.

    Parameters
    ----------
    store : RunStore
        The run's store.
    manifest : dict
        The experiment's own manifest fields (command, seed, rules, timings, ...).
    """
    merged = read_manifest_if_any(store.root)
    timings = {**merged.get("timings", {}), **manifest.get("timings", {})}
    merged.update(manifest)
    merged.update({"status": "complete", "updated": _utc_now(), "timings": timings})
    store.write_manifest(merged)
