"""``analyzer query``: answers from a run's stored rows, checked against counts made by hand."""

import json

import numpy as np
import pandas as pd
import pytest

from analyzer.cli.app import main
from analyzer.errors import InputError
from analyzer.experiments.runner import run_chunks
from analyzer.experiments.runstate import finish_run
from analyzer.reports.query import RATE, Measure, QuerySpec, Subject, run_query
from analyzer.reports.stats import Z95
from analyzer.reports.store import RunStore

# Ten hands in two parts: made 1 1 0 0 1 / 0 0 0 1 1, money +3 +3 -3 -3 +3 / -3 -3 -3 +3 +3.
HANDS = pd.DataFrame({"aces": [0, 1, 1, 2, 2, 0, 1, 2, 2, 3], "trumps": [5, 6, 6, 7, 6, 4, 6, 6, 7, 8],
                      "made_rik": [1, 1, 0, 0, 1, 0, 0, 0, 1, 1], "money_rik": [3, 3, -3, -3, 3, -3, -3, -3, 3, 3],
                      "points_rik": [1, 1, 0, 0, 1, 0, 0, 0, 1, 1], "tricks_rik": [9, 8, 5, 6, 8, 4, 7, -1, 8, 10]})


def hands_chunk(params, start, count, seed_seq):
    return HANDS.iloc[start:start + count]


def no_summary(rows):
    return {}


def stored_run(root):
    """A complete run holding HANDS in two parts, made as the runner makes every run."""
    store = RunStore(root)
    run_chunks(hands_chunk, {}, len(HANDS), seed=0, chunk_size=5, workers=1, store=store, stage="hands",
               rows_dir=store.root / "hands", aggregate=no_summary)
    finish_run(store, {"experiment": "rikken-bids"})
    return store.root


@pytest.fixture()
def run(tmp_path):
    return stored_run(tmp_path / "run")


def wilson(k, n):
    """Wilson 95% interval written out from its formula."""
    p, z = k / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_rates_and_means_over_both_parts_with_a_filter(run):
    spec = QuerySpec("hands", lambda columns: [Subject("rik", '"tricks_rik" <> -1', (
        Measure("made", "made_rik", RATE), Measure("money", "money_rik")))])
    answer = run_query(run, spec, where="trumps >= 6 and aces = 2")
    # Rows with trumps >= 6 and two aces: 4 (made 0, money -3), 5 (1, +3), 8 (0, -3; not playable:
    # tricks -1), 9 (1, +3): three playable hands, made 2, money -3, +3, +3.
    row = answer.iloc[0]
    assert (row["n"], row["made"]) == (3, 2)
    assert (row["made_lo"], row["made_hi"]) == pytest.approx(wilson(2, 3))
    mean, sd = 1.0, np.sqrt(((-3 - 1) ** 2 + 2 * (3 - 1) ** 2) / 2)
    assert row["money_mean"] == pytest.approx(mean)
    assert row["money_hi"] - row["money_mean"] == pytest.approx(Z95 * sd / np.sqrt(3))


def test_groups_by_a_column(run):
    spec = QuerySpec("hands", lambda columns: [Subject("rik", "", (Measure("made", "made_rik", RATE),))])
    answer = run_query(run, spec, by=("aces",))
    assert answer["aces"].tolist() == [0, 1, 2, 3]
    assert answer["n"].tolist() == [2, 3, 4, 1]
    assert answer["made"].tolist() == [1, 1, 2, 1]


def test_cli_answers_with_json_and_null_for_undefined_intervals(run, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["query", str(run), "--where", "aces = 3", "--contract", "rik", "--json"])
    assert stop.value.code == 0
    payload = json.loads(capsys.readouterr().out)
    [row] = payload["rows"]
    # One hand: rate 1 with a Wilson interval, a mean of +3 whose interval is undefined (n = 1).
    assert (row["contract"], row["n"], row["made"], row["money_mean"]) == ("rik", 1, 1, 3.0)
    assert row["money_lo"] is None and row["money_hi"] is None


@pytest.mark.parametrize("argv, words", [
    (["--where", "nosuch > 1"], ["nosuch", "columns: aces, trumps"]),
    (["--where", "aces >"], ["bad --where", "columns:"]),
    (["--by", "nosuch"], ["unknown column 'nosuch'"]),
    (["--contract", "9-alone"], ["no contract '9-alone'", "it has: rik"]),
])
def test_bad_questions_are_one_line_errors(run, capsys, argv, words):
    with pytest.raises(SystemExit) as stop:
        main(["query", str(run), *argv])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: ")
    for word in words:
        assert word in error


