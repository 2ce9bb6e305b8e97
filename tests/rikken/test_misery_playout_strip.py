"""The defenders' lead against an exposed misère (``misery_playout.defender_card``): strip the suit before the
catcher is led, on hand-made positions worked out by hand (``_position``: N declares Open Misery, trick 1 as in
``test_sampled_dd_playout``; cards nobody holds count as unseen, as in a full deal)."""

import pytest

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
