"""Checkpoints and resume in the runner: finished chunks are stored, reused, and never mixed with another run's."""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from analyzer import __version__
from analyzer.cards.dealing import deal_random
from analyzer.errors import InputError
from analyzer.experiments.checkpoint import ChunkCheckpoint, params_digest
from analyzer.experiments.runner import run_chunks
from analyzer.experiments.runstate import finish_run
from analyzer.reports.manifest import read_manifest
from analyzer.reports.store import RunStore

# Chunk indices computed by `counted_chunk` in this process, and what it should do at a given chunk.
CALLS: list[int] = []
STOP_AT: dict[str, int] = {}


def counted_chunk(params, start, count, seed_seq):
    """Deals per chunk; records its calls and can simulate Ctrl-C or SIGTERM at one chunk."""
    index = start // params["chunk_size"]
    if STOP_AT.get("interrupt") == index:
        raise KeyboardInterrupt
    if STOP_AT.get("sigterm") == index:
        os.kill(os.getpid(), signal.SIGTERM)
    CALLS.append(index)
    deals = deal_random(count, seed_seq)
    return pd.DataFrame({"item": np.arange(start, start + count), "north": deals[:, 0]})


def tuple_chunk(params, start, count, seed_seq):
    """A chunk result that is not a DataFrame."""
    return start, deal_random(count, seed_seq)


@pytest.fixture(autouse=True)
def reset_calls():
    CALLS.clear()
    STOP_AT.clear()
    yield
    CALLS.clear()
    STOP_AT.clear()


def run(store, n_items=100, seed=7, chunk_size=20, **extra):
    params = {"chunk_size": chunk_size, **extra.pop("params", {})}
    return run_chunks(counted_chunk, params, n_items, seed=seed, chunk_size=chunk_size, workers=1, store=store, **extra)


def concat(results):
    return pd.concat(results, ignore_index=True)


def test_checkpointed_run_equals_plain_run_and_reuses_every_chunk(tmp_path):
    plain = concat(run(None))
    stored = concat(run(RunStore(tmp_path)))
    pd.testing.assert_frame_equal(plain, stored)
    files = sorted(p.name for p in (tmp_path / "chunks" / "stage-00").glob("chunk-*.npz"))
    assert files == [f"chunk-{i:06d}.npz" for i in range(5)]
    manifest = read_manifest(tmp_path)
    assert manifest["status"] == "complete"
    assert manifest["stages"]["stage-00"]["chunks_done"] == 5
    CALLS.clear()
    again = concat(run(RunStore(tmp_path)))
    assert CALLS == []  # nothing recomputed
    pd.testing.assert_frame_equal(plain, again)


def test_interrupted_run_resumes_with_only_missing_chunks(tmp_path):
    plain = concat(run(None))
    CALLS.clear()
    STOP_AT["interrupt"] = 3
    with pytest.raises(KeyboardInterrupt):
        run(RunStore(tmp_path))
    assert CALLS == [0, 1, 2]
    manifest = read_manifest(tmp_path)
    assert manifest["status"] == "interrupted"
    assert manifest["stages"]["stage-00"]["chunks_done"] == 3
    CALLS.clear()
    STOP_AT.clear()
    resumed = concat(run(RunStore(tmp_path)))
    assert CALLS == [3, 4]
    pd.testing.assert_frame_equal(plain, resumed)
    assert read_manifest(tmp_path)["status"] == "complete"


def test_sigterm_stops_cleanly_and_marks_the_run_interrupted(tmp_path):
    STOP_AT["sigterm"] = 2
    previous = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        run(RunStore(tmp_path))
    assert signal.getsignal(signal.SIGTERM) is previous  # handler restored
    assert read_manifest(tmp_path)["status"] == "interrupted"
    assert len(list((tmp_path / "chunks" / "stage-00").glob("chunk-*.npz"))) == 2


