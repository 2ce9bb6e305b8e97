"""Numba kernels of the exact double-dummy search.

The search answers one yes/no question: can the team force its final trick count into the window
``[lo, hi]``?  Nodes are single card plays; at each trick boundary the node consults cut-offs
(window already decided, the last trick scored directly, sure top trumps, a lone declarer's
winners once no defender can ruff them, a lone no-trump declarer who may take no more tricks and
surely ducks them all or surely takes the next, the side on lead needing every trick left while the
other side can take the one it leads or keeps a top card or a guarded trump for a later one), then a
transposition table, then quick tricks; within a trick, second, third and fourth hand stop as soon
as their side surely takes the trick in progress and that (for second hand with the top cards the
trick's winner then cashes, in no trump) settles the window.
Table entries follow partition search: a node's answer comes back with the
cards whose ranks decided it (winners by rank, counted quick tricks, the called card), and the
entry fixes only the owners of the cards still out at or above the lowest of those per suit,
compared by rank among the cards still out; every hand's suit lengths and the leader pick the
bucket.  So one entry answers for every position that differs only in small cards or in cards
already played.  Entries store bounds on the team's future tricks for the scalar games
(``MODE_MAX``: team maximises, ``MODE_MIN``: team minimises) and a win/loss bit for windows with
two finite ends (``MODE_EXACT``), keyed with the count still needed.

State lives in one work array ``mem`` (see the ``M_*`` slots): the hands (changed and restored in
place), the current trick in play order (a blind lead is ``card + BLIND``), the solve's constant
facts (``C_*`` slots), the move buffers and the table.  The recursion passes the trick's leader and
position, the current winner (seat, card; -1 before any card can win), ``won`` (team tricks so
far) and the window.
"""

import os
import tempfile

import numba
import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.cards.tricks import beats as _beats  # the one trick rule; a local ``beats`` is a flag below
from analyzer.raw_memory import int64_view
from analyzer.solvers.dd.tables import (
    BLIND, COMPRESS_HIGH, COMPRESS_LOW, COUNT, HIGHEST, MODE_EXACT, MODE_MAX, MODE_MIN, SELECT, SPREAD, SUIT_BITS,
    SURE_AT, SURE_BEST, UNBOUNDED,
)

# Slots of the one work array ``mem``: the hands, the trick in progress, the solve's context,
# the move buffers per depth, then the transposition table.  A single array keeps the recursion
# cheap: numba reference-counts every array argument on every call.
M_HANDS = 0  # four seat masks, changed and restored in place
M_TRICK = 4  # the current trick's cards in play order (a blind lead is ``card + BLIND``)
M_CTX = 8
C_TRUMP = 0
C_TEAM = 1
C_MODE = 2
C_CALLED = 3  # called card id, -1 for none
C_BIDDER = 4  # seat allowed a blind lead, -1 for none
C_GEN = 5  # transposition-table generation: entries of older generations are empty
C_NODES = 6  # node counter: spreads table replacements over a bucket
C_TRICKS = 11  # completed tricks searched: fourth-hand card plays (statistics; DDS reports this count as its nodes)
C_TT_MASK = 7  # table buckets - 1
C_MOVES = 8  # number of root moves written by a collecting search
C_TAGS = 9  # where the entries' tags start
C_ENTRIES = 10  # where the entries start
C_LIMIT = 12  # the C_TRICKS count at which the search gives up (0: none); see ``solve_bounded``
C_ABORTED = 13  # 1 once the limit was reached: every node returns at once and stores nothing
CTX_SIZE = 16

MAX_DEPTH = 56
MAX_MOVES = 32
M_OUT = M_CTX + CTX_SIZE  # per root move: its answer (collecting search)
M_MOVES = M_OUT + MAX_MOVES
M_KILLERS = M_MOVES + MAX_DEPTH * MAX_MOVES  # per depth: the lead that last cut off there, -1 for none
# The table: one fill word per bucket (generation << 16 | entries used), one tag (the key's hash)
# per entry, then the entries, ``ENTRY`` words each.  An entry matches a position whose codes,
# masked to the entry's relevant cards, equal the entry's words.
M_STATS = M_KILLERS + MAX_DEPTH
# Cut-off statistics (scripts/dd_cutoff_stats.py): a build switch read once at import, compiled into
# the kernels, so the plain build carries no counting code.  A counting build keeps numba's on-disk
# cache apart: the switch and the layout below are compiled in, and must never reach plain runs.
STATS = os.environ.get("ANALYZER_DD_STATS") == "1"
if STATS:
    numba.config.CACHE_DIR = tempfile.mkdtemp(prefix="dd-stats-numba-")
# Per kind, one counter per depth (cards played from the root): how nodes ended, then the move loops.
S_DECIDED = 0  # window already decided at a trick's start
S_LAST = 1  # the last trick scored without search
S_SURE_TRUMPS = 2
S_LONE_WINNERS = 3
S_LONE_DUCKS = 4
S_LATER = 5  # the side on lead needs every trick and loses one (later tricks)
S_TABLE = 6  # transposition-table hit
S_QUICK = 7  # quick tricks of the side on lead
S_SECOND = 8  # second hand's sure tricks
S_SURE_TRICK = 9  # third or fourth hand's side surely takes the trick
S_NODES = 10  # nodes entered
S_TRIED = 11  # moves searched
S_CUT_AT = 12  # move loops cut off at the first move; + 1 the second ... S_CUT_AT + 6: the seventh or later
S_NO_CUT = 19  # move loops where no move cut off
S_PROBES = 20  # table lookups
STATS_KINDS = 21
M_TT = M_STATS + (STATS_KINDS * MAX_DEPTH if STATS else 0)
ENTRY = 8
E_PATTERN = 0
E_EXTRA = 1
E_WORD0 = 2
E_WORD1 = 3
E_MASK0 = 4
E_MASK1 = 5
E_INFO = 6  # bounds (16 bits) | best move + 1 (8 bits) << 16 | relevance tops (16 bits) << 24
BOUNDS_BITS = 0xFFFF  # lower bound + 256 * upper bound on the team's future tricks (win bit in MODE_EXACT)
FILL_BITS = 0xFFFF

ACES = sum(1 << (13 * suit + 12) for suit in range(4))
ALL_CARDS = (1 << 52) - 1
SCORE_OFFSET = 1 << 16  # keeps ordering weights positive inside move keys
HINT_BONUS = 1000  # the move that last cut off in a matching table entry is tried first
# Then the lead that last cut off at the same depth: first of all at no trump; with a trump only a
# hint, so a clearly better lead still goes first (completed tricks of 240 solves, partners: -3.7%
# with a trump, +1.9% had no trump done the same), a weaker one for a lone declarer's side
# (the bids questions of 8 deals of two seeds: 1 v 3 -35% and -17% at 20 against 50).
KILLER_BONUS_NO_TRUMP = 500
KILLER_BONUS_PAIRS = 50
KILLER_BONUS_LONE = 20
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
BUCKET = 32  # table entries per bucket (a power of two)
MAX_CHAIN = 16  # buckets one key may spill over
RESULT_SHIFT = 62
RELEVANT_BITS = (1 << 52) - 1
TAG_HASH_BITS = -(1 << 32)


