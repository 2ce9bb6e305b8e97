"""Damaged runs on the command line: every reader names the damage in one line (exit 2), resume repairs it."""

import json
import sys

import pytest

from analyzer.cli.app import main

DEMO = ["runs", "demo", "--deals", "3000", "--chunk-size", "1000", "--workers", "1"]
BIDS = ["rikken", "bids", "--deals", "6", "--chunk-size", "3", "--workers", "1", "--seed", "4"]


def cli(capsys, *argv):
    """Run the CLI in this process, with the command line a run records."""
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as stop:
        patch.setattr(sys, "argv", ["analyzer", *argv])
        main(list(argv))
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def one_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture()
def demo(tmp_path, capsys):
    run_dir = tmp_path / "demo"
    assert cli(capsys, *DEMO, "--out", str(run_dir))[0] == 0
    return run_dir


@pytest.fixture(scope="module")
def bids_pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("bids")
    for name in ("it's \"a\"", "b'"):  # quotes in run paths: no path is written into SQL
        with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as stop:
            patch.setattr(sys, "argv", ["analyzer", *BIDS, "--out", str(root / name)])
            main([*BIDS, "--out", str(root / name)])
        assert stop.value.code == 0
    return root / "it's \"a\"", root / "b'"


def test_report_refuses_a_damaged_summary_and_resume_repairs_it(demo, tmp_path, capsys):
    summary = demo / "summary.csv"
    summary.write_text(summary.read_text().replace("0.", "9.", 1))
    code, _, err = cli(capsys, "report", str(demo), "--out", str(tmp_path / "r.html"))
    assert code == 2 and f"summary.csv is missing or damaged (checksum differs); repair it with: analyzer resume {demo}" \
        in one_error(err)
    assert not (tmp_path / "r.html").exists()
    assert cli(capsys, "resume", str(demo))[0] == 0
    assert cli(capsys, "report", str(demo), "--out", str(tmp_path / "r.html"))[0] == 0


@pytest.mark.parametrize("damage", ["delete", "corrupt"])
def test_query_refuses_a_damaged_part_and_resume_repairs_it(demo, capsys, damage):
    part = demo / "deals" / "part-000000001000.parquet"
    if damage == "delete":
        part.unlink()
    else:
        part.write_bytes(b"PAR1 not parquet PAR1")
    code, _, err = cli(capsys, "query", str(demo))
    assert code == 2 and f"part-000000001000.parquet is" in one_error(err) and "analyzer resume" in err
    assert cli(capsys, "resume", str(demo))[0] == 0
    code, out, _ = cli(capsys, "query", str(demo), "--json")
    assert code == 0 and sum(row["n"] for row in json.loads(out)["rows"]) > 0


def test_compare_and_strategy_fit_read_runs_with_quotes_in_their_paths(bids_pair, tmp_path, capsys):
    a, b = bids_pair
    assert cli(capsys, "rikken", "compare", str(a), str(b), "--json")[0] == 0
    code, _, err = cli(capsys, "rikken", "strategy", "fit", str(a), "--out", str(tmp_path / "s'.zip"), "--max-iter", "2")
    assert code == 0, err


@pytest.mark.parametrize("command", ["compare", "fit"])
def test_compare_and_strategy_fit_refuse_a_corrupt_part_in_one_line(bids_pair, tmp_path, capsys, command):
    a, b = bids_pair
    part = b / "hands" / "part-000000000003.parquet"
    kept = part.read_bytes()
    part.write_bytes(b"PAR1 not parquet PAR1")
    try:
        argv = (["rikken", "compare", str(a), str(b)] if command == "compare"
                else ["rikken", "strategy", "fit", str(b), "--out", str(tmp_path / "s.zip"), "--max-iter", "2"])
        code, _, err = cli(capsys, *argv)
        assert code == 2 and "part-000000000003.parquet is damaged" in one_error(err)
        assert not (tmp_path / "s.zip").exists()
    finally:
        part.write_bytes(kept)


def test_compare_refuses_a_run_without_rows(bids_pair, tmp_path, capsys):
    a, _ = bids_pair
    empty = tmp_path / "empty"
    empty.mkdir()
    manifest = json.loads((a / "manifest.json").read_text())
    (empty / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "rikken", "compare", str(a), str(empty))
    assert code == 2 and "ledger.jsonl is missing or damaged" in one_error(err)