def test_a_stop_between_a_chunks_file_and_its_count_still_counts_that_chunk(tmp_path, monkeypatch, capsys):
    save = ChunkCheckpoint.save

    def save_then_stop(self, index, result, part=None):
        save(self, index, result, part)
        if index == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(ChunkCheckpoint, "save", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        run(RunStore(tmp_path))
    assert len(list((tmp_path / "chunks" / "stage-00").glob("chunk-*.npz"))) == 2
    assert read_manifest(tmp_path)["stages"]["stage-00"]["chunks_done"] == 2
    assert "interrupted: 2/5 chunks saved" in capsys.readouterr().err


def test_a_failing_chunk_marks_the_run_failed(tmp_path):
    with pytest.raises(KeyError):
        run_chunks(counted_chunk, {}, 10, seed=1, chunk_size=5, workers=1, store=RunStore(tmp_path))
    assert read_manifest(tmp_path)["status"] == "failed"


@pytest.mark.parametrize("change", [dict(seed=8), dict(chunk_size=25), dict(n_items=120), dict(params={"x": 1})])
def test_chunks_of_another_run_are_never_reused(tmp_path, change):
    run(RunStore(tmp_path))
    with pytest.raises(InputError, match="different run"):
        run(RunStore(tmp_path), **change)


def test_stages_in_one_run_do_not_collide(tmp_path):
    store = RunStore(tmp_path)
    first = concat(run(store, seed=1))
    second = concat(run(store, seed=2))
    assert not first.equals(second)
    assert {p.name for p in (tmp_path / "chunks").iterdir()} == {"stage-00", "stage-01"}
    CALLS.clear()
    store = RunStore(tmp_path)
    pd.testing.assert_frame_equal(first, concat(run(store, seed=1)))
    pd.testing.assert_frame_equal(second, concat(run(store, seed=2)))
    assert CALLS == []


def test_named_stage_and_non_frame_results_round_trip(tmp_path):
    plain = run_chunks(tuple_chunk, {}, 30, seed=3, chunk_size=10, workers=1)
    run_chunks(tuple_chunk, {}, 30, seed=3, chunk_size=10, workers=1, store=RunStore(tmp_path), stage="hands")
    stored = run_chunks(tuple_chunk, {}, 30, seed=3, chunk_size=10, workers=1, store=RunStore(tmp_path), stage="hands")
    assert [s for s, _ in stored] == [0, 10, 20]
    for (_, a), (_, b) in zip(plain, stored):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(InputError):
        run_chunks(tuple_chunk, {}, 30, seed=3, chunk_size=10, workers=1, store=RunStore(tmp_path), stage="../x")


def test_a_damaged_chunk_file_is_named_and_computed_again(tmp_path, capsys):
    plain = concat(run(None))
    run(RunStore(tmp_path))
    (tmp_path / "chunks" / "stage-00" / "chunk-000002.npz").write_bytes(b"not a chunk")
    (tmp_path / "chunks" / "stage-00" / "chunk-000004.npz").unlink()
    CALLS.clear()
    again = concat(run(RunStore(tmp_path)))
    assert CALLS == [2, 4]
    pd.testing.assert_frame_equal(plain, again)
    err = capsys.readouterr().err
    assert "chunk 2: chunk-000002.npz is damaged" in err and "chunk 4: chunk-000004.npz is missing" in err


def write_manifest(path, content):
    path.mkdir(parents=True, exist_ok=True)
    (path / "manifest.json").write_text(content)


@pytest.mark.parametrize("content, message", [
    ("{not json", "corrupt"),
    ("[1, 2]", "corrupt"),
    (json.dumps({"analyzer_version": "999.0.0"}), "newer"),
    (json.dumps({"analyzer_version": __version__, "format_version": 99}), "run format"),
])
def test_bad_run_directories_are_rejected(tmp_path, content, message):
    write_manifest(tmp_path / "run", content)
    with pytest.raises(InputError, match=message):
        read_manifest(tmp_path / "run")
    with pytest.raises(InputError, match=message):
        run(RunStore(tmp_path / "run"))


def test_directory_without_manifest_is_not_a_run(tmp_path):
    with pytest.raises(InputError, match="not a run directory"):
        read_manifest(tmp_path)


def test_finish_run_keeps_batch_keys_and_marks_complete(tmp_path):
    store = RunStore(tmp_path)
    run(store)
    finish_run(store, {"command": "demo", "seed": 7, "timings": {"total_seconds": 1.5}})
    manifest = read_manifest(tmp_path)
    assert manifest["status"] == "complete"
    assert manifest["command"] == "demo"
    assert "stage-00" in manifest["stages"] and "argv" in manifest
    assert set(manifest["timings"]) == {"batch_seconds", "slowest_chunks", "total_seconds"}


def test_params_digest_is_order_free_and_sees_array_contents():
    table = np.arange(6, dtype=np.int64).reshape(2, 3)
    changed = table.copy()
    changed[1, 2] = 99
    assert params_digest({"a": 1, "t": table}) == params_digest({"t": table.copy(), "a": 1})
    assert params_digest({"a": 1, "t": table}) != params_digest({"a": 1, "t": changed})
    assert params_digest({"a": 1, "t": table}) != params_digest({"a": 1, "t": table.astype(np.int32)})
    assert params_digest({"a": 1}) != params_digest({"a": "1"})


def test_params_digest_is_the_same_in_another_process():
    # Python salts str hashes per process; the digest must not depend on that.
    code = ("import numpy as np; from analyzer.experiments.checkpoint import params_digest; "
            "print(params_digest({'policy': 'heuristic', 'table': np.arange(4), 'w': (1.5, None)}))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert other == params_digest({"w": (1.5, None), "table": np.arange(4), "policy": "heuristic"})


def test_manifest_shows_params_readably(tmp_path):
    run(RunStore(tmp_path), params={"table": np.zeros((4, 13), dtype=np.int64), "policy": "random"})
    assert read_manifest(tmp_path)["stages"]["stage-00"]["params"] == {"chunk_size": 20, "table": "int64[4, 13]",
                                                                       "policy": "random"}


def test_chunks_from_another_analyzer_version_are_not_reused(tmp_path, monkeypatch):
    run(RunStore(tmp_path))
    monkeypatch.setattr("analyzer.experiments.checkpoint.__version__", "0.0.1")
    with pytest.raises(InputError, match="analyzer_version"):
        run(RunStore(tmp_path))


def test_leftover_temporary_files_are_removed_on_resume(tmp_path):
    run(RunStore(tmp_path))
    leftover = tmp_path / "chunks" / "stage-00" / ".chunk-000001.pkl.abc.tmp"
    leftover.write_bytes(b"half a chunk")
    # A kill -9 while the manifest is rewritten leaves its temporary file in the run folder itself.
    manifest_leftover = tmp_path / ".manifest.json.def.tmp"
    manifest_leftover.write_bytes(b"{")
    run(RunStore(tmp_path))
    assert not leftover.exists() and not manifest_leftover.exists()


def test_chunks_made_by_other_code_are_not_reused(tmp_path, monkeypatch):
    run(RunStore(tmp_path))
    monkeypatch.setattr("analyzer.experiments.checkpoint.code_digest", lambda: "0" * 64)
    with pytest.raises(InputError, match=r"chunks were made by other analyzer code \(code [0-9a-f]{12}, this is "
                                         r"000000000000\): finish it with the analyzer that started it"):
        run(RunStore(tmp_path))


def test_the_code_digest_follows_the_computing_sources_and_nothing_else(tmp_path):
    from analyzer.experiments.code_digest import code_digest

    package = tmp_path / "package"
    for part in ("games", "cli", "solvers"):
        (package / part).mkdir(parents=True)
    (package / "games" / "rules.py").write_text("TRICKS = 13\n")
    (package / "solvers" / "search.py").write_text("")
    before = code_digest.__wrapped__(package)
    (package / "games" / "notes.txt").write_text("not code")
    (package / "cli" / "help.py").write_text("HELP = 'a help text changes no result'\n")
    (package / "games" / ".#rules.py").symlink_to("user@host.1")  # an editor's lock link, dangling
    assert code_digest.__wrapped__(package) == before
    (package / "games" / "rules.py").write_text("TRICKS = 12\n")
    changed = code_digest.__wrapped__(package)
    assert changed != before
    (package / "games" / "rules.py").rename(package / "games" / "rule.py")
    renamed = code_digest.__wrapped__(package)
    assert renamed not in (before, changed)
    (package / "catalog.py").write_text("PLAYOUTS_PER_SAMPLE = 32\n")  # a constant a kernel reads
    assert code_digest.__wrapped__(package) != renamed
