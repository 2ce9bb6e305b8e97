"""The rules of Rikken play as numba kernels: set up a round, list a seat's legal actions, play one.

A round is held in one int64 state array (layout in ``round_layout.py``). The batch kernels
(``kernels.py``), the expert policy's rollouts (``expert.py``) and Python drivers all play through these
three functions, so every policy plays by exactly the same rules.
"""

import numpy as np
from numba import njit

from analyzer.cards.called_card import legal_face_up, void_in_called_suit
from analyzer.cards.tricks import beats
from analyzer.games.rikken import rules
from analyzer.games.rikken.round_layout import (
    BIDDER,
    BLIND,
    CALLED,
    CALLED_OUT,
    CONTRACT,
    DECLARERS,
    EXPOSED,
    FACE_DOWN,
    FACE_DOWN_CARDS,
    FACE_DOWN_OFFSET,
    HAND,
    KIND,
    KIND_TRICKS,
    LEADER,
    LED_SUIT,
    N_IN_TRICK,
    PARTNER,
    PARTNER_PUBLIC,
    PLAYED,
    TRICK,
    TRICK_NO,
    TRICKS,
    TRUMP,
    TURN,
    VOIDS,
    WIN_SEAT,
)

_EXPOSE_BIDDER = int(rules.Exposure.BIDDER)
_EXPOSE_ALL = int(rules.Exposure.ALL)
_ONE = np.int64(1)


@njit(cache=True)
def init_round(st, hands, leader, contract_of, partner, trump, called_card, blind, kind_table, exposure_table):
    """Fill the state array ``st`` for one round before trick 1.

    Parameters
    ----------
    st : int64[STATE_SIZE]
        Output state.
    hands : int64[4]
        Hand masks of seats 0..3.
    leader : int
        Seat leading to trick 1.
    contract_of : int64[4]
        Contract id each seat declares, -1 for non-declarers.
    partner, trump, called_card, blind : int
        Partner seat (-1 none), trump 0..4, called card (-1 none), 1 if the call was blind.
    kind_table, exposure_table : int64[N_CONTRACTS]
        ``rules.KIND`` and ``rules.EXPOSURE``.
    """
    st[:] = 0
    st[BIDDER] = -1
    for s in range(4):
        st[HAND + s] = hands[s]
        st[TRICK + s] = -1
        c = contract_of[s]
        st[CONTRACT + s] = c
        st[KIND + s] = -1
        if c >= 0:
            kind = kind_table[c]
            st[KIND + s] = kind
            st[DECLARERS] |= 1 << s
            if kind == KIND_TRICKS:
                st[BIDDER] = s
            if exposure_table[c] == _EXPOSE_ALL:
                st[EXPOSED] = 15
            elif exposure_table[c] == _EXPOSE_BIDDER:
                st[EXPOSED] |= 1 << s
    st[LEADER] = leader
    st[TURN] = leader
    st[LED_SUIT] = -1
    st[FACE_DOWN] = -1
    st[WIN_SEAT] = -1
    st[PARTNER] = partner
    st[TRUMP] = trump
    st[CALLED] = called_card
    st[BLIND] = blind
    st[CALLED_OUT] = 1 if called_card >= 0 else 0
    # Troela partners and lone players are known from the auction; a called partner shows by play.
    st[PARTNER_PUBLIC] = 1 if called_card < 0 else 0


@njit(cache=True, inline="always")
def legal_actions(st, seat):
    """Legal face-up cards and face-down lead cards of ``seat`` (two masks; the second is usually 0)."""
    hand = st[HAND + seat]
    called = st[CALLED] if st[CALLED_OUT] != 0 else -1
    n_played = st[N_IN_TRICK]
    if (n_played == 0 and st[BLIND] != 0 and called >= 0 and seat == st[BIDDER]
            and void_in_called_suit(hand, called)):
        return hand, hand
    return legal_face_up(hand, n_played, st[LED_SUIT], called), np.int64(0)


@njit(cache=True, inline="always")
def apply_action(st, seat, action):
    """Play ``action`` for ``seat`` (must be legal and ``seat`` on turn); return the trick winner or -1."""
    face_down = action >= FACE_DOWN_OFFSET
    card = action - FACE_DOWN_OFFSET if face_down else action
    bit = _ONE << card
    st[HAND + seat] &= ~bit
    # Nobody sees which card went face down: the trick records only that one did.
    st[TRICK + seat] = FACE_DOWN_OFFSET if face_down else card
    if st[N_IN_TRICK] == 0:
        if face_down:
            st[FACE_DOWN] = seat
            st[FACE_DOWN_CARDS] |= bit
            st[LED_SUIT] = st[CALLED] // 13
            st[VOIDS + seat] |= 1 << st[LED_SUIT]
        else:
            st[LED_SUIT] = card // 13
            st[PLAYED] |= bit
            st[WIN_SEAT] = seat
    else:
        st[PLAYED] |= bit
        led = st[LED_SUIT]
        if card // 13 != led:
            st[VOIDS + seat] |= 1 << led
        win = st[WIN_SEAT]
        best = st[TRICK + win] if win >= 0 else -1
        if beats(card, best, win, led, st[TRUMP]):
            st[WIN_SEAT] = seat
    if card == st[CALLED] and st[CALLED_OUT] != 0:
        st[CALLED_OUT] = 0
        st[PARTNER_PUBLIC] = 1
    st[N_IN_TRICK] += 1
    if st[N_IN_TRICK] < 4:
        st[TURN] = (seat + 1) & 3
        return -1
    winner = st[WIN_SEAT]
    st[TRICKS + winner] += 1
    for s in range(4):
        st[TRICK + s] = -1
    st[LEADER] = winner
    st[TURN] = winner
    st[N_IN_TRICK] = 0
    st[LED_SUIT] = -1
    st[FACE_DOWN] = -1
    st[WIN_SEAT] = -1
    st[TRICK_NO] += 1
    return winner
