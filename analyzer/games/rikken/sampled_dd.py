"""The ``sampled-dd`` card-play policy for Rikken: sampled hidden hands, each solved double dummy.

The bridge programs' way (GIB and its successors) applied to Rikken. At a decision with more than one
distinct card (``expert.distinct_actions``) the seat draws ``worlds`` worlds (``WORLDS`` unless the run's
``--worlds`` says otherwise; ``OPEN_MISERY_WORLDS_FACTOR`` times as many for a defender of an Open Misery) -
hidden hands consistent with what it has seen, with the expert's sampler (``expert.prepare_worlds`` and
``expert.draw_into``, importance weights included) - and solves each world exactly with the
double-dummy solver, for every contract still open, from the seat's side:

- a trick contract: can the declaring side still reach its target (``ge``) after each card, and does
  the card keep the side's double-dummy trick count (``max``: a trick given up or not taken);
- Misery: can the declarer still take no trick (``le 0``); 1 Alone: exactly one (``eq``).

In each world a card scores 1 per contract its side wins (declarers: made; the others: beaten) plus
``TRICK_WEIGHT`` (1/32) when it costs its side no trick of a trick contract; the card with the best
weighted mean over the worlds is played, the expert's card (``expert``: sampled heuristic play-outs,
here searching from the opening lead, ``FALLBACK_FIRST_TRICK``) when it ties for best; a defender
against Misery following suit breaks ties by keeping his low cards instead (``misery_defence_card``, in
``misery_playout``, the one home of a misère defender's card), and a defender against an exposed misère (Open
Misery after trick 1) by play-outs of the same worlds and ``PLAYOUT_WORLDS`` more, in which no defender sees
another's cards (``playout_tie_break``: the solved worlds credit the defenders with each other's hands, so there
nearly every card "beats" the misère in every world). A contract made or failed beyond repair asks nothing
more; when nothing is open the expert's card is played. Ties are common where a perfect opponent controls the
contract in every world (all cards lose alike): against
1 Alone 81% of the defence's decisions tie on every world (12 screened deals, seed 299987), and there
the expert, which models a fallible declarer, still ranks the cards. On those deals 5 of 12 were made
against sampled-dd defence with the expert's card from trick 5 (the heuristic's before), 2 with it from
trick 1, against 2 for the expert bot (docs/rikken-bots.md).

The worlds are drawn before any is solved; the contracts are asked in every world first, the trick counts
(the tie-break, most of a trick contract's solving: 75% of the completed tricks on Rik, 97% on 9 Alone) after,
and the solving stops once no question still to come can change the card (``decided_action``): the same card
and the same draws as solving all of them, as long as no question runs out of its budget (a budgeted answer
depends on what the shared table holds, and fewer worlds solved leave it holding less, so a later decision of
the round can differ). It saved about
1% of the solves on screened Misery and 1 Alone deals (``scripts/rikken_sampled_dd_work.py``): most
decisions stay close to the last world, where every card ties. Asking the trick counts last saved 6% of 9
Alone's and 9% of Rik's completed tricks (seed 7311, 4 deals each, same tricks): the contracts seldom
separate the cards, so the tie-break is usually still needed.

In trick 1 a world whose hidden declarer holds a hand the bidding policy would not bid his contract with
(a Misery bidder without a misère) is drawn again, up to ``BID_TRIES`` times (``fits_the_bidding``); later
tricks have no filter (the state does not keep who played which card).

Open contracts need nothing special: an exposed hand is part of what the seat sees, so the worlds
only deal the unseen hands (in the "All" contracts after trick 1 every hand is seen: one world,
exact play). The seat reads the round only through the sampler and the cards on the table: the
current trick's face-down card (a blind lead), which it has not seen, is one of the world's unseen
face-down cards (it never wins a trick, so which one changes nothing).

Scope and budget. Every decision with a choice is searched, for declarers and defenders of every
contract kind, opening leads included. Each solver question may search ``QUESTION_BUDGET`` completed
tricks (``solvers.dd.judge_moves``): exact questions from a full deal can take the solver minutes (a
misère defence 20 CPU-s, a 1 Alone 100 CPU-s on single decisions), the budget bounds a decision to about
``worlds x questions x budget`` completed tricks (about 2.5 million a CPU-second). A question the budget
stops proves what it finished: each action then carries bounds on its value (``world_values``), and the
expert's card is left only for a card whose worst case over the worlds beats the expert card's
best (``best_action``). So a stopped search never makes the policy play a card it has not proved
better, it only makes it fall back to the expert's card more often.

Known weaknesses, those of every sampled double-dummy player:

- strategy fusion: each world is solved as if the seat would know the hidden cards from then on, so a
  card that keeps a guess open ("I will know later") is valued as if the guess were always right;
  finesses and safety plays are overvalued, discovery plays undervalued;
- no signalling and no inference from the others' play: the worlds use what was seen (cards, voids,
  the called card's rules), not why a card was chosen, and the partner is modelled as double dummy;
- the other seats are modelled as perfect players, who in each world see every card (against an exposed
  misère the ties are broken by play-outs that model the declarer as the heuristic and the defenders as a
  rule, ``misery_playout``);
- few worlds (8 by default, 16 against an Open Misery): close decisions carry sampling noise.

Reproducible: the worlds come from the run's xoshiro stream (``draw_world``), the solves are
deterministic, so the same seed plays the same cards whatever the workers.
"""

