"""The engine screen with a search bot as our player (``--base``): each variant's parameters and oracle kind, the
deciders the variants share, and the bots' actions as a function of the position (the same action however
the variants reach it, each position searched once). None of these needs the outside engine."""

import sys
from dataclasses import astuple, replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import schnapsen_engine_screen as screen  # noqa: E402
from analyzer.cards.rng import state_from_seed  # noqa: E402
from analyzer.games.schnapsen import rules as R  # noqa: E402
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action  # noqa: E402
from analyzer.games.schnapsen.experiments import parse_bot  # noqa: E402
from analyzer.games.schnapsen.kernels import apply_action, init_round, legal_actions, shuffle_deck  # noqa: E402


def positions(seed: int, count: int) -> list[np.ndarray]:
    """The first ``count`` positions with a choice of one deal played by always taking the first legal action."""
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    shuffle_deck(state_from_seed(seed), deck)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    init_round(deck, 1, s)
    acts = np.zeros(16, dtype=np.int64)
    found = []
    while len(found) < count and s[R.WINNER] < 0:
        if legal_actions(s, acts) > 1:
            found.append(s.copy())
        apply_action(s, int(acts[0]))
    return found


def test_a_variant_changes_the_heuristic_only_with_the_heuristic_as_base():
    heuristic = parse_bot("heuristic")
    params, kind = screen.parse_variant("take_dear=2, oracle:follow", heuristic, "hybrid:20")
    expected = np.array(astuple(replace(HeuristicParams(), take_dear=2)), dtype=np.float64)
    assert kind == "follow" and np.array_equal(params, expected)
    hybrid = parse_bot("hybrid:20")
    params, kind = screen.parse_variant("oracle:close", hybrid, "hybrid:200")
    assert kind == "close" and np.array_equal(params, np.array(astuple(HeuristicParams()), dtype=np.float64))
    with pytest.raises(ValueError, match="only with --base heuristic"):
        screen.parse_variant("take_dear=2", hybrid, None)
    with pytest.raises(ValueError, match="--oracle is not given"):
        screen.parse_variant("oracle:lead", hybrid, None)


def test_variants_share_a_base_decider_per_heuristic_row_and_one_oracle_decider():
    base = parse_bot("heuristic")
    parsed = [screen.parse_variant(text, base, "hybrid:5")
              for text in ("", "oracle:close", "take_dear=2", "take_dear=2,oracle:lead")]
    deciders, oracles = screen.players(base, "hybrid:5", parsed)
    assert deciders[0] is deciders[1] and deciders[2] is deciders[3] and deciders[0] is not deciders[2]
    assert oracles[0] is None and oracles[2] is None
    assert oracles[1].decider is oracles[3].decider and (oracles[1].kind, oracles[3].kind) == ("close", "lead")


def test_a_bots_action_depends_on_the_position_not_on_what_it_decided_before(monkeypatch):
    found = positions(seed=41, count=6)
    bot = parse_bot("hybrid:4")
    first = screen.Decider(bot, bot.params.to_array())
    first.start(deal_seed=7, seat=0)
    forward = [first.action(s) for s in found]
    second = screen.Decider(bot, bot.params.to_array())
    second.start(deal_seed=7, seat=0)
    backward = [second.action(s) for s in reversed(found)][::-1]
    assert forward == backward
    searches = []
    real = screen.choose_action
    monkeypatch.setattr(screen, "choose_action", lambda *args: searches.append(1) or real(*args))
    assert [first.action(s) for s in found] == forward and not searches  # each position searched once
    first.start(deal_seed=8, seat=0)  # another deal: its positions are searched afresh
    first.action(found[0])
    assert len(searches) == 1


def test_the_heuristic_as_base_plays_the_heuristics_actions():
    heuristic = parse_bot("heuristic")
    params = HeuristicParams.parse("take_dear=2").to_array()
    decider = screen.Decider(heuristic, params)
    decider.start(deal_seed=3, seat=1)
    acts = np.zeros(16, dtype=np.int64)
    for s in positions(seed=5, count=8):
        assert decider.action(s) == int(heuristic_action(s, params, acts))
