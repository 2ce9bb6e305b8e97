"""The perfect misère declarer (``misery_declarer.misery_declarer_card``, ``scripts/rikken_sdd_retry.py --declarer
dd``) against plain minimax.

Oracle: ``reference_minimax.can_force`` on random four-card Misery endings (N declares, E leads) played by random
defenders: where N can force no trick before his card, he still can after it; where he cannot, he plays the
heuristic's card.
"""

import numpy as np

from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import POLICY_HEURISTIC, apply_action, choose_action, legal_actions, new_round
from analyzer.games.rikken.misery_declarer import misery_declarer_card
from analyzer.games.rikken.rules import Contract
from tests.solvers.reference_minimax import Rules, can_force


def _forced(st, trick):
    """Whether N, the declarer, can force taking no trick from ``st`` (``trick``: the current trick's plays)."""
    hands = [tuple(cards_of(int(st[L.HAND + s]))) for s in range(4)]
    return can_force(Rules(NO_TRUMP, [0]), hands, int(st[L.TURN]), 0, 0, tuple(trick))


def test_the_perfect_declarer_keeps_a_forced_misere_and_plays_the_heuristic_otherwise():
    rng = np.random.default_rng(20261213)
    kept = lost = 0
    for _ in range(30):
        cards = rng.permutation(52)[:16]
        hands = np.array([sum(1 << int(c) for c in cards[4 * s:4 * (s + 1)]) for s in range(4)], dtype=np.int64)
        st = new_round(hands, 1, [int(Contract.MISERY), -1, -1, -1], -1, NO_TRUMP, -1, 0)
        trick = []
        while int(st[L.HAND + int(st[L.TURN])]) != 0 and int(st[L.TRICKS]) == 0:
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            if seat == 0:
                stream = state_from_seed(seat + len(trick))
                card, undecided = misery_declarer_card(st, 0, int(up), int(fd), {}, 0, stream.copy())
                heuristic = int(choose_action(st, 0, up, fd, POLICY_HEURISTIC, default_params(), stream.copy()))
                assert not undecided
                if int(up) & (int(up) - 1) and _forced(st, trick):
                    after = st.copy()
                    ends = apply_action(after, 0, card) >= 0
                    assert int(after[L.TRICKS]) == 0 and _forced(after, [] if ends else trick + [(0, card, False)])
                    kept += 1
                else:
                    assert card == heuristic
                    lost += 1
            else:
                card = int(rng.choice(cards_of(int(up))))
            trick.append((seat, card, False))
            if apply_action(st, seat, card) >= 0:
                trick = []
    assert kept > 0 and lost > 0  # both kinds of turn were checked
