"""A perfect misère declarer: the card the solver proves keeps his misère against any defence, seeing every hand.

The declarer's side of the gap between sampled-dd's and perfect defence (``scripts/rikken_sdd_retry.py
--declarer dd``, docs/rikken-bots.md, "Session 13"): where the solver proves a card safe he plays it, elsewhere
the heuristic's card, so an undecided turn is never a guess of the solver's.
"""

import numpy as np

from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import POLICY_HEURISTIC, choose_action
from analyzer.games.rikken.shared_verdicts import judge_moves


def misery_declarer_card(st: np.ndarray, seat: int, up: int, fd: int, generations: dict, budget: int,
                         rng_state: np.ndarray) -> tuple[int, bool]:
    """A perfect misère declarer's card, seeing every hand: one the solver proves keeps his misère safe against
    any defence (the heuristic's among them when it is one, else the lowest), else, where none is proved, the
    heuristic's card; and whether the budget left the turn undecided (no card proved safe, not every card
    proved lost).

    Parameters
    ----------
    st : numpy.ndarray
        The round's state (``round_layout``), the declarer ``seat`` to play.
    seat : int
        The misère declarer.
    up, fd : int
        His legal face-up and face-down masks (``play_rules.legal_actions``, as ``kernels.choose_action`` takes
        them).
    generations : dict
        The solver's table generations, shared across the round's questions.
    budget : int
        Completed tricks a question may search (0: none).
    rng_state : numpy.ndarray
        The play stream; the heuristic's card is drawn from it on every turn, so the stream advances alike
        whether or not a proved card is played.

    Returns
    -------
    tuple of (int, bool)
        The card, and whether the turn was left undecided by the budget.
    """
    heuristic = int(choose_action(st, seat, np.int64(up), np.int64(fd), POLICY_HEURISTIC, default_params(),
                                  rng_state))
    if int(st[L.TRICKS + seat]) > 0 or (int(up) & (int(up) - 1)) == 0:
        return heuristic, False
    leader = int(st[L.LEADER])
    trick = [int(st[L.TRICK + (leader + i) % 4]) for i in range(int(st[L.N_IN_TRICK]))]
    verdicts = judge_moves(st[L.HAND:L.HAND + 4].copy(), int(st[L.TRUMP]), seat, 1 << seat, "le", 0, trick=trick,
                           generations=generations, budget=budget)
    safe = int(verdicts.keep_up) & int(up)
    if safe:
        return (heuristic if safe >> heuristic & 1 else (safe & -safe).bit_length() - 1), False
    return heuristic, not verdicts.complete and (int(verdicts.fail_up) & int(up)) != int(up)
