"""The ``expert`` card-play policy for Rikken (numba): sampled worlds, heuristic rollouts, best card played.

At a decision with more than one distinct card, the seat draws a few *worlds* - hidden hands
consistent with what it has seen - and plays each distinct legal card out to the end of the round in
every world, all four seats then playing the heuristic. A card scores, for the contracts the seat
plays for or against, 1 per contract its side wins (declarers: made; everyone else: beaten), plus
``TRICK_WEIGHT`` times its side's trick surplus as a tie-breaker, averaged over the worlds; the best
card is played, the heuristic's own card when it is among the best.

What a seat knows (:func:`information_set`) is read from the state array only through what the seat
may see: its own hand, exposed hands after trick 1, cards played face up, the cards it led face down
itself (``FACE_DOWN_CARDS``, the blind bidder only), the shown-out suits, the trick in progress, each
seat's card count, and the public facts of the setup:

- the called card is not the bidder's, is not with a seat that showed out of its suit, and while its
  suit is led it is not with a seat that already played to that trick (the holder would have had to
  play it); once it has been played the partner is public;
- a blind caller is void in the called suit from the start, so the cards he led face down that the
  seat did not see are not of that suit;
- a king is called only by a bidder holding all four aces: the unplayed aces are his;
- Troela: the bidder held three aces and the partner the fourth (never of the trump suit), so the
  unplayed aces are with those two, the trump ace with the bidder, and the partner holds exactly one
  while no ace has been played (at most one afterwards).

Not used (so the worlds are drawn from a superset of the information set): inferences from the
auction and from the other seats' style of play, that a non-blind caller held a card of the called
suit, and when a void was shown relative to a face-down lead (the face-down cards only avoid the
called suit), and whose ace a played Troela ace was.

Drawing a world (:func:`draw_world`): the unseen cards are dealt one by one, the most constrained
first, each to a slot (a hidden seat, or the pile of face-down cards the seat has not seen) that may
hold it and has room, with probability proportional to the room left; a dealing that gets stuck, or
breaks the Troela ace count, is drawn again. Without constraints this is a uniform deal; with them it
is not, so each world carries the importance weight ``1 / q`` of its proposal probability ``q`` and
the scores are weighted averages: the estimate is that of uniform worlds over the (superset of the)
information set, up to the usual small-sample bias of self-normalised weights.

The policy reads no hidden card: its draws depend only on what the seat knows and on the xoshiro
state, and every world's rollouts are deterministic. Decisions with a single distinct card (one
legal card, or touching cards: no unseen card ranks between them) are played at once without a
draw. When the first ``UNANIMOUS_STOP`` worlds score every distinct card alike, the search stops
there with the heuristic's card (the one the tie would go to). The seat also plays the heuristic's
card before trick ``first_trick`` (default 5: the search budget goes where rollouts are short and
the worlds better known) and once every contract is decided (made or failed beyond repair; over-
and undertricks are then left to the heuristic).
"""

import numpy as np
from numba import njit

from analyzer.cards.rng import bounded
from analyzer.games.rikken import rules
from analyzer.games.rikken.heuristic import N_PARAMS, choose_heuristic, default_params
from analyzer.games.rikken.play_rules import apply_action, legal_actions
from analyzer.games.rikken.round_layout import (
    BIDDER,
    BLIND,
    CALLED,
    CALLED_OUT,
    CONTRACT,
    EXPOSED,
    FACE_DOWN_CARDS,
    FACE_DOWN_OFFSET,
    HAND,
    KIND,
    KIND_MISERY,
    KIND_TRICKS,
    LED_SUIT,
    PARTNER,
    PARTNER_PUBLIC,
    PLAYED,
    STATE_SIZE,
    TRICK,
    TRICK_NO,
    TRICKS,
    TRUMP,
    TURN,
    VOIDS,
)
from analyzer.games.trick import low_bit, pop

