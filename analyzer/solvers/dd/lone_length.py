"""A lone declarer's tricks in the length abstraction: a lower bound the search asks at trick starts.

The length abstraction of a position with a lone declarer ``L`` (one seat against three, a trump suit,
no called card out) keeps every trump with its rank and every side card with its suit only: per seat,
the trumps held and the length of each side suit.  Its rules are the real ones where the abstraction
knows enough: follow suit if able, otherwise any card; a trick with a trump in it goes to its highest
trump.  A side-suit trick without a trump goes to one of the seats that followed the led suit, which
the defenders choose.  ``L`` maximises his tricks, the defenders minimise them.

Claim: ``L``'s guaranteed tricks in the abstraction are at most his double-dummy count.  Proof: take a
strategy of ``L`` that guarantees ``k`` abstract tricks and play it in the real game, choosing any real
card the abstract move names (a trump of that rank, or any card of that side suit).  Such a card is
legal: the abstraction has the real suit lengths, so it obliges ``L`` to follow exactly when the real
game does.  Whatever the defenders play, their cards are abstract moves too (the same suit lengths),
and each real trick's winner is one the abstraction allows: the same highest trump, or, without a
trump, the highest card of the led suit, a follower of it.  So every real play is an abstract play
with the same tricks for ``L``, against which the strategy guarantees ``k``; he takes ``k`` or more.
(Checked against the brute force in the tests; ``scripts/lone_length_bound.py`` is the plain-Python twin.)

The search here answers "does ``L`` take ``need`` abstract tricks from this trick start?" by AND/OR
search, and only a yes is used (a lower bound).  Reductions, each exact in the abstraction: trumps of
one holder with no other trump still out between them are interchangeable (the value depends only on
the order of the trumps still out), so a run is tried once; and the table below.

Its table (``A_SLOTS`` entries, direct mapped, in the work array after the cut-off cache) keys a
trick start by everything its abstract value depends on: the owners of the trumps still out from
the top, every seat's three side-suit lengths, the leader and ``L``; an entry keeps proven bounds on
``L``'s abstract tricks (a yes at ``need`` raises the lower one, a finished no lowers the upper one).
The key is complete, so an entry would stay true across solves; it is tagged with the solve's table
generation all the same, because a question that runs out of budget depends on what the table holds:
with entries of earlier solves, a count searched within a budget would depend on what the process
solved before (the search's cut-off cache keeps the same rule).

Each question has a node budget (``BUDGET`` trick starts); once it is spent every node returns at
once, before its store, and the question's answer is no, which is recorded at its root as a no, so
asking it again costs a probe.  A no that may be false costs proofs but never makes one: each answer
is an AND/OR of its children's, monotone in them, so answers computed from children that are at most
the true ones are at most the true one, and every yes (hence every lower bound stored) is proved.  The
bound depends only on the position and the table's contents, never on time.

In the search's table the answer's relevant cards are the trumps still out: the abstract value
depends on their owners and order, the side-suit lengths (part of every entry's pattern), the leader
and the window, and on no side card's rank.
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.raw_memory import int64_view
from analyzer.solvers.dd.layout import A_ABORTED, A_LEN, A_LIMIT, A_NODES, A_SLOTS, A_TABLE, A_TRUMPS, C_GEN, M_CTX
from analyzer.solvers.dd.tables import COUNT, SPREAD, SUIT_BITS, _gather
from analyzer.solvers.dd.transposition import _hash

BUDGET = 500  # abstract trick starts searched per question
# Not asked with more cards a hand: there the abstract searches rarely finish and cost more than they save
# (docs/dd-diagnosis.md, Session 10: limits of 7, 8 and no limit measured against 9).
MAX_CARDS = 9
LEN_BITS = (1 << 48) - 1  # the side lengths in an entry's second word; the bounds above them
UNTAGGED = (1 << 32) - 1  # an entry's first word below its table generation
TRUMP_LED = 3  # ``led`` of a trump lead (side suits are led as their index 0..2)
WINNERS = 16  # move index of the first trick winner (moves 0..12: trumps from the top, 13..15: side suits)


@njit(cache=True)
def _key(mem, lone, leader, live):
    """The abstract trick start's table key in this table generation: two words (see the module notes)."""
    lo_bits = mem[A_TRUMPS + 1] | mem[A_TRUMPS + 3]
    hi_bits = mem[A_TRUMPS + 2] | mem[A_TRUMPS + 3]
    owners = (np.int64(1) << (2 * COUNT[live])) | SPREAD[_gather(lo_bits, live)] | (
        np.int64(SPREAD[_gather(hi_bits, live)]) << 1)
    lengths = np.int64(0)
    for i in range(12):
        lengths |= mem[A_LEN + i] << (4 * i)
    generation = mem[M_CTX + C_GEN] << 32
    return owners | (np.int64(leader) << 27) | (np.int64(lone) << 29) | generation, lengths


