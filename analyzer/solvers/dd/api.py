"""Python entry points of the double-dummy solver: validation, goal mapping, table reuse."""

from typing import NamedTuple

import numpy as np

from analyzer import catalog
from analyzer.cards.tricks import NO_TRUMP
from analyzer.errors import InputError
from analyzer.solvers.dd import search as _k
from analyzer.solvers.dd import restart
from analyzer.solvers.dd.tables import BLIND, MODE_EXACT, MODE_MAX, MODE_MIN, TT_BITS, UNBOUNDED

GOALS = ("max", "ge", "le", "eq")
_GOAL_MODE = {"max": MODE_MAX, "ge": MODE_MAX, "le": MODE_MIN, "eq": MODE_EXACT}
GOAL_IDS = {name: i for i, name in enumerate(GOALS)}
NORTH_SOUTH = 0b0101

_mem = None
_generation = 0


def _work():
    """Process-wide work array with the transposition table (allocated once; generations keep solves apart)."""
    global _mem
    if _mem is None:
        _mem = _k.new_mem(TT_BITS)
    return _mem


def _next_generation() -> int:
    global _generation
    _generation += 1
    return _generation


def _generation_for(generations, trump, team, mode) -> int:
    """A fresh table generation, or the one ``generations`` keeps for this trump, team and kind of goal."""
    if generations is None:
        return _next_generation()
    key = (int(trump), int(team), int(mode))
    if key not in generations:
        generations[key] = _next_generation()
    return generations[key]


def last_tricks() -> int:
    """Completed tricks searched (fourth-hand card plays) by the last solve call, the count DDS reports as
    its ``nodes``; a statistic for benchmarks."""
    return int(_work()[_k.M_CTX + _k.C_TRICKS])


def _bits(mask: int) -> int:
    return bin(int(mask)).count("1")


def _validate(hands, trump, leader, team, goal, k, trick, called_card, trick_blind):
    """Check a position and return (hands, trick array, trick leader, position in trick)."""
    try:
        masks = np.asarray(hands, dtype=np.int64).reshape(-1)
    except (TypeError, ValueError, OverflowError):
        raise InputError("hands must be four int64 card masks") from None
    if masks.shape != (4,):
        raise InputError(f"hands must be four card masks, got {masks.size}")
    if any(int(m) < 0 or int(m) >> 52 for m in masks):
        raise InputError("hands hold card ids outside 0..51")
    seen = 0
    for m in masks:
        if seen & int(m):
            raise InputError("a card is held by two hands")
        seen |= int(m)
    if not 0 <= int(trump) <= NO_TRUMP:
        raise InputError(f"trump must be 0..3 (C D H S) or 4 (no trump), got {trump}")
    if not 0 <= int(leader) <= 3:
        raise InputError(f"leader must be a seat 0..3, got {leader}")
    if not 0 < int(team) < 15:
        raise InputError(f"team must be a non-empty proper subset of the seats (mask 1..14), got {team}")
    if goal not in GOALS:
        raise InputError(f"unknown goal {goal!r}: use one of {', '.join(GOALS)}")
    played = [int(c) for c in trick]
    if len(played) > 3:
        raise InputError("a trick in progress holds at most three cards")
    for card in played:
        if not 0 <= card < 52 or seen >> card & 1:
            raise InputError(f"trick card {card} is not a card id or is still in a hand")
    if len(set(played)) != len(played):
        raise InputError("a card appears twice in the trick")
    if trick_blind and not played:
        raise InputError("a blind lead needs a card in the trick")
    pos = len(played)
    trick_leader = (int(leader) - pos) % 4
    sizes = [_bits(m) for m in masks]
    expected = max(sizes)
    for seat in range(4):
        already = (seat - trick_leader) % 4 < pos
        if sizes[seat] != expected - (1 if already else 0):
            raise InputError(f"hand sizes {sizes} do not fit a trick with {pos} card(s) played")
    if pos and expected == 0:
        raise InputError("hand sizes do not fit the trick in progress")
    if goal != "max" and not 0 <= int(k) <= 13:
        raise InputError(f"k must be 0..13, got {k}")
    if not -1 <= int(called_card) < 52:
        raise InputError(f"called card must be a card id or -1, got {called_card}")
    arr = np.full(4, -1, dtype=np.int64)
    arr[:pos] = played
    if trick_blind:
        arr[0] += BLIND
    return masks.copy(), arr, trick_leader, pos


