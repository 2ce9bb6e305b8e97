"""What a deal's result is worth inside a Bummerl: the chance of winning the Bummerl after it.

Game points are not all alike once a Bummerl is under way. A player who needs one more point gains
nothing from a Schneider, and one whose opponent needs one point loses the Bummerl to any deal lost,
by one game point or by three. The bots that search (``pimc_plus``, ``rollout``, ``hybrid``) read the
score from the state (``TO_GO0 + p``: game points player p still needs, 0 outside a Bummerl) and, in
a Bummerl, value a deal's result by the chance of winning the Bummerl after it
(:func:`deal_utility`) instead of by its game points plus a bonus for winning.

The chances come from a model of the deals still to come: each is won by either player with
probability 1/2 and scores 1, 2 or 3 game points in the shares ``DEAL_POINT_SHARES``.
"""

import numpy as np
from numba import njit

from analyzer.games.schnapsen import rules as R

#: shares of 1, 2 and 3 game points among deals won: 302, 423 and 275 of 1,000 self-play deals
#: (``scripts/schnapsen_deal_point_shares.py --bot hybrid --deals 400 --seed 777`` and ``--bot pimc
#: --deals 600 --seed 778``)
DEAL_POINT_SHARES = (0.30, 0.42, 0.28)


def bummerl_win_chances(shares=DEAL_POINT_SHARES, match_points: int = R.MATCH_POINTS) -> np.ndarray:
    """Chance to win the Bummerl, ``table[mine, theirs]``, for a player who still needs ``mine`` game
    points against an opponent who needs ``theirs`` (both 1..``match_points``; row and column 0 unused),
    when every deal is won by either player with probability 1/2 and a won deal scores 1, 2, 3 game
    points with probabilities ``shares``.

    Parameters
    ----------
    shares : sequence of float
        Probabilities of 1, 2 and 3 game points for the winner of a deal; they sum to 1.
    match_points : int
        Game points a Bummerl is played to.

    Returns
    -------
    numpy.ndarray
        Float array of shape ``(match_points + 1, match_points + 1)``.
    """
    table = np.zeros((match_points + 1, match_points + 1))
    # both scores only fall, so a table filled by growing mine + theirs has every later score ready
    for total in range(2, 2 * match_points + 1):
        for mine in range(max(1, total - match_points), min(match_points, total - 1) + 1):
            theirs = total - mine
            chance = 0.0
            for points, share in enumerate(shares, start=1):
                chance += 0.5 * share * (1.0 if points >= mine else table[mine - points, theirs])
                chance += 0.5 * share * (0.0 if points >= theirs else table[mine, theirs - points])
            table[mine, theirs] = chance
    return table


_WIN_CHANCES = bummerl_win_chances()


@njit(cache=True)
def in_bummerl(s):
    """True when the state carries a Bummerl score (``TO_GO0 + p`` set)."""
    return s[R.TO_GO0] > 0


@njit(cache=True)
def deal_utility(s, player, v):
    """What a deal ending with ``v`` signed game points for ``player`` is worth to him: ``v`` itself
    outside a Bummerl, else his chance of winning the Bummerl after that deal (module notes)."""
    mine = s[R.TO_GO0 + player]
    if mine == 0:
        return float(v)
    theirs = s[R.TO_GO0 + 1 - player]
    if v > 0:
        return 1.0 if v >= mine else _WIN_CHANCES[mine - v, theirs]
    return 0.0 if -v >= theirs else _WIN_CHANCES[mine, theirs + v]
