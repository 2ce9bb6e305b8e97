"""Which sure-trick cut-offs hold in an exact window (1 Alone's "exactly one trick").

The quick-trick cut-offs at a trick's start (``_quick_tricks``, ``_partner_ruffs``) and inside a trick
(``_second_hand_tricks``, ``_sure_trick_cards``) count tricks the side to move surely takes whatever
the other side plays, and settle the window when the side needs that many: the team to reach ``lo``
(answer yes), or the others to keep the team below ``lo`` (answer no).  In a maximising window both
are sound.  In an exact window ``[lo, hi]`` the others win by keeping the team below ``lo`` or by
pushing it above ``hi``, so their sure tricks that keep it below ``lo`` still prove a no; the team's
sure tricks up to ``lo`` do not prove a yes (it may still be forced above ``hi``), so those cut-offs
stay off.  A minimising window (Misery) is not helped: its ``lo`` is 0, never missed.
"""

from numba import njit

from analyzer.solvers.dd.tables import MODE_EXACT, MODE_MAX


@njit(cache=True)
def _cash_settles(mode, team, seat):
    """Whether the sure tricks of ``seat``'s side may settle a window of kind ``mode`` (see the module)."""
    return mode == MODE_MAX or (mode == MODE_EXACT and (team >> seat) & 1 == 0)
