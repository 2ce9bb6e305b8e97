"""Comparing two run folders file by file: the check behind every "resumes to the same files" test."""

import json
from pathlib import Path

# Manifest fields that name the process, the machine or the time, not the result.
VOLATILE_KEYS = {"argv", "command", "out_dir", "pid", "host", "started", "updated", "timings"}


def comparable_manifest(path: Path, across_backends: bool) -> dict:
    """The manifest without its volatile fields (and, across backends, without where it ran)."""
    ignored = VOLATILE_KEYS | {"cwd"} if across_backends else VOLATILE_KEYS
    manifest = {k: v for k, v in json.loads(path.read_text()).items() if k not in ignored}
    manifest["outputs"] = {name: digest for name, digest in manifest["outputs"].items() if not name.endswith(".svg")}
    for stage in manifest["stages"].values():
        stage.pop("seconds")
        if across_backends:
            stage.pop("backend")
    return manifest


def assert_same_run(run_dir: Path, reference: Path, across_backends: bool = False) -> None:
    """Every file equal byte for byte, the manifest up to times and paths; SVGs carry a date and random ids."""
    files = sorted(p.relative_to(run_dir) for p in run_dir.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(reference) for p in reference.rglob("*") if p.is_file())
    for name in files:
        if name.suffix == ".svg":
            continue
        if name == Path("manifest.json"):
            assert comparable_manifest(run_dir / name, across_backends) == comparable_manifest(
                reference / name, across_backends)
        else:
            assert (run_dir / name).read_bytes() == (reference / name).read_bytes(), name