import numpy as np

from analyzer import catalog
from analyzer.errors import InputError
from analyzer.games.rikken import rules
from analyzer.games.rikken.bidding import qualifying_contracts
from analyzer.games.rikken.expert import (
    DEFAULT_SAMPLES,
    P_FIRST_TRICK,
    P_SAMPLES,
    TIE_TOLERANCE,
    TRICK_WEIGHT,
    distinct_actions,
    draw_into,
    prepare_worlds,
)
from analyzer.games.rikken.heuristic import N_PARAMS, default_params
from analyzer.games.rikken.kernels import (
    POLICY_EXPERT,
    POLICY_IDS,
    POLICY_SAMPLED_DD,
    apply_action,
    choose_action,
    legal_actions,
    new_round,
)
from analyzer.games.rikken.misery_playout import (
    clean_misery_declarer,
    exposed_misery_declarer,
    misery_defence_card,
    playout_values,
)
from analyzer.games.rikken.round_layout import (
    BLIND,
    CALLED,
    CONTRACT,
    FACE_DOWN_CARDS,
    FACE_DOWN_OFFSET,
    HAND,
    KIND,
    KIND_MISERY,
    KIND_ONE,
    KIND_TRICKS,
    LEADER,
    N_IN_TRICK,
    PARTNER,
    TRICK,
    TRICK_NO,
    TRICKS,
    TRUMP,
    TURN,
)
from analyzer.games.rikken.shared_verdicts import judge_moves  # api.judge_moves, shared in advise

NAME = "sampled-dd"
WORLDS = catalog.RIKKEN_DEFAULT_WORLDS  # worlds drawn per searched decision
# Completed tricks each solver question may search (about 0.4 CPU-s): on screened Misery and 1 Alone deals
# it bounded the slowest decision from 20 CPU-s to 0.25 with the same card played (docs/rikken-bots.md).
QUESTION_BUDGET = 1_000_000
# The fallback expert searches from the opening lead, not from trick 5 as the expert bot does: most 1 Alone
# defence decisions tie on every world, and there the heuristic's early cards let declarers through
# (docs/rikken-bots.md, "1 Alone defence").
FALLBACK_FIRST_TRICK = 1
# Draws per world in trick 1 until the hidden declarers' hands are ones the bidding policy bids their
# contracts with (``fits_the_bidding``); 0 switches the filter off (off until measured on paired deals).
BID_TRIES = 0
# Worlds drawn again when none of the first told the cards apart (every card alike in every world), before the
# tie goes to the expert's card; 0: none. 24 did not beat more Open Misery deals (11 made against 12 of 25,
# paired) at 2.5x the CPU (docs/rikken-bots.md, "Open Misery").
TIE_WORLDS = 0
# Completed tricks each question may search again, in a world where one stopped at ``budget`` (its value left an
# interval), before the world's values are summed; 0: none. Open Misery's early questions are the costliest
# of any kind, and a stopped one keeps the expert's card (docs/rikken-bots.md, "Open Misery").
RETRY_BUDGET = 0
# Defenders against an exposed misère break the solved worlds' ties by play-outs where no defender sees another's
# cards (``misery_playout``, ``playout_tie_break``); False: the expert's card / ``misery_defence_card`` as before.
PLAYOUTS = True
# With the play-outs, more worlds drawn for them alone (not solved): the play-out values are summed over these and
# the solved ones. 24 cut Open Misery's made rate by 5.5 points [-9.9, -1.0] (220 paired deals, 36 -> 24 made) at
# 1.04x the CPU a deal (1.3x on session 13's deals); 0: the solved worlds alone (docs/rikken-bots.md, "Session 14").
PLAYOUT_WORLDS = 24
# The defenders of an Open Misery (``defends_open_misery``) solve this many times the run's worlds: 16 instead of 8
# made 2.5 points fewer of 800 paired deals (four fresh seeds; gap to perfect defence +4.5 against +7.2) at about
# 2.2x that defence's CPU (docs/rikken-bots.md, "Session 18: more solved worlds against an Open Misery"); 1: the
# run's worlds, as at every other decision.
OPEN_MISERY_WORLDS_FACTOR = 2


