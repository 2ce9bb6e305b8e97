"""``analyzer rikken advise``: the run folder, the JSON answer, workers, query and the dd policy."""

import json
import subprocess
import sys

import pandas as pd
import pytest

from analyzer.cards.pbn import parse_hand

HAND = "AKQT86.A2.K73.95"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True)


def _advise(out, *extra):
    result = run_cli("rikken", "advise", HAND, "--seat", "S", "--dealer", "E", "--deals", "120", "--chunk-size", "50",
                     "--seed", "5", "--out", str(out), "--json", *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def advised(tmp_path_factory):
    """One advise run with one worker: its folder and its JSON answer."""
    run = tmp_path_factory.mktemp("advise") / "one"
    return run, _advise(run, "--workers", "1")


def test_advise_writes_its_run_and_answers_best_first(advised):
    run, payload = advised
    assert {"advice.csv", "manifest.json", "tricks_per_option.png", "tricks_per_option.svg"} <= \
        {p.name for p in run.iterdir()}
    assert payload["seat"] == "S" and payload["dealer"] == "E" and payload["deals"] == 120
    options = payload["options"]
    money = [o["mean_money"] for o in options]
    assert money == sorted(money, reverse=True) and options[0]["money_vs_best"] == 0
    rows = pd.read_parquet(run / "deals")
    assert (rows["cards_s"] == parse_hand(HAND)).all()
    # E deals, so S leads: the stored deals are the ones summarised, option by option.
    assert "pass" in [o["option"] for o in options] and payload["advice"]["advice"] in \
        [o["option"] for o in options] + ["close"]
    for option in options:
        if option["option"] == "pass":
            continue
        chosen = rows[rows["option_name"] == option["option"]]
        assert len(chosen) == 120 and option["made"] == int(chosen["made"].sum())
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["params"]["hand"] == HAND


def test_two_workers_give_the_same_answer(advised, tmp_path):
    two = _advise(tmp_path / "two", "--workers", "2")
    assert advised[1]["options"] == two["options"]


def test_query_answers_per_option_from_the_stored_deals(advised):
    run = advised[0]
    rows = pd.read_parquet(run / "deals")
    result = run_cli("query", str(run), "--contract", "rik-S", "--where", "tricks >= 10", "--json")
    assert result.returncode == 0, result.stderr
    [answer] = json.loads(result.stdout)["rows"]
    expected = rows[(rows["option_name"] == "rik-S") & (rows["tricks"] >= 10)]
    assert answer["option"] == "rik-S" and answer["n"] == len(expected)
    assert answer["made"] == len(expected)  # ten tricks make Rik
    assert answer["money_mean"] == expected["money"].mean()


def test_dd_policy_plays_few_deals_by_default_and_stays_paired(tmp_path):
    result = run_cli("rikken", "advise", HAND, "--policy", "dd", "--contracts", "rik,8-alone,9-alone", "--deals", "2",
                     "--workers", "1", "--out", str(tmp_path / "dd"), "--json")
    assert result.returncode == 0, result.stderr
    options = {o["option"]: o for o in json.loads(result.stdout)["options"]}
    assert set(options) == {"rik-S", "8-alone-S", "9-alone-S", "pass"}
    # Perfect play is deterministic: 9 Alone makes exactly where 8 Alone takes nine tricks or more.
    eight = options["8-alone-S"]
    assert options["9-alone-S"]["made"] == round(2 * sum(eight[f"p_tricks_{k}"] for k in range(9, 14)))


def test_report_settings_read_as_given(advised):
    """The report's settings line names seats by letter and shows the constraints of other seats."""
    from analyzer.cli.catalog import REPORT_SPECS
    from analyzer.reports.report import build_report

    run, _ = advised
    constrained = run.parent / "constrained"
    _advise(constrained, "--workers", "1", "--aces", "E=2")
    text = build_report([constrained], "md", REPORT_SPECS).text
    settings = next(line for line in text.splitlines() if "settings" in line)
    assert "seat: S" in settings and "dealer: E" in settings
    assert f"constraints: hand S={HAND}, aces E=2" in settings


@pytest.mark.parametrize("args, message", [
    (["--contracts", "rik,troela"], "cannot declare troela"),
    (["--policy", "dd", "--bracket", "2"], "--bracket compares"),
    (["--deals", "10", "--bracket", "11"], "more than the run's 10 deals"),
    (["--bracket", "2", "--dd-budget", "-1"], "--dd-budget"),
    (["--policy", "nonsense"], "--policy"),
    (["--worlds", "4"], "a world count is for sampled-dd"),
    (["--policy", "sampled-dd", "--worlds", "0"], "--worlds"),
])
def test_bad_advice_options_are_one_line_and_exit_2(args, message, tmp_path):
    result = run_cli("rikken", "advise", HAND, "--out", str(tmp_path / "run"), *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert not (tmp_path / "run").exists()


def test_the_bracket_shows_both_plays_on_the_same_deals(tmp_path):
    """--bracket 4 of 40 deals: the perfect-play columns count the stored rows marked perfect."""
    run = tmp_path / "bracket"
    payload = _advise(run, "--workers", "1", "--contracts", "rik,8-alone", "--deals", "40", "--chunk-size", "20",
                      "--bracket", "4")
    assert payload["deals"] == 40 and payload["bracket"]["deals"] == 4
    rows = pd.read_parquet(run / "deals")
    perfect = rows[rows["perfect"]]
    assert sorted(perfect["deal"].unique()) == [0, 1, 20, 21]  # two per chunk of 20: the chunks' first deals
    for option in payload["bracket"]["options"]:
        chosen = perfect[perfect["option_name"] == option["option"]]
        assert option["n"] == 4 == len(chosen)
        assert option["perfect_rate"] == chosen["perfect_made"].mean()
        assert option["rate"] == chosen["made"].mean()
        assert option["flag"] in ("", "differs", "made less", "made more")
    result = run_cli("rikken", "advise", HAND, "--seat", "S", "--dealer", "E", "--deals", "40", "--chunk-size", "20",
                     "--seed", "5", "--workers", "1", "--contracts", "rik,8-alone", "--bracket", "4",
                     "--out", str(tmp_path / "text"))
    assert result.returncode == 0, result.stderr
    assert "Bracket: heuristic play against perfect play on both sides" in result.stdout
    assert result.stdout.startswith("Advice: ")
