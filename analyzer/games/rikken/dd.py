"""Rikken under double-dummy play: contract setups solved outright, rounds played card by card by the
solver, and the double-dummy table of ``rikken solve``.

Setups (``play_setups_dd``). A setup row is one declared contract on one deal, in the arrays the
Rikken experiments build (``experiments.build_setups``): ``hands``, ``leader``, ``contract_of``,
``partner``, ``trump``, ``called_card``, ``blind``. Under perfect play by both sides:
- trick contracts: the declaring side's count is the most tricks it can guarantee, searched within a
  budget of completed tricks (``contract_bounds``): made or not made is always exact, the count itself
  is exact or the interval the finished probes proved;
- Misery and 1 Alone: only made or failed is settled (these contracts score no undertricks, and
  refining a lost Misery's count costs far more search): the count is the target (0 / 1) when
  the declarer can force it, else ``FAILED_MISERY`` (1) / ``FAILED_ONE_ALONE`` (2), markers that
  fail the contract, not trick counts.

Card play (``playout_batch_dd``, ``rikken play --policy dd``). Every seat sees all four hands and, at
each turn, asks the solver (:func:`judge_moves`) for the cards that are optimal for its side, then
draws one of them uniformly with the run's xoshiro state (the same draw as the random policy:
face-up cards in id order, then face-down leads). The rules of play are the kernels'
(``init_round`` / ``legal_actions`` / ``apply_action``), so legality, the called card, blind leads
and trick winners are exactly those of the other policies. Open contracts change nothing here:
every hand is seen anyway. ``rikken play`` and ``replay`` give each turn a budget of completed tricks
(``DECISION_BUDGET``, through the bot registry): a turn it stops before a card is proved optimal is
counted in the round's ``undecided`` column, and such a round is not a perfect-play result.

What each seat plays for, contract by contract (the *questions* of a round):
- trick contracts (Rik .. 13 Alone, Troela): the declaring side maximises its tricks, the others
  minimise them. Both sides playing perfectly, the side ends with its double-dummy value ``v`` from
  the start, so after one ``solve`` at the start each turn asks only "can the side still reach
  ``v - won``" (its members) or "``v - won + 1``" (the others), one window search instead of two;
- Misery: the declarer plays to take no trick (``le 0``), the others to give him one;
- 1 Alone: the declarer plays to take exactly one trick (``eq``), the others to prevent it.
A Misery / 1 Alone contract already failed asks nothing more. Several Misery / 1 Alone declarers
(joined bids) play a game of more than two sides, which the solver does not model; each seat ranks
the open questions - its own contract first, then the other declarers' in seat order - and narrows
its optimal cards question by question, keeping the previous set when a question would leave none.
So a declarer who can force his contract always makes it; the defenders concentrate on the first
declarer they can still beat.

Mixed tables (``policy_of_seat``): dd seats play as above, the other seats play the kernels' heuristic
or random policy (``kernels.choose_action``, drawing from the same xoshiro state in move order). A dd
seat still assumes every other seat plays perfectly. A non-dd card may change what the declaring side
can still reach, so the value of each trick contract is solved again from the current position before
the next dd turn that follows one.
"""

import numpy as np

from analyzer import catalog
from analyzer.cards.deck import card_name
from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.cards.tricks import NO_TRUMP
from analyzer.errors import InputError
from analyzer.experiments.progress import report_step
from analyzer.games.rikken import rules
from analyzer.games.rikken.count_bounds import KnownCounts, Side
from analyzer.games.rikken.dd_question import STRAIN_LETTERS, calls_for, card_holder
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import (
    POLICY_DD,
    POLICY_IDS,
    apply_action,
    choose_action,
    choose_card_random,
    legal_actions,
    new_round,
)
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET, HAND, TRICKS, TURN
from analyzer.solvers.dd.api import Question, judge_moves, last_tricks, solve, solve_bounds, solve_questions

# Completed tricks each trick count's refining probes may search by default (about 4 CPU-s): on fresh
# seeds it leaves about 1% of the bids rows bounded (docs/performance.md).
DEFAULT_BUDGET = catalog.DD_DEFAULT_BUDGET
# Completed tricks per dd turn (all its solver calls), for callers that record undecided turns (`rikken play`,
# `replay`, the comparison scripts): about 0.4 CPU-s, the budget each of sampled-dd's questions uses. Without
# a budget one turn can take minutes: item 0 of seed 0 of `rikken play --policy dd`, a Misery's opening lead,
# asked "le 0" of every card of a full deal, ran past 2 CPU-minutes on its first turn.
DECISION_BUDGET = catalog.RIKKEN_DD_TURN_BUDGET
FAILED_MISERY = 1
FAILED_ONE_ALONE = 2