def _blind_bidder(masks, team, called_card, blind_call):
    """The seat allowed blind leads: the team member not holding the called card, while it is out."""
    if not blind_call:
        return -1
    if called_card < 0:
        raise InputError("a blind call needs a called card")
    holders = [s for s in range(4) if int(masks[s]) >> called_card & 1]
    if not holders:
        return -1
    bidders = [s for s in range(4) if team >> s & 1 and s != holders[0]]
    if len(bidders) != 1 or not team >> holders[0] & 1:
        raise InputError("a blind call needs a team of the bidder and the called card's holder")
    return bidders[0]


def _window(goal, k):
    if goal == "le":
        return -UNBOUNDED, int(k)
    if goal == "eq":
        return int(k), int(k)
    return int(k), UNBOUNDED


def solve(hands, trump, leader, team, goal="max", k=0, trick=(), called_card=-1, blind_call=False, trick_blind=False,
          generations=None):
    """Solve a position double dummy.

    Parameters
    ----------
    hands : array_like of 4 int64
        Card masks of seats N E S W (0..3), the cards each still holds.
    trump : int
        Trump suit 0..3 (C D H S) or 4 for no trump.
    leader : int
        Seat to play next.
    team : int
        Bit mask of the seats whose tricks are counted (the declaring side), e.g. 0b0101 for N-S.
    goal : {"max", "ge", "le", "eq"}
        ``max``: the team's guaranteed tricks from here; ``ge``/``le``/``eq``: can the team make at
        least / at most / exactly ``k`` tricks from here (for ``le`` and ``eq`` the team plays to keep
        its count low or exact, as in Misery and 1 Alone).
    k : int
        Trick count for the yes/no goals, counting the trick in progress.
    trick : sequence of int
        Cards already played to the current trick, in play order; its leader is derived from
        ``leader`` and the number of cards.
    called_card : int
        Rikken called card or -1: its holder must play it when its suit is led and must lead it
        when leading that suit.
    blind_call : bool
        The call was blind: the bidder (the team member not holding the called card) may lead a
        face-down card while void in the called suit and the called card is out.
    trick_blind : bool
        The first card of ``trick`` was led face down.
    generations : dict, optional
        Table generations kept by the caller across calls about one deal, as in
        :func:`solve_questions`: later positions of the same play reuse the entries earlier calls
        stored.

    Returns
    -------
    int or bool
        Tricks for ``max``, otherwise whether the goal is reachable against best defence.
    """
    masks, arr, trick_leader, pos = _validate(hands, trump, leader, team, goal, k, trick, called_card, trick_blind)
    bidder = _blind_bidder(masks, int(team), int(called_card), blind_call)
    mem = _work()
    mode = _GOAL_MODE[goal]
    generation = _generation_for(generations, trump, team, mode)
    _k.set_context(mem, int(trump), int(team), mode, int(called_card), bidder, generation)
    if goal == "max":
        guess = _k.guess_tricks(masks, int(team), int(trump))
        return int(_k.solve_max(mem, masks, arr, trick_leader, pos, bool(trick_blind), guess))
    lo, hi = _window(goal, k)
    return bool(_k.solve_window(mem, masks, arr, trick_leader, pos, bool(trick_blind), lo, hi, False))


# The largest budget accepted: about 11 CPU-hours of search (the solver completes roughly 2.5 million
# tricks per CPU-second); anything larger is a typo, not a budget.
MAX_BUDGET = catalog.DD_MAX_BUDGET


