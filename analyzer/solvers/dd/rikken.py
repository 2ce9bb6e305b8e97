"""Double-dummy outcomes of Rikken contract setups (the ``--policy dd`` counterpart of a play-out).

A setup row is one declared contract on one deal, in the arrays the Rikken experiments build
(``analyzer.experiments.rikken_bids.build_setups``): ``hands``, ``leader``, ``contract_of``,
``partner``, ``trump``, ``called_card``, ``blind``.  Under perfect play by both sides:
- trick contracts: the declaring side's count is the most tricks it can guarantee;
- Misery and 1 Alone: only made or failed is settled (these contracts score no undertricks, and
  refining a lost Misery's count costs far more search): the count is the target (0 / 1) when
  the declarer can force it, else ``FAILED_MISERY`` (1) / ``FAILED_ONE_ALONE`` (2), markers that
  fail the contract, not trick counts.
"""

import numpy as np

from analyzer.games.rikken import rules
from analyzer.solvers.dd.api import solve

FAILED_MISERY = 1
FAILED_ONE_ALONE = 2


def declaring_team(bidder: int, contract: int, partner: int) -> int:
    """Seat mask of the side playing ``contract``: the bidder, plus the partner unless it is played alone."""
    team = 1 << bidder
    if partner >= 0 and rules.SIDE[contract] != rules.Side.ALONE:
        team |= 1 << partner
    return team


def declarer_count(hands, leader: int, trump: int, team: int, kind: int, called_card: int = -1,
                   blind: bool = False) -> int:
    """The declaring side's trick count under perfect play for one contract (see the module notes).

    Parameters
    ----------
    hands : array_like of 4 int64
        Seat masks at the start of play.
    leader, trump, team : int
        Seat on lead, trump (4 = none), seat mask of the declaring side.
    kind : int
        ``rules.Kind`` of the contract.
    called_card : int
        Called card or -1; ``blind``: the call was blind.
    """
    kw = {"called_card": called_card, "blind_call": blind}
    if kind == rules.Kind.TRICKS:
        return solve(hands, trump, leader, team, **kw)
    if kind == rules.Kind.MISERY:
        return 0 if solve(hands, trump, leader, team, goal="le", k=0, **kw) else FAILED_MISERY
    return 1 if solve(hands, trump, leader, team, goal="eq", k=1, **kw) else FAILED_ONE_ALONE


def play_setups_dd(setups: dict) -> np.ndarray:
    """Tricks per seat (``int64[m, 4]``) for each setup row, as the heuristic play-out returns them.

    The declaring side's double-dummy count is credited to the bidder, the rest of the tricks to
    the first defender, so side totals (what contracts are scored on) are exact.
    """
    hands = np.asarray(setups["hands"], dtype=np.int64)
    tricks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    for i in range(hands.shape[0]):
        contract_row = setups["contract_of"][i]
        bidder = int(np.flatnonzero(contract_row >= 0)[0])
        contract = int(contract_row[bidder])
        partner = int(setups["partner"][i])
        team = declaring_team(bidder, contract, partner)
        count = declarer_count(hands[i], int(setups["leader"][i]), int(setups["trump"][i]), team,
                               int(rules.KIND[contract]), int(setups["called_card"][i]), bool(setups["blind"][i]))
        defender = next(s for s in range(4) if not team >> s & 1)
        total = bin(int(hands[i][0])).count("1")
        tricks[i, bidder] = count
        tricks[i, defender] = total - count
    return tricks
