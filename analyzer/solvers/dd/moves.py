"""Move generation and ordering for the double-dummy search (the job of DDS's ``Moves.cpp``).

Only the top card of each run of touching cards is a candidate (the cards below it in the run are
equivalent and left out).  Each candidate carries an ordering weight that changes the search's
speed, never its answers: lead weights per suit when the team wants tricks, follow weights by the
place in the trick, the Misery ordering, the card that last cut off under the same cut-off key
first of all (:func:`_cutoff_slot`), then the table's best move.
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.cards.tricks import beats as _beats  # the one trick rule; a local ``beats`` is a flag below
from analyzer.solvers.dd.layout import CUTOFF_SLOTS, C_GEN, C_SALT, MAX_MOVES, M_CTX, M_CUTOFFS, M_MOVES, _prefetch
from analyzer.solvers.dd.rules import _blind_allowed, _holds, _legal
from analyzer.solvers.dd.tables import BLIND, COUNT, HIGHEST, MODE_MAX, SUIT_BITS
from analyzer.solvers.dd.transposition import _hash


ACES = sum(1 << (13 * suit + 12) for suit in range(4))
ALL_CARDS = (1 << 52) - 1
SCORE_OFFSET = 1 << 16  # keeps ordering weights positive inside move keys
CUTOFF_BONUS = 2000  # the card that last cut off under the same cut-off key is tried first of all
NO_CUTOFF_KEY = -1  # cut-off keys have a zero low byte (see _cutoff_slot)
CUTOFF_TAG_BITS = -(1 << 32)
CUTOFF_GEN_BITS = (1 << 24) - 1
HINT_BONUS = 1000  # then the move that last cut off in a matching table entry
# Lead weights (see _lead_suits): the kinds of suit, and the cost of each answering card.
LEAD_PLAIN = 0
LEAD_RUFFED = 1  # an opponent can ruff it
LEAD_FRIEND_RUFFS = 2  # a partner can ruff it, no opponent can
LEAD_FRIEND_TOPS = 3  # a partner holds the top card
LEAD_ESTABLISH = 4  # an opponent holds the top card, the side the next two
# The leader holds the top card; an opponent other than the next one holds the second best, guarded.
LEAD_TOP_EXPOSED = 5
EXPOSED_TOP_SCORE = 15
TOP_SCORE = 45
ESTABLISH_SCORE = 45
FRIEND_TOPS_SCORE = 55
FRIEND_RUFFS_SCORE = 50
INTO_TENACE = 10
NEXT_GUARDS_SECOND = 15
THROUGH_BONUS = 30
PENALTY_OFFSET = 128  # keeps a suit's packed penalty positive when a bonus outweighs it
ANSWER_WEIGHT = 6
VOID_CARDS = 10
# A salted ordering adds 0 .. SALT_SPREAD - 1 to each weight: it reorders cards of one kind (weights a
# few ranks apart) but rarely crosses the kinds (tens apart).
SALT_SPREAD = 16
SALT_MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64: odd, so the multiply mixes every bit up


@njit(cache=True)
def _lead_suits(seat, hands, present, trump, team):
    """Per suit (16 bits each), the part of a lead's weight that depends only on its suit.

    Bits 0-2 give the suit's kind (``LEAD_*``).  Bits 3-15 hold a penalty, offset by
    ``PENALTY_OFFSET``: ``ANSWER_WEIGHT`` times the cards the opponents can answer the lead with (a
    void counts ``VOID_CARDS``: a discard or a ruff from anywhere in the hand), since fewer answers
    make a smaller tree; for partners sitting opposite, less the bonus of :func:`_plain_lead_kind`.
    """
    mine = (team >> seat) & 1
    packed = np.int64(0)
    for suit in range(4):
        kind = LEAD_PLAIN
        answers = 0
        out = (present >> (13 * suit)) & SUIT_BITS
        top_rank = HIGHEST[out]
        side = (hands[seat] >> (13 * suit)) & SUIT_BITS
        for other in range(4):
            if other == seat:
                continue
            held = (hands[other] >> (13 * suit)) & SUIT_BITS
            friend = (team >> other) & 1 == mine
            ruffs = held == 0 and trump != NO_TRUMP and suit != trump and (hands[other] >> (13 * trump)) & SUIT_BITS != 0
            if friend:
                side |= held
            if not friend:
                answers += COUNT[held] if held else VOID_CARDS
                if ruffs:
                    kind = LEAD_RUFFED
            elif kind != LEAD_RUFFED:
                if ruffs:
                    kind = LEAD_FRIEND_RUFFS
                elif kind == LEAD_PLAIN and top_rank >= 0 and (held >> top_rank) & 1:
                    kind = LEAD_FRIEND_TOPS
        penalty = ANSWER_WEIGHT * answers
        # The finer reading is tuned for partners sitting opposite; for other teams it made the
        # Rikken bids work slower (2.16 -> 2.49 CPU-s per deal), so they keep the plain weights.
        if kind == LEAD_PLAIN and top_rank >= 0 and (team == 0b0101 or team == 0b1010):
            kind, bonus = _plain_lead_kind(seat, hands, suit, out, side, team)
            penalty -= bonus
        packed |= np.int64(kind | (penalty + PENALTY_OFFSET) << 3) << (16 * suit)
    return packed


@njit(cache=True, inline="always")
def _plain_lead_kind(seat, hands, suit, out, side, team):
    """Kind and weight bonus of a suit whose top card nobody can ruff and no partner holds.

    ``side``: the suit's cards of the leader's side.  The top card is worth little when an
    opponent's guarded second best becomes a winner under it, a little more when that opponent
    plays next (before the leader's partner); a suit where the side holds the two
    cards after the opponents' top card sets up winners.  Without the top card in hand, a lead
    through the next opponent's top card to a partner's second best is good, one into the last
    opponent's top or second-best card bad (the same rules DDS weighs its leads with).
    """
    mine = (team >> seat) & 1
    top = HIGHEST[out]
    rest = out ^ (1 << top)
    second = HIGHEST[rest]
    third = HIGHEST[rest ^ (1 << second)] if second >= 0 else -1
    if (hands[seat] >> (13 * suit + top)) & 1:
        for other in range(4):
            held = (hands[other] >> (13 * suit)) & SUIT_BITS
            if (team >> other) & 1 != mine and second >= 0 and (held >> second) & 1 and COUNT[held] >= 2:
                if other == ((seat + 1) & 3):
                    return LEAD_PLAIN, -NEXT_GUARDS_SECOND
                return LEAD_TOP_EXPOSED, 0
        return LEAD_PLAIN, 0
    kind = LEAD_PLAIN
    if third >= 0 and (side >> second) & (side >> third) & 1:
        kind = LEAD_ESTABLISH
    last = (seat + 3) & 3
    last_cards = (hands[last] >> (13 * suit)) & SUIT_BITS
    if (team >> last) & 1 != mine and COUNT[last_cards] >= 2 and (
            (last_cards >> top) & 1 or (second >= 0 and (last_cards >> second) & 1)):
        return kind, -INTO_TENACE
    nxt = (seat + 1) & 3
    partner = (seat + 2) & 3
    partner_cards = (hands[partner] >> (13 * suit)) & SUIT_BITS
    if ((team >> nxt) & 1 != mine and (hands[nxt] >> (13 * suit + top)) & 1 and (team >> partner) & 1 == mine
            and second >= 0 and (partner_cards >> second) & 1 and COUNT[partner_cards] >= 2):
        return kind, THROUGH_BONUS
    return kind, 0


@njit(cache=True, inline="always")
def _lead_score(card, suits, present):
    """Weight of a lead when both sides want tricks (``suits`` from :func:`_lead_suits`).

    Winners first (a top card that would promote an opponent's guarded second best only with the
    plain leads), then leads to a partner's winner, to a partner's ruff, to set up the side's
    second and third best; a lead into an opponent's ruff comes last.
    """
    suit = card // 13
    rank = card % 13
    info = (suits >> (16 * suit)) & 0xFFFF
    kind = info & 7
    is_top = HIGHEST[(present >> (13 * suit)) & SUIT_BITS] == rank
    if kind == LEAD_RUFFED:
        score = 5 if is_top else -rank
    elif is_top:
        score = EXPOSED_TOP_SCORE + rank if kind == LEAD_TOP_EXPOSED else TOP_SCORE + rank
    elif kind == LEAD_FRIEND_RUFFS:
        score = FRIEND_RUFFS_SCORE - rank
    elif kind == LEAD_ESTABLISH:
        score = ESTABLISH_SCORE - rank
    elif kind == LEAD_FRIEND_TOPS:
        score = FRIEND_TOPS_SCORE - rank
    else:
        score = 20 - rank
    return score - (info >> 3) + PENALTY_OFFSET


@njit(cache=True, inline="always")
def _duck_all_score(card, seat, pos, hands, present, win_seat, win_card, led_suit, trump, team):
    """Move-ordering weight when the team must lose every trick left (Misery's window).

    The other side forces a trick on the team: it leads a card below all the team's cards of its
    suit, keeps the trick's top card low while a team member is still to play, and sheds its high
    cards once the team has played.  The team ducks with its highest card that does not win and,
    when it must win, wins high.
    """
    suit = card // 13
    rank = card % 13
    ours = (team >> seat) & 1
    if pos == 0:
        if not ours:
            team_cards = np.int64(0)
            for other in range(4):
                if (team >> other) & 1:
                    team_cards |= hands[other]
            held = (team_cards >> (13 * suit)) & SUIT_BITS
            if held and rank < popcount((held & -held) - 1):
                return 60 + rank
        if HIGHEST[(present >> (13 * suit)) & SUIT_BITS] == rank:
            return -20 - rank
        return 30 - rank
    beats = _beats(card, win_card, win_seat, led_suit, trump)
    if ours:
        return rank if beats else 40 + rank
    team_to_play = False
    for step in range(1, 4 - pos):
        team_to_play = team_to_play or (team >> ((seat + step) & 3)) & 1 == 1
    if team_to_play:
        if beats:
            return -rank
        return 40 - rank if suit == led_suit else 20 + rank
    if win_seat >= 0 and (team >> win_seat) & 1:
        return -rank if beats else 40 + rank
    return rank


@njit(cache=True)
def _order_score(card, seat, pos, hands, present, win_seat, win_card, led_suit, trump, team, mode, friend_holds,
                 duck_all):
    """Move-ordering weight (higher is tried first); affects speed only, never results.

    ``friend_holds``: a partner of ``seat`` wins the trick so far and no later opponent can beat it.
    ``duck_all``: the team (minimising) must lose every trick left (see :func:`_duck_all_score`).
    """
    if card >= BLIND:
        return 0
    if duck_all:
        return _duck_all_score(card, seat, pos, hands, present, win_seat, win_card, led_suit, trump, team)
    suit = card // 13
    rank = card % 13
    want_win = mode == MODE_MAX
    out_suit = (present >> (13 * suit)) & SUIT_BITS
    if pos == 0:
        # Leads to keep the team's count low or exact (trick-maximising leads use _lead_score):
        # low cards first, winners last.
        is_top = HIGHEST[out_suit] == rank
        if is_top:
            return -20 - rank
        return 30 - rank
    beats = _beats(card, win_card, win_seat, led_suit, trump)
    if want_win:
        if friend_holds:
            if beats:
                return -rank
            return 60 - rank
        if beats:
            if _holds(card, seat, pos, hands, led_suit, trump, team):
                return 80 - rank
            if pos == 1:
                # Second hand takes the lead cheaply rather than ducking.
                return 50 - rank
            # Third hand: the cheapest card that forces out the last hand's top card.
            fourth = (hands[(seat + 1) & 3] >> (13 * led_suit)) & SUIT_BITS
            if suit == led_suit and COUNT[fourth] >= 2:
                second = HIGHEST[fourth ^ (1 << HIGHEST[fourth])]
                return 50 - rank if rank > second else 20 - rank
            return 40 + rank
        if suit != led_suit:
            # A discard: from a long suit, low; a trump that does not win is wasted.
            if suit == trump:
                return -20 - rank
            return 25 - rank + 3 * COUNT[(hands[seat] >> (13 * suit)) & SUIT_BITS]
        return 30 - rank
    if beats:
        return -rank
    return 40 + rank


@njit(cache=True, inline="always")
def _salt_term(salt, card, seat, present):
    """The salted ordering's extra weight of ``card`` played by ``seat`` in the trick starting from ``present``.

    A cheap hash of the three and the salt, in ``0 .. SALT_SPREAD - 1``: each salt orders the near-equal
    candidates of a node differently, and the same node the same way every time (runs are reproducible).
    """
    x = (present ^ (np.int64(card * 4 + seat + 1) << 52)) * np.int64(SALT_MIX) + salt
    x ^= x >> 29
    x *= np.int64(SALT_MIX)
    return (x >> 40) & (SALT_SPREAD - 1)


@njit(cache=True, inline="always")
def _smear_down(cards, through):
    """``cards`` extended downwards, rank by rank, over the positions in ``through``.

    Doubling steps: after the step of shift ``k``, every card has spread over the next ``2k - 1``
    positions below it that all lie in ``through``; four steps cover the longest run (12) in a suit.
    """
    cards |= (cards >> 1) & through
    through &= through >> 1
    cards |= (cards >> 2) & through
    through &= through >> 2
    cards |= (cards >> 4) & through
    through &= through >> 4
    return cards | ((cards >> 8) & through)


@njit(cache=True, inline="always")
def _gaps(present):
    """Positions of cards no longer out; aces excluded so nothing smears across a suit boundary."""
    return ~present & np.int64(ALL_CARDS) & ~np.int64(ACES)


@njit(cache=True, inline="always")
def _touching(held, present):
    """Cards of ``held`` whose next higher card still out (``present``) is also in ``held``.

    Such a card and the one above it are equivalent in every position (no card still out lies
    between them), so only the top card of each run needs trying.
    """
    return held & (_smear_down(held, _gaps(present)) >> 1) & ~np.int64(ACES)


@njit(cache=True, inline="always")
def _run_spread(cards, pruned, present):
    """``cards`` plus the ``pruned`` cards in runs below them (each run's cards only gaps apart)."""
    return cards | (_smear_down(cards, pruned | _gaps(present)) & pruned)


@njit(cache=True, inline="always")
def _cutoff_slot(mem, hands, seat, pos, led_suit, present, win_seat, win_card, trump):
    """The cut-off cache's key of a node (bridge-solver's cut-off cache): a hash above bit 32, the
    table generation in bits 8-31 and a free low byte.

    A card that refuted one position is likely to refute a similar one, so it is remembered by what
    its choice mostly depends on: for a lead, the leader's hand; for a card following suit, the led
    suit's cards at the trick's start and the card winning so far; for a discard or a ruff, the hand
    and what it would have to beat (at no trump only the winning seat).  Always with the seat, the
    place in the trick and the table generation (one trump, team and kind of question).  Only the
    order of moves depends on it, never an answer.  The slot comes from the hash alone, never from
    the generation, so which of a generation's entries displace each other does not depend on the
    solves before it: a count searched within a budget stays the same whatever was solved earlier.
    """
    hand = hands[seat]
    cards = hand
    beat = np.int64(0)
    if pos > 0:
        if (hand >> (13 * led_suit)) & SUIT_BITS:
            cards = present & (np.int64(SUIT_BITS) << (13 * led_suit))
            beat = (win_card + 1) | 128
        else:
            beat = (win_seat if trump == NO_TRUMP else win_card) + 1
    tag = _hash(cards | (np.int64(seat * 4 + pos) << 52), beat) & CUTOFF_TAG_BITS
    return tag | ((mem[M_CTX + C_GEN] & CUTOFF_GEN_BITS) << 8)


@njit(cache=True, inline="always")
def _prefetch_cutoff(address, key):
    """Start loading the cut-off cache's word of ``key`` (the work array at ``address``)."""
    _prefetch(address + 8 * (M_CUTOFFS + ((key >> 32) & (CUTOFF_SLOTS - 1))))


@njit(cache=True, inline="always")
def _cutoff_card(mem, key):
    """The card remembered under ``key`` (see :func:`_cutoff_slot`), or -1."""
    word = mem[M_CUTOFFS + ((key >> 32) & (CUTOFF_SLOTS - 1))]
    if (word ^ key) & ~np.int64(255) != 0:
        return np.int64(-1)
    return (word & 255) - 1


@njit(cache=True, inline="always")
def _remember_cutoff(mem, key, card):
    """Remember ``card`` as the one that cut off under ``key``, in place of what the slot held."""
    mem[M_CUTOFFS + ((key >> 32) & (CUTOFF_SLOTS - 1))] = key | (card + 1)


@njit(cache=True, inline="always")
def _candidates(hands, seat, pos, led_suit, present, called):
    """The candidate cards (top cards of runs, see :func:`_touching`) and the legal cards left out."""
    hand = hands[seat]
    called_bit = np.int64(0)
    if called >= 0 and (hand >> called) & 1:
        called_bit = np.int64(1) << called
    legal = _legal(hand, pos, led_suit, called)
    pruned = legal & _touching(hand & ~called_bit, present)
    return legal & ~pruned, pruned


@njit(cache=True, inline="always")
def _gen_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth, trump, team, mode, called,
               bidder, duck_all, cutoff_key, lazy):
    """Fill the move buffer of ``depth`` with the candidate plays as keys (see :func:`_move_key`).

    ``present``: the cards still in hands plus those of the trick in progress; ``hint``: the table's
    best move; ``cutoff_key``: the node's :func:`_cutoff_slot`.  With ``lazy`` set and the cut-off
    card among the candidates, only that card is written (it comes first of all anyway, and most
    such nodes cut off on it): :func:`_more_moves` adds the others, in the order they would have
    had, if it fails.  Returns how many, the legal cards left out because the next higher card of
    the same hand was tried instead (see :func:`_touching`), the node's cut-off key
    (``NO_CUTOFF_KEY`` for a single candidate, which needs no ordering) and whether the others
    were left for :func:`_more_moves`.
    """
    reps, pruned = _candidates(hands, seat, pos, led_suit, present, called)
    base = depth * MAX_MOVES
    blind_lead = pos == 0 and _blind_allowed(hands, seat, called, bidder)
    if reps & (reps - 1) == 0 and not blind_lead:
        # A single candidate needs no ordering weight.
        mem[M_MOVES + base] = _move_key(0, popcount(reps - 1))
        return 1, pruned, NO_CUTOFF_KEY, False
    cutoff = _cutoff_card(mem, cutoff_key)
    if lazy and cutoff >= 0 and (reps >> cutoff) & 1:
        mem[M_MOVES + base] = _move_key(0, cutoff)
        return 1, pruned, cutoff_key, True
    n = _scored_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, base, trump, team, mode,
                      duck_all, reps, cutoff, blind_lead, 0)
    return n, pruned, cutoff_key, False


# Compiled on its own, not inlined into search (one call per node whose first move fails): inlining it, a
# second copy of the move scoring, cost compile seconds, not speed (docs/performance.md, "Compile cost (session 8)").
@njit(cache=True)
def _more_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth, trump, team, mode, called,
                bidder, duck_all, first):
    """The candidates :func:`_gen_moves` left out after the cut-off card ``first`` (read before the search
    under it, which may replace the cache's word), from slot 1; returns the total."""
    reps, _ = _candidates(hands, seat, pos, led_suit, present, called)
    blind_lead = pos == 0 and _blind_allowed(hands, seat, called, bidder)
    return _scored_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth * MAX_MOVES, trump,
                         team, mode, duck_all, reps & ~(np.int64(1) << first), first, blind_lead, 1)