class _Goal:
    """One open contract in one world, as the solver is asked about it."""

    __slots__ = ("team", "goal", "k", "tricks")

    def __init__(self, team, goal, k, tricks):
        self.team, self.goal, self.k, self.tricks = team, goal, k, tricks


def open_goals(won, contract_of, kind_of, partner, tricks_left):
    """The questions a world still asks: one :class:`_Goal` per contract not yet decided.

    Parameters
    ----------
    won : sequence of 4 int
        Tricks each seat has won.
    contract_of, kind_of : sequence of 4 int
        Contract id and ``rules.Kind`` per seat, -1 for non-declarers.
    partner : int
        The world's partner seat (holder of the called card / Troela partner), -1 if none.
    tricks_left : int
        Tricks still to be completed, the one in progress included.
    """
    goals = []
    for d in range(4):
        contract = int(contract_of[d])
        if contract < 0:
            continue
        team = 1 << d
        if partner >= 0 and rules.SIDE[contract] != rules.Side.ALONE:
            team |= 1 << partner
        taken = sum(int(won[s]) for s in range(4) if team >> s & 1)
        kind = int(kind_of[d])
        if kind == KIND_TRICKS:
            need = int(rules.TARGET[contract]) - taken
            goals.append(_Goal(team, "ge", need, True) if 0 < need <= tricks_left else _Goal(team, None, 0, True))
        elif kind == KIND_MISERY and taken == 0:
            goals.append(_Goal(team, "le", 0, False))
        elif kind == KIND_ONE and taken <= 1:
            goals.append(_Goal(team, "eq", 1 - taken, False))
    return goals


def has_action(masks, action):
    """Whether ``action`` (a card, or a face-down card at ``FACE_DOWN_OFFSET`` and above) is in ``masks``, a
    pair of bit masks ``(face_up, face_down)`` as the solver's verdicts give them."""
    up, fd = masks
    return bool(fd >> (action - FACE_DOWN_OFFSET) & 1) if action >= FACE_DOWN_OFFSET else bool(up >> action & 1)