def check_budget(budget) -> int:
    """A search budget in completed tricks: a whole number from 0 (no limit) to ``MAX_BUDGET``.

    Raises
    ------
    InputError
        For anything else (not a whole number, negative, absurdly large).
    """
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)):
        raise InputError(f"the budget must be a whole number of completed tricks, got {budget!r}")
    if not 0 <= int(budget) <= MAX_BUDGET:
        raise InputError(f"the budget must be 0 (no limit) to {MAX_BUDGET:,} completed tricks, got {int(budget):,}")
    return int(budget)


def solve_bounds(hands, trump, leader, team, budget=0, low=0, high=None, trick=(), called_card=-1, blind_call=False,
                 trick_blind=False, generations=None):
    """The team's guaranteed tricks, searched within a budget: bounds ``(low, high)``, equal when exact.

    The probes that refine the count may search ``budget`` completed tricks in all (the count
    :func:`last_tricks` reports; 0 = no limit).  When the budget runs out the answer is the interval
    the finished probes proved, never a guess: the count lies in ``[low, high]``.  The budget counts
    work, not time, so the same call gives the same bounds on any machine and after any other solves
    (a fresh table generation, or the caller's ``generations``, see :func:`solve`).

    Parameters
    ----------
    hands, trump, leader, team, trick, called_card, blind_call, trick_blind, generations
        As in :func:`solve`.
    budget : int
        Completed tricks the refining probes may search; 0: no limit.
    low, high : int
        Bounds the caller has already proved (for example by "makes k?" questions); default 0 and
        the tricks left.

    Returns
    -------
    (int, int)
        ``low <= count <= high``.
    """
    masks, arr, trick_leader, pos = _validate(hands, trump, leader, team, "max", 0, trick, called_card, trick_blind)
    budget = check_budget(budget)
    left = int(_k.future_tricks(masks))
    high = left if high is None else int(high)
    if not 0 <= int(low) <= high <= left:
        raise InputError(f"known bounds must satisfy 0 <= low <= high <= {left}, got {low} and {high}")
    bidder = _blind_bidder(masks, int(team), int(called_card), blind_call)
    mem = _work()
    generation = _generation_for(generations, trump, team, MODE_MAX)
    _k.set_context(mem, int(trump), int(team), MODE_MAX, int(called_card), bidder, generation)
    guess = _k.guess_tricks(masks, int(team), int(trump))
    found = _k.solve_bounded(mem, masks, arr, trick_leader, pos, bool(trick_blind), guess, int(low), high, budget)
    return int(found[0]), int(found[1])


class Question(NamedTuple):
    """One question of :func:`solve_questions`; the fields mean what :func:`solve`'s parameters of that name mean."""

    trump: int
    leader: int
    team: int
    goal: str = "max"
    k: int = 0
    called_card: int = -1
    blind_call: bool = False


