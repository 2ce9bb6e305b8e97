"""``rikken solve``, on hand-worked two-card endings."""

import json

import pytest
from typer.testing import CliRunner

from analyzer.cli.rikken import app
from analyzer.errors import InputError
from analyzer.games.rikken.dd import calls_for, parse_goal, parse_team

# N: SA SK   E: HA HK   S: S4 S3   W: H4 H3.
DEAL = "N:AK... .AK.. 43... .43.."


def _run(*args):
    result = CliRunner().invoke(app, ["solve", DEAL, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_single_question_max_json():
    # At no trump North (on lead, dealer West) cashes SA and SK: 2 tricks.
    assert json.loads(_run("--trump", "N", "--team", "N", "--json"))["tricks"] == 2
    # With East on lead East cashes HA HK: North-South take nothing.
    assert json.loads(_run("--trump", "N", "--team", "NS", "--leader", "E", "--json"))["tricks"] == 0


def test_single_question_misery_and_one_alone():
    # North cashes two spades; East (void in spades) discards hearts and wins nothing:
    # Misery (at most 0) is made, 1 Alone (exactly 1) is not.
    assert json.loads(_run("--trump", "N", "--team", "E", "--goal", "le:0", "--json"))["makes"] is True
    assert json.loads(_run("--trump", "N", "--team", "E", "--goal", "eq:1", "--json"))["makes"] is False


def test_single_question_with_trumps():
    # Hearts trump: North leads a spade, East ruffs and cashes the other heart: North-South 0.
    assert json.loads(_run("--trump", "H", "--team", "NS", "--json"))["tricks"] == 0


def test_table_json():
    out = json.loads(_run("--json"))
    rows = {(r["declarer"], r["trump"]): r for r in out["contracts"]}
    assert out["leader"] == "N"
    # North alone, clubs trump: nobody can ruff, North cashes both spades.
    assert rows[("N", "C")]["alone"] == 2
    # North holds only spades, so every ace he may call (DA, HA) is a blind call; DA is no longer
    # in a hand in this ending, HA is East's. The pair still takes North's two spades.
    assert rows[("N", "C")]["calls"]["HA"] == {"partner": "E", "blind": True, "tricks": 2}
    misery = {r["declarer"]: r for r in out["misery"]}
    assert misery["N"]["misery"] is False and misery["E"]["misery"] is True


def test_bad_input_raises_input_error():
    with pytest.raises(InputError):
        parse_team("NN")
    with pytest.raises(InputError):
        parse_goal("ge:14")
    result = CliRunner().invoke(app, ["solve", DEAL, "--trump", "X", "--team", "N"])
    assert isinstance(result.exception, InputError)


def test_calls_follow_the_calling_rules():
    from analyzer.cards.deck import parse_card
    from analyzer.cards.pbn import parse_hand

    # Holds spades and hearts but no aces: may call SA or HA (not trumps, suits he holds).
    hand = parse_hand("KQ.J2..")
    assert sorted(calls_for(hand, 0)) == sorted([(parse_card("SA"), False), (parse_card("HA"), False)])
    # With spades trump only the heart ace is callable.
    assert calls_for(hand, 3) == [(parse_card("HA"), False)]
    # All four aces: kings are called instead.
    aces = parse_hand("A.A.A.A")
    assert (parse_card("SK"), False) in calls_for(aces, 4)