def world_values(hands, trump, seat, trick, trick_blind, called_card, blind, goals, actions, generations,
                 budget=0, parts=("contracts", "tricks")):
    """Bounds on the value of each action for ``seat`` in one fully known world: ``(low, high)``, lists parallel
    to ``actions``, equal when every solve finished.

    Per open contract, 1 when the action keeps the result the seat's side can force under perfect play
    by all (declarers: made; the others: beaten), plus ``TRICK_WEIGHT`` when it keeps the side's
    double-dummy trick count of a trick contract. Each question may search ``budget`` completed tricks
    (``solvers.dd.judge_moves``; 0: no limit): an action the budget left undecided counts 0 in ``low``
    and the full score in ``high``, so the true value always lies between them. Where every action is
    alike (all keep the result, or none can) they all score 0: a constant per world changes no choice.
    ``hands``: the world's four hands, ``trick``: the current trick's cards in play order. ``parts``: the
    questions asked, ``"contracts"`` (made or beaten) and / or ``"tricks"`` (the trick counts kept).
    """
    low = [0.0] * len(actions)
    high = [0.0] * len(actions)
    kwargs = dict(trick=trick, called_card=called_card, blind_call=blind, trick_blind=trick_blind,
                  generations=generations, budget=budget)
    for g in goals:
        asked = [(g.goal, g.k, 1.0)] if g.goal is not None and "contracts" in parts else []
        if g.tricks and "tricks" in parts:
            asked.append(("max", 0, TRICK_WEIGHT))
        for goal, k, score in asked:
            verdicts = judge_moves(hands, trump, seat, g.team, goal, k, **kwargs)
            keeps = [has_action((verdicts.keep_up, verdicts.keep_down), action) for action in actions]
            if verdicts.complete:
                if all(keeps) or not any(keeps):
                    continue
                may_keep = keeps
            else:
                may_keep = [not has_action((verdicts.fail_up, verdicts.fail_down), action) for action in actions]
            for i in range(len(actions)):
                low[i] += score if keeps[i] else 0.0
                high[i] += score if may_keep[i] else 0.0
    return low, high


def _trick_cards(st, pile):
    """The current trick's cards in play order and whether it was led face down (the card: lowest of ``pile``)."""
    cards = []
    blind = False
    leader = int(st[LEADER])
    for i in range(int(st[N_IN_TRICK])):
        card = int(st[TRICK + (leader + i) % 4])
        if card == FACE_DOWN_OFFSET:
            card = (pile & -pile).bit_length() - 1
            blind = True
        cards.append(card)
    return cards, blind


def choose_sampled(st, seat, up, fd, params, rng_state, generations, worlds=WORLDS, budget=QUESTION_BUDGET):
    """The ``sampled-dd`` action for ``seat`` among the legal masks ``up`` and ``fd`` (module notes).

    Parameters
    ----------
    st : int64[STATE_SIZE]
        Round state; read only through what ``seat`` may see.
    seat : int
        Seat to play.
    up, fd : int
        Legal face-up cards and face-down leads.
    params : float64 array
        Heuristic parameters of the expert's card (the fallback and ties).
    rng_state : uint64[4]
        xoshiro256** state for the expert's card and the worlds, advanced in place (not at all when the
        decision is forced).
    generations : dict
        The solver's table generations, kept for one round (``solvers.dd.solve_questions``).
    worlds : int
        Worlds drawn and solved (``OPEN_MISERY_WORLDS_FACTOR`` times as many by a defender of an Open Misery).
    budget : int
        Completed tricks each solver question may search (``world_values``; 0: no limit).
    """
    reps = np.empty(26, dtype=np.int64)
    n_actions = distinct_actions(st, seat, np.int64(up), np.int64(fd), reps)
    if n_actions == 1:
        return int(reps[0])
    own = misery_defence_card(st, seat, up)
    if own < 0:
        own = int(choose_action(st, seat, np.int64(up), np.int64(fd), POLICY_EXPERT, fallback_params(params),
                                rng_state))
    allowed = np.empty(52, dtype=np.int64)
    counts = np.empty(5, dtype=np.int64)
    order = np.empty(52, dtype=np.int64)
    n, troela_partner, partner_rule, hidden = prepare_worlds(st, seat, allowed, counts, order)
    actions = [int(a) for a in reps[:n_actions]]
    contract_of = [int(st[CONTRACT + s]) for s in range(4)]
    kind_of = [int(st[KIND + s]) for s in range(4)]
    won = [int(st[TRICKS + s]) for s in range(4)]
    tricks_left = int(st[HAND + seat]).bit_count()
    trump, called = int(st[TRUMP]), int(st[CALLED])
    blind = bool(st[BLIND])
    slots = np.empty(5, dtype=np.int64)
    world = np.empty_like(st)

    def draw(count):
        """``count`` worlds ``(weight, hands, goals, trick, trick_blind)``, or None where the sampler failed or a
        world asks nothing."""
        drawn = []
        for _ in range(count if n > 0 else 1):
            for _ in range(max(BID_TRIES, 1)):
                weight = draw_into(st, seat, allowed, counts, order, n, troela_partner, partner_rule, hidden,
                                   rng_state, slots, world)
                if weight < 0:
                    return None
                if BID_TRIES == 0 or fits_the_bidding(st, seat, world):
                    break
            goals = open_goals(won, contract_of, kind_of, int(world[PARTNER]), tricks_left)
            if not goals:
                return None
            trick, trick_blind = _trick_cards(st, int(world[FACE_DOWN_CARDS]))
            drawn.append((weight, world[HAND:HAND + 4].copy(), goals, trick, trick_blind, world.copy()))
        return drawn

    # Every world is drawn before any is solved (the same draws, in the same order, as one by one), so the
    # weight still to come is known and the search stops once the card is decided (``decided_action``).
    drawn = draw(worlds * OPEN_MISERY_WORLDS_FACTOR if defends_open_misery(st, seat) else worlds)
    if drawn is None:
        return own
    declarer = exposed_misery_declarer(st, seat) if PLAYOUTS else -1
    sums = (np.zeros(n_actions), np.zeros(n_actions))
    decided, separated = _solve_worlds(drawn, sums, own, actions, trump, seat, called, blind, generations, budget,
                                       sum(w[0] for w in drawn), stop=declarer < 0)
    if declarer >= 0:
        more = draw(PLAYOUT_WORLDS) if PLAYOUT_WORLDS else None
        return playout_tie_break(drawn, sums, own, actions, seat, declarer, params, rng_state, more or [])
    if decided is not None:
        return decided
    if not separated and TIE_WORLDS:
        # No world told the cards apart: more worlds, where the few drawn may have missed the ones that do.
        more = draw(TIE_WORLDS)
        if more is not None:
            drawn += more
            _solve_worlds(more, sums, own, actions, trump, seat, called, blind, generations, budget, 0.0, stop=False)
    return best_action(actions, *sums, own, sum(w[0] for w in drawn))