@njit(cache=True)
def _slot(key0, key1):
    """The table slot of a key: from the key without its generation, so that every solve meets the same
    collisions whatever was solved before."""
    return A_TABLE + 2 * (_hash(key0 & UNTAGGED, key1) & (A_SLOTS - 1))


@njit(cache=True)
def _store(mem, slot, key0, key1, result, need):
    """Record at ``slot`` that ``L`` takes ``need`` abstract tricks (``result`` 1) or fewer (0)."""
    low = np.int64(0)
    high = np.int64(15)
    if mem[slot] == key0 and mem[slot + 1] & LEN_BITS == key1:
        low = (mem[slot + 1] >> 48) & 15
        high = (mem[slot + 1] >> 52) & 15
    if result == 1:
        low = max(low, need)
    else:
        high = min(high, need - 1)
    mem[slot] = key0
    mem[slot + 1] = key1 | (low << 48) | (high << 52)


_NODE_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)"


@njit(_NODE_SIG, cache=True)
def _node(address, size, lone, leader, pos, led, ruff_rank, ruff_seat, followers, need, live):
    """1 if ``L`` takes ``need`` abstract tricks from here (counting the trick in progress), else 0.

    ``pos`` 0-3: the trick's next card; 4: the trick is complete and its winner is chosen.  ``led``:
    -1 before the lead, else ``TRUMP_LED`` or the side suit's index; ``ruff_rank`` / ``ruff_seat``: the
    highest trump in the trick (-1 for none); ``followers``: the seats that played the led side suit;
    ``live``: the trumps out at the trick's start.
    """
    mem = int64_view(address, size)
    slot = np.int64(-1)
    key0 = key1 = np.int64(0)
    if pos == 0:
        if need <= 0:
            return 1
        cards = COUNT[mem[A_TRUMPS + leader]] + mem[A_LEN + 3 * leader] + mem[A_LEN + 3 * leader + 1] + mem[
            A_LEN + 3 * leader + 2]
        if need > cards:
            return 0
        live = mem[A_TRUMPS] | mem[A_TRUMPS + 1] | mem[A_TRUMPS + 2] | mem[A_TRUMPS + 3]
        key0, key1 = _key(mem, lone, leader, live)
        slot = _slot(key0, key1)
        if mem[slot] == key0 and mem[slot + 1] & LEN_BITS == key1:
            low = (mem[slot + 1] >> 48) & 15
            high = (mem[slot + 1] >> 52) & 15
            if low >= need:
                return 1
            if high < need:
                return 0
        mem[A_NODES] += 1
        if mem[A_NODES] >= mem[A_LIMIT]:
            mem[A_ABORTED] = 1
            return 0
    seat = (leader + pos) & 3
    maximiser = pos < 4 and seat == lone
    held = mem[A_TRUMPS + seat]
    lengths = A_LEN + 3 * seat
    # What the seat may play: a side suit led and held must be followed, a trump lead followed by a trump.
    side_only = 0 <= led < TRUMP_LED and mem[lengths + led] > 0
    trumps_only = led == TRUMP_LED and held != 0
    winners = np.int64(0)
    if pos == 4:
        winners = np.int64(1) << ruff_seat if ruff_rank >= 0 else followers
    result = 0 if maximiser else 1
    first = WINNERS if pos == 4 else 0
    for i in range(first, first + (4 if pos == 4 else WINNERS)):
        next_leader = leader
        next_pos = pos + 1
        next_led = led
        next_rank = ruff_rank
        next_seat = ruff_seat
        next_followers = followers
        next_need = need
        if i >= WINNERS:
            winner = i - WINNERS
            if not (winners >> winner) & 1:
                continue
            next_leader = winner
            next_pos = 0
            next_led = -1
            next_rank = -1
            next_seat = -1
            next_followers = 0
            next_need = need - (1 if winner == lone else 0)
        elif i < 13:
            rank = 12 - i
            if side_only or not (held >> rank) & 1:
                continue
            above = live >> (rank + 1)
            if above and (held >> (rank + 1 + popcount((above & -above) - 1))) & 1:
                continue  # the next trump out above is the seat's own: the run was tried at its top
            mem[A_TRUMPS + seat] = held ^ (np.int64(1) << rank)
            if pos == 0:
                next_led = TRUMP_LED
            if rank > ruff_rank:
                next_rank = rank
                next_seat = seat
        else:
            suit = i - 13
            if trumps_only or mem[lengths + suit] == 0 or (side_only and suit != led):
                continue
            mem[lengths + suit] -= 1
            if pos == 0:
                next_led = suit
            if next_led == suit:
                next_followers = followers | (1 << seat)
        answer = _node(address, size, lone, next_leader, next_pos, next_led, next_rank, next_seat, next_followers,
                       next_need, live)
        if i < 13:
            mem[A_TRUMPS + seat] = held
        elif i < WINNERS:
            mem[lengths + i - 13] += 1
        if mem[A_ABORTED]:
            return 0
        if (answer == 1) == maximiser:
            result = answer
            break
    if slot >= 0:
        _store(mem, slot, key0, key1, result, need)
    return result


