"""The Rikken round-state layout: one int64 array every play policy and the kernels read.

``kernels.py`` fills and advances it; a policy must only read what its seat may know:

- its own hand, the cards played face up, the current trick, tricks taken, shown-out suits;
- another seat's hand only through :func:`visible_hand` (exposed hands of open contracts after trick 1:
  the declarer's in Open Misery / Open 1 Alone / Open 13 Alone, every hand in the "All" contracts,
  where the defenders then play as one mind);
- the partner seat only through :func:`friends_of`, which reveals it once the called card has shown
  (or at once in Troela and when the bidder plays alone); the holder of the called card knows he is
  the partner because he holds it.
"""

import numpy as np
from numba import njit

from analyzer.games.rikken.rules import Kind

# ---- round-state layout (int64 array of STATE_SIZE) -------------------------------------------
HAND = 0  # 4 slots: cards still held by each seat
TRICK = 4  # 4 slots: card each seat played to the current trick, -1 if none yet, 52 if face down
TRICKS = 8  # 4 slots: tricks won so far
VOIDS = 12  # 4 slots: suits (4-bit mask) each seat has publicly shown out of
CONTRACT = 16  # 4 slots: contract id each seat declared, -1 for non-declarers
KIND = 20  # 4 slots: rules.Kind of each seat's contract, -1 for non-declarers
PLAYED = 24  # cards played face up so far (current trick included)
LEADER = 25  # seat that led the current trick
TURN = 26  # seat to play
N_IN_TRICK = 27  # cards already played to the current trick
LED_SUIT = 28  # suit the current trick counts as led in, -1 before the lead
FACE_DOWN = 29  # seat that led face down to the current trick, -1 if none
TRICK_NO = 30  # completed tricks
BIDDER = 31  # declarer of the trick contract (Rik .. 13 Alone, Troela); -1 in Misery / 1 Alone rounds
PARTNER = 32  # seat of the called-card holder / Troela partner, -1 if none (read via friends_of only)
PARTNER_PUBLIC = 33  # 1 once every seat knows the partner
TRUMP = 34  # 0..3, or 4 for no trump
CALLED = 35  # called card id, -1 if none
CALLED_OUT = 36  # 1 while the called card is still in its holder's hand
BLIND = 37  # 1 if the call was blind
EXPOSED = 38  # seats (4-bit mask) whose hands are shown after trick 1
DECLARERS = 39  # seats (4-bit mask) holding a contract
WIN_SEAT = 40  # seat currently winning the trick in progress, -1 if none
FACE_DOWN_CARDS = 41  # cards led face down so far: only the seat that led them may read this
STATE_SIZE = 42

FACE_DOWN_OFFSET = 52  # action code of leading card c face down is 52 + c

KIND_TRICKS = int(Kind.TRICKS)
KIND_MISERY = int(Kind.MISERY)
KIND_ONE = int(Kind.ONE)


# ---- what a seat may know ------------------------------------------------------------------------
@njit(cache=True)
def visible_hand(st, viewer, other):
    """Hand of ``other`` as ``viewer`` sees it, or -1 if hidden (own hand; exposed hands after trick 1)."""
    if other == viewer or (st[TRICK_NO] >= 1 and (st[EXPOSED] >> other) & 1):
        return st[HAND + other]
    return np.int64(-1)


@njit(cache=True)
def friends_of(st, seat):
    """Seats (4-bit mask) that ``seat`` knows to be on its side in a trick contract, itself included."""
    bidder = st[BIDDER]
    if st[PARTNER_PUBLIC] != 0:
        partner = st[PARTNER]
        declaring = 1 << bidder
        if partner >= 0:
            declaring |= 1 << partner
        if (declaring >> seat) & 1:
            return declaring
        return 15 & ~declaring
    if seat == bidder:
        return 1 << seat
    if (st[HAND + seat] >> st[CALLED]) & 1:
        return (1 << seat) | (1 << bidder)
    return 1 << seat