def solve_questions(hands, questions, generations=None):
    """Answer several questions about one position, keeping the transposition table between them.

    Questions of one trump, team and kind of goal (``max``/``ge``, ``le``, ``eq``) share one table
    generation, whatever their leader, ``k`` or call: entries bound the team's future tricks from a
    position and carry the call while the called card is out, so each question reuses the
    positions the earlier ones searched (after the called card has fallen, also across calls).
    Yes/no questions (``ge``, ``le``, ``eq``) are searched by restarts (:mod:`restart`): the same answers,
    far cheaper on the heavy tail of some "no" answers, at most ``restart.RESTART_UNITS`` units dearer
    on a proof no restart shortens.

    Parameters
    ----------
    hands : array_like of 4 int64
        Card masks of seats N E S W at a trick boundary (no trick in progress).
    questions : sequence of Question
        What to ask; see :func:`solve`.
    generations : dict, optional
        Table generation per (trump, team, kind of goal), kept by the caller across calls about one
        deal (start with an empty dict): a later call then reuses the entries an earlier one stored,
        as far as the questions asked in between have not overwritten their buckets.  Entries hold
        only what is true of their position under their trump, team, kind of goal and call, so
        reuse never changes an answer.

    Returns
    -------
    list of int or bool
        Per question, in order: what :func:`solve` answers.
    """
    questions = [Question(*q) for q in questions]
    masks = None
    bidders = []
    for q in questions:
        masks = _validate(hands, q.trump, q.leader, q.team, q.goal, q.k, (), q.called_card, False)[0]
        bidders.append(_blind_bidder(masks, int(q.team), int(q.called_card), q.blind_call))
    groups = {}
    for i, q in enumerate(questions):
        groups.setdefault((int(q.trump), int(q.team), _GOAL_MODE[q.goal]), []).append(i)
    mem = _work()
    trick = np.full(4, -1, dtype=np.int64)
    answers = [None] * len(questions)
    if generations is None:
        generations = {}
    for (trump, team, mode), members in groups.items():
        generation = _generation_for(generations, trump, team, mode)
        for i in members:
            q = questions[i]
            if q.goal == "max":
                _k.set_context(mem, trump, team, mode, int(q.called_card), bidders[i], generation)
                guess = _k.guess_tricks(masks, team, trump)
                answers[i] = int(_k.solve_max(mem, masks, trick, int(q.leader), 0, False, guess))
            else:
                answers[i] = _restarting(mem, masks, q, bidders[i], generation)
    return answers


def _restarting(mem, masks, q, bidder, generation, unit=restart.UNIT, units=restart.RESTART_UNITS, budget=0):
    """The yes/no question ``q`` (validated; ``bidder`` its blind bidder) in table ``generation`` by restarts."""
    _k.set_context(mem, int(q.trump), int(q.team), _GOAL_MODE[q.goal], int(q.called_card), bidder, generation)
    lo, hi = _window(q.goal, q.k)
    # A yes/no question's cost is heavy-tailed in the move order: restarts (exact, see restart).
    return restart.solve_window_restarts(mem, masks, np.full(4, -1, dtype=np.int64), int(q.leader), 0, False, lo, hi,
                                         unit, budget, units)


def solve_question(hands, trump, leader, team, goal, k, called_card=-1, blind_call=False, generations=None,
                   unit=restart.UNIT, units=restart.RESTART_UNITS, budget=0):
    """One yes/no question at a trick boundary, asked as :func:`solve_questions` asks it: by restarts.

    Parameters
    ----------
    hands, trump, leader, team, k, called_card, blind_call, generations
        As for :func:`solve` (no trick in progress).
    goal : {"ge", "le", "eq"}
        As for :func:`solve`; ``max`` is not a yes/no question.
    unit, units : int
        The restart driver's first limit and its cap in units (:func:`restart.solve_window_restarts`;
        ``units=0`` is the plain search).
    budget : int
        Completed tricks of all runs together (0: none).

    Returns
    -------
    bool or None
        Whether the goal is reachable against best defence; None when ``budget`` ran out first.
        :func:`last_tricks` then counts the completed tricks of all runs.
    """
    if goal not in ("ge", "le", "eq"):
        raise InputError(f"a yes/no question wants goal ge, le or eq, got {goal!r}")
    if int(unit) < 1 or int(units) < 0:
        raise InputError(f"restarts want a unit of at least 1 and a cap of at least 0 units, got {unit} and {units}")
    q = Question(trump, leader, team, goal, k, called_card, blind_call)
    masks = _validate(hands, trump, leader, team, goal, k, (), called_card, False)[0]
    bidder = _blind_bidder(masks, int(team), int(called_card), blind_call)
    generation = _generation_for(generations, trump, team, _GOAL_MODE[goal])
    return _restarting(_work(), masks, q, bidder, generation, int(unit), int(units), check_budget(budget))


def _run_of(card, hand, present, called_card):
    """Cards of ``hand`` equivalent to ``card``: its run of touching cards among the cards still out."""
    if card == called_card:
        return 1 << card
    suit = card // 13
    run = 1 << card
    for direction in (1, -1):
        rank = card % 13 + direction
        while 0 <= rank < 13:
            other = suit * 13 + rank
            if present >> other & 1:
                if not hand >> other & 1 or other == called_card:
                    break
                run |= 1 << other
            rank += direction
    return run