@njit(cache=True)
def _lone_length(address, size, hands, leader, team, trump, need):
    """Whether a lone declarer (``team`` one seat) surely takes ``need`` more tricks from this trick
    start by the length abstraction: a yes is proved, a no proves nothing (see the module notes).

    The caller makes sure no called card is out.
    """
    if trump == NO_TRUMP or popcount(team) != 1 or need <= 0 or popcount(hands[leader]) > MAX_CARDS:
        return False
    mem = int64_view(address, size)
    lone = popcount(team - 1)
    for seat in range(4):
        mem[A_TRUMPS + seat] = (hands[seat] >> (13 * trump)) & SUIT_BITS
        side = 0
        for suit in range(4):
            if suit != trump:
                mem[A_LEN + 3 * seat + side] = COUNT[(hands[seat] >> (13 * suit)) & SUIT_BITS]
                side += 1
    mem[A_NODES] = 0
    mem[A_LIMIT] = BUDGET
    mem[A_ABORTED] = 0
    none = np.int64(-1)
    result = _node(address, size, np.int64(lone), np.int64(leader), np.int64(0), none, none, none, np.int64(0),
                   np.int64(need), np.int64(0))
    if mem[A_ABORTED]:
        # Given up: recorded as a no, so the same question asked again costs a probe (a no proves nothing).
        live = mem[A_TRUMPS] | mem[A_TRUMPS + 1] | mem[A_TRUMPS + 2] | mem[A_TRUMPS + 3]
        key0, key1 = _key(mem, lone, leader, live)
        _store(mem, _slot(key0, key1), key0, key1, np.int64(0), need)
    return result == 1
