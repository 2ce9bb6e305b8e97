"""Stored chunks are data with checksums: damage is named and recomputed, and no file in a run runs code."""

import hashlib
import io
import json
import pickle

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.experiments import chunkfile
from analyzer.reports.integrity import LEDGER_NAME, verified_parts
from analyzer.reports.store import file_sha256
from analyzer.experiments.runner import run_chunks
from analyzer.reports.manifest import read_manifest
from analyzer.reports.stats import merge_sums
from analyzer.reports.store import RunStore

MARKER_NAME = "code-ran"
CALLS: list[int] = []


def rows_chunk(params, start, count, seed_seq):
    CALLS.append(start)
    values = np.random.default_rng(seed_seq).integers(0, 5, size=count)
    return pd.DataFrame({"item": np.arange(start, start + count), "value": values})


def sums(rows):
    counts = rows.groupby("value").size().to_frame("n")
    return {"by_value": counts, "total": np.array([rows["value"].sum()], dtype=np.int64)}


def run(root, n_items=60, chunk_size=10):
    store = None if root is None else RunStore(root)
    rows_dir = None if root is None else store.root / "rows"
    if root is None:
        return run_chunks(lambda *a: sums(rows_chunk(*a)), {}, n_items, seed=5, chunk_size=chunk_size, workers=1)
    return run_chunks(rows_chunk, {}, n_items, seed=5, chunk_size=chunk_size, workers=1, store=store,
                      stage="rows", rows_dir=rows_dir, aggregate=sums)


def merged(results):
    return merge_sums([{"by_value": r["by_value"]} for r in results])["by_value"], sum(r["total"][0] for r in results)


