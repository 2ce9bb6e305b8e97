"""Sloppy Seconds experiments and CLI: outputs, pairing, reproducibility, one-line input errors."""

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from analyzer.cli import seconds as cli
from analyzer.errors import InputError
from analyzer.experiments.runner import run_chunks
from analyzer.games.seconds.experiments import play_task, rotations, variants_task
from analyzer.games.seconds.findings import PLAY_REPORT
from analyzer.games.seconds.rules import deck_mask, hand_size
from analyzer.games.seconds.summary import play_sums, summarize_play, summarize_variants, variants_sums
from analyzer.reports.catalog import describe_run
from analyzer.reports.report import run_settings
from analyzer.reports.stats import Z95, merge_sums

runner = CliRunner()


def test_rotations_put_every_policy_in_every_seat():
    assert rotations([1, 0, 0]) == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert rotations([2, 2, 2, 2]) == [[2, 2, 2, 2]]


def test_paired_summary_on_hand_made_rows():
    # Two games x two rotations, two seats: A's score per deal minus B's per (game, rotation) unit is
    # 10-4=6, 8-8=0, 5-7=-2, 9-5=4 -> mean 2. A wins units 1 and 4, B unit 3, unit 2 nobody (a tie
    # cannot end a game, but the summary must not care): win differences 1, 0, -1, 1 -> mean 0.25.
    rows = pd.DataFrame({
        "game": [0, 0, 0, 0, 1, 1, 1, 1],
        "rotation": [0, 0, 1, 1, 0, 0, 1, 1],
        "seat": [0, 1, 0, 1, 0, 1, 0, 1],
        "policy": ["A", "B", "B", "A", "A", "B", "B", "A"],
        "score_per_deal": [10.0, 4.0, 8.0, 8.0, 5.0, 7.0, 5.0, 9.0],
        "win": [True, False, False, False, False, True, False, True],
    })
    summary = summarize_play(merge_sums([play_sums(rows)]))
    paired = summary["paired"].iloc[0]
    assert (paired["policy_a"], paired["policy_b"], paired["units"]) == ("A", "B", 4)
    assert paired["score_diff"] == pytest.approx(2.0)
    assert paired["win_diff"] == pytest.approx(0.25)
    by_policy = summary["by_policy"].set_index("policy")
    assert by_policy.loc["A", "mean_score_per_deal"] == pytest.approx(8.0)
    assert by_policy.loc["A", "wins"] == 2 and by_policy.loc["B", "wins"] == 1


def test_play_chunk_aggregates_add_up_to_the_summary_of_the_whole_table():
    params = {"rules": {"n_players": 3, "trump": "seed", "minimum": "per-suit", "target": 150},
              "policies": [1, 0, 0], "policy_params": {}}
    rows = play_task(params, 0, 6, np.random.SeedSequence(3))
    # Split between games, as chunks are: all rotations of a game are always played in one chunk.
    halves = [rows[rows["game"] < 2], rows[rows["game"] >= 2]]
    merged = summarize_play(merge_sums([play_sums(half) for half in halves]))
    for name, table in summarize_play(merge_sums([play_sums(rows)])).items():
        pd.testing.assert_frame_equal(merged[name], table)


def _variant_rows() -> pd.DataFrame:
    """Two deals of three players, the same under every rule pair: scores 3 5 10 and 7 1 4, trump first
    seen in the third trick of deal 0 and never in deal 1."""
    frames = [pd.DataFrame({"deal": [0, 0, 0, 1, 1, 1], "trump_rule": trump, "minimum_rule": minimum,
                            "seat": [0, 1, 2, 0, 1, 2], "score": [3, 5, 10, 7, 1, 4], "trump_suit": 0,
                            "trump_trick": [2, 2, 2, -1, -1, -1]})
              for trump in ("seed", "original") for minimum in ("per-suit", "per-hand")]
    return pd.concat(frames, ignore_index=True)