def defends_open_misery(st, seat):
    """Whether ``seat`` defends against an Open Misery (the one whose hand is shown after trick 1, not an "All"
    contract) still clean, the round's only contract: the defence ``OPEN_MISERY_WORLDS_FACTOR`` applies to, from
    trick 1 on."""
    d = clean_misery_declarer(st, seat)
    return d >= 0 and int(st[CONTRACT + d]) == rules.Contract.OPEN_MISERY


def _solve_worlds(drawn, sums, own, actions, trump, seat, called, blind, generations, budget, weight_sum, stop):
    """Add each world's action values (``world_values``) to ``sums`` (low, high), the contracts first in every
    world, then the trick counts; with ``stop``, return ``(card, separated)`` as soon as no question still to
    come can change the card (``decided_action``; not while no world has told the cards apart and
    ``TIE_WORLDS`` may draw more), else ``(None, separated)``. ``separated``: some world valued the actions
    differently."""
    low_sum, high_sum = sums
    separated = False
    # The contracts first in every world, then the trick counts (worth TRICK_WEIGHT each, a tie-break costing
    # most of a trick contract's solving): a card the contracts already decide asks no trick count.
    contract_part = [w * contract_score(goals) for w, _, goals, *_ in drawn]
    trick_part = [w * trick_score(goals) for w, _, goals, *_ in drawn]
    passes = [("contracts", contract_part)] + ([("tricks", trick_part)] if sum(trick_part) > 0 else [])
    for p, (part, scores) in enumerate(passes):
        # Past the world being solved: the most weighted score any action can still gain, later passes included.
        later = sum(sum(rest) for _, rest in passes[p + 1:])
        to_come = np.cumsum(scores[::-1])[::-1] + later
        for i, (weight, hands, goals, trick, trick_blind, _) in enumerate(drawn):
            low, high = world_values(hands, trump, seat, trick, trick_blind, called, blind, goals, actions,
                                     generations, budget, (part,))
            if low != high and budget and RETRY_BUDGET > budget:
                low, high = world_values(hands, trump, seat, trick, trick_blind, called, blind, goals, actions,
                                         generations, RETRY_BUDGET, (part,))
            separated = separated or len(set(low)) > 1 or len(set(high)) > 1
            low_sum += weight * np.asarray(low)
            high_sum += weight * np.asarray(high)
            if not stop:
                continue
            left = to_come[i + 1] if i + 1 < len(drawn) else later
            decided = decided_action(actions, low_sum, high_sum, own, weight_sum, left)
            if decided is not None and (separated or not TIE_WORLDS):
                return decided, separated
    return None, separated