class MoveVerdicts(NamedTuple):
    """What :func:`judge_moves` proved about the mover's legal moves (each a card mask, face up or led face down).

    ``keep_up``/``keep_down``: moves proved to keep the best result the mover's side can force;
    ``fail_up``/``fail_down``: moves proved not to; ``complete``: every legal move is in one of the two
    (always so without a budget). A legal move in neither is undecided: the budget ran out first.
    """

    keep_up: int
    keep_down: int
    fail_up: int
    fail_down: int
    complete: bool


def judge_moves(hands, trump, leader, team, goal="max", k=0, trick=(), called_card=-1, blind_call=False,
                trick_blind=False, generations=None, budget=0, moves=None, until_fail=False):
    """Which moves of the seat to move keep its side's best result, searched within a budget.

    A move *keeps* when after it the mover's side can still force the best result it can force now:
    for ``max`` the team's double-dummy trick count (team members keep it, the others keep the team
    from exceeding it); otherwise the yes/no answer of the goal (team members keep it reachable, the
    others keep it unreachable).  When no move keeps, none is better than another.

    The whole call (for ``max`` the count first, then the moves) may search ``budget`` completed tricks
    (:func:`last_tricks`; 0: no limit).  The moves are searched one after another, and a move's
    verdict is reported only when its search finished, so every verdict is proved, on any machine,
    whatever the budget: a budget that runs out leaves the remaining moves undecided, never guessed
    (the search's abort keeps unfinished answers out of the table, see ``search.solve_bounded``).
    For ``max`` a count the budget leaves as an interval decides no move.

    Parameters
    ----------
    hands, trump, leader, team, goal, k, trick, called_card, blind_call, trick_blind, generations
        As in :func:`solve`.
    budget : int
        Completed tricks the call may search; 0: no limit.
    moves : (int, int), optional
        Masks ``(face_up, face_down)`` of the moves to search (each with its run of equivalent cards); the
        others are left out of the verdicts, and ``complete`` then says every move asked was decided.
        Default: every legal move.
    until_fail : bool
        Stop at the first move that does not keep (the one verdict ``fail_*`` then holds, and the answer
        is ``complete``): whether some move asked fails, at the cost of the moves up to it.

    Returns
    -------
    MoveVerdicts
        Cards extended to their runs of equivalent cards (touching cards of one hand).
    """
    masks, arr, trick_leader, pos = _validate(hands, trump, leader, team, goal, k, trick, called_card, trick_blind)
    budget = check_budget(budget)
    bidder = _blind_bidder(masks, int(team), int(called_card), blind_call)
    mode = _GOAL_MODE[goal]
    mem = _work()
    generation = _generation_for(generations, trump, team, mode)
    _k.set_context(mem, int(trump), int(team), mode, int(called_card), bidder, generation)
    mover = int(leader)
    on_team = bool(int(team) >> mover & 1)
    if goal == "max":
        guess = _k.guess_tricks(masks, int(team), int(trump))
        left = int(_k.future_tricks(masks))
        low, high = _k.solve_bounded(mem, masks, arr, trick_leader, pos, bool(trick_blind), guess, 0, left, budget)
        if low != high:
            return MoveVerdicts(0, 0, 0, 0, False)
        # The team's keeping moves hold >= the count; the others' hold the team below count + 1.
        lo, hi = (int(low) if on_team else int(low) + 1), UNBOUNDED
    else:
        lo, hi = _window(goal, k)
    used = int(mem[_k.M_CTX + _k.C_TRICKS])
    if budget:
        if used >= budget:
            return MoveVerdicts(0, 0, 0, 0, False)
        # The abort fires where the count of completed tricks reaches the limit.
        mem[_k.M_CTX + _k.C_LIMIT] = budget
    mem[_k.M_CTX + _k.C_ABORTED] = 0
    # An answer slot still holding -1 afterwards belongs to a move whose search did not finish.
    mem[_k.M_OUT:_k.M_OUT + _k.MAX_MOVES] = -1
    present = int(masks[0] | masks[1] | masks[2] | masks[3])
    for card in arr[:pos]:
        present |= 1 << int(card % BLIND)
    hand = int(masks[mover])
    root = _k.ROOT_ALL if moves is None else _root_cards(moves, hand, present, int(called_card))
    _k.solve_window(mem, masks, arr, trick_leader, pos, bool(trick_blind), lo, hi, True,
                    root | (_k.ROOT_UNTIL_FAIL if until_fail else 0))
    n = int(mem[_k.M_CTX + _k.C_MOVES])
    answers = mem[_k.M_OUT:_k.M_OUT + n].copy()
    # Every move asked has its answer unless the budget stopped the search (a move left out, or past the first
    # failing one, has none either way).
    complete = not mem[_k.M_CTX + _k.C_ABORTED]
    mem[_k.M_CTX + _k.C_LIMIT] = 0
    mem[_k.M_CTX + _k.C_ABORTED] = 0
    decided = answers >= 0
    # Root moves are searched in slot order; the slots of searched moves hold the moves themselves.
    found = [0, 0, 0, 0]  # keep up, keep down, fail up, fail down
    for move, answer in zip(mem[_k.M_MOVES:_k.M_MOVES + n][decided], answers[decided]):
        keeps = bool(answer) == on_team
        if move >= BLIND:
            found[(0 if keeps else 2) + 1] |= _run_of(int(move) - BLIND, hand, present, -1)
        else:
            found[0 if keeps else 2] |= _run_of(int(move), hand, present, int(called_card))
    return MoveVerdicts(*found, complete)


