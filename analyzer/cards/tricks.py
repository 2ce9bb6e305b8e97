"""The trick rule every 52-card trick game and the double-dummy solver share (numba).

Cards are ``suit * 13 + rank`` (see :mod:`analyzer.cards.deck`); a higher rank is a higher card.
"""

from numba import njit

#: The trump "suit" of a no-trump contract: no card's suit.
NO_TRUMP = 4


@njit(cache=True, inline="always")
def beats(card, win_card, win_seat, led_suit, trump):
    """Whether ``card`` takes the trick from its current winner.

    Parameters
    ----------
    card : int
        The card just played.
    win_card : int
        The card winning the trick so far (ignored when ``win_seat`` < 0).
    win_seat : int
        The seat winning so far, or -1 when no card played so far can win (nothing played yet, or
        only a face-down card).
    led_suit : int
        The suit the trick counts as led in.
    trump : int
        Trump suit 0..3; any other value (``NO_TRUMP``, -1) means no trump.

    Returns
    -------
    bool
        With no winner yet: whether ``card`` is of the led suit or a trump. Otherwise: a higher card
        of the winner's suit, or a trump over a card that is not one.
    """
    suit = card // 13
    if win_seat < 0:
        return suit == led_suit or suit == trump
    win_suit = win_card // 13
    if suit == win_suit:
        return card > win_card
    return suit == trump
