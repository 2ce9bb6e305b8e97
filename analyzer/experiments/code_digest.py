"""The digest of the sources that compute results, and numba's cache folder named by it.

Light on purpose (standard library only): the command line calls :func:`use_digest_cache` before anything
imports numba, whose settings are read once, at its import.
"""

import functools
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

# The installed analyzer package, and its parts whose sources no chunk's result depends on (the digest
# names all the others: a new module counts unless it is put here on purpose).
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PRESENTING_PARTS = ("cli", "reports")
#: Folder of the package's numba caches, one sub-folder per code digest (``use_digest_cache``).
NUMBA_CACHES = "__pycache__/numba"
#: Age after which another digest's cache folder is deleted (seconds).
STALE_SECONDS = 24 * 3600


@functools.cache
def code_digest(package: Path = PACKAGE_ROOT) -> str:
    """SHA-256 of the Python sources that compute chunks (names and contents, in name order).

    Every source counts but those of the parts that only present results (``PRESENTING_PARTS``: the command
    line and the reports), so a change of help texts or reports leaves runs resumable while a change of a
    constant in ``catalog.py`` that a kernel reads does not. Hidden files and anything that is not a regular
    file (an editor's lock link such as ``.#rules.py``) are skipped.
    """
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        name = source.relative_to(package)
        if name.parts[0] in PRESENTING_PARTS or any(piece.startswith(".") for piece in name.parts):
            continue
        if source.is_symlink() or not source.is_file():
            continue
        digest.update(name.as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return digest.hexdigest()


def use_digest_cache(package: Path = PACKAGE_ROOT) -> Path | None:
    """Point numba's cache at ``<package>/__pycache__/numba/<code digest>`` and return that folder.

    Numba keys a cached kernel by its own file only, so after an edit of a module a kernel inlines (a rule,
    a constant of ``catalog.py``) it would load the old machine code; under a folder named by the digest of
    every computing source, new code finds no cache and compiles. Folders of other digests untouched for a
    day are deleted when a new one is made. Does nothing when ``NUMBA_CACHE_DIR`` is
    set (the user's choice, or a parent process's, which workers inherit), once numba is imported (too late
    to take effect), or when the package's folder is not writable (numba's own fallback then applies).
    """
    if os.environ.get("NUMBA_CACHE_DIR") or "numba" in sys.modules:
        return None
    caches = package / NUMBA_CACHES
    folder = caches / code_digest(package)[:16]
    if not folder.is_dir():
        try:
            for old in caches.glob("*"):
                # Only folders a day old: a process of the code before an edit may still be saving kernels.
                if time.time() - old.stat().st_mtime > STALE_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
            folder.mkdir(parents=True, exist_ok=True)  # two processes starting together after an edit
        except OSError:
            return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    return folder
