"""Rikken round scoring (docs/rules.md section 1, "Scoring"), in both ``points`` and ``money`` modes.

Every declaring seat (``contract_of[seat] >= 0``) settles its own contract with the other seats, so
several Misery / 1 Alone bidders at once need no special case: their settlements simply add up.
A called-ace or Troela contract counts the partner's tricks with the bidder's; a Rik whose bidder
could call no card has ``partner == -1`` and is played, and settled, as one against three.
"""

import numpy as np

from analyzer.errors import InputError
from analyzer.games.rikken.rules import (
    BASE_POINTS,
    KIND,
    OVERTRICKS_SCORE,
    SIDE,
    TARGET,
    Kind,
    ScoringMode,
    Side,
    contract_value,
)

N_SEATS = 4


def _has_partner(contract: int, partner: int) -> bool:
    """True when ``contract`` is played two against two with ``partner``."""
    return partner >= 0 and SIDE[contract] != Side.ALONE


def _settle(contract: int, bidder: int, partner: int, tricks, mode: ScoringMode) -> list[int]:
    """Per-seat score of one declarer's contract."""
    team = [bidder, partner] if _has_partner(contract, partner) else [bidder]
    made, value = contract_value(contract, sum(int(tricks[s]) for s in team))
    scores = [0] * N_SEATS
    defenders = [s for s in range(N_SEATS) if s not in team]
    if mode == ScoringMode.POINTS:
        for seat in team if made else defenders:
            scores[seat] = value
        return scores
    sign = 1 if made else -1
    for seat in defenders:
        scores[seat] = -sign * value
    # A lone declarer settles with three defenders, each partner with one of the two.
    for seat in team:
        scores[seat] = sign * value * len(defenders) // len(team)
    return scores


def contract_status(contract: int, side_tricks: int, tricks_left: int) -> int:
    """Whether a contract is already decided: 1 made, -1 failed, 0 still open.

    A Misery bidder who wins a trick, or a 1 Alone bidder who wins two, has failed whatever follows;
    a trick contract is made once its target is reached and failed once it is out of reach. Misery and
    1 Alone are only made when the last trick is done, and a made trick contract may still add overtricks.

    Parameters
    ----------
    contract : int
        Contract id.
    side_tricks : int
        Tricks taken so far by the declaring side.
    tricks_left : int
        Tricks still to be played.
    """
    kind, target = KIND[contract], int(TARGET[contract])
    if kind == Kind.TRICKS:
        if side_tricks >= target:
            return 1
        return -1 if side_tricks + tricks_left < target else 0
    if side_tricks > target:
        return -1
    if tricks_left == 0:
        return 1 if side_tricks == target else -1
    return 0


def score_round(contract_of, partner: int, tricks, mode: ScoringMode = ScoringMode.POINTS) -> list[int]:
    """Score one round.

    Parameters
    ----------
    contract_of : sequence of int, length 4
        Contract id declared by each seat, -1 for seats that declared nothing.
    partner : int
        Seat of the called-card holder or Troela partner, -1 if none (alone contracts, no callable card).
    tricks : sequence of int, length 4
        Tricks taken by each seat.
    mode : ScoringMode
        ``POINTS`` (made: declarers score V each; failed: each opponent scores V) or zero-sum ``MONEY``.

    Returns
    -------
    list of int
        Score of each seat, summed over all declarers' contracts.
    """
    if len(contract_of) != N_SEATS or len(tricks) != N_SEATS:
        raise InputError("contract_of and tricks need one entry per seat")
    totals = [0] * N_SEATS
    for bidder, contract in enumerate(contract_of):
        if contract < 0:
            continue
        for seat, score in enumerate(_settle(int(contract), bidder, int(partner), tricks, ScoringMode(mode))):
            totals[seat] += score
    return totals


def _values(contract: np.ndarray, side_tricks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised ``rules.contract_value``: (made, V) for arrays of contracts (>= 0) and trick counts."""
    kind = KIND[contract]
    target = TARGET[contract]
    base = BASE_POINTS[contract]
    made = np.where(kind == Kind.TRICKS, side_tricks >= target, side_tricks == target)
    over = np.maximum(side_tricks - target, 0) * OVERTRICKS_SCORE[contract]
    under = np.where(kind == Kind.TRICKS, np.maximum(target - side_tricks, 0), 0)
    return made, base + np.where(made, over, under)


def score_rounds(contract_of: np.ndarray, partner: np.ndarray, tricks: np.ndarray,
                 mode: ScoringMode = ScoringMode.POINTS) -> np.ndarray:
    """Score many rounds at once; row ``i`` equals ``score_round(contract_of[i], partner[i], tricks[i], mode)``.

    Parameters
    ----------
    contract_of : int64[n, 4]
    partner : int64[n]
    tricks : int64[n, 4]
    mode : ScoringMode

    Returns
    -------
    int64[n, 4]
        Scores per round and seat.
    """
    contract_of = np.asarray(contract_of, dtype=np.int64)
    partner = np.asarray(partner, dtype=np.int64)
    tricks = np.asarray(tricks, dtype=np.int64)
    rows = np.arange(len(partner))
    scores = np.zeros((len(partner), N_SEATS), dtype=np.int64)
    for bidder in range(N_SEATS):
        declares = contract_of[:, bidder] >= 0
        contract = np.where(declares, contract_of[:, bidder], 0)
        paired = declares & (partner >= 0) & (SIDE[contract] != Side.ALONE)
        mate = np.where(paired, partner, bidder)
        side_tricks = tricks[:, bidder] + np.where(paired, tricks[rows, np.maximum(mate, 0)], 0)
        made, value = _values(contract, side_tricks)
        value = np.where(declares, value, 0)
        in_team = np.zeros((len(partner), N_SEATS), dtype=bool)
        in_team[:, bidder] = True
        in_team[rows, mate] = True
        scores += _settle_rows(in_team, made, value, paired, ScoringMode(mode))
    return scores


def _settle_rows(in_team: np.ndarray, made: np.ndarray, value: np.ndarray, paired: np.ndarray,
                 mode: ScoringMode) -> np.ndarray:
    """Per-seat scores of one declarer's contract over many rounds (``value`` is 0 where nobody declared)."""
    made_col, value_col = made[:, None], value[:, None]
    if mode == ScoringMode.POINTS:
        return np.where(in_team == made_col, value_col, 0)
    sign = np.where(made_col, 1, -1)
    # 2 v 2: each declarer settles with one defender; 1 v 3: the declarer settles with all three.
    team_factor = np.where(paired, 1, 3)[:, None]
    return np.where(in_team, sign * value_col * team_factor, -sign * value_col)