def declaring_team(bidder: int, contract: int, partner: int) -> int:
    """Seat mask of the side playing ``contract``: the bidder, plus the partner unless it is played alone."""
    team = 1 << bidder
    if partner >= 0 and rules.SIDE[contract] != rules.Side.ALONE:
        team |= 1 << partner
    return team


def setup_declarer(setups: dict, row: int) -> tuple[int, int, int]:
    """The bidder, contract and declaring team (seat mask) of one setup row (see :func:`play_setups_dd`)."""
    contract_row = setups["contract_of"][row]
    bidder = int(np.flatnonzero(contract_row >= 0)[0])
    contract = int(contract_row[bidder])
    return bidder, contract, declaring_team(bidder, contract, int(setups["partner"][row]))


def declarer_count(hands, leader: int, trump: int, team: int, kind: int, called_card: int = -1,
                   blind: bool = False) -> int:
    """The declaring side's trick count under perfect play for one contract (see the module notes).

    Parameters
    ----------
    hands : array_like of 4 int64
        Seat masks at the start of play.
    leader, trump, team : int
        Seat on lead, trump (4 = none), seat mask of the declaring side.
    kind : int
        ``rules.Kind`` of the contract.
    called_card : int
        Called card or -1; ``blind``: the call was blind.
    """
    return contract_counts(hands, leader, [(trump, team, kind, called_card, blind)])[0]


def contract_counts(hands, leader: int, contracts) -> list[int]:
    """:func:`declarer_count` of several contracts on one deal: :func:`contract_bounds` without a budget."""
    return [low for low, _ in contract_bounds(hands, leader, contracts)]


def made_targets(team: int) -> list[int]:
    """The trick targets whose made or not made is always settled exactly for a side: every target of a
    trick contract played by a side of that size (a lone declarer: 8 to 13, the Alone contracts share
    one play; a pair: 8)."""
    lone = bin(team).count("1") == 1
    return sorted({int(rules.TARGET[c]) for c in rules.Contract
                   if rules.KIND[c] == rules.Kind.TRICKS and (rules.SIDE[c] == rules.Side.ALONE) == lone})


def count_order(contracts) -> list:
    """The trick contracts among ``contracts`` (``(trump, team, kind, called_card, blind)``) in the order
    :func:`contract_bounds` counts them: sides of two or more first (their counts are the cheap ones, and
    they bound the lone counts after them), otherwise as given."""
    return sorted((c for c in contracts if c[2] == rules.Kind.TRICKS), key=lambda c: int(c[1]).bit_count() == 1)


def made_bounds(hands, leader: int, contract, low: int, high: int, generations) -> tuple[int, int]:
    """Bounds on a trick contract's count once made or not made is settled exactly: "makes t?" for each
    target of :func:`made_targets`, lowest first up to the first no, each asked with no budget unless the
    proved bounds ``low <= count <= high`` already answer it."""
    trump, team, _, called, blind = contract
    for target in made_targets(team):
        if target <= low:
            continue
        if target > high:
            break
        if solve(hands, trump, leader, team, "ge", target, called_card=called, blind_call=blind,
                 generations=generations):
            low = target
        else:
            high = target - 1
            break
    return low, high


def lone_questions(contracts, leader: int) -> list[tuple[tuple[int, int, int], Question]]:
    """The Misery and 1 Alone questions :func:`contract_bounds` asks for ``contracts`` (as there), in its order:
    ``((trump, team, kind), question)``, once per trump, team and kind (a lone contract's calls do not change
    its question), Misery ("no trick": ``le 0``) before 1 Alone ("exactly one": ``eq 1``)."""
    asked = []
    for kind, goal, k in ((rules.Kind.MISERY, "le", 0), (rules.Kind.ONE, "eq", 1)):
        keys = dict.fromkeys((int(c[0]), int(c[1])) for c in contracts if c[2] == kind)
        asked += [((trump, team, int(kind)), Question(trump, leader, team, goal, k)) for trump, team in keys]
    return asked


