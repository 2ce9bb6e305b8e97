"""Numba Schnapsen engine on the flat int64 state (layout in ``rules``): deal, legal actions, apply.

These are the hot primitives shared by the bots, the search and the batch players. The plain-Python
twin is ``state.SchnapsenState``; tests replay the same games through both.
"""

import numpy as np
from numba import njit

from analyzer.cards.rng import bounded
from analyzer.games.schnapsen import rules as R

_POINTS = R.CARD_POINTS
_SUITS = R.SUIT_MASKS
_HAND0 = R.HAND0
_STOCK = R.STOCK
_DRAWN = R.DRAWN
_TRUMP = R.TRUMP
_POINTS0 = R.POINTS0
_PENDING0 = R.PENDING0
_TRICKS0 = R.TRICKS0
_LEADER = R.LEADER
_TO_MOVE = R.TO_MOVE
_LEAD = R.LEAD_CARD
_CLOSER = R.CLOSER
_COPP = R.CLOSE_OPP_POINTS
_COPPT = R.CLOSE_OPP_TRICK
_PLAYED = R.PLAYED
_WINNER = R.WINNER
_GP = R.GAME_POINTS
_SHOWN0 = R.SHOWN0
_NOT_HELD0 = R.NOT_HELD0
_MOFF = R.MARRIAGE_OFFSET
_EXCHANGE = R.EXCHANGE
_CLOSE = R.CLOSE
_WIN = R.WIN_POINTS
_SCHNEIDER = R.SCHNEIDER_POINTS
_STOCK_SIZE = R.STOCK_SIZE
# de Bruijn multiplication finds the index of a single set bit without a loop
_DEBRUIJN = np.int64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((((1 << _i) * 0x03F79D71B4CB0A89) & (2**64 - 1)) >> 58) & 63] = _i


@njit(cache=True, inline="always")
def copy_state(dst, src):
    """``dst[:] = src`` for a state row, element by element: numba compiles a slice assignment with a formatted
    error message (its string helpers), which every kernel linking it then re-optimises; the loop compiles
    none (-4 CPU-s in each of a cold ``schnapsen advise``'s two compile processes, docs/performance.md)."""
    for k in range(dst.shape[0]):
        dst[k] = src[k]


@njit(cache=True, inline="always")
def stock_closed_or_exhausted(s):
    """True once nobody draws again: the stock is closed or every card of it drawn. Strict play applies
    from then on, and the stock's order no longer matters."""
    return s[_CLOSER] >= 0 or s[_DRAWN] >= _STOCK_SIZE