# The expert's parameters follow the heuristic's in one float64 array (``expert_params``): the
# heuristic reads only its own entries, so every kernel passes one array to both policies.
EXPERT_PARAM_NAMES = ("samples", "first_trick")
P_SAMPLES = N_PARAMS  # worlds drawn per searched decision
P_FIRST_TRICK = N_PARAMS + 1  # tricks before this one (1-based) are played by the heuristic
DEFAULT_SAMPLES = 6
DEFAULT_FIRST_TRICK = 5
_EXPERT_DEFAULTS = {"samples": DEFAULT_SAMPLES, "first_trick": DEFAULT_FIRST_TRICK}
TRICK_WEIGHT = 1.0 / 32  # a trick of surplus is worth this much of a contract (13 tricks stay below 1)
TIE_TOLERANCE = 1e-9  # values within this share of the worlds' total weight are equal (float rounding)
UNANIMOUS_STOP = 2  # after this many worlds in which every card scores the same, the heuristic's card is played
MAX_TRIES = 200  # stuck dealings redrawn per world before the decision falls back to the heuristic
PILE = 4  # the slot of the face-down cards the seat has not seen


def expert_params(**overrides) -> np.ndarray:
    """The heuristic's default parameters followed by the expert's (``EXPERT_PARAM_NAMES``), e.g.
    ``expert_params(samples=8, first_trick=1)``."""
    values = {**_EXPERT_DEFAULTS, **{k: float(v) for k, v in overrides.items()}}
    if set(values) != set(EXPERT_PARAM_NAMES):
        raise ValueError(f"expert parameters are {EXPERT_PARAM_NAMES}")
    return np.concatenate([default_params(), [values[name] for name in EXPERT_PARAM_NAMES]])


_FULL = np.int64((1 << 52) - 1)
_ONE = np.int64(1)
_ACES = np.int64(sum(1 << (13 * s + 12) for s in range(4)))
_SIDE = rules.SIDE
_TARGET = rules.TARGET
_SIDE_ALONE = int(rules.Side.ALONE)
_TROELA = int(rules.Contract.TROELA)


# ---- what a seat knows ----------------------------------------------------------------------------
@njit(cache=True)
def information_set(st, seat, allowed, counts):
    """Describe the worlds consistent with what ``seat`` knows.

    Parameters
    ----------
    st : int64[STATE_SIZE]
        Round state; only what ``seat`` may see is read (module notes).
    seat : int
        The viewer.
    allowed : int64[52]
        Filled: for each unseen card, the slots (bit ``h`` for seat ``h``, bit ``PILE`` for the unseen
        face-down cards) that may hold it; 0 for cards the seat knows.
    counts : int64[5]
        Filled: cards each slot holds (0 for seats whose hand the seat sees).

    Returns
    -------
    (int64, int, int)
        The unseen cards, the Troela partner whose ace count is constrained (-1: none), and that
        constraint: 1 exactly one unplayed ace, 2 at most one.
    """
    visible = visible_seats(st, seat)
    bidder = st[BIDDER]
    known = st[PLAYED]
    if seat == bidder:
        known |= st[FACE_DOWN_CARDS]
    for s in range(4):
        if (visible >> s) & 1:
            known |= st[HAND + s]
    pool = _FULL & ~known
    # Every seat held as many cards when the trick began.
    size = pop(st[HAND + seat]) + (1 if st[TRICK + seat] >= 0 else 0)
    hidden = 0
    dealt = 0
    for s in range(4):
        counts[s] = 0
        if not (visible >> s) & 1:
            hidden |= 1 << s
            counts[s] = size - (1 if st[TRICK + s] >= 0 else 0)
            dealt += counts[s]
    counts[PILE] = pop(pool) - dealt
    called = st[CALLED]
    called_suit = called // 13 if called >= 0 else -1
    voids = np.zeros(4, dtype=np.int64)
    for s in range(4):
        voids[s] = st[VOIDS + s]
    if st[BLIND] != 0 and bidder >= 0:
        voids[bidder] |= 1 << called_suit
    for c in range(52):
        allowed[c] = 0
    m = pool
    while m != 0:
        c = low_bit(m)
        m &= m - 1
        suit = c // 13
        slots = 0
        for s in range(4):
            if (hidden >> s) & 1 and not (voids[s] >> suit) & 1:
                slots |= 1 << s
        if counts[PILE] > 0 and suit != called_suit:
            slots |= 1 << PILE
        allowed[c] = slots
    if called >= 0 and st[CALLED_OUT] != 0 and (pool >> called) & 1:
        slots = allowed[called] & ~(1 << PILE)
        if bidder >= 0:
            slots &= ~(1 << bidder)
        if st[LED_SUIT] == called_suit:
            for s in range(4):
                if st[TRICK + s] >= 0:
                    slots &= ~(1 << s)
        allowed[called] = slots
    partner_rule = 0
    troela_partner = -1
    if called >= 0 and called % 13 == 11 and bidder >= 0:
        _restrict(allowed, pool & _ACES, 1 << bidder)
    elif bidder >= 0 and st[CONTRACT + bidder] == _TROELA:
        partner = st[PARTNER]
        _restrict(allowed, pool & _ACES, (1 << bidder) | (1 << partner))
        trump_ace = 13 * st[TRUMP] + 12
        if (pool >> trump_ace) & 1:
            allowed[trump_ace] &= 1 << bidder
        if (hidden >> partner) & 1:
            troela_partner = partner
            partner_rule = 1 if (st[PLAYED] & _ACES) == 0 else 2
    return pool, troela_partner, partner_rule


