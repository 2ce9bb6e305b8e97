"""Sloppy Seconds policies as kernels: ``random``, ``heuristic`` and ``sampling``, with their parameters.

All tunable numbers live in ``DEFAULT_PARAMS`` and reach the kernels as one float64 array.

heuristic
    Scores candidate cards by how the points of the trick would change the player's *suit potential*,
    a one-deal look at "be second in each suit":

    * the score the suit would give if the deal ended now (second-highest distinct total scores it;
      the per-suit floor of 5 of that variant only with ``suit_floor`` on, the per-hand floor never, it
      only lifts near-empty deals);
    * minus ``top_penalty`` per point the player leads the suit by when alone on top (being far ahead
      is hard to undo, so such suits are dumped: their high cards go to other players);
    * plus ``below_weight`` per point while below the second place (climbing towards second).

    Who takes the trick: certain when the card cannot win (current winner) or the player is last;
    otherwise the player takes it with ``p_sure`` (top outstanding card of the trump suit),
    ``p_top`` (top outstanding card of its suit) or ``p_unsure``, and for the rest of the probability
    the trick counts as going to someone not yet known (no change). When the card would make trump,
    ``trump_length_bonus`` per other card held in that suit rewards choosing a trump suit the player
    controls. ``rank_weight`` per rank (2 = 0 .. A = 12) favours getting rid of high cards: they are
    the cards that would otherwise win unwanted tricks later, low cards keep the choice open. Exact ties
    go to the lowest card id.

    Candidates are classes, not every card: the legal cards of a suit split into those that lose the
    trick, those that win it so far but an unseen card of the suit is higher, and those nothing unseen
    beats (``outcome_classes``). Within a class the value differs only through rank and card points, so
    only its lowest and highest card are scored; scoring just the highest lost 0.4 points per deal.
    Against scoring every legal card, on the same 50,000 deals with seats swapped: -0.03 (95% interval
    -0.06 .. +0.01) points per deal with 4 players, +0.06 (-0.02 .. +0.14) with 3 and -0.01
    (-0.03 .. +0.01) with 6, i.e. no measurable loss.

    A losing card of a suit in which the player has no points is scored without that suit's standings:
    ``potential`` of 0 points is the same whatever the winner takes, so the card is worth its rank term (and
    trump bonus) plus the trick as it stands; following suit with only such cards plays the highest (the
    rank weight alone decides). Same decisions as scoring them in full (2.24 M seeded deals, 2-8 players,
    both variants); heuristic deals 1-2% / 6% / 10% faster with 3 / 4 / 6 players (alternating bench runs).

    The floor is counted only from ``LARGE_TABLE`` players on. Left out, the value is cheaper (the kernel is
    compiled once with and once without it; heuristic deals about 4-6% faster with 3 and 4 players) and,
    against counting it, on the same 50,000 deals with seats swapped: +1.53 (95% interval +1.34 .. +1.73)
    points per deal with 3 players, +0.68 (+0.55 .. +0.81) with 4, but -0.48 (-0.58 .. -0.38) with 6, where
    most seats end a suit below 5 points.

    Defaults come from a sweep against random play (4 players, 20,000 deals per setting, same deals):
    shedding high cards (``rank_weight`` 1 instead of a tie-breaking 0.01) is worth about +4 points per
    deal, a pessimistic ``p_unsure`` and a stronger ``top_penalty`` a little more.

sampling
    For each legal card, ``n_samples`` hidden deals consistent with what the player saw (hand sizes,
    suits a player showed out of) are played out with the heuristic for every seat; the card with the
    best mean deal score for the player (this deal only, not the game totals) is chosen; every card is
    tried in the same sampled worlds, a paired comparison. Worlds are dealt most-constrained suit
    first, each card to a random eligible seat weighted by the cards that seat still needs; after
    ``max_tries`` dead ends the void constraints are dropped for that world.
"""

import math

import numpy as np
from numba import njit

from analyzer import catalog
from analyzer.cards.rng import bounded
from analyzer.errors import InputError
from analyzer.games.seconds.kernels import (
    M_IN_HANDS,
    M_LEADER,
    M_LED,
    M_POS,
    apply_action,
    apply_card,
    copy_state,
    current_standings,
    legal_actions,
    load_scalars,
    new_state_arrays,
    nth_card,
    score_deal,
    seat_after,
    settle_standings,
    suit_mask,
    trump_after,
    unmanaged,
    unpack_view,
)
from analyzer.games.seconds.rules import (
    MINIMUM_PER_SUIT,
    MINIMUM_SCORE,
    N_SUITS,
)
from analyzer.games.trick import high_bit, low_bit, pop