class Marker:
    """Unpickling this creates the marker file: proof that code ran."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


@pytest.fixture(autouse=True)
def clear_calls():
    CALLS.clear()


def stage_dir(root):
    return root / "chunks" / "rows"


def test_chunk_file_round_trips_aggregates():
    index = pd.MultiIndex.from_tuples([("a", 1), ("b", 2)], names=["factor", "code"])
    value = {"frame": pd.DataFrame({"n": [3.0, 4.0], "k": np.array([1, 2], dtype=np.int64)}, index=index),
             "named": pd.DataFrame({"x": [1]}, index=pd.Index([7], name="seat")),
             "array": np.arange(6, dtype=np.int32).reshape(2, 3), "scalars": [1, 2.5, "s", None, True]}
    back = chunkfile.decode(chunkfile.encode(value))
    pd.testing.assert_frame_equal(back["frame"], value["frame"])
    pd.testing.assert_frame_equal(back["named"], value["named"])
    np.testing.assert_array_equal(back["array"], value["array"])
    assert back["array"].dtype == np.int32
    assert back["scalars"] == value["scalars"]
    with pytest.raises(TypeError):
        chunkfile.encode({"bad": object()})
    with pytest.raises(TypeError):
        chunkfile.encode({"bad": np.array([object()])})


def test_a_chunk_file_holding_a_pickle_runs_no_code(tmp_path):
    marker = tmp_path / MARKER_NAME
    buffer = io.BytesIO()
    np.savez(buffer, tree=np.frombuffer(json.dumps({"array": "m0"}).encode(), dtype=np.uint8),
             m0=np.array([Marker(marker)], dtype=object))
    with pytest.raises(ValueError, match="not a chunk file"):
        chunkfile.decode(buffer.getvalue())
    with pytest.raises(ValueError, match="not a chunk file"):
        chunkfile.decode(pickle.dumps(Marker(marker)))
    assert not marker.exists()


def test_parts_and_chunks_carry_checksums_sealed_in_the_manifest(tmp_path):
    run(tmp_path)
    stage = read_manifest(tmp_path)["stages"]["rows"]
    ledger = stage_dir(tmp_path) / LEDGER_NAME
    assert stage["ledger_sha256"] == file_sha256(ledger) and stage["rows"] == 60
    entries = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert sorted(e["chunk"] for e in entries) == list(range(6))
    for entry in entries:
        assert entry["sha256"] == file_sha256(stage_dir(tmp_path) / f"chunk-{entry['chunk']:06d}.npz")
        assert entry["part_sha256"] == file_sha256(tmp_path / entry["part"]) and entry["rows"] == 10
    assert [p.name for p in verified_parts(tmp_path, "rows", read_manifest(tmp_path))] == [
        f"part-{start:012d}.parquet" for start in range(0, 60, 10)]


def _edit_counts(path):
    """A well-formed chunk file whose counts are doubled: only its checksum tells."""
    value = chunkfile.decode(path.read_bytes())
    value["by_value"]["n"] *= 2
    path.write_bytes(chunkfile.encode(value))


@pytest.mark.parametrize("damage", ["edited chunk", "deleted chunk", "edited part", "deleted part"])
def test_resume_names_and_recomputes_a_damaged_chunk_never_merging_it(tmp_path, damage, capsys):
    plain = merged(run(None))
    run(tmp_path)
    part = tmp_path / "rows" / "part-000000000020.parquet"
    chunk = stage_dir(tmp_path) / "chunk-000002.npz"
    if damage == "edited chunk":
        _edit_counts(chunk)
    elif damage == "deleted chunk":
        chunk.unlink()
    elif damage == "edited part":
        part.write_bytes(part.read_bytes()[:-3] + b"xyz")
    else:
        part.unlink()
    if "part" in damage:
        state = {"edited part": "damaged", "deleted part": "missing"}[damage]
        with pytest.raises(InputError, match=f"part-000000000020.parquet is {state}"):
            verified_parts(tmp_path, "rows", read_manifest(tmp_path))
    CALLS.clear()
    again = merged(run(tmp_path))
    assert CALLS == [20]
    pd.testing.assert_frame_equal(again[0], plain[0])
    assert again[1] == plain[1]
    assert "chunk 2:" in capsys.readouterr().err
    verified_parts(tmp_path, "rows", read_manifest(tmp_path))  # repaired


def test_a_forged_ledger_and_pickled_chunk_run_no_code(tmp_path):
    run(tmp_path)
    marker = tmp_path / MARKER_NAME
    buffer = io.BytesIO()
    np.savez(buffer, tree=np.frombuffer(json.dumps({"array": "m0"}).encode(), dtype=np.uint8),
             m0=np.array([Marker(marker)], dtype=object))
    data = buffer.getvalue()
    (stage_dir(tmp_path) / "chunk-000001.npz").write_bytes(data)
    entry = json.loads((stage_dir(tmp_path) / LEDGER_NAME).read_text().splitlines()[1])
    entry.update(sha256=hashlib.sha256(data).hexdigest(), bytes=len(data))
    with open(stage_dir(tmp_path) / LEDGER_NAME, "a") as ledger:
        ledger.write(json.dumps(entry) + "\n")
    CALLS.clear()
    run(tmp_path)
    assert CALLS == [10] and not marker.exists()


def test_a_run_with_pickled_chunks_is_refused_before_anything_is_written(tmp_path):
    run(tmp_path)
    marker = tmp_path / MARKER_NAME
    (stage_dir(tmp_path) / "chunk-000000.pkl").write_bytes(pickle.dumps(Marker(marker)))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    with pytest.raises(InputError, match="pickled chunks of an older analyzer.*new --out"):
        run(tmp_path)
    assert not marker.exists()
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_a_torn_ledger_line_only_costs_that_chunk(tmp_path, capsys):
    run(tmp_path)
    ledger = stage_dir(tmp_path) / LEDGER_NAME
    lines = ledger.read_text().splitlines()
    ledger.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    CALLS.clear()
    run(tmp_path)
    assert CALLS == [json.loads(lines[-1])["chunk"] * 10]
    assert "chunk 5: chunk-000005.npz has no checksum record" in capsys.readouterr().err
    CALLS.clear()
    run(tmp_path)  # the recomputed chunk's line starts on a line of its own
    assert CALLS == []


def test_an_intact_resume_warns_about_nothing(tmp_path, capsys):
    run(tmp_path)
    capsys.readouterr()
    CALLS.clear()
    run(tmp_path)
    assert CALLS == [] and capsys.readouterr().err == ""


def test_a_ledger_entry_outside_the_run_is_refused(tmp_path):
    run(tmp_path)
    ledger = stage_dir(tmp_path) / LEDGER_NAME
    entry = json.loads(ledger.read_text().splitlines()[0])
    with open(ledger, "a") as handle:
        handle.write(json.dumps({**entry, "chunk": 6}) + "\n")
    with pytest.raises(InputError, match="records chunk 6, outside the run's 6 chunks"):
        run(tmp_path)


def test_a_fingerprint_missing_a_key_names_it(tmp_path):
    run(tmp_path)
    path = stage_dir(tmp_path) / "fingerprint.json"
    stored = json.loads(path.read_text())
    del stored["seed"]
    path.write_text(json.dumps(stored))
    with pytest.raises(InputError, match=r"differs in seed\)"):
        run(tmp_path)


def test_params_summary_shows_objects_by_their_repr():
    import enum

    from analyzer.experiments.checkpoint import params_summary

    class Kind(enum.Enum):
        A = 1

    assert params_summary({"k": Kind.A, "n": None, "x": [1.5, "s"]}) == {"k": repr(Kind.A), "n": None, "x": [1.5, "s"]}


GOOD_ENTRY = {"chunk": 3, "sha256": "ab", "bytes": 10, "part": "rows/part-000000000030.parquet",
              "part_sha256": "cd", "rows": 10}


@pytest.mark.parametrize("change", [
    {"chunk": -1}, {"chunk": "3"}, {"chunk": None}, {"sha256": 5}, {"bytes": "10"},
    {"part": "../outside/part-000000000030.parquet"}, {"part": "/etc/passwd"}, {"part": "rows/part-1.parquet"},
    {"part": 7}, {"part_sha256": None}, {"rows": -1}, {"rows": 1.5},
])
def test_a_malformed_ledger_line_is_ignored(change):
    from analyzer.reports.integrity import _parse

    assert _parse(json.dumps(GOOD_ENTRY).encode()) == GOOD_ENTRY
    assert _parse(json.dumps({**GOOD_ENTRY, **change}).encode()) is None
    assert _parse(b"[1, 2]") is None and _parse(b"\xff") is None and _parse(b"{") is None
    without_part = {key: GOOD_ENTRY[key] for key in ("chunk", "sha256", "bytes")}
    assert _parse(json.dumps(without_part).encode()) == without_part


def test_counts_are_bounded_exactly_at_their_limits():
    from analyzer.experiments.backends import MAX_WORKERS, make_backend
    from analyzer.experiments.runner import MAX_CHUNKS, check_chunk_count

    assert check_chunk_count(MAX_CHUNKS, 1) == MAX_CHUNKS
    with pytest.raises(InputError, match="raise --chunk-size"):
        check_chunk_count(MAX_CHUNKS + 1, 1)
    assert make_backend(f"local:{MAX_WORKERS}", 1).n_workers == MAX_WORKERS
    for spec in (f"local:{MAX_WORKERS + 1}", "local:0", "", " "):
        with pytest.raises(InputError):
            make_backend(spec, 1)


@pytest.mark.parametrize("damage", ["delete", "edit"])
def test_a_missing_or_edited_ledger_is_refused_by_readers(tmp_path, damage):
    run(tmp_path)
    ledger = stage_dir(tmp_path) / LEDGER_NAME
    if damage == "delete":
        ledger.unlink()
    else:
        ledger.write_text(ledger.read_text() + "\n")
    with pytest.raises(InputError, match="chunks/rows/ledger.jsonl is missing or damaged; repair it with"):
        verified_parts(tmp_path, "rows", read_manifest(tmp_path))


def test_a_run_without_checksums_is_refused_by_readers(tmp_path):
    run(tmp_path)
    manifest = read_manifest(tmp_path)
    del manifest["stages"]["rows"]["ledger_sha256"]
    with pytest.raises(InputError, match="records no checksums"):
        verified_parts(tmp_path, "rows", manifest)


@pytest.mark.parametrize("corrupt", ["stage outside the run", "stage climbing out", "total null", "total negative",
                                     "total text"])
def test_a_manifest_with_corrupt_stages_is_refused_without_reading_outside_the_run(tmp_path, corrupt):
    run(tmp_path)
    manifest = read_manifest(tmp_path)
    info = manifest["stages"]["rows"]
    if corrupt == "stage outside the run":
        manifest["stages"] = {"/tmp": info}
    elif corrupt == "stage climbing out":
        manifest["stages"] = {"..": info}
    else:
        info["chunks_total"] = {"total null": None, "total negative": -1, "total text": "6"}[corrupt]
    with pytest.raises(InputError, match="manifest.json is corrupt"):
        verified_parts(tmp_path, "rows", manifest)


def test_a_huge_chunk_count_names_the_first_gap_at_once(tmp_path):
    # A doctored chunks_total of 10**15 once walked the whole range before answering.
    run(tmp_path)
    manifest = read_manifest(tmp_path)
    manifest["stages"]["rows"]["chunks_total"] = 10**15
    with pytest.raises(InputError, match="chunk 6 of stage rows has no record"):
        verified_parts(tmp_path, "rows", manifest)


def test_a_stop_while_a_chunk_is_saved_waits_until_its_ledger_line_is_written(tmp_path, monkeypatch, capsys):
    import os
    import signal

    from analyzer.reports.integrity import Ledger

    append = Ledger.append

    def stop_then_append(self, index, *args):
        if index == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # arrives between the chunk's file and its ledger line
        append(self, index, *args)

    monkeypatch.setattr(Ledger, "append", stop_then_append)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path)
    assert sorted(Ledger(tmp_path, "rows").entries()) == [0, 1, 2]
    assert "interrupted: 3/6 chunks saved" in capsys.readouterr().err


def test_outputs_are_checked_against_the_checksums_recorded_as_they_were_written(tmp_path):
    from analyzer.reports.integrity import check_outputs

    run(tmp_path)
    store = RunStore(tmp_path)
    summary = store.write_csv("summary", pd.DataFrame({"x": [1, 2]}))
    later = tmp_path / "added-later.csv"
    later.write_text("y\n3\n")
    check_outputs(tmp_path, [summary, later])
    summary.write_text("x\n1\n9\n")
    with pytest.raises(InputError, match="summary.csv is missing or damaged"):
        check_outputs(tmp_path, [later, summary])
    summary.unlink()
    with pytest.raises(InputError, match="summary.csv is missing or damaged"):
        check_outputs(tmp_path, [summary])