@njit(cache=True)
def visible_seats(st, seat):
    """Seats (4-bit mask) whose hands ``seat`` sees: its own, and the exposed ones after trick 1."""
    if st[TRICK_NO] >= 1:
        return (1 << seat) | st[EXPOSED]
    return 1 << seat


@njit(cache=True)
def _restrict(allowed, cards, slots):
    """Keep only ``slots`` for every card of ``cards``."""
    m = cards
    while m != 0:
        c = low_bit(m)
        m &= m - 1
        allowed[c] &= slots


@njit(cache=True)
def deal_order(pool, allowed, order):
    """Fill ``order`` with the unseen cards, those with the fewest possible slots first; return their number."""
    n = 0
    for width in range(6):
        m = pool
        while m != 0:
            c = low_bit(m)
            m &= m - 1
            if pop(allowed[c]) == width:
                order[n] = c
                n += 1
    return n


@njit(cache=True)
def draw_world(allowed, counts, order, n, troela_partner, partner_rule, rng_state, slots_out):
    """Deal the unseen cards to the slots (module notes); return the world's importance weight, or -1.0.

    ``slots_out`` (int64[5]) is filled with each slot's cards. -1.0 means ``MAX_TRIES`` dealings got
    stuck: the information set is then treated as too tight to sample.
    """
    room = np.empty(5, dtype=np.int64)
    for _ in range(MAX_TRIES):
        for h in range(5):
            room[h] = counts[h]
            slots_out[h] = 0
        q = 1.0
        stuck = False
        for i in range(n):
            c = order[i]
            slots = allowed[c]
            total = 0
            for h in range(5):
                if (slots >> h) & 1:
                    total += room[h]
            if total == 0:
                stuck = True
                break
            r = bounded(rng_state, total)
            h = 0
            while True:
                if (slots >> h) & 1:
                    if r < room[h]:
                        break
                    r -= room[h]
                h += 1
            q *= room[h] / total
            room[h] -= 1
            slots_out[h] |= _ONE << c
        if stuck:
            continue
        if troela_partner >= 0:
            aces = pop(slots_out[troela_partner] & _ACES)
            if aces > 1 or (partner_rule == 1 and aces != 1):
                continue
        return 1.0 / q
    return -1.0


@njit(cache=True)
def prepare_worlds(st, seat, allowed, counts, order):
    """Set up the draws of worlds consistent with what ``seat`` knows (the one home of this setup).

    Fills ``allowed`` and ``counts`` (:func:`information_set`) and ``order`` (:func:`deal_order`); returns
    ``(n, troela_partner, partner_rule, hidden)``: the unseen cards' number, the Troela constraint, and the
    seats (4-bit mask) whose hands ``seat`` does not see. Pass them on to :func:`draw_into`.
    """
    pool, troela_partner, partner_rule = information_set(st, seat, allowed, counts)
    n = deal_order(pool, allowed, order)
    return n, troela_partner, partner_rule, 15 & ~visible_seats(st, seat)


