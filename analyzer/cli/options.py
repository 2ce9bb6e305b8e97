"""Option types shared by every command, declared once."""

import json
import math
import sys
from typing import Annotated

import typer

from analyzer.catalog import MAX_WORKERS, default_workers
from analyzer.errors import InputError

# Upper bounds of the count options (docs in docs/commands.md): far above any run that finishes in a
# day, low enough that a typo fails at once instead of exhausting memory or planning chunks forever.
MAX_ITEMS = 10**9
MAX_CHUNK_SIZE = 10**6


def _check_scheduler(spec: str | None) -> str | None:
    # make_backend only parses the spec (nothing starts before the run), so a bad one fails before
    # the run directory is created.
    if spec is not None:
        from analyzer.experiments.backends import make_backend

        try:
            backend = make_backend(spec, 1)
            if hasattr(backend, "probe"):
                backend.probe()
        except InputError as exc:
            raise typer.BadParameter(str(exc)) from None
    return spec


Seed = Annotated[int, typer.Option("--seed", min=0, help="Run seed: the same seed gives the same results.")]
Workers = Annotated[int, typer.Option("--workers", min=1, max=MAX_WORKERS,
                                      help="Local worker processes (default: one per core).",
                                      default_factory=default_workers, show_default="cores")]
Scheduler = Annotated[str | None, typer.Option(
    "--scheduler", help="Where chunks run: local processes (default), local:N (a throw-away Dask cluster with "
                        "N workers) or tcp://HOST:PORT (an existing Dask scheduler). Results do not depend on it.",
    show_default="local processes", callback=_check_scheduler)]
# A string, not a Path: Path("") is ".", and an empty --out must not mean "write into this folder".
OutDir = Annotated[str | None, typer.Option("--out", help="Run directory (default: results/<experiment>-<UTC time>).")]
JsonOut = Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")]
ChunkSize = Annotated[int, typer.Option("--chunk-size", min=1, max=MAX_CHUNK_SIZE,
                                        help="Items per chunk; results depend on it.")]


def json_dumps(payload) -> str:
    """JSON text of a command's summary: NaN and infinities (undefined intervals) become ``null``."""
    return json.dumps(_finite(payload), default=_plain)


def _finite(value):
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    numpy = sys.modules.get("numpy")  # a numpy scalar exists only once numpy is loaded; --help loads none
    if numpy is not None and isinstance(value, numpy.generic):
        return _finite(value.item())
    return value


def _plain(value):
    return str(value)
