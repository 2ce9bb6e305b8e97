"""Every card of a played Rikken round judged double dummy, as bridge hand viewers do.

Before each card the position has a value under perfect play from there on, all hands seen: for a
trick contract the declaring side's final trick count (its tricks so far plus the most it can still
force) and whether that reaches the target; for Misery and 1 Alone whether the declarer can still
force his result. A card's *cost* is what its side gives up against the best card at that moment: the
value before it less the value after it (the other way round for the defenders), never negative. A
card that turns the contract's fate (the declarer's side could force it before and cannot after, or
the defenders could beat it before and cannot after) *gives up the contract*.

Made or not made is always exact (the solver's yes/no questions run without a budget, as in
``dd.contract_bounds``); the trick counts are searched within ``budget`` completed tricks, and a count
that runs out is the interval the finished probes proved, so its cost is reported as bounds.
"""

from dataclasses import dataclass

import numpy as np

from analyzer.games.rikken import rules
from analyzer.games.rikken.dd import declaring_team
from analyzer.games.rikken.kernels import apply_action, new_round
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET, HAND, TRICKS, TURN
from analyzer.solvers.dd.api import solve, solve_bounds


@dataclass(frozen=True)
class CardCost:
    """What one card gave up for one contract in play.

    Attributes
    ----------
    declarer : int
        The contract's declarer (several with joined Misery / 1 Alone bids).
    tricks_low, tricks_high : int or None
        Bounds on the tricks the card's side gave up (equal when exact); None for Misery and 1 Alone,
        which count only made or not made.
    contract : bool
        The card gave up the contract (see the module notes).
    """

    declarer: int
    tricks_low: int | None
    tricks_high: int | None
    contract: bool


@dataclass(frozen=True)
class _Value:
    """A position's value for one contract: the side's final tricks ``[low, high]`` (trick contracts) and
    whether the declarer's side can still force the contract."""

    low: int | None
    high: int | None
    reach: bool


class _Contract:
    """One declared contract as the judge asks about it."""

    def __init__(self, declarer: int, contract: int, partner: int):
        self.declarer = declarer
        self.kind = int(rules.KIND[contract])
        self.target = int(rules.TARGET[contract])
        self.team = declaring_team(declarer, contract, partner)

    def won(self, st) -> int:
        return sum(int(st[TRICKS + s]) for s in range(4) if self.team >> s & 1)


def card_costs(setup: dict, plays, budget: int = 0) -> list[list[CardCost]]:
    """The double-dummy cost of every card played in a round (see the module notes).

    Parameters
    ----------
    setup : dict
        The round: ``hands`` (four masks at the start, all of one size: a full deal or an ending),
        ``leader``, ``contract_of``, ``partner``, ``trump``, ``called_card``, ``blind``, as the play-outs
        take them.
    plays : sequence of (seat, action)
        The actions in play order (``kernels`` actions: a face-down lead is ``FACE_DOWN_OFFSET + card``).
    budget : int
        Completed tricks each trick count may search (0: no limit).

    Returns
    -------
    list of list of CardCost
        Per card, one entry per declared contract, in declarer seat order.
    """
    hands = np.asarray(setup["hands"], dtype=np.int64)
    contract_of = np.asarray(setup["contract_of"], dtype=np.int64)
    partner, trump = int(setup["partner"]), int(setup["trump"])
    called, blind = int(setup["called_card"]), bool(setup["blind"])
    st = new_round(hands, int(setup["leader"]), contract_of, partner, trump, called, int(blind))
    contracts = [_Contract(s, int(c), partner) for s, c in enumerate(contract_of) if c >= 0]
    # One table generation per trump, team and kind of goal for the whole round, as the dd play-out keeps.
    generations: dict = {}
    position = {"trick": [], "trick_blind": False}

    def values():
        return [_value(st, c, trump, called, blind, position["trick"], position["trick_blind"], budget, generations)
                for c in contracts]

    before = values()
    costs = []
    for seat, action in plays:
        seat, action = int(seat), int(action)
        face_down = action >= FACE_DOWN_OFFSET
        position["trick"].append(action - FACE_DOWN_OFFSET if face_down else action)
        position["trick_blind"] = position["trick_blind"] or face_down
        if apply_action(st, seat, action) >= 0:
            position["trick"], position["trick_blind"] = [], False
        after = values()
        costs.append([_cost(c, seat, b, a) for c, b, a in zip(contracts, before, after)])
        before = after
    return costs


def _value(st, contract: _Contract, trump, called, blind, trick, trick_blind, budget, generations) -> _Value:
    """The contract's value at the state ``st`` with ``trick`` in progress."""
    hands = st[HAND:HAND + 4].copy()
    mover = int(st[TURN])
    won = contract.won(st)
    # The mover has not played to the trick in progress: his cards count it.
    left = int(hands[mover]).bit_count()
    ask = {"trick": trick, "called_card": called, "blind_call": blind, "trick_blind": trick_blind,
           "generations": generations}
    if contract.kind == rules.Kind.MISERY:
        return _Value(None, None, won == 0 and (left == 0 or solve(hands, trump, mover, contract.team, "le", 0, **ask)))
    if contract.kind == rules.Kind.ONE:
        return _Value(None, None, won <= 1 and (left == 0 and won == 1 or
                                               left > 0 and solve(hands, trump, mover, contract.team, "eq", 1 - won,
                                                                  **ask)))
    if left == 0:
        return _Value(won, won, won >= contract.target)
    need = contract.target - won
    if need <= 0:
        reach, low, high = True, 0, left
    elif need > left:
        reach, low, high = False, 0, left
    else:
        reach = solve(hands, trump, mover, contract.team, "ge", need, **ask)
        low, high = (need, left) if reach else (0, need - 1)
    low, high = solve_bounds(hands, trump, mover, contract.team, budget, low, high, **ask)
    return _Value(won + low, won + high, reach)


def _cost(contract: _Contract, seat: int, before: _Value, after: _Value) -> CardCost:
    """What ``seat``'s card cost its side in ``contract``, from the values before and after it."""
    declaring = bool(contract.team >> seat & 1)
    lost = before.reach and not after.reach if declaring else not before.reach and after.reach
    if before.low is None:
        return CardCost(contract.declarer, None, None, lost)
    if declaring:
        low, high = before.low - after.high, before.high - after.low
    else:
        low, high = after.low - before.high, after.high - before.low
    return CardCost(contract.declarer, max(low, 0), max(high, 0), lost)
