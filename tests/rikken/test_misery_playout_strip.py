"""The defenders' lead against an exposed misère (``misery_playout.defender_card``): strip the suit before the
catcher is led, on hand-made positions worked out by hand (``_position``: N declares Open Misery, trick 1 as in
``test_sampled_dd_playout``; cards nobody holds count as unseen, as in a full deal); and the play-outs' ties
going to the rule's card (``sampled_dd.playout_tie_break``, ``RULE_TIES``)."""

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.sampled_dd import playout_tie_break
from tests.rikken.test_sampled_dd_playout import _card, _position, _rule

N, E, S, W = range(4)


@pytest.mark.parametrize("rest, expected", [
    # W holds one club under N's C3 (C2) and C4 over it; nine unseen clubs lie above C3, so a partner may have to go
    # over it: W leads C4, N ducks with C3, E and S shed clubs, C2 is kept to catch N's C5 (deal 6 of seed
    # 716207316). N has no diamond, so D9 catches nothing; hearts: W has none.
    ({N: "C3 C5 H8", E: "CT CJ H9", S: "CQ CK HT", W: "C2 C4 D9"}, "C4"),
    # The same, but N's only club is C3: a strip would leave him void in clubs, so the catcher C2 is led now.
    ({N: "C3 H8 H9", E: "CT CJ HT", S: "CQ CK HJ", W: "C2 C4 D9"}, "C2"),
    # No unseen club above N's lowest (CQ; CK his, CA W's): the catch is sure, the highest catcher C3 (C2 kept).
    ({N: "CQ CK H8 H9", E: "CT CJ HT HJ", S: "C9 C8 HQ HK", W: "C2 C3 CA D9"}, "C3"),
])
def test_the_lead_strips_the_suit_while_a_partner_may_have_to_go_over(rest, expected):
    assert _rule(_position(rest, W)) == _card(expected)


def test_the_play_outs_ties_go_to_the_rules_card_before_owns(monkeypatch):
    # Play-outs that beat N in no world (saturated at zero, as at deal 6 of seed 716207316): every class ties, and
    # the tie goes to the rule's card C4 (the first position above), not own's C2; with RULE_TIES off, to C2.
    monkeypatch.setattr(sampled_dd, "playout_values", lambda worlds, seat, actions, *rest: np.zeros(len(actions)))
    st = _position({N: "C3 C5 H8", E: "CT CJ H9", S: "CQ CK HT", W: "C2 C4 D9"}, W)
    drawn = [(1.0, None, None, None, None, st)]
    actions = [_card("C2"), _card("C4"), _card("D9")]
    tied = (np.ones(3), np.ones(3))
    args = (tied, _card("C2"), actions, W, N, default_params(), state_from_seed(3))
    assert playout_tie_break(drawn, *args) == _card("C4")
    monkeypatch.setattr(sampled_dd, "RULE_TIES", False)
    assert playout_tie_break(drawn, *args) == _card("C2")
    # Own's card is the rule's (C4): played as it is.
    monkeypatch.setattr(sampled_dd, "RULE_TIES", True)
    assert playout_tie_break(drawn, tied, _card("C4"), *args[2:]) == _card("C4")
