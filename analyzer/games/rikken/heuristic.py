"""Heuristic card play for Rikken (numba).

A policy sees one int64 round-state array ``st`` (layout in ``round_layout.py``, filled and advanced
by ``kernels.py``) plus the legal actions the kernel computed, and reads other seats only through
``round_layout.visible_hand`` and ``round_layout.friends_of``.

Tuning parameters live in one float64 array; ``PARAM_NAMES`` gives the index of each.
"""

import numpy as np
from numba import njit

from analyzer.games.rikken.round_layout import (
    BIDDER,
    CALLED,
    CALLED_OUT,
    DECLARERS,
    EXPOSED,
    FACE_DOWN_OFFSET,
    HAND,
    KIND,
    KIND_MISERY,
    KIND_ONE,
    LED_SUIT,
    N_IN_TRICK,
    PLAYED,
    TRICK,
    TRICK_NO,
    TRICKS,
    TRUMP,
    VOIDS,
    WIN_SEAT,
    friends_of,
    visible_hand,
)
from analyzer.games.trick import high_bit, low_bit, pop, suit_mask

# ---- tuning parameters --------------------------------------------------------------------------
PARAM_NAMES = ("draw_trumps_min", "blind_lead", "lead_called_suit", "second_hand_low", "one_mind", "keep_guard")
P_DRAW_TRUMPS_MIN = 0  # the declaring side draws trumps while holding at least this many
P_BLIND_LEAD = 1  # > 0: the blind bidder leads his worst card face down when allowed
P_LEAD_CALLED = 2  # > 0: the bidder leads low in the called suit to reach his partner
P_SECOND_HAND_LOW = 3  # > 0: second hand plays low unless it holds a sure winner
P_ONE_MIND = 4  # > 0: in the "All" contracts defenders who see every hand coordinate (after trick 1)
P_KEEP_GUARD = 5  # > 0: against Open 13 Alone defenders beat and guard against the exposed hand
N_PARAMS = len(PARAM_NAMES)
_DEFAULTS = {"draw_trumps_min": 3.0, "blind_lead": 1.0, "lead_called_suit": 1.0, "second_hand_low": 1.0,
             "one_mind": 1.0, "keep_guard": 1.0}


def default_params() -> np.ndarray:
    """Return the default heuristic parameters as a float64 array indexed by ``PARAM_NAMES``."""
    return np.array([_DEFAULTS[name] for name in PARAM_NAMES], dtype=np.float64)


_FULL = np.int64((1 << 52) - 1)
_ONE = np.int64(1)