POLICY_NAMES = catalog.SECONDS_POLICIES
POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_SAMPLING = 2

PARAM_NAMES = catalog.SECONDS_PARAMS
DEFAULT_PARAMS = {
    "p_sure": 1.0,
    "p_top": 0.8,
    "p_unsure": 0.25,
    "top_penalty": 1.0,
    "below_weight": 0.3,
    "trump_length_bonus": 1.0,
    "rank_weight": 1.0,
    "suit_floor": 0.0,
    "n_samples": 12.0,
    "max_tries": 8.0,
}
# Bound of n_samples and max_tries (worlds per decision, redraws per world): more only stalls a run.
MAX_SAMPLES = 10_000
# With 6 or more players (8 cards or fewer each) shedding high cards matters much less: the same sweep
# finds +1.6 to +1.8 points per deal over random with these values against +0.1 to +0.4 with the defaults
# (5 players: both about +1.9). ``suit_floor`` (1: the per-suit floor counts in a suit's value, 0: it does
# not) is on there only: see the module docstring.
LARGE_TABLE = 6
LARGE_TABLE_PARAMS = {"rank_weight": 0.1, "top_penalty": 0.25, "suit_floor": 1.0}
(P_SURE, P_TOP, P_UNSURE, TOP_PENALTY, BELOW_WEIGHT, TRUMP_LENGTH_BONUS, RANK_WEIGHT, SUIT_FLOOR, N_SAMPLES,
 MAX_TRIES) = range(len(PARAM_NAMES))


def params_array(n_players: int = 4, **overrides) -> np.ndarray:
    """Return the policy parameter array for ``n_players``, updated with ``overrides``.

    Parameters
    ----------
    n_players : int
        Table size: from ``LARGE_TABLE`` players on, ``LARGE_TABLE_PARAMS`` replace the defaults.
    **overrides
        Parameter values by name (``PARAM_NAMES``).
    """
    values = dict(DEFAULT_PARAMS)
    if n_players >= LARGE_TABLE:
        values.update(LARGE_TABLE_PARAMS)
    for name, value in overrides.items():
        if name not in values:
            raise InputError(f"unknown policy parameter {name!r}: use one of {', '.join(PARAM_NAMES)}")
        values[name] = float(value)
        if not math.isfinite(values[name]):  # NaN or infinity crashed the kernels (segfault)
            raise InputError(f"{name} must be a finite number, got {value}")
    for name, low in (("n_samples", 1), ("max_tries", 0)):  # counts: the kernels truncate a fraction
        if not (low <= values[name] <= MAX_SAMPLES and values[name].is_integer()):
            raise InputError(f"{name} must be a whole number {low}..{MAX_SAMPLES:,}, got {values[name]:g}")
    if values["suit_floor"] not in (0.0, 1.0):
        raise InputError(f"suit_floor is 0 or 1, got {values['suit_floor']:g}")
    for name in ("p_sure", "p_top", "p_unsure"):
        if not 0.0 <= values[name] <= 1.0:
            raise InputError(f"{name} is a probability, got {values[name]:g}")
    return np.array([values[name] for name in PARAM_NAMES], dtype=np.float64)