def test_variants_summary_on_hand_made_rows():
    summary = summarize_variants(merge_sums([variants_sums(_variant_rows())]))
    assert len(summary["trump"]) == len(summary["scores"]) == 4
    trump = summary["trump"].iloc[0]
    assert (trump["deals"], trump["no_trump_rate"], trump["mean_trump_trick"], trump["median_trump_trick"]) == (
        2, 0.5, 3.0, 3.0)
    # Scores 1 3 4 5 7 10: mean 5, squared deviations 50 (variance 10); p10, median and p90 by linear
    # interpolation at positions 0.5, 2.5 and 4.5 of the sorted scores.
    scores = summary["scores"].iloc[0]
    assert scores["mean_score"] == 5 and scores["sd"] == pytest.approx(np.sqrt(10))
    assert (scores["score_lo"], scores["score_hi"]) == pytest.approx((5 - Z95 * np.sqrt(10 / 6),
                                                                      5 + Z95 * np.sqrt(10 / 6)))
    assert (scores["p10"], scores["median"], scores["p90"]) == (2.0, 4.5, 8.5)
    # Seat 0 against the mean of the others: 3 - 7.5 = -4.5 and 7 - 2.5 = 4.5: mean 0, variance 40.5.
    seat = summary["seats"].iloc[0]
    assert (seat["seat"], seat["mean_score"], seat["advantage"]) == (0, 5.0, 0.0)
    assert seat["advantage_hi"] == pytest.approx(Z95 * 4.5)
    tricks = summary["trump_tricks"]
    assert tricks["trump_rule"].tolist() == ["original"] * 4 + ["seed"] * 4
    assert tricks["minimum_rule"].tolist()[:4] == ["per-hand", "per-hand", "per-suit", "per-suit"]
    assert tricks["trump_trick"].tolist()[:2] == [0, 3] and (tricks["share"] == 0.5).all()


def test_variants_chunk_aggregates_add_up_to_the_summary_of_the_whole_table():
    rows = variants_task({"n_players": 4, "policy": 0, "policy_params": {}}, 0, 40, np.random.SeedSequence(6))
    halves = [rows[rows["deal"] < 15], rows[rows["deal"] >= 15]]
    merged = merge_sums([variants_sums(half) for half in halves])
    whole = merge_sums([variants_sums(rows)])
    for name, table in summarize_variants(whole).items():
        pd.testing.assert_frame_equal(summarize_variants(merged)[name], table)
    for name in ("trump_tricks", "scores"):
        pd.testing.assert_frame_equal(merged[name], whole[name])


def test_play_results_do_not_depend_on_workers():
    params = {"rules": {"n_players": 3, "trump": "original", "minimum": "per-hand", "target": 150},
              "policies": [1, 0, 0], "policy_params": {}}
    one = pd.concat(run_chunks(play_task, params, 6, seed=5, chunk_size=2, workers=1), ignore_index=True)
    two = pd.concat(run_chunks(play_task, params, 6, seed=5, chunk_size=2, workers=2), ignore_index=True)
    pd.testing.assert_frame_equal(one, two)
    # Every rotation of a game is dealt the same cards: the deal counts differ only through play, but the
    # rows hold each (game, rotation, seat) exactly once.
    assert len(one) == 6 * 3 * 3
    assert not one.duplicated(["game", "rotation", "seat"]).any()
    assert (one.groupby(["game", "rotation"])["win"].sum() == 1).all()