# ---- small card-set helpers ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def _above(card):
    """Cards of ``card``'s suit ranked above it."""
    return suit_mask(card // 13) & ~((_ONE << (card + 1)) - 1)


@njit(cache=True, inline="always")
def _below(card):
    """Cards of ``card``'s suit ranked below it."""
    return suit_mask(card // 13) & ((_ONE << card) - 1)


@njit(cache=True)
def _tops(mine, out):
    """Cards of ``mine`` that beat every outstanding card of their suit (sure winners if led, no ruff)."""
    result = np.int64(0)
    for s in range(4):
        m = mine & suit_mask(s)
        if m == 0:
            continue
        o = out & suit_mask(s)
        if o == 0:
            result |= m
        else:
            result |= m & _above(high_bit(o))
    return result


@njit(cache=True)
def _lowest_rank(mask):
    """Card of lowest rank in ``mask`` (>0); ties go to the suit with fewer cards in ``mask``."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        m = mask & suit_mask(s)
        if m == 0:
            continue
        c = low_bit(m)
        key = (c % 13) * 16 + pop(m)
        if key < best_key:
            best_key = key
            best = c
    return best


@njit(cache=True)
def _highest_rank(mask):
    """Card of highest rank in ``mask`` (>0); ties go to the suit with fewer cards in ``mask``."""
    best = -1
    best_key = -(1 << 30)
    for s in range(4):
        m = mask & suit_mask(s)
        if m == 0:
            continue
        c = high_bit(m)
        key = (c % 13) * 16 - pop(m)
        if key > best_key:
            best_key = key
            best = c
    return best


# ---- the policy -----------------------------------------------------------------------------------
# ``choose_heuristic`` reads the state array once and hands plain integers to the helpers below:
# passing arrays between compiled functions costs reference counting on every call.
@njit(cache=True, inline="always")
def choose_heuristic(st, seat, up, fd, params):
    """Pick an action for ``seat``: a card id, or ``52 + card`` for a face-down blind lead.

    Parameters
    ----------
    st : int64[STATE_SIZE]
        Round state (layout above).
    seat : int
        Seat to play.
    up, fd : int64
        Legal face-up cards and legal face-down lead cards (``fd`` is 0 unless the blind lead is allowed).
    params : float64[N_PARAMS]
        Tuning parameters.
    """
    if fd == 0 and (up & (up - 1)) == 0:
        return low_bit(up)
    hand = st[HAND + seat]
    out = _FULL & ~st[PLAYED] & ~hand
    n = st[N_IN_TRICK]
    led = st[LED_SUIT]
    win = st[WIN_SEAT]
    wc = st[TRICK + win] if win >= 0 else np.int64(-1)
    kind = st[KIND + seat]
    if kind == KIND_MISERY or (kind == KIND_ONE and st[TRICKS + seat] >= 1):
        if n == 0:
            return _misery_lead(up, out)
        return _duck(up, led, wc, n)
    if kind == KIND_ONE:
        return _one_declarer(up, out, n, led, wc)
    if st[BIDDER] < 0:
        # Typed zeros: a literal 0 would make numba compile the helpers below once more for Literal[int](0).
        force = np.int64(0)  # declarers who fail if they win a trick (Misery with none, 1 Alone with one)
        stop = np.int64(0)  # 1 Alone declarers still without their trick
        to_play = np.int64(0)
        for s in range(4):
            k = st[KIND + s]
            t = st[TRICKS + s]
            if (k == KIND_MISERY and t == 0) or (k == KIND_ONE and t == 1):
                force |= 1 << s
            elif k == KIND_ONE and t == 0:
                stop |= 1 << s
            if st[TRICK + s] < 0:
                to_play |= 1 << s
        if params[P_ONE_MIND] > 0 and st[TRICK_NO] >= 1 and st[EXPOSED] == 15:
            # An "All" contract after trick 1: every hand is shown and the defenders play as one mind.
            hands = (visible_hand(st, seat, np.int64(0)), visible_hand(st, seat, np.int64(1)),
                     visible_hand(st, seat, np.int64(2)), visible_hand(st, seat, np.int64(3)))
            return _one_mind(up, hands, seat, n, led, win, wc, force, stop, to_play, 15 & ~st[DECLARERS])
        if n == 0 and force != 0:
            target = -1
            for i in range(1, 4):
                if (force >> ((seat + i) & 3)) & 1:
                    target = (seat + i) & 3
                    break
            return _lead_under(up, visible_hand(st, seat, target), st[VOIDS + target])
        if n == 0 and stop != 0:
            card = _lead_void(up, visible_hand(st, seat, _first_of(stop, seat)))
            if card >= 0:
                return card
        return _against_misery(up, out, n, led, win, wc, force, stop, to_play)
    friends = friends_of(st, seat)
    trump = st[TRUMP]
    bidder = st[BIDDER]
    if n == 0:
        # Cash side suits only where no opponent is known to ruff.
        ruff_danger = np.int64(0)
        if (out & suit_mask(trump)) != 0:
            for s in range(4):
                if not (friends >> s) & 1:
                    ruff_danger |= st[VOIDS + s]
        called_suit = -1
        if seat == bidder and st[CALLED_OUT] != 0 and params[P_LEAD_CALLED] > 0:
            called_suit = st[CALLED] // 13
        blind_lead = fd != 0 and params[P_BLIND_LEAD] > 0
        draw = (friends >> bidder) & 1 and pop(hand & suit_mask(trump)) >= params[P_DRAW_TRUMPS_MIN]
        return _trick_lead(up, fd, out, trump, blind_lead, draw, called_suit, ruff_danger)
    if params[P_KEEP_GUARD] > 0 and not (friends >> bidder) & 1 and visible_hand(st, seat, bidder) >= 0:
        # Against an exposed lone bidder (Open 13 Alone): beat him where possible, keep the guards.
        return _guard_follow(up, visible_hand(st, seat, bidder), trump, led, win == bidder, wc)
    return _trick_follow(up, out, trump, led, win, wc, n, friends, params[P_SECOND_HAND_LOW] > 0)


@njit(cache=True)
def _misery_lead(up, out):
    """Lead the card least likely to win: fewest outstanding cards below it, most above it."""
    best = -1
    best_score = 1 << 30
    for s in range(4):
        mine = up & suit_mask(s)
        if mine == 0:
            continue
        c = low_bit(mine)
        higher = pop(out & _above(c))
        if higher == 0:
            score = 100000 + c % 13  # would win for sure: last resort
        else:
            score = pop(out & _below(c)) * 64 - higher
        if score < best_score:
            best_score = score
            best = c
    return best


@njit(cache=True)
def _duck(up, led, wc, n):
    """Follow without winning if possible: highest card under the winning card ``wc``, else cheapest loss."""
    follow = up & suit_mask(led)
    if follow == 0:
        return _highest_rank(up)  # discard the most dangerous card
    if wc >= 0 and wc // 13 == led:
        under = follow & _below(wc)
        if under != 0:
            return high_bit(under)
    if n == 3:
        return high_bit(follow)  # the trick is lost anyway: shed the highest
    return low_bit(follow)


@njit(cache=True)
def _one_declarer(up, out, n, led, wc):
    """1 Alone with no trick yet: take a sure trick when one is there, otherwise play as in Misery."""
    if n == 0:
        tops = _tops(up, out)
        if tops != 0:
            return _lowest_rank(tops)
        return _misery_lead(up, out)
    follow = up & suit_mask(led)
    if follow != 0:
        beaters = follow
        if wc >= 0:
            beaters = follow & _above(wc)
        if beaters != 0:
            if n == 3:
                return low_bit(beaters)
            sure = beaters & _tops(beaters, out)
            if sure != 0:
                return low_bit(sure)
    return _duck(up, led, wc, n)


@njit(cache=True)
def _against_misery(up, out, n, led, win, wc, force, stop, to_play):
    """Defend against every Misery / 1 Alone declarer at once: force or stop their tricks.

    ``force``, ``stop`` and ``to_play`` are seat masks: declarers who fail by winning a trick, 1 Alone
    declarers still without their trick, and seats yet to play to this trick.
    """
    if n == 0:
        if stop != 0:
            tops = _tops(up, out)
            if tops != 0:
                return _lowest_rank(tops)
        return _lowest_rank(up)
    follow = up & suit_mask(led)
    if win >= 0 and (force >> win) & 1:
        return _duck(up, led, wc, n)
    if force & to_play:
        if follow != 0:
            return low_bit(follow)
        return _highest_rank(up)
    if (win >= 0 and (stop >> win) & 1) or (stop & to_play):
        if follow != 0:
            beaters = follow & _above(wc) if wc >= 0 and wc // 13 == led else follow
            if beaters != 0:
                if n == 3:
                    return low_bit(beaters)
                return high_bit(follow)
            return low_bit(follow)
        return _lowest_rank(up)
    if follow != 0:
        return low_bit(follow)
    return _highest_rank(up)


@njit(cache=True)
def _lead_under(up, shown, voids):
    """Lead so that a declarer who must not win a trick has to go over: under his lowest card if ``shown``.

    ``shown`` is the declarer's hand if exposed, else -1; ``voids`` the suits he has shown out of.
    Suits he is void in come last: there he would throw his most dangerous card.
    """
    if shown >= 0:
        for s in range(4):
            mine = up & suit_mask(s)
            theirs = shown & suit_mask(s)
            if theirs == 0:
                voids |= 1 << s
            elif mine != 0 and low_bit(mine) < low_bit(theirs):
                return low_bit(mine)
    usable = np.int64(0)
    for s in range(4):
        if not (voids >> s) & 1:
            usable |= up & suit_mask(s)
    if usable != 0:
        return _lowest_rank(usable)
    return _lowest_rank(up)


@njit(cache=True)
def _lead_void(up, shown):
    """Lowest card of a suit the shown hand ``shown`` is void in (a trick he cannot win), or -1."""
    if shown < 0:
        return -1
    for s in range(4):
        mine = up & suit_mask(s)
        if mine != 0 and (shown & suit_mask(s)) == 0:
            return low_bit(mine)
    return -1


@njit(cache=True)
def _discard(up, trumps, out):
    """Throw a low card that is neither a trump nor a sure winner, if there is one."""
    side = up & ~trumps
    if side != 0:
        spare = side & ~_tops(side, out)
        if spare != 0:
            return _lowest_rank(spare)
        return _lowest_rank(side)
    return low_bit(up)


@njit(cache=True)
def _trick_lead(up, fd, out, trump, blind_lead, draw, called_suit, ruff_danger):
    """Lead in a trick contract.

    In order: the blind face-down lead (``blind_lead``) of the worst side card; trumps while the
    declaring side may ``draw`` and opponents may hold some; low in ``called_suit`` (the bidder reaching
    his partner); a sure winner in a side suit no opponent ruffs (``ruff_danger``: suits some
    opponent is void in); else low from the longest side suit.
    """
    tmask = suit_mask(trump)
    if blind_lead:
        side = fd & ~tmask
        if side != 0:
            return FACE_DOWN_OFFSET + _lowest_rank(side)
        return FACE_DOWN_OFFSET + low_bit(fd)
    my_trumps = up & tmask
    if draw and my_trumps != 0 and (out & tmask) != 0:
        sure = my_trumps & _tops(my_trumps, out)
        if sure != 0:
            return low_bit(sure)
        return low_bit(my_trumps)
    if called_suit >= 0:
        mine = up & suit_mask(called_suit)
        if mine != 0:
            return low_bit(mine)
    cashable = np.int64(0)
    for s in range(4):
        if s != trump and not (ruff_danger >> s) & 1:
            cashable |= up & suit_mask(s)
    tops = _tops(cashable, out)
    if tops != 0:
        return _lowest_rank(tops)
    # Otherwise low from the longest side suit, preferring suits no opponent ruffs.
    best_suit = -1
    best_key = 0
    for s in range(4):
        if s == trump:
            continue
        length = pop(up & suit_mask(s))
        key = length + (16 if length > 0 and not (ruff_danger >> s) & 1 else 0)
        if key > best_key:
            best_key = key
            best_suit = s
    if best_suit >= 0:
        return low_bit(up & suit_mask(best_suit))
    return low_bit(up)


@njit(cache=True)
def _trick_follow(up, out, trump, led, win, wc, n, friends, second_hand_low):
    """Follow in a trick contract: low under a friend, else win cheaply, ruff, or discard."""
    tmask = suit_mask(trump)
    friend_winning = win >= 0 and (friends >> win) & 1
    follow = up & suit_mask(led)
    if follow != 0:
        if friend_winning or (wc >= 0 and wc // 13 != led):
            return low_bit(follow)
        beaters = follow
        if wc >= 0:
            beaters = follow & _above(wc)
        if beaters == 0:
            return low_bit(follow)
        if n == 3:
            return low_bit(beaters)
        sure = beaters & _tops(beaters, out)
        if sure != 0:
            return low_bit(sure)
        if n == 1 and second_hand_low:
            return low_bit(follow)
        return high_bit(beaters)
    if friend_winning and (n == 3 or (out & _above(wc)) == 0):
        return _discard(up, tmask, out)
    my_trumps = up & tmask
    if my_trumps != 0 and led != trump:
        if wc >= 0 and wc // 13 == trump:
            over = my_trumps & _above(wc)
            if over != 0:
                return low_bit(over)
            return _discard(up, tmask, out)
        return low_bit(my_trumps)
    return _discard(up, tmask, out)


# ---- defence with exposed hands -------------------------------------------------------------------
@njit(cache=True)
def _forcing_lead(hands, leader, d):
    """Card ``leader`` can lead so that declarer ``d`` must win the trick, or -1.

    A suit qualifies when ``leader`` holds a card under ``d``'s lowest card of it and every other seat
    either is void in it or can also play under that card: ``d`` then has to go over all of them.
    The lead is the highest such card, keeping the lower ones for later forcing leads.
    """
    dh = hands[d]
    for s in range(4):
        theirs = dh & suit_mask(s)
        under = hands[leader] & suit_mask(s)
        if theirs == 0 or under == 0:
            continue
        floor = low_bit(theirs)
        under &= _below(floor)
        if under == 0:
            continue
        ok = True
        for f in range(4):
            others = hands[f] & suit_mask(s)
            if f != leader and f != d and others != 0 and low_bit(others) > floor:
                ok = False
        if ok:
            return high_bit(under)
    return -1


@njit(cache=True)
def _transfer_lead(up, hands, seat, d, defenders):
    """Low card that gives the lead to another defender holding a forcing lead against ``d``, or -1.

    The lead goes to that defender when his highest card of the suit led beats every card of it the
    other defenders hold and ``d`` holds nothing above it (``d`` then ducks under it or is forced to win).
    """
    for i in range(1, 4):
        p = (seat + i) & 3
        if not (defenders >> p) & 1 or _forcing_lead(hands, p, d) < 0:
            continue
        for s in range(4):
            mine = up & suit_mask(s)
            theirs = hands[p] & suit_mask(s)
            if mine == 0 or theirs == 0:
                continue
            top = high_bit(theirs)
            rivals = _ONE << low_bit(mine)
            for f in range(4):
                if f != p and f != seat:
                    rivals |= hands[f] & suit_mask(s)
            if (rivals & _above(top)) == 0:
                return low_bit(mine)
    return -1


@njit(cache=True)
def _probe_lead(up, hands, seat, d):
    """Card under declarer ``d``'s lowest card of its suit, or -1, when no lead forces him yet.

    Of the suits where ``seat`` can lead under his lowest card, the one where the other seats hold the
    fewest cards that would have to go over it: each trick there wears those blockers down.
    """
    best = -1
    best_key = 1 << 30
    for s in range(4):
        theirs = hands[d] & suit_mask(s)
        under = up & suit_mask(s)
        if theirs == 0 or under == 0:
            continue
        floor = low_bit(theirs)
        under &= _below(floor)
        if under == 0:
            continue
        blockers = 0
        for f in range(4):
            others = hands[f] & suit_mask(s)
            if f != seat and f != d and others != 0 and low_bit(others) > floor:
                blockers += pop(others)
        if blockers < best_key:
            best_key = blockers
            best = high_bit(under)
    return best


@njit(cache=True)
def _first_of(mask, seat):
    """First seat of ``mask`` clockwise after ``seat``, or -1."""
    for i in range(1, 4):
        if (mask >> ((seat + i) & 3)) & 1:
            return (seat + i) & 3
    return -1


@njit(cache=True)
def _unblock(up, dh):
    """Discard against a declarer with hand ``dh`` who must not win a trick.

    A suit of his is blocked for forcing leads while we hold cards of it above his lowest one and none
    below: the highest such card goes first, so that we come down to a void; else the highest card.
    """
    blocking = np.int64(0)
    for s in range(4):
        mine = up & suit_mask(s)
        theirs = dh & suit_mask(s)
        if mine != 0 and theirs != 0 and low_bit(mine) > low_bit(theirs):
            blocking |= mine
    if blocking != 0:
        return _highest_rank(blocking)
    return _highest_rank(up)


@njit(cache=True)
def _one_mind(up, hands, seat, n, led, win, wc, force, stop, to_play, defenders):
    """Defence of a seat that sees all four ``hands`` (the "All" contracts after trick 1).

    Against declarers who fail by winning a trick (``force``): lead a suit in which the declarer must
    go over every card the defenders play, else hand the lead to a defender who can, else lead under
    him where the fewest defenders' cards block (:func:`_probe_lead`); as followers,
    play under the declarer's lowest card while he still has to play, and let the trick go to a
    defender who holds such a lead. Against 1 Alone declarers still without a trick (``stop``): lead
    where he is void or is beaten, and beat him as cheaply as possible. ``force``, ``stop``,
    ``to_play`` and ``defenders`` are seat masks.
    """
    follow = up & suit_mask(led)
    if force != 0:
        d = _first_of(force, seat)
        if n == 0:
            for i in range(3):
                if (force >> d) & 1:
                    card = _forcing_lead(hands, seat, d)
                    if card >= 0:
                        return card
                d = (d + 1) & 3
            d = _first_of(force, seat)
            card = _transfer_lead(up, hands, seat, d, defenders)
            if card >= 0:
                return card
            card = _probe_lead(up, hands, seat, d)
            if card >= 0:
                return card
            return _lead_under(up, hands[d], np.int64(0))
        if (force >> win) & 1:
            return _duck(up, led, wc, n)
        later = _first_of(force & to_play, seat)
        if later >= 0:
            theirs = hands[later] & suit_mask(led)
            if theirs != 0 and wc < low_bit(theirs):
                # He has to go over every card played so far: everyone stays under his lowest card.
                if follow == 0:
                    return _unblock(up, hands[d])
                under = follow & _below(low_bit(theirs))
                if under != 0:
                    return high_bit(under)
                return low_bit(follow)
        # The trick goes to a defender: best to one who can then force the declarer.
        if follow != 0:
            winner_forces = (defenders >> win) & 1 and _forcing_lead(hands, win, d) >= 0
            if not winner_forces and (follow & _above(wc)) != 0 and _forcing_lead(hands, seat, d) >= 0:
                return high_bit(follow)
            return low_bit(follow)
        return _unblock(up, hands[d])
    d = _first_of(stop, seat)
    if d < 0:
        if follow != 0:
            return low_bit(follow)
        return _lowest_rank(up)
    dh = hands[d]
    if n == 0:
        for s in range(4):
            if (dh & suit_mask(s)) == 0 and (up & suit_mask(s)) != 0:
                return low_bit(up & suit_mask(s))
        for s in range(4):
            mine = up & suit_mask(s)
            if mine != 0:
                over = mine & _above(high_bit(dh & suit_mask(s)))
                if over != 0:
                    return low_bit(over)
        for s in range(4):
            mine = up & suit_mask(s)
            if mine == 0:
                continue
            top = high_bit(dh & suit_mask(s))
            for f in range(4):
                if f != seat and f != d and (hands[f] & _above(top)) != 0:
                    return low_bit(mine)
        return _lowest_rank(up)
    if follow == 0:
        return _lowest_rank(up)
    if win == d:
        beaters = follow & _above(wc)
        if beaters != 0:
            return low_bit(beaters)
    elif (to_play >> d) & 1:
        theirs = dh & suit_mask(led)
        if theirs != 0 and wc < high_bit(theirs):
            over = follow & _above(high_bit(theirs))
            if over != 0:
                return low_bit(over)
    return low_bit(follow)


@njit(cache=True)
def _guard_discard(up, dh, trump):
    """Discard against the exposed hand ``dh`` of a bidder who must win every trick.

    A card of ours can only win by following his lead, so a side suit is worth keeping when our top
    card beats his lowest card of it and we hold enough smaller cards to follow to his higher ones.
    We throw first cards he can never lose to, then the spare cards of guarded suits; trumps last.
    """
    spare = np.int64(0)
    for s in range(4):
        mine = up & suit_mask(s)
        theirs = dh & suit_mask(s)
        if mine == 0 or s == trump:
            continue
        top = high_bit(mine)
        if (theirs & _below(top)) == 0:
            spare |= mine
            continue
        need = pop(theirs & _above(top))
        if pop(mine) <= need:
            spare |= mine
            continue
        keep = _ONE << top
        rest = mine & ~keep
        for _ in range(need):
            keep |= _ONE << low_bit(rest)
            rest &= rest - 1
        spare |= rest
    if spare != 0:
        return _lowest_rank(spare)
    side = up & ~suit_mask(trump)
    if side != 0:
        return _lowest_rank(side)
    return low_bit(up)


@njit(cache=True)
def _guard_follow(up, dh, trump, led, bidder_winning, wc):
    """Follow as a defender against the exposed hand ``dh`` of a lone bidder who needs every trick.

    Beat or ruff his winning card as cheaply as possible; otherwise follow low or discard by
    :func:`_guard_discard`.
    """
    follow = up & suit_mask(led)
    if follow != 0:
        if bidder_winning and wc // 13 == led:
            beaters = follow & _above(wc)
            if beaters != 0:
                return low_bit(beaters)
        return low_bit(follow)
    my_trumps = up & suit_mask(trump)
    if bidder_winning and my_trumps != 0:
        if wc // 13 != trump:
            return low_bit(my_trumps)
        over = my_trumps & _above(wc)
        if over != 0:
            return low_bit(over)
    return _guard_discard(up, dh, trump)