def _root_cards(moves, hand, present, called_card):
    """The cards of the root moves to search: each move of ``moves`` (face-up and face-down masks) with its run
    (the search tries one card of each run)."""
    up, down = (int(m) for m in moves)
    cards = 0
    for mask, called in ((up & hand, called_card), (down & hand, -1)):
        while mask:
            card = (mask & -mask).bit_length() - 1
            cards |= _run_of(card, hand, present, called)
            mask &= mask - 1
    return cards


def best_moves(hands, trump, leader, team, goal="max", k=0, trick=(), called_card=-1, blind_call=False, trick_blind=False,
               generations=None):
    """Optimal plays for the seat to move: ``(mask of face-up cards, mask of cards to lead face down)``.

    A card is optimal when it keeps the best result the mover's side can force (for ``max``: the
    team's trick count; otherwise the yes/no answer).  When every play loses, every legal play is
    returned.  :func:`judge_moves` without a budget; see :func:`solve` for the parameters.
    """
    verdicts = judge_moves(hands, trump, leader, team, goal, k, trick, called_card, blind_call, trick_blind,
                           generations)
    if verdicts.keep_up or verdicts.keep_down:
        return verdicts.keep_up, verdicts.keep_down
    return verdicts.fail_up, verdicts.fail_down


def best_cards(hands, trump, leader, team, goal="max", k=0, trick=(), called_card=-1, blind_call=False, trick_blind=False):
    """Mask of the optimal face-up cards for the seat to move (see :func:`best_moves`)."""
    return best_moves(hands, trump, leader, team, goal, k, trick, called_card, blind_call, trick_blind)[0]


def _batch_loop(deals, trump, leader, team, mode, want_max, lo, hi, called, bidders, first_gen, mem, results):
    # A loop in Python, not a kernel: a kernel calling the search would link and re-optimise it again
    # when it compiles (about 2 CPU-s), while the loop costs microseconds a deal.
    trick = np.full(4, -1, dtype=np.int64)
    for i in range(deals.shape[0]):
        hands = deals[i].copy()
        _k.set_context(mem, trump, team, mode, called, bidders[i], first_gen + i)
        if want_max:
            results[i] = _k.solve_max(mem, hands, trick, leader, 0, False, _k.guess_tricks(hands, team, trump))
        else:
            results[i] = 1 if _k.solve_window(mem, hands, trick, leader, 0, False, lo, hi, False) else 0