@njit(cache=True)
def draw_into(st, seat, allowed, counts, order, n, troela_partner, partner_rule, hidden, rng_state, slots, world):
    """Draw one world (:func:`draw_world`) and write it into ``world``, a copy of ``st``; return its importance
    weight, or -1.0 (``world`` then unspecified).

    The hidden seats' hands, the face-down cards ``seat`` has not seen (unless it is the bidder, who knows
    them) and, while the partner is not public, the partner (the called card's holder in this world). The
    arrays and counts come from :func:`prepare_worlds`; ``slots`` (int64[5]) is scratch. With nothing
    unseen (``n`` 0) the world is the position itself, weight 1, and no draw is made.
    """
    weight = draw_world(allowed, counts, order, n, troela_partner, partner_rule, rng_state, slots)
    if weight < 0:
        return weight
    world[:] = st
    for s in range(4):
        if (hidden >> s) & 1:
            world[HAND + s] = slots[s]
    if seat != st[BIDDER]:
        world[FACE_DOWN_CARDS] = slots[PILE]
    if st[PARTNER_PUBLIC] == 0:
        called = st[CALLED]
        for s in range(4):
            if (world[HAND + s] >> called) & 1:
                world[PARTNER] = s
    return weight


# ---- choosing a card ------------------------------------------------------------------------------
@njit(cache=True)
def distinct_actions(st, seat, up, fd, reps):
    """Fill ``reps`` with one action per class of equivalent legal actions; return the number of classes.

    Two legal cards of a suit are equivalent when every card ranking between them is the seat's own or
    was played face up to an earlier trick (or, for the blind bidder, led face down by him): whichever is
    played, the same tricks fall. A card of the trick in progress separates them (one of the two may beat
    it, the other not). The called card is a class of its own (playing it reveals the partner). Each class
    is represented by its lowest card; face-up cards come first, then face-down leads (``52 + card``).
    """
    gaps = st[HAND + seat] | st[PLAYED]
    for s in range(4):
        card = st[TRICK + s]
        if 0 <= card < FACE_DOWN_OFFSET:
            gaps &= ~(_ONE << card)
    if seat == st[BIDDER]:
        gaps |= st[FACE_DOWN_CARDS]
    called = st[CALLED] if st[CALLED_OUT] != 0 else -1
    n = 0
    for offset in (0, FACE_DOWN_OFFSET):
        m = up if offset == 0 else fd
        prev = -1
        while m != 0:
            c = low_bit(m)
            m &= m - 1
            between = ((_ONE << c) - 1) & ~((_ONE << (prev + 1)) - 1)
            touching = prev >= 0 and prev // 13 == c // 13 and (between & ~gaps) == 0
            if not touching or c == called or prev == called:
                reps[n] = c + offset
                n += 1
            prev = c
    return n


@njit(cache=True)
def all_decided(st, seat):
    """True when every contract's result is settled and ``seat`` knows it (the partner, if any, known)."""
    tricks_left = pop(st[HAND + seat]) + (1 if st[TRICK + seat] >= 0 else 0)
    for d in range(4):
        contract = st[CONTRACT + d]
        if contract < 0:
            continue
        partnered = _SIDE[contract] != _SIDE_ALONE and st[PARTNER] >= 0
        if partnered and st[PARTNER_PUBLIC] == 0 and not (st[HAND + seat] >> st[CALLED]) & 1:
            return False
        won = st[TRICKS + d]
        if partnered:
            won += st[TRICKS + st[PARTNER]]
        kind = st[KIND + d]
        if kind == KIND_TRICKS:
            if won < _TARGET[contract] <= won + tricks_left:
                return False
        elif kind == KIND_MISERY:
            if won == 0:
                return False
        elif won <= 1:
            return False
    return True


@njit(cache=True)
def world_score(w, seat):
    """Value of a finished world ``w`` for ``seat``: contracts won by its side, plus the trick tie-breaker."""
    value = 0.0
    for d in range(4):
        contract = w[CONTRACT + d]
        if contract < 0:
            continue
        partner = w[PARTNER]
        partnered = _SIDE[contract] != _SIDE_ALONE and partner >= 0
        won = w[TRICKS + d]
        if partnered:
            won += w[TRICKS + partner]
        ours = seat == d or (partnered and seat == partner)
        kind = w[KIND + d]
        if kind == KIND_TRICKS:
            made = won >= _TARGET[contract]
            surplus = won
        else:
            # Misery and 1 Alone score no over- or undertricks: only the result counts.
            made = won == (0 if kind == KIND_MISERY else 1)
            surplus = 0
        if ours:
            value += (1.0 if made else 0.0) + TRICK_WEIGHT * surplus
        else:
            value += (0.0 if made else 1.0) - TRICK_WEIGHT * surplus
    return value