def test_a_run_without_rows_is_refused(tmp_path):
    store = RunStore(tmp_path / "empty")
    spec = QuerySpec("hands", lambda columns: [])
    with pytest.raises(InputError, match="not a run directory"):
        run_query(store.root, spec)


ALL_HANDS = QuerySpec("hands", lambda columns: [Subject("rik", "", (Measure("made", "made_rik", RATE),))])


@pytest.mark.parametrize("where", [
    "read_csv('/etc/passwd') is not null",
    "aces > (select count(*) from read_text('/etc/passwd'))",
    "1 = 1) AS r; COPY (SELECT 1) TO '{target}'; SELECT (1",
    "aces = 1) AS r; ATTACH '{target}' AS x; SELECT (1",
    "aces = 1; DROP TABLE stored_parts",
    "random() < 2",
    "aces = 1 or exists (select * from glob('/*'))",
    "getenv('HOME') = 'x'",
    "r.aces = 1",
])
def test_where_is_a_condition_that_reads_and_writes_no_file(run, tmp_path, where):
    target = tmp_path / "written"
    with pytest.raises(InputError, match="bad --where"):
        run_query(run, ALL_HANDS, where=where.format(target=target))
    assert not target.exists()


def test_the_connection_itself_reads_no_file(tmp_path):
    from analyzer.reports.safe_sql import locked_connection

    (tmp_path / "t.csv").write_text("a\n1\n")
    connection = locked_connection()
    for sql in (f"SELECT * FROM read_csv('{tmp_path / 't.csv'}')", f"COPY (SELECT 1) TO '{tmp_path / 'x.csv'}'",
                f"ATTACH '{tmp_path / 'x.db'}'", "SET enable_external_access = true"):
        with pytest.raises(Exception, match="Permission|configuration"):
            connection.execute(sql)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]


def test_a_run_path_with_quotes_is_answered(tmp_path):
    root = stored_run(tmp_path / "it's a \"run\"")
    assert run_query(root, ALL_HANDS)["n"].tolist() == [10]


@pytest.mark.parametrize("damage", ["delete", "edit"])
def test_a_damaged_run_is_refused_with_the_repair_and_resume_repairs_it(run, damage, capsys):
    part = run / "hands" / "part-000000000005.parquet"
    if damage == "delete":
        part.unlink()
    else:
        part.write_bytes(part.read_bytes().replace(b"PAR1", b"PAR2", 1))
    with pytest.raises(InputError, match=f"part-000000000005.parquet is (missing|damaged).*analyzer resume {run}"):
        run_query(run, ALL_HANDS)
    stored_run(run)  # what resume does: the same command into the same folder
    assert run_query(run, ALL_HANDS)["n"].tolist() == [10]


def test_an_unfinished_run_is_refused(run):
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "status": "interrupted"}))
    with pytest.raises(InputError, match="interrupted, not complete; finish it with: analyzer resume"):
        run_query(run, ALL_HANDS)


def test_stored_option_names_are_quoted_as_sql_strings():
    import duckdb

    from analyzer.games.rikken.queries import _advice_subjects

    crafted = "x' OR '1'='1"
    [subject] = _advice_subjects(["exact"], [crafted])
    connection = duckdb.connect()
    connection.execute("CREATE TABLE rows AS SELECT * FROM (VALUES ('x'), ('y'), ($$x' OR '1'='1$$)) t(option_name)")
    # The condition holds for the crafted name only, never for every row.
    assert connection.execute(f"SELECT option_name FROM rows WHERE {subject.where}").fetchall() == [(crafted,)]


def test_the_help_examples_name_columns_a_bids_run_stores(capsys):
    # query --help once suggested --by hcp_bin, a column no run stores
    import re

    from analyzer.games.rikken.features import hand_feature_frame

    with pytest.raises(SystemExit):
        main(["query", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    stored = set(hand_feature_frame(np.array([0b1011, 0b110000]), np.array([0, 4])).columns)
    by = re.search(r"group by, e\.g\. ([\w,]+)\.", help_text).group(1).split(",")
    where = re.findall(r"([a-z_]+) [<>=]=", re.search(r'e\.g\. "([^"]+)"', help_text).group(1))
    assert by and where and set(by + where) <= stored
