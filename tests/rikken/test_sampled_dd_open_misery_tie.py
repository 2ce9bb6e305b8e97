"""The card played against an exposed misère where the solved worlds and the play-outs all tie
(``misery_playout.tie_card``, ``sampled_dd.playout_tie_break``), on hand-made positions worked out by hand
(``_position``: N declares Open Misery, trick 1 as in ``test_sampled_dd_playout``; cards nobody holds count as
unseen, as in a full deal)."""

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import legal_actions
from analyzer.games.rikken.misery_playout import tie_card
from analyzer.games.rikken.sampled_dd import playout_tie_break
from tests.rikken.test_sampled_dd_playout import _card, _position, _rule

N, E, S, W = range(4)

# W leads C2 to trick 2 and N wins it with C5; E, void in clubs, discards. N's lowest heart is H4 and H2 H3 are
# unseen by E (H3 is S's, H2 nobody's): a partner may hold a catcher there, which works only once nobody has to go
# over H4, so E throws his highest heart above it, HT. The rule of the play-outs throws S3 (N has no spade, so it
# can never catch him; N's HK lies above E's hearts).
STRIP = {N: "C5 C9 H4 HK", E: "H9 HT S2 S3", S: "H3 D9 DT S4", W: "C2 C3 S5 S6"}


def _tie(st, own=-1):
    seat = int(st[L.TURN])
    up, _ = legal_actions(st, seat)
    return tie_card(st, seat, int(up), N, own)


@pytest.mark.parametrize("rest, winner, trick, expected", [
    (STRIP, W, ("C2", "C5"), "HT"),
    # E holds H2 H3 himself: nothing unseen lies under N's H4, no partner can catch him there: no tie card.
    ({N: "C5 C9 H4 HK", E: "H2 H3 HT S3", S: "H5 D9 DT S4", W: "C2 C3 S5 S6"}, W, ("C2", "C5"), None),
    # W leads C6 and N ducks with C5: the trick cannot catch him, E follows with his highest club, CJ (C2 kept;
    # misery_defence_card keeps CJ and plays C2, the highest under the winning C6).
    ({N: "C5 C9 H4 HK", E: "C2 CJ H9 S3", S: "H3 D9 DT S4", W: "C6 C3 S5 S6"}, W, ("C6", "C5"), "CJ"),
    # W leads C2 and N wins it with C5: E's card is own's (misery_defence_card's).
    ({N: "C5 C9 H4 HK", E: "C3 CJ H9 S3", S: "H3 D9 DT S4", W: "C2 C4 S5 S6"}, W, ("C2", "C5"), None),
    # S leads C6, W plays before N: own's card.
    ({N: "C5 C9 H4 HK", E: "H9 HT S2 S3", S: "C6 D9 DT S4", W: "C2 C3 S5 S6"}, S, ("C6",), None),
])
def test_the_tie_card_on_hand_made_positions(rest, winner, trick, expected):
    assert _tie(_position(rest, winner, trick)) == (-1 if expected is None else _card(expected))


@pytest.mark.parametrize("rest, own, expected", [
    # Own's lead C2 is under N's lowest club (C5) while nine unseen clubs lie above it: a partner holding one has to
    # go over and N ducks. W leads from a suit N is void in instead: spades, the highest, S6.
    (STRIP, "C2", "S6"),
    # Own's S5 is no catcher (N has no spade): own's card stays.
    (STRIP, "S5", None),
    # No unseen club lies above N's lowest, CQ (CK his, CA W's): nobody has to go over it, own's C2 stays.
    ({N: "CQ CK H4 HK", E: "H9 HT S2 S3", S: "H3 D9 DT S4", W: "C2 CA S5 S6"}, "C2", None),
    # N holds every suit W has; W has catchers in clubs (C2 C3 under C5) and spades (S5 under S9), none in hearts
    # (H8 over H4): H8.
    ({N: "C5 C9 H4 S9", E: "H9 HT S2 S3", S: "H3 D9 DT S4", W: "C2 C3 H8 S5"}, "C2", "H8"),
])
def test_the_tie_lead_goes_away_from_a_catcher_the_partners_may_have_to_go_over(rest, own, expected):
    assert _tie(_position(rest, W), _card(own)) == (-1 if expected is None else _card(expected))


def test_the_tie_card_differs_from_the_rule_of_the_play_outs_when_void():
    assert _rule(_position(STRIP, W, ("C2", "C5"))) == _card("S3")


def _tied_play_outs(values):
    def scripted(worlds, seat, actions, declarer, params, rng_state):
        return np.array(values, dtype=float)
    return scripted


def test_the_tie_break_plays_the_tie_card_where_worlds_and_play_outs_tie(monkeypatch):
    st = _position(STRIP, W, ("C2", "C5"))
    drawn = [(1.0, None, None, None, None, st)]
    actions = [_card("H9"), _card("S2")]  # E's two classes: H9 HT, S2 S3
    tied = (np.array([1.0, 1.0]), np.array([1.0, 1.0]))
    args = (actions, E, N, default_params(), state_from_seed(4))
    monkeypatch.setattr(sampled_dd, "playout_values", _tied_play_outs([0.0, 0.0]))
    assert playout_tie_break(drawn, tied, _card("S3"), *args) == _card("HT")
    monkeypatch.setattr(sampled_dd, "TIE_CARD", False)
    assert playout_tie_break(drawn, tied, _card("S3"), *args) == _card("S3")
    monkeypatch.setattr(sampled_dd, "TIE_CARD", True)
    # The play-outs choose the spades: own's card, the tie card is not asked.
    monkeypatch.setattr(sampled_dd, "playout_values", _tied_play_outs([0.0, 1.0]))
    assert playout_tie_break(drawn, tied, _card("S3"), *args) == _card("S3")
    # The worlds choose the spades: no play-outs, own's card.
    ranked = (np.array([0.0, 1.0]), np.array([0.0, 1.0]))
    assert playout_tie_break(drawn, ranked, _card("S3"), *args) == _card("S3")