@njit(cache=True)
def rollout(w, params):
    """Play the world ``w`` with the heuristic at every seat to the end of the round, or, when every
    contract is a Misery or 1 Alone (no over- or undertricks), until each of them has failed."""
    results_only = w[BIDDER] < 0
    while (w[HAND] | w[HAND + 1] | w[HAND + 2] | w[HAND + 3]) != 0:
        s = w[TURN]
        up, fd = legal_actions(w, s)
        if apply_action(w, s, choose_heuristic(w, s, up, fd, params)) >= 0 and results_only and _all_failed(w):
            return


@njit(cache=True)
def _all_failed(w):
    """True when every declarer of a Misery / 1 Alone round has already failed."""
    for d in range(4):
        kind = w[KIND + d]
        if kind < 0:
            continue
        if w[TRICKS + d] < (1 if kind == KIND_MISERY else 2):
            return False
    return True


@njit(cache=True)
def choose_expert(st, seat, up, fd, params, rng_state):
    """The expert's action for ``seat`` among the legal masks ``up`` and ``fd`` (module notes).

    Parameters
    ----------
    st : int64[STATE_SIZE]
        Round state; read only through what ``seat`` may see.
    seat : int
        Seat to play.
    up, fd : int64
        Legal face-up cards and face-down leads.
    params : float64[N_PARAMS + 2]
        ``expert_params()``: the heuristic's parameters (rollouts, fallback), then the expert's; a
        heuristic-only array plays with the expert defaults.
    rng_state : uint64[4]
        xoshiro256** state for the worlds, advanced in place (not at all when the decision is forced).
    """
    reps = np.empty(26, dtype=np.int64)
    n_actions = distinct_actions(st, seat, up, fd, reps)
    if n_actions == 1:
        return reps[0]
    own = choose_heuristic(st, seat, up, fd, params)
    searched = params.shape[0] > P_FIRST_TRICK
    samples = int(params[P_SAMPLES]) if searched else DEFAULT_SAMPLES
    first_trick = int(params[P_FIRST_TRICK]) if searched else DEFAULT_FIRST_TRICK
    if st[TRICK_NO] + 1 < first_trick or all_decided(st, seat):
        return own
    allowed = np.empty(52, dtype=np.int64)
    counts = np.empty(5, dtype=np.int64)
    order = np.empty(52, dtype=np.int64)
    n, troela_partner, partner_rule, hidden = prepare_worlds(st, seat, allowed, counts, order)
    if n == 0:
        samples = 1  # every hand is seen: one world
    slots = np.empty(5, dtype=np.int64)
    base = np.empty(STATE_SIZE, dtype=np.int64)
    w = np.empty(STATE_SIZE, dtype=np.int64)
    values = np.zeros(n_actions, dtype=np.float64)
    total = 0.0
    split = False  # some world so far scores the distinct cards differently
    for k in range(samples):
        if k == UNANIMOUS_STOP and not split:
            return own
        weight = draw_into(st, seat, allowed, counts, order, n, troela_partner, partner_rule, hidden, rng_state,
                           slots, base)
        if weight < 0:
            return own
        total += weight
        first = 0.0
        for i in range(n_actions):
            w[:] = base
            apply_action(w, seat, reps[i])
            rollout(w, params)
            score = world_score(w, seat)
            if i == 0:
                first = score
            split = split or score != first
            values[i] += weight * score
    best = 0
    for i in range(1, n_actions):
        if values[i] > values[best]:
            best = i
    mine = 0
    for i in range(n_actions):
        if reps[i] <= own:
            mine = i
    # Ties (up to rounding) go to the heuristic's card.
    if values[mine] >= values[best] - TIE_TOLERANCE * total:
        return own
    return reps[best]