def setup_contracts(setups: dict, rows) -> list[tuple[int, int, int, int, bool]]:
    """The contracts ``(trump, team, kind, called_card, blind)`` of setup rows ``rows`` (one deal and leader), as
    :func:`play_setups_dd` passes them to :func:`contract_bounds`."""
    contracts = []
    for i in rows:
        _, contract, team = setup_declarer(setups, i)
        contracts.append((int(setups["trump"][i]), team, int(rules.KIND[contract]), int(setups["called_card"][i]),
                          bool(setups["blind"][i])))
    return contracts


def contract_bounds(hands, leader: int, contracts, budget: int = 0) -> list[tuple[int, int]]:
    """Bounds ``(low, high)`` on the count :func:`declarer_count` gives, for several contracts on one deal,
    sharing the solver's table among them; ``low == high`` when the count is exact.

    Made or not made is always exact: with a budget, for a trick contract the questions "makes t?" for
    every target of :func:`made_targets` (lowest first, up to the first no) run with no budget (without one
    the count itself is exact, and says it). Only the further
    probes that refine the count search within ``budget`` completed tricks in all (0: no limit; see
    ``solvers.dd.solve_bounds``); when it runs out, the count is the interval the finished probes proved
    (highest proven yes, lowest proven no - 1). Misery and 1 Alone are yes/no questions: always exact.
    Sides of two or more are counted before lone hands, and each count starts from the bounds the counts
    before it prove under the same trump (``count_bounds``: disjoint sides share the tricks, a lone seat
    takes no more than a side holding it), which settle some made / not made questions and probes
    without search.

    Parameters
    ----------
    hands : array_like of 4 int64
        Seat masks at the start of play.
    leader : int
        Seat on lead.
    contracts : sequence of (trump, team, kind, called_card, blind)
        As in :func:`declarer_count`; repeated contracts are solved once.
    budget : int
        Completed tricks per trick count for the refining probes; 0: no limit.

    Returns
    -------
    list of (int, int)
        Per contract, in order.

    Notes
    -----
    One table generation serves each trump, team and kind of goal across all the calls made here
    (``solve_questions``' ``generations``), so the answers depend only on the deal and the contracts,
    not on earlier solves. 1 Alone is asked "exactly one" outright. Filters cost more for the same
    answers: "at most one" first, since proving that the defenders can force a second trick is the
    hard search (on one deal 149 CPU-s against 9.8 for "exactly one"); and, since the solver orders an
    unreached exact window like a maximising one, "at least one" on a node budget first (1.3-4.2x
    the time of "exactly one" alone on the questions of 52 deals of four seeds).
    """
    contracts = [(int(t), int(team), int(kind), int(c), bool(b)) for t, team, kind, c, b in contracts]
    unique = list(dict.fromkeys(contracts))
    generations = {}
    counts = {}
    known = KnownCounts(hands)
    for c in count_order(unique):
        trump, team, _, called, blind = c
        side = Side(team, called, blind)
        low, high = known.bounds(trump, side)
        if budget:
            low, high = made_bounds(hands, leader, c, low, high, generations)
        counts[c] = solve_bounds(hands, trump, leader, team, budget, low, high, called_card=called, blind_call=blind,
                                 generations=generations)
        known.add(trump, side, *counts[c])

    lone = lone_questions(unique, leader)
    made = dict(zip((key for key, _ in lone), solve_questions(hands, [q for _, q in lone], generations)))
    for c in unique:
        if c[2] in (rules.Kind.MISERY, rules.Kind.ONE):
            target, failed = (0, FAILED_MISERY) if c[2] == rules.Kind.MISERY else (1, FAILED_ONE_ALONE)
            count = target if made[c[:3]] else failed
            counts[c] = count, count
    return [counts[c] for c in contracts]