def playout_tie_break(drawn, sums, own, actions, seat, declarer, params, rng_state, extra=()):
    """The card of a defender against an exposed misère (``misery_playout``): among the classes the solved
    worlds rank best (every class whose ``high`` reaches the best ``low``), the one whose play-outs, where no
    defender sees another's cards, beat the misère in the most weight of worlds; ``own``'s class, then the
    first, among equals. ``drawn``: the worlds as ``choose_sampled`` draws them, ``sums``: their summed
    ``(low, high)`` bounds; ``extra``: worlds drawn alike for the play-outs only (``PLAYOUT_WORLDS``)."""
    low, high = sums
    weight_sum = sum(w[0] for w in drawn)
    top = [i for i in range(len(actions)) if high[i] >= np.max(low) - TIE_TOLERANCE * weight_sum]
    mine = _class_of(actions, own)
    if len(top) == 1:
        return own if top[0] == mine else actions[top[0]]
    pool = list(drawn) + list(extra)
    pool_sum = sum(w[0] for w in pool)
    values = playout_values([(w[0], w[5]) for w in pool], seat, [actions[i] for i in top], declarer,
                            params[:N_PARAMS], rng_state) * (weight_sum / pool_sum)
    best = [top[j] for j in range(len(top)) if values[j] >= np.max(values) - TIE_TOLERANCE * weight_sum]
    if mine in best:
        return own
    return actions[best[0]]


def fits_the_bidding(st, seat, world):
    """Whether, in trick 1, every declarer hidden from ``seat`` holds in ``world`` a hand the bidding policy bids
    his contract with (``bidding.qualifying_contracts``): a Misery bidder holds a misère, an Alone bidder a
    strong trump suit. Later the declarer's played cards are not in the state, so every world fits; so does
    Troela, which three aces oblige.

    A rejection filter: worlds the auction rules out are drawn again (``BID_TRIES`` times at most, the last
    draw kept), so the worlds follow the deals in which the auction went as it did.
    """
    if int(st[TRICK_NO]) > 0:
        return True
    for d in range(4):
        contract = int(st[CONTRACT + d])
        if d == seat or contract < 0 or contract == rules.Contract.TROELA:
            continue
        hand = int(world[HAND + d])
        card = int(st[TRICK + d])
        if 0 <= card < FACE_DOWN_OFFSET:
            hand |= 1 << card
        if contract not in qualifying_contracts(hand):
            return False
    return True


def contract_score(goals):
    """The most one world's value of an action gains from the contracts (``world_values``): 1 per yes/no question."""
    return sum(g.goal is not None for g in goals)


def trick_score(goals):
    """The most one world's value of an action gains from the trick counts kept: ``TRICK_WEIGHT`` per count."""
    return TRICK_WEIGHT * sum(g.tricks for g in goals)


def _class_of(actions, own):
    """The index of ``own``'s class among ``actions`` (each class named by its lowest card, in order)."""
    return max(i for i in range(len(actions)) if actions[i] <= own)


def decided_action(actions, low, high, own, weight_sum, left):
    """The action :func:`best_action` will return whatever the worlds still to solve score, or None.

    ``low``, ``high``: the bounds summed so far; ``left``: the most weighted score any action can still
    gain (each world adds between 0 and its weight times ``contract_score`` plus ``trick_score``). ``own`` is
    decided when no action's ``low`` can climb past its class's ``high``; another action when its ``low`` already beats
    ``own``'s best ``high`` and every other action's best ``low``.
    """
    tolerance = TIE_TOLERANCE * weight_sum
    mine = _class_of(actions, own)
    # Plain floats: called after every world solved, where numpy's per-call cost on a dozen classes showed in the
    # profile (session 16); the same doubles and comparisons as on the arrays.
    lows = np.asarray(low).tolist()
    others = _max_but(lows, mine)  # own's class never beats own: its high is at least its low
    if others is None or high[mine] >= others + left - tolerance:
        return own
    best = max(range(len(lows)), key=lows.__getitem__)  # the first of equals, as np.argmax
    rivals = _max_but(lows, best)
    if lows[best] - tolerance > high[mine] + left and (rivals is None or lows[best] > rivals + left):
        return actions[best]
    return None