def new_mem(bits):
    """Allocate the work array with a transposition table of ``2**bits`` entries."""
    entries = 1 << bits
    return np.zeros(M_TT + entries // BUCKET + entries * (1 + ENTRY), dtype=np.int64)


@njit(cache=True)
def set_context(mem, trump, team, mode, called, bidder, generation):
    """Start a solve: its constant facts, a fresh table generation, zeroed statistics."""
    ctx = mem[M_CTX:M_CTX + CTX_SIZE]
    ctx[:] = 0
    ctx[C_TRUMP] = trump
    ctx[C_TEAM] = team
    ctx[C_MODE] = mode
    ctx[C_CALLED] = called
    ctx[C_BIDDER] = bidder
    ctx[C_GEN] = generation
    mem[M_KILLERS:M_KILLERS + MAX_DEPTH] = -1
    entries = (mem.shape[0] - M_TT) * BUCKET // (1 + BUCKET * (1 + ENTRY))
    ctx[C_TT_MASK] = entries // BUCKET - 1
    ctx[C_TAGS] = M_TT + entries // BUCKET
    ctx[C_ENTRIES] = ctx[C_TAGS] + entries


@njit(cache=True)
def set_position(mem, hands, trick):
    """Copy the hands and the trick in progress into the work array."""
    for i in range(4):
        mem[M_HANDS + i] = hands[i]
        mem[M_TRICK + i] = trick[i]


@njit(cache=True)
def _blind_allowed(hands, seat, called, bidder):
    """A blind lead needs the bidder on lead, void in the called suit, with the called card still out."""
    if seat != bidder or called < 0:
        return False
    out = hands[0] | hands[1] | hands[2] | hands[3]
    if not (out >> called) & 1:
        return False
    return (hands[seat] >> (13 * (called // 13))) & SUIT_BITS == 0


@njit(cache=True)
def _legal(hand, pos, led, called):
    """Mask of the cards in ``hand`` that may be played face up at this point of the trick (``led``: the led suit)."""
    called_bit = 0
    if called >= 0 and (hand >> called) & 1:
        called_bit = np.int64(1) << called
    if pos == 0:
        if called_bit:
            # Leading the called suit means leading the called card.
            return hand & ~((np.int64(SUIT_BITS) << (13 * (called // 13))) & ~called_bit)
        return hand
    if called_bit and led == called // 13:
        return called_bit
    follow = hand & (np.int64(SUIT_BITS) << (13 * led))
    if follow:
        return follow
    return hand


@njit(cache=True)
def _holds(card, seat, pos, hands, led_suit, trump, team):
    """Whether a card now winning the trick stays the winner: no later opponent of ``seat`` can beat it."""
    mine = (team >> seat) & 1
    suit = card // 13
    rank = card % 13
    for step in range(1, 4 - pos):
        other = (seat + step) & 3
        if (team >> other) & 1 == mine:
            continue
        follow = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        trumps = (hands[other] >> (13 * trump)) & SUIT_BITS if trump != NO_TRUMP else 0
        if follow:
            if suit == led_suit and HIGHEST[follow] > rank:
                return False
        elif trumps and (suit != trump or HIGHEST[trumps] > rank):
            return False
    return True


@njit(cache=True, inline="always")
def _called_under_own(hands, called):
    """Whether the called card's holder also holds a higher card of its suit.

    Quick tricks and second hand's sure trick assume a hand plays its highest card of a suit;
    the holder of the called card must play (and lead) the called card in its suit instead, which
    only differs when it is not the holder's highest there (never for a called ace, nor for a king
    called while the bidder holds the ace).
    """
    if called < 0:
        return False
    above = (np.int64(SUIT_BITS) << (13 * (called // 13))) & ~((np.int64(2) << called) - 1)
    for seat in range(4):
        if (hands[seat] >> called) & 1:
            return hands[seat] & above != 0
    return False


@njit(cache=True)
def _sure_trick(hands, seat, pos, led_suit, win_seat, win_card, trump, team):
    """A card that wins the trick in progress for ``seat``'s side whatever anyone plays and its holder, or (-1, -1).

    Either the side's current winner holds, or ``seat`` can play a card that takes the lead and
    holds, or a later partner follows with a card above every card the opponents still to play
    hold in the led suit while none of them can ruff.  The cards of its suit at or above it decide.
    """
    mine = (team >> seat) & 1
    if win_seat >= 0 and (team >> win_seat) & 1 == mine and _holds(win_card, seat, pos, hands, led_suit, trump, team):
        return win_card, win_seat
    hand = hands[seat]
    follow = (hand >> (13 * led_suit)) & SUIT_BITS
    if follow:
        card = 13 * led_suit + HIGHEST[follow]
    elif trump != NO_TRUMP and (hand >> (13 * trump)) & SUIT_BITS:
        card = 13 * trump + HIGHEST[(hand >> (13 * trump)) & SUIT_BITS]
    else:
        card = -1
    if card >= 0 and _beats(card, win_card, win_seat, led_suit, trump) and _holds(card, seat, pos, hands, led_suit,
                                                                                  trump, team):
        return card, seat
    if win_seat >= 0 and win_card // 13 != led_suit:
        return -1, -1
    opp_top = win_card % 13 if win_seat >= 0 and (team >> win_seat) & 1 != mine else -1
    friend_top = -1
    holder = -1
    for step in range(4 - pos):
        other = (seat + step) & 3
        held = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        if (team >> other) & 1 == mine:
            if step > 0 and HIGHEST[held] > friend_top:
                friend_top = HIGHEST[held]
                holder = other
        elif held:
            opp_top = max(opp_top, HIGHEST[held])
        elif trump != NO_TRUMP and led_suit != trump and (hands[other] >> (13 * trump)) & SUIT_BITS:
            return -1, -1
    if friend_top > opp_top and (win_seat < 0 or friend_top > win_card % 13 or (team >> win_seat) & 1 == mine):
        return 13 * led_suit + friend_top, holder
    return -1, -1


@njit(cache=True, inline="always")
def _at_or_above(card, present):
    """The cards still out (``present``) of ``card``'s suit ranking at or above it."""
    suit = card // 13
    return np.int64((present >> (13 * suit)) & SUIT_BITS & ~((1 << (card % 13)) - 1)) << (13 * suit)


@njit(cache=True)
def _sure_trick_cards(hands, seat, pos, led_suit, win_seat, win_card, present, trump, team):
    """:func:`_sure_trick`'s card for third or fourth hand (-1 for none) and the cards that decide it.

    The later opponents' cards of its suit that could beat it rank above it, and who can ruff is in
    the suit lengths: so only the cards still out at or above it decide (``present`` includes the
    trick's cards).
    """
    sure, _ = _sure_trick(hands, seat, pos, led_suit, win_seat, win_card, trump, team)
    if sure < 0:
        return np.int64(-1), np.int64(0)
    return sure, _at_or_above(sure, present)


@njit(cache=True, inline="always")
def _leads_next(hands, seat, holder, led_suit, sure, team):
    """Whether ``holder``, winning the trick with ``sure``, also leads next: no partner of ``seat`` who
    plays after it holds only higher cards of the led suit (those must overtake)."""
    leader = (seat + 3) & 3
    for later in range(((holder - leader) & 3) + 1, 4):
        other = (leader + later) & 3
        follow = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        if (team >> other) & 1 == (team >> seat) & 1 and follow and popcount((follow & -follow) - 1) > sure % 13:
            return False
    return True


@njit(cache=True)
def _second_hand_tricks(hands, seat, led_suit, win_seat, win_card, present, trump, team, need):
    """Tricks second hand's side is sure of from this trick on, counted until ``need``, and the cards that decide it.

    The trick in progress if some card of the side surely wins it (:func:`_sure_trick`); in no trump,
    also one more per other suit whose top card the winner of the trick holds, every card of another
    suit only it holds, and one more when it holds the top two of the led suit, since it leads next
    and cashes them (the same count DDS makes in second hand), unless a partner playing after it must
    overtake.
    """
    sure, holder = _sure_trick(hands, seat, 1, led_suit, win_seat, win_card, trump, team)
    if sure < 0:
        return 0, np.int64(0)
    relevant = _at_or_above(sure, present)
    tricks = 1
    if trump != NO_TRUMP or not _leads_next(hands, seat, holder, led_suit, sure, team):
        return tricks, relevant
    for other in range(4):
        out = (present >> (13 * other)) & SUIT_BITS
        held = (hands[holder] >> (13 * other)) & SUIT_BITS
        if tricks >= need or out == 0:
            continue
        if other == led_suit:
            # Holding the top two cards of the led suit, the winner keeps the other for the next trick.
            second = HIGHEST[out ^ (1 << HIGHEST[out])]
            holds_top = ((held | (1 << (sure % 13))) >> HIGHEST[out]) & 1
            if second >= 0 and second != sure % 13 and holds_top and (held >> second) & 1:
                tricks += 1
                relevant |= np.int64(out >> second << second) << (13 * other)
        elif held == out:
            # Nobody else holds the suit: every card of it wins (the suit lengths say so).
            tricks += COUNT[held]
        elif (held >> HIGHEST[out]) & 1:
            tricks += 1
            relevant |= np.int64(1) << (13 * other + HIGHEST[out])
    return tricks, relevant


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
def _gen_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth, trump, team, mode, called,
               bidder, duck_all):
    """Fill the move buffer of ``depth`` with the candidate plays as keys (see :func:`_move_key`).

    ``present``: the cards still in hands plus those of the trick in progress.  Returns how many,
    and the legal cards left out because the next higher card of the same hand was tried instead
    (see :func:`_touching`).
    """
    hand = hands[seat]
    called_bit = np.int64(0)
    if called >= 0 and (hand >> called) & 1:
        called_bit = np.int64(1) << called
    legal = _legal(hand, pos, led_suit, called)
    pruned = legal & _touching(hand & ~called_bit, present)
    reps = legal & ~pruned
    base = depth * MAX_MOVES
    n = 0
    blind_lead = pos == 0 and _blind_allowed(hands, seat, called, bidder)
    if reps & (reps - 1) == 0 and not blind_lead:
        # A single candidate needs no ordering weight.
        mem[M_MOVES + base] = _move_key(0, popcount(reps - 1))
        return 1, pruned
    max_lead = pos == 0 and mode == MODE_MAX
    suits = _lead_suits(seat, hands, present, trump, team) if max_lead else np.int64(0)
    friend_holds = (pos > 0 and mode == MODE_MAX and win_seat >= 0 and (team >> win_seat) & 1 == (team >> seat) & 1
                    and _holds(win_card, seat, pos, hands, led_suit, trump, team))
    while reps:
        low = reps & -reps
        reps ^= low
        card = popcount(low - 1)
        if max_lead:
            score = _lead_score(card, suits, present)
        else:
            score = _order_score(card, seat, pos, hands, present, win_seat, win_card, led_suit, trump, team, mode,
                                 friend_holds, duck_all)
        if card == hint:
            score += HINT_BONUS
        if pos == 0 and card == mem[M_KILLERS + depth]:
            if trump == NO_TRUMP:
                score += KILLER_BONUS_NO_TRUMP
            else:
                score += KILLER_BONUS_PAIRS if popcount(team) == 2 else KILLER_BONUS_LONE
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
    return n, pruned


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


@njit(cache=True, inline="always")
def _top_run(held, out, suit):
    """Length of the run of ``held`` from the top of ``out`` down (13-bit ranks of ``suit``), and that
    run's cards as a card mask."""
    run = 0
    used = np.int64(0)
    while held & out:
        top = HIGHEST[out]
        if not (held >> top) & 1:
            break
        run += 1
        out ^= 1 << top
        used |= np.int64(1) << (13 * suit + top)
    return run, used


@njit(cache=True)
def _cash(hand, friends, suit, present, opp_len, one_partner):
    """Tricks a hand takes by cashing ``suit`` from the top: (tricks, the cards that make it so, top run).

    Its top run of cards still out wins one trick each.  When the run outlasts every opponent's
    length in the suit, the rest of the suit wins too (nobody else can follow any more), unless a
    partner (``friends``) would have to overtake and could strand the rest.  With a single partner
    (``one_partner``) that partner plays its lowest card of the suit each round under the hand's
    highest: the rest counts when its ``i``-th lowest card ranks below the hand's ``i``-th highest
    in every round both still follow, and the count depends on the cards still out down to the
    hand's last card compared or its lowest card of the rounds the opponents still follow,
    whichever is lower.  With more partners, none may hold a card above the hand's lowest,
    and the count depends on the cards still out down to that lowest.
    """
    held = (hand >> (13 * suit)) & SUIT_BITS
    run, used = _top_run(held, (present >> (13 * suit)) & SUIT_BITS, suit)
    if run == 0 or run < opp_len or COUNT[held] == run:
        return run, used, run
    friend_cards = (friends >> (13 * suit)) & SUIT_BITS
    if friend_cards == 0:
        # Partners void here: the suit lengths (part of the table key) settle it.
        return COUNT[held], used, run
    lowest = popcount((held & -held) - 1)
    if one_partner:
        # The partner plays its lowest card each round; it must stay below the hand's card then.
        # Which cards lie below the last card compared no longer matters.
        mine = held
        theirs = friend_cards
        for _ in range(min(COUNT[held], COUNT[friend_cards])):
            lowest = HIGHEST[mine]
            if popcount((theirs & -theirs) - 1) > lowest:
                return run, used, run
            mine ^= 1 << lowest
            theirs &= theirs - 1
        # The rounds the opponents still follow need the hand's top cards there to stay the top ones.
        tops = held
        for _ in range(opp_len - 1):
            tops ^= 1 << HIGHEST[tops]
        if opp_len > 0:
            lowest = min(lowest, HIGHEST[tops])
    elif HIGHEST[friend_cards] > lowest:
        return run, used, run
    below_lowest = (np.int64(1) << lowest) - 1
    all_out = (present >> (13 * suit)) & SUIT_BITS
    return COUNT[held], np.int64(all_out & ~below_lowest) << (13 * suit), run


@njit(cache=True, inline="always")
def _quick_ceiling(hands, leader, present, team):
    """A cheap upper bound on :func:`_quick_tricks`: each suit whose top card the leader's side holds
    counts at most the longest holding of the side in it (one hand cashes a suit), others none."""
    mine = (team >> leader) & 1
    ceiling = 0
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        if out == 0:
            continue
        top = np.int64(1) << (13 * suit + HIGHEST[out])
        longest = 0
        tops = False
        for seat in range(4):
            if (team >> seat) & 1 == mine:
                longest = max(longest, COUNT[(hands[seat] >> (13 * suit)) & SUIT_BITS])
                tops = tops or hands[seat] & top != 0
        if tops:
            ceiling += longest
    return ceiling


@njit(cache=True)
def _quick_tricks(hands, leader, trump, team, called):
    """Tricks the leader's side can cash at once, and the top cards that make it so.

    Counts the leader's own top cards per suit (all of a suit once opponents run out), or, when
    the leader can reach a partner through a suit whose top card that partner holds, the
    partner's cashable cards instead if that is more.  While opponents hold trumps, a side suit
    counts only for as many rounds as every opponent with trumps can follow (so none can ruff;
    the hands' suit lengths are part of the table key, so only the top cards are relevant).

    Unless the leader can draw them first: when its top run of the trumps still out is at least as
    long as every opponent's trumps, it leads that run.  Each of those cards is the top trump then
    and wins, every opponent with trumps must follow with one, so after as many rounds as the
    longest opponent holding none of them has a trump left, and the leader, still on lead, cashes
    its side suits as at no trump.  Its trump cash counts those rounds and more (the run is at
    least as long), and its side suits count in full.  The others' discards meanwhile only shorten
    the opponents' suits (which helps the count) and let a partner void in trumps shed its highest
    card of some suit, which keeps every rule of :func:`_cash` that the partner's cards pass.  The
    top run of trumps is among the cards the trump cash returns, so it stays relevant.

    With one partner and no opponent able to ruff, the leader also counts the suits whose top two
    cards it shares with the partner (:func:`_split_tops`).
    """
    mine = (team >> leader) & 1
    present = hands[0] | hands[1] | hands[2] | hands[3]
    opp_lens = np.int64(0)
    # Per suit, rounds before an opponent holding trumps can ruff (4 bits each; 13 = never).
    safe = np.int64(0)
    for suit in range(4):
        safe |= np.int64(13) << (4 * suit)
    opp_trumps = False
    side = np.int64(0)
    for other in range(4):
        if (team >> other) & 1 == mine:
            side |= hands[other]
        else:
            ruffs = trump != NO_TRUMP and (hands[other] >> (13 * trump)) & SUIT_BITS != 0
            opp_trumps = opp_trumps or ruffs
            for suit in range(4):
                length = COUNT[(hands[other] >> (13 * suit)) & SUIT_BITS]
                if length > (opp_lens >> (4 * suit)) & 15:
                    opp_lens = (opp_lens & ~(np.int64(15) << (4 * suit))) | (np.int64(length) << (4 * suit))
                if ruffs and suit != trump and length < (safe >> (4 * suit)) & 15:
                    safe = (safe & ~(np.int64(15) << (4 * suit))) | (np.int64(length) << (4 * suit))
    one_partner = popcount(team) == 2
    own_safe = safe
    if opp_trumps:
        trumps_out = (present >> (13 * trump)) & SUIT_BITS
        drawing, _ = _top_run((hands[leader] >> (13 * trump)) & SUIT_BITS, trumps_out, trump)
        if drawing >= (opp_lens >> (4 * trump)) & 15:
            own_safe = np.int64(0xDDDD)  # 13 rounds in every suit
    own, own_used = _cash_hand(hands[leader], side & ~hands[leader], present, opp_lens, own_safe, one_partner)
    best = own
    best_used = own_used
    if one_partner and not opp_trumps:
        side_seats = team if mine else ~team & 15
        best, split_used = _split_tops(hands, leader, _partner_of(side_seats, leader), present, opp_lens, own, called)
        best_used |= split_used
    for hand in range(4):
        if hand == leader or (team >> hand) & 1 != mine:
            continue
        # Reach this partner: the leader leads a small card of a suit the partner tops.
        entry = np.int64(0)
        for suit in range(4):
            if (safe >> (4 * suit)) & 15 == 0:
                continue
            out = (present >> (13 * suit)) & SUIT_BITS
            if out and (hands[leader] >> (13 * suit)) & SUIT_BITS and (hands[hand] >> (13 * suit + HIGHEST[out])) & 1:
                entry = np.int64(1) << (13 * suit + HIGHEST[out])
                break
        if entry == 0:
            continue
        total, used = _cash_hand(hands[hand], side & ~hands[hand], present, opp_lens, safe, one_partner)
        used |= entry
        if not opp_trumps and own and popcount(hands[hand]) - total >= own:
            total += own
            used |= own_used
        if total > best:
            best = total
            best_used = used
    return best, best_used


@njit(cache=True)
def _partner_ruffs(hands, leader, trump, team):
    """Whether the leader's side surely takes the trick the leader leads by a partner's ruff.

    So when the leader holds a side suit some partner is void in while holding a trump, and every
    opponent holds that suit (must follow, so cannot ruff) or holds no trump: the leader leads the
    suit, the partner ruffs, and no opponent can beat a trump (a second partner's overruff keeps
    the trick on the side; DDS counts the same trick).  Who is void and who holds trumps is in the
    suit lengths, so no card decides it.
    """
    mine = (team >> leader) & 1
    for suit in range(4):
        if suit == trump or (hands[leader] >> (13 * suit)) & SUIT_BITS == 0:
            continue
        ruffer = False
        safe = True
        for other in range(4):
            if other == leader:
                continue
            held = (hands[other] >> (13 * suit)) & SUIT_BITS
            trumps = (hands[other] >> (13 * trump)) & SUIT_BITS
            if (team >> other) & 1 == mine:
                ruffer = ruffer or (held == 0 and trumps != 0)
            elif held == 0 and trumps != 0:
                safe = False
        if ruffer and safe:
            return True
    return False


@njit(cache=True, inline="always")
def _partner_of(seats, seat):
    """The other seat of a side of two ``seats``."""
    return popcount((seats & ~(1 << seat)) - 1)


@njit(cache=True)
def _split_tops(hands, leader, partner, present, opp_lens, own, called):
    """The leader's cash ``own`` (no opponent can ruff) raised by the suits whose top two cards it shares
    with its one partner, and the cards that decide it; (``own``, 0) when no suit adds.

    In such a suit, with two cards or more in each hand, the side takes two tricks and the leader
    keeps the lead: holding the top card it leads low to the partner's second best (the top card is
    still in its hand, so that card wins), and the partner leads low back to the top card; with the
    partner holding the top card the leader leads low to it and the partner leads low back to the
    leader's second best.  The suit then counts two instead of its own cash.  The other suits'
    cash ends with the leader on lead too, so the tricks add up in any order.  The partner keeps
    two cards of each such suit for it: at a trick's start it holds as many cards as the leader,
    who spends two of its own on each such suit and one on each other trick, so the partner's other
    cards cover what it must play to the other tricks.  A suit holding the called card still out
    is left out (its holder must play that card to the suit).  The top two cards of each counted
    suit decide it, the suit lengths the rest.
    """
    tricks = own
    used = np.int64(0)
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        mine = (hands[leader] >> (13 * suit)) & SUIT_BITS
        theirs = (hands[partner] >> (13 * suit)) & SUIT_BITS
        if COUNT[mine] < 2 or COUNT[theirs] < 2 or (called >= 0 and called // 13 == suit and (present >> called) & 1):
            continue
        top = HIGHEST[out]
        pair = (1 << top) | (1 << HIGHEST[out ^ (1 << top)])
        if mine & pair == 0 or theirs & pair == 0:
            continue
        cash, _, _ = _cash(hands[leader], hands[partner], suit, present, (opp_lens >> (4 * suit)) & 15, True)
        if cash < 2:
            tricks += 2 - cash
            used |= np.int64(pair) << (13 * suit)
    return tricks, used


@njit(cache=True, inline="always")
def _cash_hand(hand, friends, present, opp_lens, safe, one_partner):
    """Tricks one hand can cash from the top in every suit, and the cards that decide the count."""
    total = 0
    used = np.int64(0)
    for suit in range(4):
        tricks, cards, run = _cash(hand, friends, suit, present, (opp_lens >> (4 * suit)) & 15, one_partner)
        counted = min(tricks, (safe >> (4 * suit)) & 15)
        total += counted
        if counted <= run:
            # Only the top cards of the rounds counted decide the count.
            while popcount(cards) > counted:
                cards &= cards - 1
        used |= cards
    return total, used


@njit(cache=True)
def _leader_loses_trick(hands, seat, present, trump, team):
    """The cards that let the other side take the trick ``seat`` leads whatever it leads, or -1.

    So when every suit the leader holds is topped by an opponent (who may play that card) and, for
    a side suit, no partner of the leader can ruff it (void there and holding a trump).  Only the
    top cards of the leader's suits decide it: who is void or holds trumps is in the suit lengths.
    """
    mine = (team >> seat) & 1
    relevant = np.int64(0)
    for suit in range(4):
        if (hands[seat] >> (13 * suit)) & SUIT_BITS == 0:
            continue
        top = 13 * suit + HIGHEST[(present >> (13 * suit)) & SUIT_BITS]
        for other in range(4):
            friend = (team >> other) & 1 == mine
            if (hands[other] >> top) & 1:
                if friend:
                    return np.int64(-1)
            elif (friend and trump != NO_TRUMP and suit != trump and (hands[other] >> (13 * suit)) & SUIT_BITS == 0
                    and (hands[other] >> (13 * trump)) & SUIT_BITS != 0):
                return np.int64(-1)
        relevant |= np.int64(1) << top
    return relevant


@njit(cache=True)
def _tops_fall_short(hands, seat, present, team):
    """The cards that show the side on lead cannot take every trick left without trumps, or -1.

    To take them all the side leads every trick, each in a suit where it holds the top card then.
    A suit gives at most as many tricks as the side's longest holding in it (each of its tricks
    takes a card of it from every hand of the side that holds one); a suit the other side tops
    gives none while that top card stays out.  So when the suits the side tops now hold fewer
    tricks than are left, the other side keeps a top card for one of them (DDS's later-tricks
    cut-off, checked against the brute force).  The other side's top cards of suits someone else
    still holds decide it; who holds what length is in the suit lengths.
    """
    # The suits the side tops supply at most their longest holding each: quick tricks' ceiling.
    if _quick_ceiling(hands, seat, present, team) >= popcount(hands[seat]):
        return np.int64(-1)
    mine = (team >> seat) & 1
    relevant = np.int64(0)
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        if out & (out - 1) == 0:
            continue
        top = np.int64(1) << (13 * suit + HIGHEST[out])
        ours = False
        for other in range(4):
            ours = ours or ((team >> other) & 1 == mine and hands[other] & top != 0)
        if not ours:
            relevant |= top
    return relevant


@njit(cache=True)
def _guarded_trump_trick(hands, seat, present, trump, team):
    """The trumps that let the other side of ``seat`` take a trick, or -1 (the side on lead holds the top trump).

    The other side holds the second-best trump guarded (its holder has another trump) and either
    sits right after the top trump, so it always sees that card before it must play, or also holds
    the third best: the top trump can take only one of the two (DDS's later-tricks cut-off with
    trumps, checked against the brute force).  The top three trumps still out decide it.
    """
    mine = (team >> seat) & 1
    out = (present >> (13 * trump)) & SUIT_BITS
    top = HIGHEST[out]
    rest = out ^ (1 << top)
    if rest == 0:
        return np.int64(-1)
    second = HIGHEST[rest]
    third = HIGHEST[rest ^ (1 << second)]
    top_holder = -1
    second_holder = -1
    third_holder = -1
    for other in range(4):
        held = (hands[other] >> (13 * trump)) & SUIT_BITS
        if (held >> top) & 1:
            top_holder = other
        if (held >> second) & 1:
            second_holder = other
        if third >= 0 and (held >> third) & 1:
            third_holder = other
    if ((team >> top_holder) & 1 != mine or (team >> second_holder) & 1 == mine
            or COUNT[(hands[second_holder] >> (13 * trump)) & SUIT_BITS] < 2):
        return np.int64(-1)
    cards = (np.int64(1) << top) | (np.int64(1) << second)
    if top_holder == (second_holder + 3) & 3:
        return cards << (13 * trump)
    if third_holder >= 0 and (team >> third_holder) & 1 != mine:
        return (cards | (np.int64(1) << third)) << (13 * trump)
    return np.int64(-1)


@njit(cache=True)
def _sure_trumps(hands, trump, team):
    """Tricks each side's trumps must win whatever anyone plays, and the trumps that make it so.

    Take a seat's top ``i`` trumps and the ``h`` trumps of the other side above the lowest of them:
    each of those ``i`` cards is played some time, in ``i`` different tricks, and its side takes
    that trick unless an opponent's higher trump falls on it; each higher trump beats only one of
    them, so the side wins at least ``i - h`` tricks.  Two seats of a side may win in the same
    trick, so a side counts its best seat only.

    Returns (team's sure tricks, others' sure tricks, relevant trumps).
    """
    present = ((hands[0] | hands[1] | hands[2] | hands[3]) >> (13 * trump)) & SUIT_BITS
    team_trumps = np.int64(0)
    for seat in range(4):
        if (team >> seat) & 1:
            team_trumps |= hands[seat]
    team_trumps = (team_trumps >> (13 * trump)) & SUIT_BITS
    other_trumps = present & ~team_trumps
    best_team = 0
    best_other = 0
    lowest = 13
    for seat in range(4):
        mine = (hands[seat] >> (13 * trump)) & SUIT_BITS
        if mine == 0:
            continue
        listed = mine | (other_trumps if (team >> seat) & 1 else team_trumps)
        code = (np.int64(1) << COUNT[listed]) | _gather(mine, listed)
        best = SURE_BEST[code]
        if best == 0:
            continue
        if (team >> seat) & 1:
            best_team = max(best_team, best)
        else:
            best_other = max(best_other, best)
        lowest = min(lowest, SELECT[listed, SURE_AT[code]])
    relevant = np.int64(0)
    if lowest < 13:
        relevant = np.int64(present >> lowest << lowest) << (13 * trump)
    return best_team, best_other, relevant


@njit(cache=True)
def _lone_winners(hands, seat, on_lead, trump, present):
    """Tricks a lone ``seat`` surely takes by its trumps and side winners, and the cards that make it so.

    Its winners are its trumps and, in each side suit, its top run of the cards still out.  When no
    other hand holds a trump, each winner wins whenever it is played: as the led suit's top card
    nobody can ruff it, and a trump beats every other card.  The seat keeps its winners until it
    takes a trick: on a lead it can follow with a winner it plays one and wins; following with a
    smaller card loses nothing; void in the led suit it still holds a trump and ruffs.  Once it
    has taken a trick it leads its winners one by one, keeping the lead.  So it takes at least as
    many tricks as it holds winners.  On lead (``on_lead``) with a top run of trumps at least as
    long as every other hand's trumps, it first leads that run: each wins and every other hand
    must follow with its trumps until it has none, which leads to the case above.  Who holds
    trumps, and how many, is in the suit lengths; the top runs' cards decide the rest.

    Returns (tricks, relevant cards); (0, 0) when neither case applies.
    """
    mine = hands[seat]
    held = (mine >> (13 * trump)) & SUIT_BITS
    if held == 0:
        return 0, np.int64(0)
    tricks = COUNT[held]
    relevant = np.int64(0)
    if (present & ~mine) >> (13 * trump) & SUIT_BITS:
        if not on_lead:
            return 0, np.int64(0)
        longest = 0
        for other in range(4):
            if other != seat:
                longest = max(longest, COUNT[(hands[other] >> (13 * trump)) & SUIT_BITS])
        out = (present >> (13 * trump)) & SUIT_BITS
        run = 0
        while (held >> HIGHEST[out]) & 1:
            run += 1
            relevant |= np.int64(1) << (13 * trump + HIGHEST[out])
            out ^= 1 << HIGHEST[out]
        if run < longest:
            return 0, np.int64(0)
    for suit in range(4):
        if suit == trump:
            continue
        run, used = _top_run((mine >> (13 * suit)) & SUIT_BITS, (present >> (13 * suit)) & SUIT_BITS, suit)
        tricks += run
        relevant |= used
    return tricks, relevant


@njit(cache=True)
def _lone_ducks(hands, seat, declarer):
    """Whether a lone ``declarer`` at no trump, needing no more tricks, surely ducks the rest or surely
    takes the trick ``seat`` leads next: 1 (ducks every trick), 0 (takes this one), -1 (neither shown).

    No card can be ruffed, so a trick goes to the highest card of the led suit, and the defenders,
    wanting the declarer to win, follow low.  On lead, the declarer loses a trick only by leading a
    card some defender can only overtake: below the lowest card of a defender holding the suit.
    When none of his cards is so, he takes the trick.  A defender on lead makes him take it by
    leading a suit where his lowest card beats every defender's lowest.  Otherwise, with a defender
    on lead, he ducks every trick left when in each suit his ``j``-th lowest card is below the
    defenders' ``j``-th lowest (for ``j`` up to the shorter count): the defenders lead every trick,
    each trick of a suit uses up at least one of their cards of it, so its ``j``-th lead is at least
    their ``j``-th lowest card, and he follows with his lowest (discarding, when void, his highest).

    Returns (verdict, relevant cards): every card of the suits he holds.
    """
    mine_all = hands[declarer]
    relevant = np.int64(0)
    on_lead = seat == declarer
    ducks = True
    safe_lead = False
    for suit in range(4):
        mine = (mine_all >> (13 * suit)) & SUIT_BITS
        if mine == 0:
            continue
        others = np.int64(0)
        cover = np.int64(0)
        for other in range(4):
            if other != declarer:
                held = (hands[other] >> (13 * suit)) & SUIT_BITS
                others |= held
                if held:
                    cover = max(cover, held & -held)
        relevant |= (mine | others) << (13 * suit)
        lowest = mine & -mine
        if on_lead:
            safe_lead = safe_lead or lowest < cover
            continue
        if lowest > cover and (hands[seat] >> (13 * suit)) & SUIT_BITS:
            return 0, relevant
        d = mine
        o = others
        while d and o:
            if (d & -d) > (o & -o):
                ducks = False
            d &= d - 1
            o &= o - 1
    if on_lead:
        return (-1 if safe_lead else 0), relevant
    return (1 if ducks else -1), relevant


@njit(cache=True, inline="always")
def _gather(x, mask):
    """The bits of the 13-bit ``x`` at the set positions of ``mask``, packed from bit 0 up."""
    return (np.int64(COMPRESS_LOW[mask & 127, x & 127])
            | (np.int64(COMPRESS_HIGH[mask >> 7, (x >> 7) & 63]) << COUNT[mask & 127]))


@njit(cache=True)
def _position(hands, present):
    """Owners of the cards still out, per suit from the top (2 bits each after a sentinel 1).

    Owner bits are gathered at the cards still out, so the lowest card out sits in bits 0-1 and
    cards compare by rank among the cards still out.  Returns the codes of suits C D packed in
    one word, of H S in another, and the suit sizes (4 bits per suit).
    """
    lo_bits = hands[1] | hands[3]
    hi_bits = hands[2] | hands[3]
    word0 = np.int64(0)
    word1 = np.int64(0)
    sizes = np.int64(0)
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        size = COUNT[out]
        sizes |= size << (4 * suit)
        lo = _gather((lo_bits >> (13 * suit)) & SUIT_BITS, out)
        hi = _gather((hi_bits >> (13 * suit)) & SUIT_BITS, out)
        code = (np.int64(1) << (2 * size)) | SPREAD[lo] | (np.int64(SPREAD[hi]) << 1)
        if suit < 2:
            word0 |= code << (27 * suit)
        else:
            word1 |= code << (27 * (suit - 2))
    return word0, word1, sizes


@njit(cache=True, inline="always")
def _keep_masks(sizes, tops):
    """Masks of the position codes' bits for the top ``tops`` cards of each suit, sentinels included."""
    mask0 = np.int64(0)
    mask1 = np.int64(0)
    for suit in range(4):
        size = (sizes >> (4 * suit)) & 15
        drop = size - ((tops >> (4 * suit)) & 15)
        keep = ((np.int64(2) << (2 * size)) - 1) & ~((np.int64(1) << (2 * drop)) - 1)
        if suit < 2:
            mask0 |= keep << (27 * suit)
        else:
            mask1 |= keep << (27 * (suit - 2))
    return mask0, mask1


@njit(cache=True)
def _pattern(hands, seat, window, called, bidder):
    """Bucket identity: every hand's suit lengths, the leader, the call, the window.

    While the called card is out, the call is its suit, its rank among the cards out and the seat
    allowed blind leads; once it is played the call no longer changes the game and is left out, so
    solves of one team and trump under different calls (sharing a table generation) share those
    entries.
    """
    pattern = np.int64(0)
    for owner in range(4):
        for suit in range(4):
            pattern |= COUNT[(hands[owner] >> (13 * suit)) & SUIT_BITS] << (4 * (4 * owner + suit))
    called_code = 0
    present = hands[0] | hands[1] | hands[2] | hands[3]
    if called >= 0 and (present >> called) & 1:
        out = (present >> (13 * (called // 13))) & SUIT_BITS
        called_code = (1 + popcount(out >> (called % 13 + 1))) | ((called // 13) << 4) | ((bidder + 1) << 6)
    return pattern, np.int64(seat | (called_code << 2) | (window << 12))


@njit(cache=True, inline="always")
def _hash(k0, k1):
    h = k0 * np.int64(-7046029254386353131)
    h ^= (h >> 29) ^ k1
    h *= np.int64(-4658895280553007687)
    return h ^ (h >> 32)


@njit(cache=True)
def _tops_of(relevant, present):
    """Per suit, how many cards still out rank at or above the lowest relevant card (4 bits per suit)."""
    tops = np.int64(0)
    for suit in range(4):
        rel = (relevant >> (13 * suit)) & SUIT_BITS
        if rel:
            out = (present >> (13 * suit)) & SUIT_BITS
            low = popcount((rel & -rel) - 1)
            tops |= COUNT[out >> low] << (4 * suit)
    return tops


@njit(cache=True)
def _cards_of_tops(tops, present):
    """The cards counted by ``tops``: the top cards still out of each suit."""
    cards = np.int64(0)
    for suit in range(4):
        count = (tops >> (4 * suit)) & 15
        if count:
            out = (present >> (13 * suit)) & SUIT_BITS
            # The lowest counted card is the (size - count)-th lowest card still out.
            floor = SELECT[out, COUNT[out] - count]
            cards |= np.int64(out >> floor << floor) << (13 * suit)
    return cards


@njit(cache=True, inline="always")
def _top_owner_bits(word0, word1, sizes):
    """The bits of position codes (or of their masks) for the top two cards of each suit, 4 bits per suit.

    A tag carries these bits of its entry's masked codes and of its mask, so a lookup rejects most
    entries of its pattern by the tag alone, without reading the entry.
    """
    bits = np.int64(0)
    for suit in range(4):
        size = (sizes >> (4 * suit)) & 15
        code = (word0 >> (27 * suit)) if suit < 2 else (word1 >> (27 * (suit - 2)))
        # The four bits below the suit's sentinel (bit 2 * size), zeros where the suit has fewer cards.
        bits |= (((code << 4) >> (2 * size)) & 15) << (4 * suit)
    return bits


@njit(cache=True, inline="always")
def _tag_word(tag, top_bits, top_mask):
    """A stored tag: the key's hash above bit 32, the mask of the top-card bits, the masked top-card bits."""
    return (tag & TAG_HASH_BITS) | (top_mask << 16) | (top_bits & top_mask)


@njit(cache=True, inline="always")
def _tag_query(tag, word0, word1, sizes):
    """What a lookup compares stored tags with: the key's hash above bit 32, the position's top-card bits."""
    return (tag & TAG_HASH_BITS) | _top_owner_bits(word0, word1, sizes)


@njit(cache=True, inline="always")
def _tag_admits(stored, query):
    """Whether a stored tag may belong to an entry matching the lookup's ``query`` (:func:`_tag_query`):
    same hash, same top-card bits where the entry fixes them."""
    return (stored ^ query) & (TAG_HASH_BITS | ((stored >> 16) & 0xFFFF)) == 0


@njit(cache=True, inline="always")
def _fill(mem, bucket, gen):
    """Entries of this solve in ``bucket`` (a bucket filled by an older solve counts as empty)."""
    word = mem[M_TT + bucket]
    return word & FILL_BITS if word >> 16 == gen else 0


@njit(cache=True, inline="always")
def _tt_lookup(mem, pattern, extra, word0, word1, sizes, won, lo, hi, mode):
    """Scan the bucket chain for an entry that matches on its relevant cards and decides the window.

    Returns (verdict 1/0 or -1, the entry's relevance tops, the best move of a matching entry or -1).
    """
    hint = np.int64(-1)
    gen = mem[M_CTX + C_GEN]
    tag = _hash(pattern, extra)
    query = _tag_query(tag, word0, word1, sizes)
    buckets = mem[M_CTX + C_TT_MASK]
    tags = mem[M_CTX + C_TAGS]
    entries = mem[M_CTX + C_ENTRIES]
    for step in range(MAX_CHAIN):
        bucket = (tag + step) & buckets
        count = _fill(mem, bucket, gen)
        for slot in range(bucket * BUCKET, bucket * BUCKET + count):
            if not _tag_admits(mem[tags + slot], query):
                continue
            entry = entries + ENTRY * slot
            if (word0 & mem[entry + E_MASK0] != mem[entry + E_WORD0] or word1 & mem[entry + E_MASK1] != mem[entry + E_WORD1]
                    or mem[entry + E_PATTERN] != pattern or mem[entry + E_EXTRA] != extra):
                continue
            info = mem[entry + E_INFO]
            verdict = _tt_verdict(info & BOUNDS_BITS, won, lo, hi, mode)
            if verdict >= 0:
                return verdict, info >> 24, hint
            if hint < 0:
                hint = ((info >> 16) & 255) - 1
        if count < BUCKET:
            break
    return -1, np.int64(0), hint


@njit(cache=True, inline="always")
def _tt_verdict(bounds, won, lo, hi, mode):
    """What a table entry's bounds say about this window: 1 yes, 0 no, -1 not enough."""
    low = bounds & 255
    high = bounds >> 8
    if mode == MODE_MAX:
        if won + low >= lo:
            return 1
        if won + high < lo:
            return 0
        return -1
    if mode == MODE_MIN:
        if won + high <= hi:
            return 1
        if won + low > hi:
            return 0
        return -1
    return low


@njit(cache=True, inline="always")
def _tt_store(mem, pattern, extra, word0, word1, sizes, tops, left, won, lo, hi, result, best, mode):
    """Record a searched trick-boundary node under its relevant cards: tighten the bounds on future tricks.

    A full bucket spills into the next one, up to ``MAX_CHAIN`` buckets; past that a random entry
    of the last bucket gives way.
    """
    gen = mem[M_CTX + C_GEN]
    tag = _hash(pattern, extra)
    buckets = mem[M_CTX + C_TT_MASK]
    tags = mem[M_CTX + C_TAGS]
    entries = mem[M_CTX + C_ENTRIES]
    m0, m1 = _keep_masks(sizes, tops)
    w0 = word0 & m0
    w1 = word1 & m1
    stored = _tag_word(tag, _top_owner_bits(w0, w1, sizes), _top_owner_bits(m0, m1, sizes))
    target = -1
    fresh = False
    for step in range(MAX_CHAIN):
        bucket = (tag + step) & buckets
        count = _fill(mem, bucket, gen)
        for slot in range(bucket * BUCKET, bucket * BUCKET + count):
            entry = entries + ENTRY * slot
            if (mem[tags + slot] == stored and mem[entry + E_WORD0] == w0 and mem[entry + E_WORD1] == w1
                    and mem[entry + E_MASK0] == m0 and mem[entry + E_MASK1] == m1
                    and mem[entry + E_PATTERN] == pattern and mem[entry + E_EXTRA] == extra):
                target = slot
                break
        if target >= 0:
            break
        if count < BUCKET:
            target = bucket * BUCKET + count
            mem[M_TT + bucket] = (gen << 16) | (count + 1)
            fresh = True
            break
        if step == MAX_CHAIN - 1:
            target = bucket * BUCKET + (mem[M_CTX + C_NODES] & (BUCKET - 1))
            fresh = True
    entry = entries + ENTRY * target
    if fresh:
        mem[tags + target] = stored
        mem[entry + E_PATTERN] = pattern
        mem[entry + E_EXTRA] = extra
        mem[entry + E_WORD0] = w0
        mem[entry + E_WORD1] = w1
        mem[entry + E_MASK0] = m0
        mem[entry + E_MASK1] = m1
        mem[entry + E_INFO] = (left << 8) | (tops << 24)
    info = mem[entry + E_INFO]
    if best >= 0:
        info = (info & ~(np.int64(255) << 16)) | ((best + 1) << 16)
    low = info & 255
    high = (info >> 8) & 255
    if mode == MODE_MAX:
        if result:
            low = max(low, lo - won)
        else:
            high = min(high, lo - won - 1)
    elif mode == MODE_MIN:
        if result:
            high = min(high, hi - won)
        else:
            low = max(low, hi - won + 1)
    else:
        low = 1 if result else 0
    mem[entry + E_INFO] = (info & ~np.int64(BOUNDS_BITS)) | low | (high << 8)


@njit(cache=True)
def _encode_move(move, present):
    """A lead as (suit, number of cards still out above it), so it carries over to matching positions."""
    if move < 0 or move >= BLIND:
        return np.int64(-1)
    suit = move // 13
    out = (present >> (13 * suit)) & SUIT_BITS
    return np.int64(suit * 16 + COUNT[out >> (move % 13 + 1)])


@njit(cache=True)
def _decode_move(code, present):
    """The card at the encoded place among the cards still out, or -1."""
    if code < 0:
        return np.int64(-1)
    suit = code // 16
    above = code % 16
    out = (present >> (13 * suit)) & SUIT_BITS
    for _ in range(above):
        if out == 0:
            return np.int64(-1)
        out ^= 1 << HIGHEST[out]
    if out == 0:
        return np.int64(-1)
    return np.int64(13 * suit + HIGHEST[out])


@njit(cache=True)
def _last_trick(hands, leader, trump):
    """Winner seat of the final trick when nobody has a choice, and the card if it won by rank (else -1)."""
    lead = popcount(hands[leader] - 1)
    win_seat = leader
    win_card = lead
    for step in range(1, 4):
        seat = (leader + step) & 3
        card = popcount(hands[seat] - 1)
        if _beats(card, win_card, win_seat, lead // 13, trump):
            win_seat = seat
            win_card = card
    return win_seat, _rank_winner(hands[0] | hands[1] | hands[2] | hands[3], win_card)


@njit(cache=True, inline="always")
def _rank_winner(trick_cards, win_card):
    """The winning card when it beat another card of its suit (so its rank mattered), else -1."""
    suit_cards = (trick_cards >> (13 * (win_card // 13))) & SUIT_BITS
    if suit_cards & (suit_cards - 1):
        return win_card
    return -1


@njit(cache=True)
def _window_code(won, lo, hi, mode):
    """Part of the key that depends on the window: only windows with two finite ends need it."""
    if mode != MODE_EXACT:
        return 0
    return ((lo - won + 16) & 31) | (((hi - won + 16) & 31) << 5)


@njit(cache=True, inline="always")
def _answer(result, relevant):
    """Pack a node's answer and the cards whose ranks decided it into one int64."""
    return relevant | (np.int64(1 if result else 0) << RESULT_SHIFT)


@njit(cache=True, inline="always")
def _stat(mem, kind, depth):
    """Count one event of ``kind`` at ``depth`` (only in a counting build, see ``STATS``)."""
    mem[M_STATS + kind * MAX_DEPTH + depth] += 1


_SEARCH_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, boolean, int64, int64, int64, int64, boolean)"


# An explicit signature keeps the recursion to one compiled specialisation (literal arguments
# would otherwise spawn mutually recursive variants).
@njit(_SEARCH_SIG, cache=True)
def search(address, size, present, leader, pos, win_seat, win_card, blind, won, lo, hi, depth, collect):
    """Whether the team can force its final trick count into ``[lo, hi]`` from this node.

    ``present``: the cards in hands at the start of the current trick.  Returns the answer in bit
    ``RESULT_SHIFT`` and, below it, the cards whose ranks decided it (partition search: a table
    entry only fixes the owners of cards at or above the lowest of them).  With ``collect`` set,
    the root node (depth 0) tries every candidate move and writes each move's answer to the
    ``M_OUT`` slots (the moves are in the ``M_MOVES`` slots of depth 0, their number in ``C_MOVES``).
    """
    # The work array travels as its address: reference-counting it on every call cost about a
    # tenth of the search's time.
    mem = int64_view(address, size)
    mem[M_CTX + C_NODES] += 1
    if STATS:
        _stat(mem, S_NODES, depth)
    team = mem[M_CTX + C_TEAM]
    trump = mem[M_CTX + C_TRUMP]
    mode = mem[M_CTX + C_MODE]
    called = mem[M_CTX + C_CALLED]
    bidder = mem[M_CTX + C_BIDDER]
    hands = (mem[M_HANDS], mem[M_HANDS + 1], mem[M_HANDS + 2], mem[M_HANDS + 3])
    seat = (leader + pos) & 3
    # Typed (non-literal) constants for the recursive calls: literal arguments would make numba
    # compile extra specialisations that the on-disk cache cannot link back.
    none = np.int64(-1)
    first = np.int64(1)
    start = np.int64(0)
    face_down = pos >= 0
    face_up = pos < 0
    root_collect = collect and depth == 0
    hint = np.int64(-1)
    best = np.int64(-1)
    pattern = np.int64(0)
    extra = np.int64(0)
    word0 = np.int64(0)
    word1 = np.int64(0)
    sizes = np.int64(0)
    # The called card carries an obligation, so its owner always matters.
    called_rel = np.int64(0)
    if pos == 0 and not root_collect:
        left = popcount(hands[seat])
        if won >= lo and won + left <= hi:
            if STATS:
                _stat(mem, S_DECIDED, depth)
            return _answer(True, 0)
        if won > hi or won + left < lo:
            if STATS:
                _stat(mem, S_DECIDED, depth)
            return _answer(False, 0)
        if called >= 0 and (present >> called) & 1:
            called_rel = np.int64(1) << called
        if left == 1 and not _blind_allowed(hands, seat, called, bidder):
            taker, rank_card = _last_trick(hands, seat, trump)
            final = won + ((team >> taker) & 1)
            relevant = called_rel
            if rank_card >= 0:
                relevant |= np.int64(1) << rank_card
            if STATS:
                _stat(mem, S_LAST, depth)
            return _answer(lo <= final <= hi, relevant)
        if trump != NO_TRUMP:
            # Whatever anyone plays, the team ends with a count in [least, most].
            ours, theirs, used = _sure_trumps(hands, trump, team)
            least = won + ours
            most = won + left - theirs
            if lo <= least and most <= hi:
                if STATS:
                    _stat(mem, S_SURE_TRUMPS, depth)
                return _answer(True, used | called_rel)
            if most < lo or least > hi:
                if STATS:
                    _stat(mem, S_SURE_TRUMPS, depth)
                return _answer(False, used | called_rel)
            if (mode == MODE_MAX and popcount(team) == 1 and won + left <= hi
                    and (called < 0 or not (present >> called) & 1)):
                # A lone declarer who alone holds trumps, or can draw them, takes a trick per winner.
                winners, used = _lone_winners(hands, popcount(team - 1), team == 1 << seat, trump, present)
                if won + winners >= lo:
                    if STATS:
                        _stat(mem, S_LONE_WINNERS, depth)
                    return _answer(True, used)
        if trump == NO_TRUMP and won == hi and won >= lo and popcount(team) == 1 and called < 0:
            # A lone declarer who may take no more tricks (Misery, a 1 Alone that has its trick).
            ducks, used = _lone_ducks(hands, seat, popcount(team - 1))
            if ducks >= 0:
                if STATS:
                    _stat(mem, S_LONE_DUCKS, depth)
                return _answer(ducks == 1, used)
        if (mode == MODE_MAX and lo == (won + left if (team >> seat) & 1 else won + 1)
                and not _called_under_own(hands, called) and not _blind_allowed(hands, seat, called, bidder)):
            # The side on lead needs every trick left: it fails when the other side can take this one.
            lost = _leader_loses_trick(hands, seat, present, trump, team)
            if lost < 0 and (called < 0 or not (present >> called) & 1):
                if trump == NO_TRUMP or (present >> (13 * trump)) & SUIT_BITS == 0:
                    lost = _tops_fall_short(hands, seat, present, team)
                else:
                    lost = _guarded_trump_trick(hands, seat, present, trump, team)
            if lost >= 0:
                if STATS:
                    _stat(mem, S_LATER, depth)
                return _answer((team >> seat) & 1 == 0, lost | called_rel)
        pattern, extra = _pattern(hands, seat, _window_code(won, lo, hi, mode), called, bidder)
        word0, word1, sizes = _position(hands, present)
        verdict, tops, hint_code = _tt_lookup(mem, pattern, extra, word0, word1, sizes, won, lo, hi, mode)
        if STATS:
            _stat(mem, S_PROBES, depth)
        if verdict >= 0:
            if STATS:
                _stat(mem, S_TABLE, depth)
            return _answer(verdict == 1, _cards_of_tops(tops, present) | called_rel)
        if mode == MODE_MAX and not _called_under_own(hands, called):
            # Quick tricks settle the window only when the leader's side needs this many of them.
            need = lo - won if (team >> seat) & 1 else won + left - lo + 1
            if need <= _quick_ceiling(hands, seat, present, team):
                quick, used = _quick_tricks(hands, seat, trump, team, called)
                if quick >= need:
                    if STATS:
                        _stat(mem, S_QUICK, depth)
                    return _answer((team >> seat) & 1 == 1, used | called_rel)
            if need == 1 and trump != NO_TRUMP and _partner_ruffs(hands, seat, trump, team):
                if STATS:
                    _stat(mem, S_QUICK, depth)
                return _answer((team >> seat) & 1 == 1, called_rel)
        # The table's best move helps every search but two against two for tricks, where the
        # killer lead orders better on its own (measured: 3% fewer nodes without it).
        if mode != MODE_MAX or popcount(team) != 2:
            hint = _decode_move(hint_code, present)
    led_suit = -1
    if pos > 0:
        led_suit = called // 13 if blind else mem[M_TRICK] // 13
        if mode == MODE_MAX and not root_collect and not _called_under_own(hands, called):
            # When the side to move surely takes this trick and that settles the window, the rest
            # of the trick need not be searched.
            left = popcount(hands[seat])
            ours = (team >> seat) & 1 == 1
            need = lo - won if ours else won + left - lo + 1
            # Second hand counts the tricks its side then cashes at no trump; otherwise only the trick in progress.
            if pos == 1 and need <= (left if trump == NO_TRUMP else 1):
                tricks, relevant = _second_hand_tricks(hands, seat, led_suit, win_seat, win_card, present, trump, team,
                                                       need)
                if tricks >= need:
                    if STATS:
                        _stat(mem, S_SECOND, depth)
                    return _answer(ours, relevant)
            elif pos >= 2 and need == 1:
                sure, relevant = _sure_trick_cards(hands, seat, pos, led_suit, win_seat, win_card, present, trump, team)
                if sure >= 0:
                    if STATS:
                        _stat(mem, S_SURE_TRICK, depth)
                    return _answer(ours, relevant)
    # Misery (the team may take no trick) has its own ordering.  Used whenever the team may take no more
    # tricks it searched 3% more on a heavy deal; in every minimising window "at most 1" took 2.8x as long.
    # An exact window the team has not reached yet is fought like a maximising one: the team plays to
    # win tricks and the others to deny them (1 Alone questions of 64 deals: 5.5 against 27.3 CPU-s).
    order_mode = MODE_MAX if mode == MODE_EXACT and won < lo else mode
    n, pruned = _gen_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth,
                           trump, team, order_mode, called, bidder, mode == MODE_MIN and hi == 0)
    if root_collect:
        mem[M_CTX + C_MOVES] = n
    maximiser = (team >> seat) & 1 == 1
    result = not maximiser
    relevant = called_rel
    base = M_MOVES + depth * MAX_MOVES
    # Cards shown equivalent to a failed move: their suit's cards that mattered all rank above both.
    covered = np.int64(0)
    tried = 0
    for i in range(n):
        move = _next_move(mem, base, i, n)
        if move < BLIND and (covered >> move) & 1:
            continue
        if STATS:
            tried += 1
            _stat(mem, S_TRIED, depth)
        card = move - BLIND if move >= BLIND else move
        bit = np.int64(1) << card
        mem[M_HANDS + seat] ^= bit
        mem[M_TRICK + pos] = move
        if pos == 0:
            if move >= BLIND:
                ans = search(address, size, present, leader, first, none, none, face_down, won, lo, hi, depth + 1, collect)
            else:
                ans = search(address, size, present, leader, first, seat, card, face_up, won, lo, hi, depth + 1, collect)
        else:
            new_seat = win_seat
            new_card = win_card
            if _beats(card, win_card, win_seat, led_suit, trump):
                new_seat = seat
                new_card = card
            if pos == 3:
                tricks = mem[M_CTX + C_TRICKS] + 1
                mem[M_CTX + C_TRICKS] = tricks
                if tricks == mem[M_CTX + C_LIMIT]:
                    mem[M_CTX + C_ABORTED] = 1
                gained = won + ((team >> new_seat) & 1)
                trick_cards = np.int64(0)
                for j in range(4):
                    if not (blind and j == 0):
                        trick_cards |= np.int64(1) << mem[M_TRICK + j]
                # The next trick reuses the trick slots: keep this trick's cards for the sibling moves.
                t0 = mem[M_TRICK]
                t1 = mem[M_TRICK + 1]
                t2 = mem[M_TRICK + 2]
                remaining = mem[M_HANDS] | mem[M_HANDS + 1] | mem[M_HANDS + 2] | mem[M_HANDS + 3]
                ans = search(address, size, remaining, new_seat, start, none, none, face_up, gained, lo, hi, depth + 1, collect)
                mem[M_TRICK] = t0
                mem[M_TRICK + 1] = t1
                mem[M_TRICK + 2] = t2
                rank_card = _rank_winner(trick_cards, new_card)
                if rank_card >= 0:
                    ans |= np.int64(1) << rank_card
            else:
                ans = search(address, size, present, leader, pos + 1, new_seat, new_card, blind, won, lo, hi, depth + 1, collect)
        mem[M_HANDS + seat] ^= bit
        if mem[M_CTX + C_ABORTED]:
            # The budget ran out below: this node's answer is unknown, so it returns before its store.
            return _answer(False, 0)
        res = (ans >> RESULT_SHIFT) & 1 == 1
        if root_collect:
            mem[M_OUT + i] = res
        if res == maximiser:
            result = res
            if not root_collect:
                relevant = (ans & RELEVANT_BITS) | called_rel
                best = move
                if pos == 0:
                    mem[M_KILLERS + depth] = move
                break
        relevant |= ans & RELEVANT_BITS
        if move < BLIND and not root_collect:
            suit = card // 13
            mattered = (ans >> (13 * suit)) & SUIT_BITS
            floor = 13 if mattered == 0 else popcount((mattered & -mattered) - 1)
            if card % 13 < floor:
                covered |= hands[seat] & (((np.int64(1) << floor) - 1) << (13 * suit))
    if STATS:
        _stat(mem, S_CUT_AT + min(tried, 7) - 1 if result == maximiser else S_NO_CUT, depth)
    if result != maximiser and pruned:
        # Every move failed, the left-out ones by equivalence to a tried card: when that card's rank
        # mattered, so does theirs (a matching position may hold a different small card there).
        relevant = _run_spread(relevant & hands[seat], pruned, present) | relevant
    if pos == 0 and not root_collect:
        relevant &= present
        tops = _tops_of(relevant, present)
        _tt_store(mem, pattern, extra, word0, word1, sizes, tops, popcount(hands[seat]), won, lo, hi, result,
                  _encode_move(best, present), mode)
        relevant = _cards_of_tops(tops, present)
    return _answer(result, relevant)


@njit(cache=True)
def future_tricks(hands):
    """Tricks still to be played, counting the one in progress."""
    best = 0
    for seat in range(4):
        best = max(best, popcount(hands[seat]))
    return best


@njit(cache=True)
def guess_tricks(hands, team, trump):
    """First probe of the trick-count search; only the search's speed depends on it.

    A least-squares fit of double-dummy counts on 300 random deals: 1.245 times the team's share
    of the high-card points (A 4 K 3 Q 2 J 1) in tricks, less 1.35 per 13 tricks, plus 0.589 per
    trump the team holds more than the others (root-mean-square error 1.2 tricks, against 2.0
    for the points share alone).
    """
    total = 0
    mine = 0
    trump_lead = 0
    for seat in range(4):
        points = 0
        for suit in range(4):
            held = (hands[seat] >> (13 * suit)) & SUIT_BITS
            points += 4 * ((held >> 12) & 1) + 3 * ((held >> 11) & 1) + 2 * ((held >> 10) & 1) + ((held >> 9) & 1)
        total += points
        trumps = COUNT[(hands[seat] >> (13 * trump)) & SUIT_BITS] if trump != NO_TRUMP else 0
        if (team >> seat) & 1:
            mine += points
            trump_lead += trumps
        else:
            trump_lead -= trumps
    left = future_tricks(hands)
    share = left * 1000 * mine // total if total else left * 500
    return (1245 * share // 1000 - 1350 * left // 13 + 589 * trump_lead + 500) // 1000


@njit(cache=True)
def start_winner(trick, leader, pos, blind, trump, called):
    """Current winner (seat, card) of a trick in progress; (-1, -1) before any card can win."""
    led_suit = called // 13 if blind else trick[0] // 13
    win_seat = -1
    win_card = -1
    for i in range(pos):
        if blind and i == 0:
            continue
        card = trick[i]
        if _beats(card, win_card, win_seat, led_suit, trump):
            win_seat = (leader + i) & 3
            win_card = card
    return win_seat, win_card


@njit(cache=True)
def solve_window(mem, hands, trick, leader, pos, blind, lo, hi, collect):
    """Root of one yes/no search: can the team's tricks from here land in ``[lo, hi]``?"""
    set_position(mem, hands, trick)
    win_seat = -1
    win_card = -1
    present = hands[0] | hands[1] | hands[2] | hands[3]
    if pos > 0:
        win_seat, win_card = start_winner(trick, leader, pos, blind, mem[M_CTX + C_TRUMP], mem[M_CTX + C_CALLED])
        for i in range(pos):
            present |= np.int64(1) << (trick[i] % BLIND)
    answer = search(mem.ctypes.data, mem.shape[0], present, leader, pos, win_seat, win_card, blind, 0, lo, hi, 0, collect)
    return (answer >> RESULT_SHIFT) & 1 == 1


@njit(cache=True)
def solve_max(mem, hands, trick, leader, pos, blind, guess):
    """Team's guaranteed tricks from here (team maximises, the others minimise); needs ``MODE_MAX``.

    :func:`solve_bounded` without a budget, from no known bounds.
    """
    return solve_bounded(mem, hands, trick, leader, pos, blind, guess, 0, future_tricks(hands), 0)[0]


@njit(cache=True)
def solve_bounded(mem, hands, trick, leader, pos, blind, guess, low, high, budget):
    """Bounds ``(low, high)`` on the team's guaranteed tricks from here, searched within ``budget``
    completed tricks (``C_TRICKS``; 0: no limit, then ``low == high``); needs ``MODE_MAX``.

    ``low`` and ``high`` are bounds the caller has proved.  Steps a yes/no probe from ``guess`` up or
    down until the bounds meet; the table keeps bounds from earlier probes, so later probes are
    cheap.  Every yes at ``t`` proves ``low >= t``, every no ``high <= t - 1``.  The probes may search
    three quarters of the budget; when a probe runs out, its answer is dropped and the last quarter
    goes to probes from both ends of the open interval towards the abandoned target (a lone
    declarer's tight "yes" is the costly proof, while "no" above it and "yes" below it, with a trick
    to spare, are cheap), so the count is usually pinned to two values.  A second probe that runs
    out ends the search; the bounds the finished probes proved are returned.

    Soundness: the abort flag is set where ``C_TRICKS`` reaches ``C_LIMIT``, and every node checks it
    after each child search and returns at once, before its own table store, its killer and its
    result.  So each entry stored comes from a node whose children all finished (a finished subtree
    is exact whatever happens later), and no aborted node's made-up answer reaches the table or a
    parent.  The limit counts completed tricks, not time, so the bounds depend only on the position,
    the question and the table generation's earlier contents, never on the machine's speed or load.
    """
    start = mem[M_CTX + C_TRICKS]
    mem[M_CTX + C_LIMIT] = start + max(budget * 3 // 4, 1) if budget > 0 else 0
    mem[M_CTX + C_ABORTED] = 0
    target = min(max(guess, low + 1), high)
    stuck = -1  # the target whose probe ran out of budget
    while low < high:
        yes = solve_window(mem, hands, trick, leader, pos, blind, target, UNBOUNDED, False)
        if mem[M_CTX + C_ABORTED]:
            if stuck >= 0:
                break
            stuck = target
            mem[M_CTX + C_ABORTED] = 0
            # The limit is reached exactly (the count grows by one): keep it above the count.
            mem[M_CTX + C_LIMIT] = max(start + budget, mem[M_CTX + C_TRICKS] + 1)
        elif yes:
            low = target
        else:
            high = target - 1
        if stuck < 0:
            target = target + 1 if yes else target - 1
        elif low + 1 < stuck:
            target = low + 1
        elif high > stuck:
            target = high
        else:
            break
    mem[M_CTX + C_LIMIT] = 0
    mem[M_CTX + C_ABORTED] = 0
    return low, high
