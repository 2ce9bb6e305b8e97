"""The defenders of an Open Misery solve ``OPEN_MISERY_WORLDS_FACTOR`` times the run's worlds
(``sampled_dd.defends_open_misery``), every other decision the run's worlds."""

import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken import expert, sampled_dd
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.games.rikken.rules import Contract
from tests.rikken.test_sampled_dd_playout import E, N, S, W, _card, _mask, _position

# W to lead after trick 1 with three distinct clubs against N's shown C5 C9 HK.
REST = {N: "C5 C9 HK", E: "C6 C7 D9", S: "H3 H4 D8", W: "C3 C8 CK"}


def _trick_one(contract):
    """N declares ``contract`` and leads D2; E is to follow (nothing shown yet)."""
    hands = [_mask("D2 C5 C9"), _mask("D3 C6 C7"), _mask("D4 H3 H4"), _mask("D5 C3 CK")]
    st = new_round(hands, N, [int(contract), -1, -1, -1], -1, NO_TRUMP, -1, 0)
    apply_action(st, N, _card("D2"))
    return st


def test_the_rule_picks_the_defenders_of_a_clean_open_misery_only():
    st = _position(REST, W)
    assert sampled_dd.defends_open_misery(st, W) and sampled_dd.defends_open_misery(st, E)
    assert not sampled_dd.defends_open_misery(st, N)  # the declarer himself
    assert sampled_dd.defends_open_misery(_trick_one(Contract.OPEN_MISERY), E)  # trick 1, before he is shown
    for contract in (Contract.MISERY, Contract.OPEN_MISERY_ALL, Contract.RIK):
        assert not sampled_dd.defends_open_misery(_position(REST, W, contract=contract), W)
        assert not sampled_dd.defends_open_misery(_trick_one(contract), E)
    st[L.TRICKS + N] = 1
    assert not sampled_dd.defends_open_misery(st, W)  # already beaten


@pytest.mark.parametrize("contract, factor, play_out_worlds, expected", [
    (Contract.OPEN_MISERY, 2, 5, 2 * 3 + 5),  # twice the run's 3 worlds solved, the play-outs' 5 drawn on top
    (Contract.OPEN_MISERY, 1, 0, 3),  # factor 1: the run's worlds, as before
    (Contract.MISERY, 2, 5, 3),  # hand not shown: the run's worlds, no play-outs
])
def test_the_worlds_drawn_at_a_defenders_decision(monkeypatch, contract, factor, play_out_worlds, expected):
    draws = []
    original = expert.draw_into
    monkeypatch.setattr(sampled_dd, "draw_into", lambda *args: draws.append(1) or original(*args))
    monkeypatch.setattr(sampled_dd, "PLAYOUT_WORLDS", play_out_worlds)
    monkeypatch.setattr(sampled_dd, "OPEN_MISERY_WORLDS_FACTOR", factor)
    st = _position(REST, W, contract=contract)
    up, fd = legal_actions(st, W)
    sampled_dd.choose_sampled(st, W, int(up), int(fd), default_params(), state_from_seed(7), {}, worlds=3)
    assert len(draws) == expected