def _max_but(values, skip):
    """The largest of ``values`` but the one at index ``skip``; None when there is no other."""
    return max((v for i, v in enumerate(values) if i != skip), default=None)


def fallback_params(params):
    """The expert parameters of the fallback card: the heuristic's entries of ``params``, the expert's worlds
    per decision (``params``' own when it carries the expert's entries), searching from trick
    ``FALLBACK_FIRST_TRICK``."""
    samples = params[P_SAMPLES] if params.shape[0] > P_FIRST_TRICK else DEFAULT_SAMPLES
    return np.concatenate([params[:N_PARAMS], [samples, FALLBACK_FIRST_TRICK]])


def best_action(actions, low, high, own, weight_sum):
    """``own`` (the expert's card, a member of one of the classes ``actions`` represents) unless another class
    is proved better over the worlds, else the action of highest ``low`` (the first in ``actions`` order among
    equals).

    ``actions``: one representative per class of equivalent actions, ascending (``expert.distinct_actions``);
    ``low``, ``high``: bounds on their weighted sums over the worlds (equal where every solve finished), whose
    weights add up to ``weight_sum``. Another class is proved better when its ``low`` exceeds the ``high`` of
    ``own``'s class beyond rounding; with exact sums that is the plain "best total, ``own`` on ties".
    """
    best = int(np.argmax(low))
    mine = _class_of(actions, own)
    if high[mine] >= low[best] - TIE_TOLERANCE * weight_sum:
        return own
    return actions[best]


def playout_one_sampled(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params,
                        rng_state, worlds=WORLDS):
    """Play one round card by card: ``sampled-dd`` seats by :func:`choose_sampled`, the others by their kernel bot.

    Arguments and results as ``kernels.playout_one``: ``(tricks int64[4], trace int64[4 * cards, 4])``
    (hands of fewer than 13 cards play an ending). Every seat draws from ``rng_state`` in move order (the
    worlds, the random and expert seats' draws).
    """
    policies = np.asarray(policy_of_seat, dtype=np.int64)
    kernel_ids = set(POLICY_IDS.values())
    if not all(int(p) == POLICY_SAMPLED_DD or int(p) in kernel_ids for p in policies):
        raise InputError(f"{NAME} plays with the kernel bots {sorted(POLICY_IDS)} only, got ids {policies.tolist()}")
    params = default_params() if params is None else np.asarray(params, dtype=np.float64)
    st = new_round(hands, int(leader), np.asarray(contract_of, dtype=np.int64), int(partner), int(trump),
                   int(called_card), int(blind))
    moves = 4 * int(np.asarray(hands, dtype=np.int64)[0]).bit_count()
    trace = np.empty((moves, 4), dtype=np.int64)
    generations = {}
    for i in range(moves):
        seat = int(st[TURN])
        up, fd = legal_actions(st, seat)
        if policies[seat] == POLICY_SAMPLED_DD:
            action = choose_sampled(st, seat, int(up), int(fd), params, rng_state, generations, worlds)
        else:
            action = int(choose_action(st, seat, up, fd, policies[seat], params, rng_state))
        trace[i] = seat, action, up, fd
        apply_action(st, seat, action)
    return st[TRICKS:TRICKS + 4].copy(), trace


def playout_batch_sampled(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params,
                          rng_state, tricks_out, worlds=WORLDS):
    """Play out a batch of rounds with :func:`playout_one_sampled`; arrays as in ``kernels.playout_batch``.

    No progress within the batch (a bot does not import the runner): chunks of 2 rounds by default
    (its speed class) move the bar often enough."""
    for d in range(hands.shape[0]):
        tricks_out[d], _ = playout_one_sampled(hands[d], leader[d], contract_of[d], partner[d], trump[d],
                                               called_card[d], blind[d], policy_of_seat[d], params, rng_state, worlds)
