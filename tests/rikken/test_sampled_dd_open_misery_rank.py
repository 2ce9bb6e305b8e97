"""How the play-outs and the solved worlds rank the classes against an exposed misère (``sampled_dd.PLAYOUT_RANK``),
on hand-worked endings (``_position``: N declares Open Misery, trick 1 as in ``test_sampled_dd_playout``), the
ending itself as two solved worlds of weight 1 (no play-out worlds more): a class's play-out value is 2 when its
play-out catches N, else 0."""

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.sampled_dd import playout_tie_break
from tests.rikken.test_sampled_dd_playout import ENDING, _card, _position

N, E, S, W = range(4)

# W leads C2 or C4 against N's C5 H9 (E holds C3): either way N must follow with his one club C5, E ducks under it
# with C3, S has no club: N wins the trick, both play-outs catch him.
BOTH_CATCH = {N: "C5 H9", E: "C3 HA", S: "D6 D7", W: "C2 C4"}


def _choose(monkeypatch, rank, rest, low, own, actions):
    """The tie-break's card for W to lead in the ending ``rest``; the worlds' sums ``low`` (every question
    finished: ``high`` equal)."""
    monkeypatch.setattr(sampled_dd, "PLAYOUT_RANK", rank)
    st = _position(rest, W)
    drawn = [(1.0, None, None, None, None, st), (1.0, None, None, None, None, st)]
    sums = (np.array(low, dtype=float), np.array(low, dtype=float))
    return playout_tie_break(drawn, sums, _card(own), [_card(a) for a in actions], W, N, default_params(),
                             state_from_seed(9))


# ENDING: W leads C3 or CK against N's C5 H9. C3: N must win with C5 (E ducks with C4): caught (play-out 2). CK: N
# ducks C5, then W's C3 lets him throw H9 while E wins with C4: made (play-out 0).
@pytest.mark.parametrize("rank, low, own, expected", [
    # The worlds' one top class (CK) is played without a play-out.
    ("worlds", [1.0, 2.0], "C3", "CK"),
    # Every class played out: C3, the only catch, over the worlds' CK, whichever card is own.
    ("playouts", [1.0, 2.0], "CK", "C3"),
    ("playouts", [0.0, 2.0], "CK", "C3"),
    # The sum: C3 2 + 1 = 3 against CK 0 + 2 = 2: C3.
    ("sum", [1.0, 2.0], "CK", "C3"),
    # C3 2 + 0 against CK 0 + 2: tied, the worlds rank CK first, even when own is C3.
    ("sum", [0.0, 2.0], "C3", "CK"),
])
def test_the_rank_on_an_ending_where_only_the_low_lead_catches_the_declarer(monkeypatch, rank, low, own, expected):
    assert _choose(monkeypatch, rank, ENDING, low, own, ["C3", "CK"]) == _card(expected)


@pytest.mark.parametrize("rank", ["playouts", "sum"])
def test_the_worlds_rank_the_classes_the_play_outs_tie(monkeypatch, rank):
    # Both leads catch N in the play-outs: the worlds' C4 even when own is C2; the worlds tied too: own's class.
    assert _choose(monkeypatch, rank, BOTH_CATCH, [1.0, 2.0], "C2", ["C2", "C4"]) == _card("C4")
    assert _choose(monkeypatch, rank, BOTH_CATCH, [2.0, 2.0], "C2", ["C2", "C4"]) == _card("C2")
    assert _choose(monkeypatch, rank, BOTH_CATCH, [2.0, 2.0], "C4", ["C2", "C4"]) == _card("C4")