def play_setups_dd(setups: dict, budget: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Tricks per seat (``int64[m, 4]``) for each setup row, as the heuristic play-out returns them, at the
    low and the high bound of the declaring side's count.

    The declaring side's double-dummy count is credited to the bidder, the rest of the tricks to
    the first defender, so side totals (what contracts are scored on) are exact.  The setups of one
    deal and leader are solved together (:func:`contract_bounds`, each trick count within ``budget``
    completed tricks, 0: no limit); the two arrays differ only in the rows whose count is bounded.
    """
    hands = np.asarray(setups["hands"], dtype=np.int64)
    low_tricks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    high_tricks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    groups = {}
    for i in range(hands.shape[0]):
        groups.setdefault((hands[i].tobytes(), int(setups["leader"][i])), []).append(i)
    done = 0
    for rows in groups.values():
        teams = [(bidder, team) for bidder, _, team in (setup_declarer(setups, i) for i in rows)]
        bounds = contract_bounds(hands[rows[0]], int(setups["leader"][rows[0]]), setup_contracts(setups, rows), budget)
        total = bin(int(hands[rows[0]][0])).count("1")
        for i, (bidder, team), counts in zip(rows, teams, bounds):
            defender = next(s for s in range(4) if not team >> s & 1)
            for tricks, count in zip((low_tricks, high_tricks), counts):
                tricks[i, bidder] = count
                tricks[i, defender] = total - count
        done += len(rows)
        report_step(done, hands.shape[0])
    return low_tricks, high_tricks


class _Question:
    """One declarer's contract as a solver question: its team and how the team's goal is phrased."""

    def __init__(self, declarer: int, contract: int, partner: int):
        self.declarer = declarer
        self.kind = int(rules.KIND[contract])
        self.team = declaring_team(declarer, contract, partner)
        self.value = 0  # trick contracts: the team's double-dummy count from the start

    def won(self, st) -> int:
        return sum(int(st[TRICKS + s]) for s in range(4) if self.team >> s & 1)

    def goal(self, st, mover: int, tricks_left: int):
        """``(goal, k)`` for :func:`judge_moves` from the mover's point of view, or None when every card is optimal.

        ``tricks_left`` counts the trick in progress.
        """
        won = self.won(st)
        if self.kind == rules.Kind.TRICKS:
            need = self.value - won + (0 if self.team >> mover & 1 else 1)
            # Reaching 0 more tricks is certain and more than tricks_left impossible: no card matters.
            return ("ge", need) if 0 < need <= tricks_left else None
        if self.kind == rules.Kind.MISERY:
            return ("le", 0) if won == 0 else None
        return ("eq", 1 - won) if won <= 1 else None


def _questions(contract_of, partner: int) -> list[_Question]:
    return [_Question(s, int(c), int(partner)) for s, c in enumerate(contract_of) if c >= 0]


def _ranked(questions: list[_Question], mover: int) -> list[_Question]:
    """The mover's own contract first, then the others in seat order."""
    return sorted(questions, key=lambda q: q.declarer != mover)


def _optimal(st, mover, up, fd, questions, trump, trick, trick_blind, called_card, blind, generations, budget=None):
    """The legal actions ``mover`` may play, ``(face-up mask, face-down mask, decided)``.

    The questions are asked with :func:`judge_moves` within the turn's ``budget`` (a :class:`_TurnBudget`,
    None: no limit): each question gets what the earlier calls left. A finished question, or one that proved
    some moves keep the side's result, narrows the actions to proved optimal ones (or leaves them all when
    none keeps): ``decided`` stays True. A question the budget stopped before any move was proved to keep
    narrows them to the moves not proved to fail, and ``decided`` is False: the card drawn from them is not
    proved optimal; so is a question left unasked (the budget spent, or its trick contract's value unknown).
    """
    hands = st[HAND:HAND + 4].copy()
    # The mover has not played to the trick in progress: his cards count it.
    tricks_left = int(hands[mover]).bit_count()
    decided = True
    for question in _ranked(questions, mover):
        if up.bit_count() + fd.bit_count() <= 1:
            break
        if question.value is None:
            decided = False
            continue
        asked = question.goal(st, mover, tricks_left)
        if asked is None:
            continue
        if budget and budget.left <= 0:
            decided = False
            continue
        verdicts = judge_moves(hands, trump, mover, question.team, asked[0], asked[1], trick=trick,
                               called_card=called_card, blind_call=blind, trick_blind=trick_blind,
                               generations=generations, budget=budget.left if budget else 0)
        if budget:
            budget.spend(last_tricks())
        if verdicts.keep_up or verdicts.keep_down:
            best_up, best_fd = verdicts.keep_up, verdicts.keep_down
        elif verdicts.complete:
            best_up, best_fd = up, fd  # every move loses alike
        else:
            best_up, best_fd = up & ~verdicts.fail_up, fd & ~verdicts.fail_down
            decided = False
        if (up & best_up) | (fd & best_fd):
            up, fd = up & best_up, fd & best_fd
    return up, fd, decided


class _TurnBudget:
    """Completed tricks one dd turn may still search, over all its solver calls (values and questions)."""

    def __init__(self, total: int):
        self.left = total

    def spend(self, tricks: int) -> None:
        self.left -= tricks


def _solve_values(questions, st, mover, trump, trick, trick_blind, called_card, blind, generations, budget=None):
    """Set each trick contract's value to its team's tricks so far plus its double-dummy count from here; None
    where ``budget`` (a :class:`_TurnBudget`, None: no limit) ran out before the count was exact.

    Returns whether every value is known."""
    hands = st[HAND:HAND + 4].copy()
    known = True
    for question in questions:
        if question.kind != rules.Kind.TRICKS:
            continue
        kwargs = dict(trick=trick, called_card=called_card, blind_call=blind, trick_blind=trick_blind,
                      generations=generations)
        if budget is None:
            count = solve(hands, trump, mover, question.team, **kwargs)
        elif budget.left > 0:
            low, high = solve_bounds(hands, trump, mover, question.team, budget.left, **kwargs)
            budget.spend(last_tricks())
            count = low if low == high else None
        else:
            count = None
        question.value = None if count is None else question.won(st) + count
        known = known and count is not None
    return known


def playout_one_dd(hands, leader, contract_of, partner, trump, called_card, blind, rng_state, policy_of_seat=None,
                   params=None, budget=0, undecided_out=None):
    """Play one Rikken round double dummy, or with dd only at some seats (see the module notes).

    Parameters
    ----------
    hands : array_like of 4 int64
        Hand masks of seats 0..3, all of one size (13 for a round; fewer for an ending).
    leader : int
        Seat leading to the first trick.
    contract_of : array_like of 4 int64
        Contract id each seat declares, -1 for non-declarers.
    partner, trump, called_card, blind : int
        As in ``kernels.playout_batch``.
    rng_state : numpy.ndarray of uint64[4]
        xoshiro256** state for the choice among equally good cards, advanced in place.
    policy_of_seat : array_like of 4 int64, optional
        Policy id per seat: ``POLICY_DD`` or a kernel bot's (``kernels.POLICY_IDS``); default dd at every seat.
    params : float64[N_PARAMS], optional
        Heuristic parameters for heuristic seats (default ``heuristic.default_params()``).
    budget : int
        Completed tricks each dd turn may search over all its solver calls (the trick contracts' values,
        then its questions, each getting what the earlier calls left; :func:`last_tricks`); 0: no limit,
        every card proved optimal. With a budget a turn may be *undecided*: the search stopped
        before proving any card optimal, and the card is drawn among those not proved worse (``_optimal``).
        A round with an undecided turn is not a perfect-play result; only a caller that records
        ``undecided_out`` may pass a budget.
    undecided_out : int64[1], optional
        Receives the number of undecided dd turns of the round (required with a budget).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Tricks per seat ``int64[4]`` and the trace ``int64[4 * cards, 4]``, rows ``(seat, action,
        legal face-up mask, legal face-down mask)`` as ``kernels.playout_one`` records them.
    """
    hands = np.asarray(hands, dtype=np.int64)
    contract_of = np.asarray(contract_of, dtype=np.int64)
    trump, called_card, blind = int(trump), int(called_card), bool(blind)
    policies = np.full(4, POLICY_DD, dtype=np.int64) if policy_of_seat is None else \
        np.asarray(policy_of_seat, dtype=np.int64)
    if not np.isin(policies, [POLICY_DD, *POLICY_IDS.values()]).all():
        raise InputError(f"dd plays with the kernel bots {sorted(POLICY_IDS)} only, got ids {policies.tolist()}")
    params = default_params() if params is None else np.asarray(params, dtype=np.float64)
    if budget and undecided_out is None:
        raise InputError("a budgeted dd play-out must record its undecided turns (undecided_out)")
    st = new_round(hands, int(leader), contract_of, int(partner), trump, called_card, int(blind))
    questions = _questions(contract_of, partner)
    undecided = 0
    moves = 4 * int(hands[0]).bit_count()
    trace = np.empty((moves, 4), dtype=np.int64)
    trick: list[int] = []
    trick_blind = False
    # The values are solved before the first dd turn and again after any card a non-dd seat played.
    stale = True
    # One table generation per trump, team and kind of goal for the whole round: each turn's
    # search reuses the positions the earlier turns searched.
    generations = {}
    for i in range(moves):
        seat = int(st[TURN])
        up, fd = legal_actions(st, seat)
        if policies[seat] == POLICY_DD:
            turn = _TurnBudget(budget) if budget else None
            if stale:
                # A value the budget left unknown is solved again at the next dd turn.
                stale = not _solve_values(questions, st, seat, trump, trick, trick_blind, called_card, blind,
                                          generations, turn)
            best_up, best_fd, decided = _optimal(st, seat, int(up), int(fd), questions, trump, trick, trick_blind,
                                                 called_card, blind, generations, turn)
            undecided += not decided
            action = int(choose_card_random(np.int64(best_up), np.int64(best_fd), rng_state))
        else:
            action = int(choose_action(st, seat, up, fd, policies[seat], params, rng_state))
            stale = True
        trace[i] = seat, action, up, fd
        face_down = action >= FACE_DOWN_OFFSET
        # The solver needs the face-down card itself (the kernel state only records that one was led).
        trick.append(action - FACE_DOWN_OFFSET if face_down else action)
        trick_blind = trick_blind or face_down
        if apply_action(st, seat, action) >= 0:
            trick, trick_blind = [], False
    if undecided_out is not None:
        undecided_out[0] = undecided
    return st[TRICKS:TRICKS + 4].copy(), trace


def playout_batch_dd(hands, leader, contract_of, partner, trump, called_card, blind, rng_state, tricks_out,
                     policy_of_seat=None, params=None, budget=0, undecided_out=None):
    """Play out a batch of rounds with :func:`playout_one_dd`; arrays as in ``kernels.playout_batch``.

    ``policy_of_seat`` is ``int64[n, 4]`` (as in :func:`playout_one_dd`), default dd at every seat; ``params``
    and ``budget`` as in :func:`playout_one_dd`; ``undecided_out`` (``int64[n]``, required with a budget)
    receives each round's undecided dd turns.
    """
    if budget and undecided_out is None:
        raise InputError("a budgeted dd play-out must record its undecided turns (undecided_out)")
    for d in range(hands.shape[0]):
        seats = None if policy_of_seat is None else policy_of_seat[d]
        count = None if undecided_out is None else undecided_out[d:d + 1]
        tricks_out[d], _ = playout_one_dd(hands[d], leader[d], contract_of[d], partner[d], trump[d], called_card[d],
                                          blind[d], rng_state, seats, params, budget, count)
        report_step(d + 1, hands.shape[0])


def dd_table(hands, leader: int, budget: int = 0) -> tuple[list[dict], list[dict]]:
    """The double-dummy table of ``rikken solve``: every seat as declarer under every trump suit, its tricks
    alone and with each callable partner; and per seat whether Misery (no tricks) and 1 Alone (exactly
    one) are makeable at no trump.

    One :func:`contract_bounds` call for the whole deal: the counts of one trump bound each other and the
    calls of one pair and trump share the solver's table. A count is an int when exact, else ``[low,
    high]``, the interval its probes proved within ``budget`` completed tricks (0: no limit, always exact).

    Returns
    -------
    (list of dict, list of dict)
        The rows (declarer, trump, ``alone`` count, ``calls`` by card name: partner, blind, tricks) and the
        Misery / 1 Alone row of each seat.
    """
    rows = []
    contracts = []
    tricks = int(rules.Kind.TRICKS)
    for declarer in range(4):
        alone_bit = 1 << declarer
        for trump in range(4):
            row = {"declarer": SEAT_LETTERS[declarer], "trump": STRAIN_LETTERS[trump], "alone": len(contracts),
                   "calls": {}}
            contracts.append((trump, alone_bit, tricks, -1, False))
            for card, blind in calls_for(int(hands[declarer]), trump):
                partner = card_holder(hands, card)
                if partner < 0:
                    continue
                row["calls"][card_name(card)] = {"partner": SEAT_LETTERS[partner], "blind": blind,
                                                 "tricks": len(contracts)}
                contracts.append((trump, alone_bit | 1 << partner, tricks, card, blind))
            rows.append(row)
    lone = len(contracts)
    contracts += [(NO_TRUMP, 1 << d, kind, -1, False) for d in range(4) for kind in (rules.Kind.MISERY, rules.Kind.ONE)]
    answers = [low if low == high else [low, high] for low, high in contract_bounds(hands, leader, contracts, budget)]
    for row in rows:
        row["alone"] = answers[row["alone"]]
        for call in row["calls"].values():
            call["tricks"] = answers[call["tricks"]]
    misery = [{"declarer": SEAT_LETTERS[d], "misery": answers[lone + 2 * d] == 0,
               "one_alone": answers[lone + 2 * d + 1] == 1} for d in range(4)]
    return rows, misery