@njit(cache=True, inline="always")
def _scored_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, base, trump, team, mode, duck_all,
                  reps, cutoff, blind_lead, n):
    """Write the keys of ``reps`` (then of the blind leads) from slot ``n`` of the buffer at ``base``; returns the end."""
    hand = hands[seat]
    max_lead = pos == 0 and mode == MODE_MAX
    suits = _lead_suits(seat, hands, present, trump, team) if max_lead else np.int64(0)
    friend_holds = (pos > 0 and mode == MODE_MAX and win_seat >= 0 and (team >> win_seat) & 1 == (team >> seat) & 1
                    and _holds(win_card, seat, pos, hands, led_suit, trump, team))
    salt = mem[M_CTX + C_SALT]
    while reps:
        low = reps & -reps
        reps ^= low
        card = popcount(low - 1)
        if max_lead:
            score = _lead_score(card, suits, present)
        else:
            score = _order_score(card, seat, pos, hands, present, win_seat, win_card, led_suit, trump, team, mode,
                                 friend_holds, duck_all)
        if salt:
            score += _salt_term(salt, card, seat, present)
        if card == cutoff:
            score += CUTOFF_BONUS
        if card == hint:
            score += HINT_BONUS
        mem[M_MOVES + base + n] = _move_key(score, card)
        n += 1
    if blind_lead:
        # Face-down leads are rare: try every card rather than reason about equivalence.
        blind_reps = hand
        while blind_reps:
            low = blind_reps & -blind_reps
            blind_reps ^= low
            mem[M_MOVES + base + n] = _move_key(0, popcount(low - 1) + BLIND)
            n += 1
    return n


@njit(cache=True, inline="always")
def _move_key(score, move):
    """A candidate play and its ordering weight in one word: larger keys first, ties lowest move first."""
    return ((score + SCORE_OFFSET) << 8) | (255 - move)


@njit(cache=True, inline="always")
def _next_move(mem, base, i, n):
    """Bring the largest key of slots ``i..n-1`` to slot ``i``, replace it by its move, and return that.

    Picking one move at a time is cheaper than sorting: most nodes cut off on their first move.
    """
    best = i
    for j in range(i + 1, n):
        if mem[base + j] > mem[base + best]:
            best = j
    key = mem[base + best]
    mem[base + best] = mem[base + i]
    move = 255 - (key & 255)
    mem[base + i] = move
    return move
