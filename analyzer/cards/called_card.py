"""The called card's obligations in play (Rikken's call: docs/rules.md, section 1, "Play"), as numba helpers.

One rule for the game's engine (``games/rikken/play_rules.py``) and the double-dummy solver
(``solvers/dd/rules.py``), which may not import a game; numba inlines it in both.
"""

import numpy as np
from numba import njit

_SUIT_BITS = np.int64(0x1FFF)
_ONE = np.int64(1)


@njit(cache=True, inline="always")
def legal_face_up(hand, n_played, led_suit, called):
    """Cards of ``hand`` that may be played face up.

    Parameters
    ----------
    hand : int64
        Mask of the player's cards.
    n_played : int
        Cards already in the trick (0: the player leads).
    led_suit : int
        The suit the trick counts as led in (ignored when leading).
    called : int
        The called card while nobody has played it yet, -1 for none.

    Returns
    -------
    int64
        The holder of the called card leads its suit only with the called card itself, and must play
        it to a trick led in its suit. Otherwise: any card when leading; when following, the cards of
        the led suit if the hand holds any, else the whole hand.
    """
    if called >= 0 and (hand >> called) & 1:
        if n_played == 0:
            return hand & ~((_SUIT_BITS << (13 * (called // 13))) & ~(_ONE << called))
        if led_suit == called // 13:
            return _ONE << called
    if n_played == 0:
        return hand
    follow = hand & (_SUIT_BITS << (13 * led_suit))
    if follow != 0:
        return follow
    return hand


@njit(cache=True, inline="always")
def void_in_called_suit(hand, called):
    """Whether ``hand`` holds no card of the called card's suit: what lets a bidder who called blind lead
    face down (besides being on lead, and the called card not yet played)."""
    return hand & (_SUIT_BITS << (13 * (called // 13))) == 0