def test_play_command_writes_tables_and_json(tmp_path):
    result = runner.invoke(cli.app, ["play", "--players", "3", "--policies", "heuristic,random,random",
                                     "--games", "4", "--target", "120", "--workers", "1", "--out",
                                     str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert {row["policy"] for row in summary["by_policy"]} == {"heuristic", "random"}
    assert sum(row["games"] for row in summary["by_seat"]) == 4 * 3 * 3
    assert len(pd.read_parquet(tmp_path / "games")) == 4 * 3 * 3
    for name in ("games", "summary_by_seat.csv", "summary_paired.csv", "manifest.json", "play.png",
                 "play.svg"):
        assert (tmp_path / name).exists()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["rules"]["n_players"] == 3 and manifest["seed"] == 0
    # the report names the policies, not their ids, and leaves out policy parameters left at their defaults
    settings = run_settings(describe_run(tmp_path), PLAY_REPORT)
    assert "policies: heuristic, random, random" in settings and "policy params" not in settings


def test_variants_command(tmp_path):
    result = runner.invoke(cli.app, ["variants", "--players", "5", "--deals", "30", "--policy", "random",
                                     "--workers", "1", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert len(summary["trump"]) == 4 and len(summary["seats"]) == 4 * 5
    shares = pd.DataFrame(summary["trump_tricks"]).groupby(["trump_rule", "minimum_rule"])["share"].sum()
    assert np.allclose(shares, 1.0) and len(shares) == 4
    rows = pd.read_parquet(tmp_path / "deals")
    assert len(rows) == 30 * 4 * 5
    # The rows of a deal hold its cards: five full hands covering the 5-player deck (so disjoint), the same
    # under every rule pair.
    hands = rows.groupby(["deal", "trump_rule", "minimum_rule"])["cards"]
    assert (hands.agg(np.bitwise_or.reduce) == deck_mask(5)).all()
    assert (np.bitwise_count(rows["cards"].to_numpy()) == hand_size(5)).all()
    assert 5 * hand_size(5) == deck_mask(5).bit_count()
    assert (rows.groupby(["deal", "seat"])["cards"].nunique() == 1).all()
    # Same deals, same play stream, random play never reads the minimum rule: the trump emergence of
    # per-suit and per-hand must coincide deal by deal.
    per_deal = rows[rows["seat"] == 0].pivot_table(index=["deal", "trump_rule"], columns="minimum_rule",
                                                   values="trump_trick")
    assert np.array_equal(per_deal["per-suit"], per_deal["per-hand"])


@pytest.mark.parametrize("args", [
    ["play", "--players", "9"],
    ["play", "--policies", "random,smart"],
    ["play", "--policies", "random,random"],
    ["play", "--variant", "schell"],
    ["play", "--param", "n_samples"],
    ["play", "--param", "speed=3"],
    ["variants", "--policy", "oracle"],
])
def test_bad_input_is_one_line_input_error(args, tmp_path):
    result = runner.invoke(cli.app, [*args, "--games" if args[0] == "play" else "--deals", "1", "--workers", "1",
                                     "--out", str(tmp_path)])
    assert isinstance(result.exception, InputError)
    assert "\n" not in str(result.exception)
    assert not any(tmp_path.iterdir())


def test_play_figure_when_one_policy_wins_every_game():
    """A Wilson interval at a rate of exactly 1 can end a hair below 1: error bars must stay >= 0.

    The win-rate bar's error bar runs from the Wilson lower bound of 7 wins in 7 games, n / (n + z^2)
    = 7 / (7 + 1.96^2) = 0.6457, up to the rate itself; an undefined score interval draws no bar.
    """
    import matplotlib.pyplot as plt

    from analyzer.games.seconds.charts import play_figure
    from analyzer.reports.stats import wilson_interval

    lo, hi = wilson_interval(7, 7)
    table = pd.DataFrame({"policy": ["a"], "seat": [0], "mean_score_per_deal": [10.0], "score_lo": [float("nan")],
                          "score_hi": [float("nan")], "win_rate": [1.0], "win_lo": [lo], "win_hi": [hi - 1e-12]})
    fig = play_figure({"by_policy": table, "by_seat": table}, "t")
    # Axes row by row: (policy, score), (policy, wins), (seat, score), (seat, wins); one bar each.
    spans = [ax.containers[0].lines[2][0].get_segments()[0][:, 1].tolist() for ax in fig.axes]
    plt.close(fig)
    for score, wins in (spans[0:2], spans[2:4]):
        assert score == [10.0, 10.0]
        assert wins[0] == pytest.approx(0.6457, abs=1e-4) and wins[1] == 1.0