@njit(cache=True)
def shuffle_deck(rng, deck):
    """Fill ``deck`` (int64[20]) with a uniformly random order of the 20 cards (Fisher-Yates)."""
    for i in range(20):
        deck[i] = i
    for i in range(19, 0, -1):
        j = bounded(rng, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@njit(cache=True)
def init_round(order, dealer, s):
    """Deal ``order`` (20 cards, top first) into state ``s``; see ``SchnapsenState.deal``."""
    other = 1 - dealer
    for i in range(R.STATE_SIZE):
        s[i] = 0
    h_other = np.int64(0)
    h_dealer = np.int64(0)
    for i in range(3):
        h_other |= np.int64(1) << order[i]
        h_dealer |= np.int64(1) << order[3 + i]
    for i in range(2):
        h_other |= np.int64(1) << order[7 + i]
        h_dealer |= np.int64(1) << order[9 + i]
    s[_HAND0 + other] = h_other
    s[_HAND0 + dealer] = h_dealer
    for i in range(9):
        s[_STOCK + i] = order[11 + i]
    s[_STOCK + 9] = order[6]
    s[_TRUMP] = order[6] // 5
    s[_LEADER] = other
    s[_TO_MOVE] = other
    s[_LEAD] = -1
    s[_CLOSER] = -1
    s[_WINNER] = -1


@njit(cache=True)
def strict_follow_mask(hand, lead, trump):
    """Cards of ``hand`` that may follow ``lead`` under strict play."""
    suit = lead // 5
    same = hand & _SUITS[suit]
    if same != 0:
        higher = same & ~((np.int64(1) << (lead + 1)) - 1)
        return higher if higher != 0 else same
    trumps = hand & _SUITS[trump]
    return trumps if trumps != 0 else hand


@njit(cache=True)
def legal_actions(s, out):
    """Write the legal action codes for the player to move into ``out``; return their count.

    Codes are written in increasing order (cards, marriage leads, exchange, close).
    """
    if s[_WINNER] >= 0:
        return 0
    p = s[_TO_MOVE]
    hand = s[_HAND0 + p]
    n = 0
    lead = s[_LEAD]
    if lead >= 0:
        allowed = hand
        if stock_closed_or_exhausted(s):
            allowed = strict_follow_mask(hand, lead, s[_TRUMP])
        while allowed:
            low = allowed & -allowed
            out[n] = _BIT_INDEX[(low * _DEBRUIJN >> 58) & 63]
            n += 1
            allowed ^= low
        return n
    h = hand
    while h:
        low = h & -h
        c = _BIT_INDEX[(low * _DEBRUIJN >> 58) & 63]
        out[n] = c
        n += 1
        h ^= low
    n_cards = n
    for suit in range(4):
        if (hand >> (suit * 5 + 1)) & 3 == 3:
            out[n] = suit * 5 + 1 + _MOFF
            out[n + 1] = suit * 5 + 2 + _MOFF
            n += 2
    if s[_CLOSER] < 0 and s[_DRAWN] <= 8:
        if (hand >> (s[_TRUMP] * 5)) & 1:
            out[n] = _EXCHANGE
            n += 1
        if n_cards == 5:
            out[n] = _CLOSE
            n += 1
    return n


@njit(cache=True)
def _finish(s, w):
    loser = 1 - w
    s[_WINNER] = w
    closer = s[_CLOSER]
    if closer < 0:
        if s[_TRICKS0 + loser] == 0:
            s[_GP] = 3
        elif s[_POINTS0 + loser] < _SCHNEIDER:
            s[_GP] = 2
        else:
            s[_GP] = 1
    elif w == closer:
        if s[_COPPT] == 0:
            s[_GP] = 3
        elif s[_COPP] < _SCHNEIDER:
            s[_GP] = 2
        else:
            s[_GP] = 1
    else:
        s[_GP] = 2 if s[_COPPT] else 3


@njit(cache=True)
def apply_action(s, a):
    """Play legal action ``a`` in place (no legality check: callers pick from ``legal_actions``)."""
    p = s[_TO_MOVE]
    if a == _EXCHANGE:
        jack = s[_TRUMP] * 5
        face = s[_STOCK + 9]
        s[_HAND0 + p] = (s[_HAND0 + p] & ~(np.int64(1) << jack)) | (np.int64(1) << face)
        s[_STOCK + 9] = jack
        s[_SHOWN0 + p] |= np.int64(1) << face
        return
    if a == _CLOSE:
        s[_CLOSER] = p
        s[_COPP] = s[_POINTS0 + 1 - p]
        s[_COPPT] = 1 if s[_TRICKS0 + 1 - p] > 0 else 0
        return
    card = a - _MOFF if a >= _MOFF else a
    bit = np.int64(1) << card
    lead = s[_LEAD]
    if lead >= 0 and stock_closed_or_exhausted(s):
        # strict play reveals what the follower lacks (no card is drawn afterwards)
        suit = lead // 5
        if card // 5 != suit:
            s[_NOT_HELD0 + p] |= _SUITS[suit]
            if card // 5 != s[_TRUMP]:
                s[_NOT_HELD0 + p] |= _SUITS[s[_TRUMP]]
        elif card < lead:
            s[_NOT_HELD0 + p] |= _SUITS[suit] & ~((np.int64(1) << (lead + 1)) - 1)
    s[_HAND0 + p] &= ~bit
    s[_SHOWN0 + p] &= s[_HAND0 + p]
    s[_PLAYED] |= bit
    if lead < 0:
        s[_LEAD] = card
        s[_TO_MOVE] = 1 - p
        if a >= _MOFF:
            partner = card + 1 if card % 5 == 1 else card - 1
            s[_SHOWN0 + p] |= np.int64(1) << partner
            value = 40 if card // 5 == s[_TRUMP] else 20
            if s[_TRICKS0 + p] > 0:
                s[_POINTS0 + p] += value
                if s[_POINTS0 + p] >= _WIN:
                    _finish(s, p)
                    return
            else:
                s[_PENDING0 + p] += value
        return
    leader = s[_LEADER]
    if card // 5 == lead // 5:
        w = p if card > lead else leader
    elif card // 5 == s[_TRUMP]:
        w = p
    else:
        w = leader
    s[_POINTS0 + w] += _POINTS[lead] + _POINTS[card]
    s[_TRICKS0 + w] += 1
    if s[_TRICKS0 + w] == 1:
        s[_POINTS0 + w] += s[_PENDING0 + w]
        s[_PENDING0 + w] = 0
    s[_LEAD] = -1
    s[_LEADER] = w
    s[_TO_MOVE] = w
    if s[_POINTS0 + w] >= _WIN:
        _finish(s, w)
        return
    drawn = s[_DRAWN]
    if not stock_closed_or_exhausted(s):
        s[_HAND0 + w] |= np.int64(1) << s[_STOCK + drawn]
        face = s[_STOCK + drawn + 1]
        s[_HAND0 + 1 - w] |= np.int64(1) << face
        s[_STOCK + drawn] = -1
        s[_STOCK + drawn + 1] = -1
        s[_DRAWN] = drawn + 2
        if drawn + 2 == _STOCK_SIZE:
            # the stock is exhausted: all 20 cards are accounted for, so each player knows the other's hand
            s[_SHOWN0] = s[_HAND0]
            s[_SHOWN0 + 1] = s[_HAND0 + 1]
    if s[_HAND0] == 0 and s[_HAND0 + 1] == 0:
        if s[_CLOSER] >= 0:
            _finish(s, 1 - s[_CLOSER])
        else:
            s[_WINNER] = w
            s[_GP] = 1


@njit(cache=True)
def signed_result(s, player):
    """Game points of the finished deal ``s`` from ``player``'s side (+ won, - lost)."""
    return s[_GP] if s[_WINNER] == player else -s[_GP]


@njit(cache=True)
def random_action(s, rng, buf):
    """Return a uniformly random legal action (``buf`` is scratch int64[>=16])."""
    n = legal_actions(s, buf)
    return buf[bounded(rng, n)]
