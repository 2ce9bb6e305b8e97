"""The search driver of the exact double-dummy solver: the node, the yes/no root and the count's probes.

The search answers one yes/no question: can the team force its final trick count into the window
``[lo, hi]``?  Nodes are single card plays; at each trick boundary the node consults cut-offs
(window already decided, the last trick scored directly, sure top trumps, a lone declarer's
winners once no defender can ruff them, a lone no-trump declarer who may take no more tricks and
surely ducks them all or surely takes the next, the side on lead needing every trick left while the
other side can take the one it leads or keeps a top card or a guarded trump for a later one), then a
transposition table, then quick tricks; within a trick, second, third and fourth hand stop as soon
as their side surely takes the trick in progress and that (for second hand with the top cards the
trick's winner then cashes, in no trump) settles the window.  The recursion passes the trick's
leader and position, the current winner (seat, card; -1 before any card can win), ``won`` (team
tricks so far) and the window.

Each job has its module, as DDS splits its solver: the work array's layout (``layout``), the rules
of play (``rules``), move generation and ordering (``moves``), sure tricks at a trick's start
(``quick_tricks``) and inside a trick (``sure_trick``), sure losers (``later_tricks``), a lone
no-trump declarer's misère bounds (``misery_bounds``) and the transposition table
(``transposition``).  This module re-exports what ``api`` uses of them.
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.cards.tricks import beats as _beats  # the one trick rule
from analyzer.raw_memory import int64_view
from analyzer.solvers.dd.later_tricks import _guarded_trump_trick, _leader_loses_trick, _tops_fall_short
from analyzer.solvers.dd.layout import (
    C_ABORTED, C_BIDDER, C_CALLED, C_LIMIT, C_MODE, C_MOVES, C_NODES, C_TEAM, C_TRICKS, C_TRUMP, MAX_MOVES, M_CTX,
    M_HANDS, M_MOVES, M_OUT, M_TRICK, RELEVANT_BITS, RESULT_SHIFT, STATS, S_CUT_AT, S_DECIDED, S_LAST,
    S_LATER, S_LONE_DUCKS, S_LONE_WINNERS, S_NODES, S_NO_CUT, S_PROBES, S_QUICK, S_SECOND, S_SURE_TRICK,
    S_SURE_TRUMPS, S_TABLE, S_TRIED, _answer, _stat, new_mem, set_context, set_position,
)
from analyzer.solvers.dd.lone_length import _lone_length
from analyzer.solvers.dd.misery_bounds import _caught_in_trick, _lone_ducks
from analyzer.solvers.dd.moves import (
    NO_CUTOFF_KEY, _cutoff_slot, _gen_moves, _more_moves, _next_move, _prefetch_cutoff, _remember_cutoff, _run_spread,
)
from analyzer.solvers.dd.proof import P_SEARCHED, P_TABLE, _proof_child, _proof_enter, _proof_kind
from analyzer.solvers.dd.quick_tricks import _lone_winners, _partner_ruffs, _quick_ceiling, _quick_tricks, _sure_trumps
from analyzer.solvers.dd.rules import (
    _blind_allowed, _called_under_own, _last_trick, _rank_winner, future_tricks, start_winner,
)
from analyzer.solvers.dd.sure_trick import _second_hand_tricks, _sure_trick_cards
from analyzer.solvers.dd.tables import BLIND, COUNT, MODE_EXACT, MODE_MAX, MODE_MIN, SUIT_BITS, UNBOUNDED
from analyzer.solvers.dd.transposition import (
    _cards_of_tops, _decode_move, _encode_move, _pattern, _position, _tops_of, _tt_lookup, _tt_store, _window_code,
)

# What api.py reads of the kernels.
__all__ = [
    "C_MOVES", "C_TRICKS", "M_CTX", "M_MOVES", "M_OUT", "ROOT_ALL", "ROOT_UNTIL_FAIL", "future_tricks", "guess_tricks",
    "new_mem", "search", "set_context", "solve_bounded", "solve_max", "solve_window",
]


_SEARCH_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, boolean, int64, int64, int64, int64, int64)"
# A collecting search's ``collect``: the cards whose root moves it searches (a card's face-up play and its face-down
# lead alike), and the bit that stops the root at its first failing move.
ROOT_ALL = (1 << 52) - 1
ROOT_UNTIL_FAIL = 1 << 62


# An explicit signature keeps the recursion to one compiled specialisation (literal arguments
# would otherwise spawn mutually recursive variants).
@njit(_SEARCH_SIG, cache=True)
def search(address, size, present, leader, pos, win_seat, win_card, blind, won, lo, hi, depth, collect):
    """Whether the team can force its final trick count into ``[lo, hi]`` from this node.

    ``present``: the cards in hands at the start of the current trick.  Returns the answer in bit
    ``RESULT_SHIFT`` and, below it, the cards whose ranks decided it (partition search: a table
    entry only fixes the owners of cards at or above the lowest of them).  With ``collect`` non-zero,
    the root node (depth 0) tries every candidate move of a card in ``collect``'s bits 0..51 and writes each
    move's answer to the ``M_OUT`` slots (the moves are in the ``M_MOVES`` slots of depth 0, their number in
    ``C_MOVES``; a move left out keeps its slot's old answer); with ``ROOT_UNTIL_FAIL`` set it stops after the
    first move that fails (its side does not get its wish).
    """
    # The work array travels as its address: reference-counting it on every call cost about a
    # tenth of the search's time.
    mem = int64_view(address, size)
    mem[M_CTX + C_NODES] += 1
    if STATS:
        _stat(mem, S_NODES, depth)
        _proof_enter(mem, depth)
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
    start = np.int64(0)
    face_up = pos < 0
    root_collect = collect != 0 and depth == 0
    hint = np.int64(-1)
    best = np.int64(-1)
    pattern = np.int64(0)
    extra = np.int64(0)
    word0 = np.int64(0)
    word1 = np.int64(0)
    sizes = np.int64(0)
    # The called card carries an obligation, so its owner always matters.
    called_rel = np.int64(0)
    led_suit = -1
    if pos > 0:
        led_suit = called // 13 if blind else mem[M_TRICK] // 13
    # The cut-off cache word is loaded now, so the wait for it overlaps the node's cut-offs and probe.
    cutoff_key = _cutoff_slot(mem, hands, seat, pos, led_suit, present, win_seat, win_card, trump)
    _prefetch_cutoff(address, cutoff_key)
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
            # Each sure trump trick is won by one of its side's trumps, so a side's count is at most
            # its trumps: the count is skipped when even those could not settle the window.
            team_hand = np.int64(0)
            for other in range(4):
                if (team >> other) & 1:
                    team_hand |= hands[other]
            team_trumps = popcount((team_hand >> (13 * trump)) & SUIT_BITS)
            other_trumps = popcount((present >> (13 * trump)) & SUIT_BITS) - team_trumps
            if ((lo <= won + team_trumps and won + left - other_trumps <= hi) or won + left - other_trumps < lo
                    or won + team_trumps > hi):
                # Whatever anyone plays, the team ends with a count in [least, most].
                ours, theirs, used = _sure_trumps(hands, trump, team, called, mode == MODE_MAX)
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
                _proof_kind(mem, depth, P_TABLE)
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
            if (popcount(team) == 1 and trump != NO_TRUMP and called_rel == 0 and won + left <= hi
                    and _lone_length(address, size, hands, seat, team, trump, lo - won)):
                return _answer(True, ((present >> (13 * trump)) & SUIT_BITS) << (13 * trump))
        hint = _decode_move(hint_code, present)
    if pos > 0:
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
        elif (mode != MODE_MAX and not root_collect and trump == NO_TRUMP and won == hi and won >= lo
              and popcount(team) == 1 and called < 0):
            # A lone declarer who may take no more tricks and surely takes this one.
            caught = _caught_in_trick(hands, leader, pos, led_suit, win_seat, win_card, popcount(team - 1), present)
            if caught != 0:
                if STATS:
                    _stat(mem, S_SURE_TRICK, depth)
                return _answer(False, caught)
    # Misery (the team may take no trick) has its own ordering.  Used whenever the team may take no more
    # tricks it searched 3% more on a heavy deal; in every minimising window "at most 1" took 2.8x as long.
    # An exact window the team has not reached yet is fought like a maximising one: the team plays to
    # win tricks and the others to deny them (1 Alone questions of 64 deals: 5.5 against 27.3 CPU-s).
    order_mode = MODE_MAX if mode == MODE_EXACT and won < lo else mode
    duck_all = mode == MODE_MIN and hi == 0
    n, pruned, cutoff_key, lazy = _gen_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth,
                                             trump, team, order_mode, called, bidder, duck_all, cutoff_key,
                                             not root_collect)
    if root_collect:
        mem[M_CTX + C_MOVES] = n
    if STATS:
        _proof_kind(mem, depth, P_SEARCHED)
    maximiser = (team >> seat) & 1 == 1
    result = not maximiser
    relevant = called_rel
    base = M_MOVES + depth * MAX_MOVES
    # Cards shown equivalent to a failed move: their suit's cards that mattered all rank above both.
    covered = np.int64(0)
    tried = 0
    # Set at a trick's last card, read after its recursive call.
    won_card = trick_cards = t0 = t1 = t2 = np.int64(0)
    for i in range(MAX_MOVES):
        if i == 1 and lazy:
            n = _more_moves(mem, hands, seat, pos, led_suit, present, win_seat, win_card, hint, depth, trump, team,
                            order_mode, called, bidder, duck_all, mem[base])
        if i == n:
            break
        move = _next_move(mem, base, i, n)
        if move < BLIND and (covered >> move) & 1:
            continue
        card = move - BLIND if move >= BLIND else move
        if root_collect and not (collect >> card) & 1:
            continue
        if STATS:
            tried += 1
            _stat(mem, S_TRIED, depth)
        bit = np.int64(1) << card
        mem[M_HANDS + seat] ^= bit
        mem[M_TRICK + pos] = move
        # One recursive call site: numba types a recursive call by re-running the whole function's type
        # inference (``return_types_from_partial``), once per call site and propagation round.
        next_present = present
        next_leader = leader
        next_pos = pos + 1
        next_seat = none
        next_card = none
        next_blind = blind
        next_won = won
        if pos == 0:
            next_blind = move >= BLIND
            if move < BLIND:
                next_seat = seat
                next_card = card
        else:
            next_seat = win_seat
            next_card = win_card
            if _beats(card, win_card, win_seat, led_suit, trump):
                next_seat = seat
                next_card = card
            if pos == 3:
                tricks = mem[M_CTX + C_TRICKS] + 1
                mem[M_CTX + C_TRICKS] = tricks
                if tricks == mem[M_CTX + C_LIMIT]:
                    mem[M_CTX + C_ABORTED] = 1
                next_won = won + ((team >> next_seat) & 1)
                next_present = mem[M_HANDS] | mem[M_HANDS + 1] | mem[M_HANDS + 2] | mem[M_HANDS + 3]
                next_leader = next_seat
                next_pos = start
                next_blind = face_up
                won_card = next_card
                next_seat = none
                next_card = none
                trick_cards = np.int64(0)
                for j in range(4):
                    if not (blind and j == 0):
                        trick_cards |= np.int64(1) << mem[M_TRICK + j]
                # The next trick reuses the trick slots: keep this trick's cards for the sibling moves.
                t0 = mem[M_TRICK]
                t1 = mem[M_TRICK + 1]
                t2 = mem[M_TRICK + 2]
        ans = search(address, size, next_present, next_leader, next_pos, next_seat, next_card, next_blind, next_won, lo,
                     hi, depth + 1, collect)
        if pos == 3:
            mem[M_TRICK] = t0
            mem[M_TRICK + 1] = t1
            mem[M_TRICK + 2] = t2
            rank_card = _rank_winner(trick_cards, won_card)
            if rank_card >= 0:
                ans |= np.int64(1) << rank_card
        mem[M_HANDS + seat] ^= bit
        if mem[M_CTX + C_ABORTED]:
            # The budget ran out below: this node's answer is unknown, so it returns before its store.
            return _answer(False, 0)
        res = (ans >> RESULT_SHIFT) & 1 == 1
        if STATS:
            _proof_child(mem, depth, res == maximiser, tried > 1)
        if root_collect:
            mem[M_OUT + i] = res
            if res != maximiser and collect & ROOT_UNTIL_FAIL:
                break
        if res == maximiser:
            result = res
            if not root_collect:
                relevant = (ans & RELEVANT_BITS) | called_rel
                best = move
                if cutoff_key != NO_CUTOFF_KEY and move < BLIND:
                    _remember_cutoff(mem, cutoff_key, move)
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


# The entries below are plain Python: each kernel calling ``search`` would link and re-optimise the whole
# search again when it compiles (about 2 CPU-s per entry), while a call from Python costs microseconds.
def solve_window(mem, hands, trick, leader, pos, blind, lo, hi, collect, root_moves=ROOT_ALL):
    """Root of one yes/no search: can the team's tricks from here land in ``[lo, hi]``?  With ``collect``, each
    root move's answer, of the cards in ``root_moves`` only (``search``'s ``collect``)."""
    set_position(mem, hands, trick)
    win_seat = -1
    win_card = -1
    present = int(hands[0] | hands[1] | hands[2] | hands[3])
    if pos > 0:
        win_seat, win_card = start_winner(trick, leader, pos, blind, mem[M_CTX + C_TRUMP], mem[M_CTX + C_CALLED])
        for i in range(pos):
            present |= 1 << int(trick[i] % BLIND)
    answer = search(mem.ctypes.data, mem.shape[0], present, leader, pos, win_seat, win_card, bool(blind), 0, lo, hi, 0,
                    int(root_moves) if collect else 0)
    return (answer >> RESULT_SHIFT) & 1 == 1


def solve_max(mem, hands, trick, leader, pos, blind, guess):
    """Team's guaranteed tricks from here (team maximises, the others minimise); needs ``MODE_MAX``.

    :func:`solve_bounded` without a budget, from no known bounds.
    """
    return solve_bounded(mem, hands, trick, leader, pos, blind, guess, 0, future_tricks(hands), 0)[0]


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
    after each child search and returns at once, before its own table store, its cut-off card and its
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
    return int(low), int(high)