def parse_policies(text: str, n_players: int) -> list[int]:
    """Parse ``random,heuristic,...`` into policy ids, one per seat (a single name fills every seat)."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise InputError(f"give one policy or one per seat ({n_players}), got {len(names)}")
    ids = []
    for name in names:
        if name not in POLICY_NAMES:
            raise InputError(f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)}")
        ids.append(POLICY_NAMES.index(name))
    return ids


# The scalar helpers below (``potential`` .. ``_keep_better``) compile once on their own instead of inline at
# each of their dozen call sites in ``heuristic_card``: numba's IR inlining of them cost a first run of
# ``seconds play`` about 8 CPU-s, for under 2% of the play-outs' speed (docs/performance.md, session 9).
@njit(cache=True)
def potential(mine, second, max_other, floor, top_penalty, below_weight):
    """Heuristic value of a suit holding ``mine`` points, with the table's ``second`` and best other total
    (``floor``: count the per-suit floor).

    Written as selects (both sides are a multiply at most): which case applies is data-dependent, and
    mispredicted branches cost the play-outs more than the arithmetic. Adding ``-x`` or ``0.0`` gives the
    same doubles as subtracting ``x`` or leaving the value alone.
    """
    if floor and mine < MINIMUM_SCORE:
        value = float(MINIMUM_SCORE)
    else:
        value = float(mine) if mine == second else 0.0
    above = -(top_penalty * (mine - max_other))
    below = below_weight * mine if mine < second else 0.0
    return value + (above if mine > max_other else below)


@njit(cache=True)
def _push(top, second, v):
    """Top two distinct values after seeing ``v`` (-1 stands for none; totals are >= 0); written as
    selects, since which branch is taken is data-dependent and unpredictable."""
    new_second = top if v > top else (max(second, v) if v < top else second)
    return max(top, v), new_second


@njit(cache=True, inline="always")
def standings(taken, meta, suit, me, other):
    """My total in ``suit``, the top two distinct totals of the seats but ``me`` and ``other`` (Q1 > Q2; -1 for
    none) and ``other``'s total W (-1 when ``other`` is -1, no winner yet), from the standings table.

    My view of the others (``kernels.pack_view``) loses a level only when ``other`` is its one holder. The
    others' top two (with W) are ``_push(Q1, Q2, W)``, so one look-up serves both "I take" and "the winner
    takes".
    """
    t1, t2, t3, c1, c2 = unpack_view(current_standings(taken, meta, me, suit))
    w = taken[max(other, 0), suit] | -np.int64(other < 0)
    drop1 = (w == t1) & (c1 == 1)
    drop2 = (w == t2) & (c2 == 1)
    return taken[me, suit], t2 if drop1 else t1, t3 if drop1 | drop2 else t2, w


@njit(cache=True)
def potential_if_i_take(mine, o1, o2, points, floor, top_penalty, below_weight):
    """``potential`` of a suit (others' top two distinct totals O1 > O2) once I take ``points`` more."""
    mine += points
    if mine > o1:
        second = o1
    elif mine == o1:
        second = o2
    else:
        second = max(o2, mine)
    return potential(mine, second, o1, floor, top_penalty, below_weight)


@njit(cache=True)
def potential_if_other_takes(mine, q1, q2, w, points, floor, top_penalty, below_weight):
    """``potential`` of a suit (totals from ``standings``) once the current winner takes ``points`` more."""
    w += points
    top, second = _push(q1, q2, w)
    top, second = _push(top, second, mine)
    return potential(mine, second, max(q1, w), floor, top_penalty, below_weight)


# Bits ``b`` whose card ``b + k`` is in the same suit, for k = 1, 2, 4, 8: shifting a mask down by k and
# keeping these bits moves no card into the suit below.
_SAME_SUIT_1 = np.int64(sum(0x0FFF << (13 * s) for s in range(N_SUITS)))
_SAME_SUIT_2 = np.int64(sum(0x07FF << (13 * s) for s in range(N_SUITS)))
_SAME_SUIT_4 = np.int64(sum(0x01FF << (13 * s) for s in range(N_SUITS)))
_SAME_SUIT_8 = np.int64(sum(0x001F << (13 * s) for s in range(N_SUITS)))


@njit(cache=True, inline="always")
def at_or_below_top(mask):
    """Per suit, every card at or below the highest card ``mask`` holds in that suit (none if it holds none)."""
    mask |= (mask >> 1) & _SAME_SUIT_1
    mask |= (mask >> 2) & _SAME_SUIT_2
    mask |= (mask >> 4) & _SAME_SUIT_4
    return mask | ((mask >> 8) & _SAME_SUIT_8)


@njit(cache=True, inline="always")
def outcome_classes(legal, unseen, last, scalars, variant):
    """Split the legal cards by what they do to the trick, as card masks over all suits at once.

    Returns ``(losing, unsure, sure, trumps)``: the cards that cannot take the lead of the trick; those
    that take it but an unseen card of their suit is higher; those that take it and nothing unseen can
    beat (above every unseen card of their suit, or played ``last``); and the cards of the suits that are
    trump once played (the trump in force, or a suit that the card would make trump).
    """
    _, pos, led, best, _, trump, broken, _, trick_no, _, _ = scalars
    if pos == 0:
        winning = legal
        trumps = suit_mask(trump) if trump >= 0 else np.int64(0)
    else:
        trumps = np.int64(0)
        for suit in range(4):
            trump_once_played = trump_after(suit, led, trump, broken, trick_no, variant)
            if trump_once_played >= 0:
                trumps |= suit_mask(trump_once_played)
        # A card that makes trump is the only trump in its trick; a trump wins a trick topped by another suit.
        above_best = suit_mask(best // 13) & ~((np.int64(2) << best) - 1)
        ruffs = trumps & ~suit_mask(best // 13)
        winning = legal & (above_best | ruffs)
    sure = winning if last else winning & ~at_or_below_top(unseen)
    return legal & ~winning, winning & ~sure, sure, trumps


@njit(cache=True, inline="always")
def choose_heuristic(hands, taken, trick, meta, values, params, variant, minimum, scalars):
    """Card chosen by the heuristic policy for the seat to play (see the module docstring).

    ``scalars`` is the deal's scalar tuple and ``meta`` holds its standings table (``kernels``).
    """
    # A constant ``floor`` in each call compiles a version without the floor's test and select.
    if counts_floor(minimum, params):
        return heuristic_card(hands, taken, trick, meta, values, params, variant, True, scalars)
    return heuristic_card(hands, taken, trick, meta, values, params, variant, False, scalars)


@njit(cache=True, inline="always")
def counts_floor(minimum, params):
    """Whether the heuristic counts the per-suit floor in its suit values: under the per-suit minimum, with
    a nonzero ``SUIT_FLOOR`` weight."""
    return minimum == MINIMUM_PER_SUIT and params[SUIT_FLOOR] != 0.0


@njit(cache=True, inline="always")
def heuristic_card(hands, taken, trick, meta, values, params, variant, floor, scalars):
    """``choose_heuristic`` with ``floor`` (count the per-suit floor in suit values) decided.

    ``scalars`` is the deal's scalar tuple and ``meta`` holds its standings table (``kernels``).
    Candidates are the lowest and the highest card of each outcome class of each legal suit
    (``outcome_classes``). A candidate is valued by what its own card changes in its suit on top of the
    trick as it stands; the trick as it stands is valued (over its suits) only when the candidates
    differ in who takes the trick and how surely, since otherwise it adds the same to each.
    """
    leader, pos, led, _, best_seat, trump, _, _, _, in_hands, points = scalars
    n = hands.shape[0]
    seat = seat_after(leader, pos, n)
    hand = hands[seat]
    legal = legal_actions(hand, led)
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    last = pos == n - 1
    losing, unsure, sure, trumps = outcome_classes(legal, hand ^ in_hands, last, scalars, variant)
    if pos > 0 and losing == legal and legal & suit_mask(led) == legal and taken[seat, led] == 0:
        # Following with cards that all lose, holding no points in the suit (see the suit loop below): each
        # card scores its rank only, so the rank weight alone decides.
        return high_bit(legal) if params[RANK_WEIGHT] > 0.0 else low_bit(legal)
    other = best_seat if pos > 0 else -1
    top_penalty = params[TOP_PENALTY]
    below_weight = params[BELOW_WEIGHT]
    rank_weight = params[RANK_WEIGHT]
    # What taking the trick as it stands is worth is the same for every candidate with the same taker and
    # chance; only when the candidates differ in that (losing, unsure, sure, sure in trumps) is it worked
    # out, over the trick's suits.
    sure_trumps = np.int64(0) if last else sure & trumps
    kinds = (losing != 0) + (unsure != 0) + (sure_trumps != sure) + (sure_trumps != 0)
    take_all = 0.0
    give_all = 0.0
    if kinds > 1:
        for s in range(N_SUITS):
            pts = (points >> (16 * s)) & 0xFFFF
            if pts == 0:
                continue
            mine, q1, q2, w = standings(taken, meta, s, seat, other)
            o1, o2 = _push(q1, q2, w)
            base = potential_if_i_take(mine, o1, o2, 0, floor, top_penalty, below_weight)
            take_all += potential_if_i_take(mine, o1, o2, pts, floor, top_penalty, below_weight) - base
            give_all += potential_if_other_takes(mine, q1, q2, w, pts, floor, top_penalty, below_weight) - base
    p_unsure = params[P_UNSURE]
    best_card = -1
    best_value = -1e300
    # Suits ascending, and in a suit the classes from low to high, each by its lowest then its highest card:
    # the lowest card id first, as the tie rule wants (a class of one card is scored twice, the second time
    # is never strictly better). A candidate adds what its own card changes, on top of the trick as it stands.
    suits = np.int64(0)
    for s in range(N_SUITS):
        suits |= np.int64(legal & suit_mask(s) != 0) << s
    while suits != 0:
        suit = low_bit(suits)
        suits &= suits - 1
        s_losing = (losing >> (13 * suit)) & 0x1FFF
        s_unsure = (unsure >> (13 * suit)) & 0x1FFF
        s_sure = (sure >> (13 * suit)) & 0x1FFF
        makes_trump = trump < 0 and (trumps >> (13 * suit)) & 1 != 0
        bonus = params[TRUMP_LENGTH_BONUS] * (pop(hand & suit_mask(suit)) - 1) if makes_trump else 0.0
        in_trick = (points >> (16 * suit)) & 0xFFFF
        if s_losing != 0 and taken[seat, suit] == 0:
            # With no points in the suit my value there is the same whatever the winner takes (``potential``
            # of 0 points): losing cards score their rank alone, and the suit's standings are looked up only
            # if one of its cards can take the trick.
            for rank in (low_bit(s_losing), high_bit(s_losing)):
                best_card, best_value = _keep_better(13 * suit + rank, rank_weight * rank + bonus + give_all,
                                                     best_card, best_value)
            s_losing = 0
            if s_unsure | s_sure == 0:
                continue
        mine, q1, q2, w = standings(taken, meta, suit, seat, other)
        if s_losing != 0:
            before = potential_if_other_takes(mine, q1, q2, w, in_trick, floor, top_penalty, below_weight)
            for rank in (low_bit(s_losing), high_bit(s_losing)):
                pts = in_trick + values[13 * suit + rank]
                gain = potential_if_other_takes(mine, q1, q2, w, pts, floor, top_penalty, below_weight) - before
                value = rank_weight * rank + bonus + (give_all + gain)
                best_card, best_value = _keep_better(13 * suit + rank, value, best_card, best_value)
        if s_unsure | s_sure == 0:
            continue
        o1, o2 = _push(q1, q2, w)
        before = potential_if_i_take(mine, o1, o2, in_trick, floor, top_penalty, below_weight)
        if s_unsure != 0:
            best_card, best_value = _best_taking(s_unsure, p_unsure, suit, in_trick, values, mine, o1, o2, before,
                                                 floor, params, bonus, take_all, best_card, best_value)
        if s_sure != 0:
            # Nothing unseen beats a sure card: sure in trumps, likely otherwise.
            p_sure = 1.0 if last else (params[P_SURE] if (trumps >> (13 * suit)) & 1 != 0 else params[P_TOP])
            best_card, best_value = _best_taking(s_sure, p_sure, suit, in_trick, values, mine, o1, o2, before,
                                                 floor, params, bonus, take_all, best_card, best_value)
    return best_card


@njit(cache=True, inline="always")
def _best_taking(cards, chance, suit, in_trick, values, mine, o1, o2, before, floor, params, bonus, take_all,
                 best_card, best_value):
    """The better of (best_card, best_value) and the lowest and highest of ``cards``, which take the trick
    with probability ``chance`` (see :func:`heuristic_card` for the scoring and the tie rule)."""
    for rank in (low_bit(cards), high_bit(cards)):
        pts = in_trick + values[13 * suit + rank]
        gain = potential_if_i_take(mine, o1, o2, pts, floor, params[TOP_PENALTY], params[BELOW_WEIGHT]) - before
        value = params[RANK_WEIGHT] * rank + bonus + chance * (take_all + gain)
        best_card, best_value = _keep_better(13 * suit + rank, value, best_card, best_value)
    return best_card, best_value


@njit(cache=True)
def _keep_better(card, value, best_card, best_value):
    """``(card, value)`` if its value is strictly higher than ``best_value``, else the best so far (a tie keeps
    the earlier, lower card); written as selects, since which wins is data-dependent."""
    better = value > best_value
    return (card if better else best_card), (value if better else best_value)


@njit(cache=True, inline="always")
def choose_random(hands, rng, scalars):
    """A uniform legal card: index ``bounded(rng, count)`` into the legal cards, lowest id first."""
    leader, pos, led = scalars[M_LEADER], scalars[M_POS], scalars[M_LED]
    legal = legal_actions(hands[seat_after(leader, pos, hands.shape[0])], led)
    return nth_card(legal, bounded(rng, pop(legal)))


@njit(cache=True)
def heuristic_playout(hands, taken, voids, trick, meta, values, params, variant, minimum, scalars):
    """Play a deal from ``scalars`` to its end with the heuristic at every seat (fills ``taken``).

    ``meta``'s standings must be up to date; its scalars are not read (``scalars`` stands for them).
    """
    hands, taken, voids, trick = unmanaged(hands), unmanaged(taken), unmanaged(voids), unmanaged(trick)
    meta, values, params = unmanaged(meta), unmanaged(values), unmanaged(params)
    while scalars[M_IN_HANDS] != 0:
        card = choose_heuristic(hands, taken, trick, meta, values, params, variant, minimum, scalars)
        scalars = apply_card(hands, taken, voids, trick, values, variant, card, scalars)
        if scalars[M_POS] == 0:
            settle_standings(taken, meta, trick)


@njit(cache=True)
def sample_world(hands, voids, seat, rng, params, world, cards, need):
    """Fill ``world`` with hands for the other seats drawn from the cards they hold, keeping ``seat``'s.

    ``cards`` (int64[>=52]) and ``need`` (int64[n]) are scratch.
    """
    n = hands.shape[0]
    unseen = 0
    for p in range(n):
        if p != seat:
            unseen |= hands[p]
    count = 0
    rest = unseen
    while rest != 0:
        cards[count] = low_bit(rest)
        rest &= rest - 1
        count += 1
    max_tries = int(params[MAX_TRIES])
    for attempt in range(max_tries + 1):
        use_voids = attempt < max_tries
        for i in range(count - 1, 0, -1):
            j = bounded(rng, i + 1)
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
        for p in range(n):
            world[p] = hands[p] if p == seat else 0
            need[p] = 0 if p == seat else pop(hands[p])
        ok = True
        for eligible_count in range(n):
            for i in range(count):
                suit = cards[i] // 13
                allowed = 0
                for p in range(n):
                    if p != seat and (not use_voids or (voids[p] >> suit) & 1 == 0):
                        allowed += 1
                if allowed != eligible_count:
                    continue
                weight = 0
                for p in range(n):
                    if p != seat and need[p] > 0 and (not use_voids or (voids[p] >> suit) & 1 == 0):
                        weight += need[p]
                if weight == 0:
                    ok = False
                    break
                r = bounded(rng, weight)
                for p in range(n):
                    if p != seat and need[p] > 0 and (not use_voids or (voids[p] >> suit) & 1 == 0):
                        if r < need[p]:
                            world[p] |= np.int64(1) << cards[i]
                            need[p] -= 1
                            break
                        r -= need[p]
            if not ok:
                break
        if ok:
            return


@njit(cache=True)
def choose_sampling(hands, taken, voids, trick, meta, variant, minimum, values, params, rng):
    """Card chosen by the sampling policy for the seat to play (see the module docstring)."""
    n = hands.shape[0]
    scalars = load_scalars(meta)
    seat = seat_after(scalars[M_LEADER], scalars[M_POS], n)
    legal = legal_actions(hands[seat], scalars[M_LED])
    n_legal = pop(legal)
    if n_legal == 1:
        return nth_card(legal, 0)
    totals = np.zeros(n_legal, np.float64)
    world = np.zeros(n, np.int64)
    cards = np.zeros(64, np.int64)
    need = np.zeros(n, np.int64)
    scores = np.zeros(n, np.int64)
    h2, t2, v2, tr2, m2 = new_state_arrays(n)
    for _ in range(int(params[N_SAMPLES])):
        sample_world(hands, voids, seat, rng, params, world, cards, need)
        for k in range(n_legal):
            copy_state(world, taken, voids, trick, meta, h2, t2, v2, tr2, m2)
            apply_action(h2, t2, v2, tr2, m2, nth_card(legal, k), variant, values)
            heuristic_playout(h2, t2, v2, tr2, m2, values, params, variant, minimum, load_scalars(m2))
            score_deal(t2, minimum, scores)
            totals[k] += scores[seat]
    best = 0
    for k in range(1, n_legal):
        if totals[k] > totals[best]:
            best = k
    return nth_card(legal, best)
