"""Schnapsen bots that need no search: ``random`` and the rule-based ``heuristic``.

All heuristic thresholds live in :class:`HeuristicParams`; kernels receive them as a float64 array
(``HeuristicParams.to_array``) so variants can be compared without recompiling.
"""

from dataclasses import astuple, dataclass

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.kernels import legal_actions

_POINTS = R.CARD_POINTS
_SUITS = R.SUIT_MASKS

# indices into the parameter array (same order as the dataclass fields)
_CLOSE_POINTS, _CLOSE_TRUMPS, _CLOSE_HIGH_TRUMPS, _WIN_WITH_HIGH, _TRUMP_MIN, _KEEP_MARRIAGE = range(6)


@dataclass(frozen=True)
class HeuristicParams:
    """Thresholds of the heuristic bot.

    Attributes
    ----------
    close_points : int
        Close the stock (when legal) only with at least this many counted points...
    close_trumps : int
        ...and at least this many trumps in hand...
    close_high_trumps : int
        ...of which at least this many are the trump ace or ten.
    win_with_high : int
        While the stock is open, take a led card worth at least this many points with a higher
        card of its suit (an ace over a ten, say) when possible.
    trump_min : int
        While the stock is open, trump a led card worth at least this many points that cannot be
        beaten in its suit (with the lowest trump).
    keep_marriage : int
        1 to avoid throwing away a king or queen whose partner is still in play.
    """

    close_points: int = 46
    close_trumps: int = 3
    close_high_trumps: int = 1
    win_with_high: int = 10
    trump_min: int = 10
    keep_marriage: int = 1

    def to_array(self) -> np.ndarray:
        """Return the parameters as the float64 array the kernels take."""
        return np.array(astuple(self), dtype=np.float64)


@njit(cache=True)
def _cheapest(cands, avoid):
    """Lowest-point card of ``cands`` outside ``avoid`` (falls back to all of ``cands``); -1 if none."""
    pool = cands & ~avoid
    if pool == 0:
        pool = cands
    best = -1
    for c in range(20):
        if (pool >> c) & 1 and (best < 0 or _POINTS[c] < _POINTS[best]):
            best = c
    return best


@njit(cache=True)
def _dearest(cands):
    best = -1
    for c in range(20):
        if (cands >> c) & 1 and (best < 0 or _POINTS[c] > _POINTS[best]):
            best = c
    return best


@njit(cache=True)
def _marriage_cards(hand, played):
    """Kings and queens whose partner is in ``hand`` or still unplayed (worth keeping)."""
    keep = np.int64(0)
    for suit in range(4):
        q = suit * 5 + 1
        k = suit * 5 + 2
        if (hand >> q) & 1 and not (played >> k) & 1:
            keep |= np.int64(1) << q
        if (hand >> k) & 1 and not (played >> q) & 1:
            keep |= np.int64(1) << k
    return keep


@njit(cache=True)
def _masters(hand, played):
    """Cards of ``hand`` that beat every unplayed card of their suit held by others."""
    out = np.int64(0)
    for c in range(20):
        if (hand >> c) & 1:
            top = (c // 5) * 5 + 4
            higher_out = False
            for d in range(c + 1, top + 1):
                if not (hand >> d) & 1 and not (played >> d) & 1:
                    higher_out = True
            if not higher_out:
                out |= np.int64(1) << c
    return out


@njit(cache=True)
def heuristic_action(s, params, buf):
    """Return the heuristic bot's action in state ``s`` (``buf`` is scratch int64[>=16])."""
    n = legal_actions(s, buf)
    p = s[R.TO_MOVE]
    hand = s[R.HAND0 + p]
    trump = s[R.TRUMP]
    trumps = hand & _SUITS[trump]
    played = s[R.PLAYED]
    strict = s[R.CLOSER] >= 0 or s[R.DRAWN] >= 10
    lead = s[R.LEAD_CARD]
    keep = _marriage_cards(hand, played) if params[_KEEP_MARRIAGE] > 0 else np.int64(0)
    if lead < 0:
        can_exchange = False
        can_close = False
        best_marriage = -1
        for i in range(n):
            a = buf[i]
            if a == R.EXCHANGE:
                can_exchange = True
            elif a == R.CLOSE:
                can_close = True
            elif a >= R.MARRIAGE_OFFSET and a % 5 == 1 and (
                    best_marriage < 0 or (a - R.MARRIAGE_OFFSET) // 5 == trump):
                best_marriage = a
        if can_exchange:
            return R.EXCHANGE
        if can_close:
            high = popcount(trumps & ((np.int64(1) << (trump * 5 + 3)) | (np.int64(1) << (trump * 5 + 4))))
            if (s[R.POINTS0 + p] >= params[_CLOSE_POINTS] and popcount(trumps) >= params[_CLOSE_TRUMPS]
                    and high >= params[_CLOSE_HIGH_TRUMPS]):
                return R.CLOSE
        if best_marriage >= 0:
            return best_marriage
        if strict:
            masters = _masters(hand, played)
            opp_trumps = _SUITS[trump] & ~played & ~hand
            if masters & trumps and opp_trumps:
                return _dearest(masters & trumps)
            if masters & ~trumps:
                return _dearest(masters & ~trumps)
            return _cheapest(hand & ~trumps if hand & ~trumps else hand, keep)
        plain = hand & ~trumps & ~keep
        return _cheapest(plain if plain else hand & ~trumps if hand & ~trumps else hand, np.int64(0))
    legal = np.int64(0)
    for i in range(n):
        legal |= np.int64(1) << buf[i]
    suit = lead // 5
    above = legal & _SUITS[suit] & ~((np.int64(1) << (lead + 1)) - 1)
    my_trumps = legal & _SUITS[trump] if suit != trump else np.int64(0)
    value = _POINTS[lead]
    if strict:
        winners = above | my_trumps
        if winners:
            return _dearest(winners & ~trumps) if winners & ~trumps else _cheapest(winners, np.int64(0))
        return _cheapest(legal, keep)
    if above:
        c = _cheapest(above, keep)
        if value >= params[_WIN_WITH_HIGH] or _POINTS[c] < 10:
            return c
    if my_trumps and value >= params[_TRUMP_MIN]:
        return _cheapest(my_trumps, np.int64(0))
    plain = legal & ~trumps
    return _cheapest(plain if plain else legal, keep)