def _table_loop(hands, first_gen, mem, out):
    trick = np.full(4, -1, dtype=np.int64)
    left = int(_k.future_tricks(hands))
    searched = 0
    for trump in range(NO_TRUMP + 1):
        # One table generation per strain: every leader's search reuses the bounds of the others.
        _k.set_context(mem, trump, NORTH_SOUTH, MODE_MAX, -1, -1, first_gen + trump)
        guess = _k.guess_tricks(hands, NORTH_SOUTH, trump)
        for leader in range(4):
            north_south = _k.solve_max(mem, hands, trick, leader, 0, False, guess)
            guess = north_south
            declarer = (leader + 3) & 3
            out[trump, declarer] = north_south if declarer % 2 == 0 else left - north_south
        searched += int(mem[_k.M_CTX + _k.C_TRICKS])
    # Each strain's context starts its count at zero: the sum is what the whole table searched.
    mem[_k.M_CTX + _k.C_TRICKS] = searched


def solve_table(hands):
    """The double-dummy table of a deal: tricks for each declarer's partnership in each strain.

    The semantics of DDS's table call (``CalcDDtable``): partners sit opposite (N-S against E-W),
    the declarer's left-hand opponent leads, both sides play for tricks.  The transposition table
    is kept across the four leaders of a strain (its entries bound the side's future tricks from a
    position, whatever the root, the leader or the target), so later leaders reuse the earlier
    searches, and each leader's count search starts from the previous leader's answer.  That is all
    DDS's table call shares too (``CalcSingleCommon``: one table per strain, the first leader's answer
    as the others' first guess).  No leader's answer bounds another's: with 13 cards of one suit in
    each hand, at no trump the side on lead takes all 13 tricks, whoever leads.  :func:`last_tricks`
    then reports the completed tricks of all 20 searches.

    Parameters
    ----------
    hands : array_like of 4 int64
        Card masks of seats N E S W, all of one size (a full deal or an ending), no trick in progress.

    Returns
    -------
    numpy.ndarray of int64, shape (5, 4)
        ``table[strain, declarer]``: strains C D H S NT (0..4), declarers N E S W (0..3).
    """
    global _generation
    masks = _validate(hands, 0, 0, NORTH_SOUTH, "max", 0, (), -1, False)[0]
    out = np.zeros((NO_TRUMP + 1, 4), dtype=np.int64)
    first = _generation + 1
    _generation += NO_TRUMP + 1
    _table_loop(masks, first, _work(), out)
    return out


def solve_batch(deals, trump, leader, team, goal="max", k=0, called_card=-1, blind_call=False):
    """Solve many deals from their start (no trick in progress) with the same question.

    Parameters
    ----------
    deals : array_like, int64[n, 4]
        Seat masks per deal.
    trump, leader, team, goal, k, called_card, blind_call
        As in :func:`solve`.

    Returns
    -------
    numpy.ndarray of int64
        Per deal: tricks for ``max``, else 1 (goal reachable) or 0.
    """
    global _generation
    arr = np.ascontiguousarray(np.asarray(deals, dtype=np.int64))
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise InputError(f"deals must have shape (n, 4), got {arr.shape}")
    bidders = np.empty(len(arr), dtype=np.int64)
    for i, hands in enumerate(arr):
        _validate(hands, trump, leader, team, goal, k, (), called_card, False)
        bidders[i] = _blind_bidder(hands, int(team), int(called_card), blind_call)
    lo, hi = _window(goal, k)
    results = np.zeros(len(arr), dtype=np.int64)
    first = _generation + 1
    _generation += len(arr)
    _batch_loop(arr, int(trump), int(leader), int(team), _GOAL_MODE[goal], goal == "max", lo, hi, int(called_card), bidders, first, _work(), results)
    return results
