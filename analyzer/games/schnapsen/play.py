"""Playing whole deals and Bummerl matches between bots inside numba.

A bot is a registered kind (``BOTS``: name, kernel id, whether it samples and whether it is honest) plus a
PIMC sample count and a heuristic parameter row; a seat pair is given as ``policy[2]``, ``samples[2]`` and
``hparams[2, :]`` arrays. Every kernel works in one :class:`search.Workspace` (``search.new_workspace()``).
``perfect`` sees every card (both hands and the stock order): it is an oracle, not a fair player.
"""

from dataclasses import dataclass
from functools import cache

import numpy as np

from analyzer import catalog
from analyzer.cards.rng import next_u64
from analyzer.games.kernel_sets import compile_set, set_label
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import heuristic_action
from analyzer.games.schnapsen.hybrid_bot import decision_signature, hybrid_choice, hybrid_decision, hybrid_values
from analyzer.games.schnapsen.ismcts_bot import ismcts_choice, ismcts_hybrid_choice
from analyzer.games.schnapsen.kernels import (
    apply_action,
    init_round,
    random_action,
    shuffle_deck,
    signed_result,
)
from analyzer.games.schnapsen.pimc_plus import plus_choice
from analyzer.games.schnapsen.rollout_bot import rollout_choice
from analyzer.games.schnapsen.search import (
    list_actions,
    perfect_pick,
    pimc_pick,
    world_into,
)

RANDOM, HEURISTIC, PERFECT, PIMC, PIMC_PLUS, ROLLOUT, HYBRID, HYBRID_INFER, ISMCTS, ISMCTS_HYBRID = range(10)


@dataclass(frozen=True)
class BotKind:
    """One entry of the bot registry: the name a command takes, the kernel id ``choose_action`` dispatches
    on, whether it takes a sample count (``name:N``), whether it decides only from what its player sees
    (``honest``), and its help text."""

    name: str
    policy: int
    sampling: bool
    honest: bool
    help: str


#: The kernel id of each bot of ``catalog.SCHNAPSEN_BOTS`` (which holds its name, flags and help).
_KERNEL_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "perfect": PERFECT, "pimc": PIMC, "pimc_plus": PIMC_PLUS,
               "rollout": ROLLOUT, "hybrid": HYBRID, "hybrid_infer": HYBRID_INFER, "ismcts": ISMCTS,
               "ismcts_hybrid": ISMCTS_HYBRID}
#: The Schnapsen bots by name: adding one is its code, a kernel id dispatched in ``choose_action`` (and
#: ``play_out``'s fast path if it has one), its entry in the catalog and in ``_KERNEL_IDS``, and its tests.
BOTS = {name: BotKind(name, _KERNEL_IDS[name], *facts) for name, facts in catalog.SCHNAPSEN_BOTS.items()}
#: kernel id of each bot name
POLICIES = {name: kind.policy for name, kind in BOTS.items()}

#: Which bots the templates below compile in: each kernel set (:func:`kernels_for`) runs them with its own
#: values, as numba constants, so that the bots it leaves out are pruned before they are compiled.
_WITH_RANDOM = _WITH_HEURISTIC = _WITH_PERFECT = _WITH_PIMC = _WITH_PIMC_PLUS = _WITH_ROLLOUT = True
_WITH_HYBRID = _WITH_HYBRID_INFER = _WITH_ISMCTS = _WITH_ISMCTS_HYBRID = _WITH_SEARCH = True


def choose_action(s, policy, samples, hparams, rng, ws):
    """Return the action of bot ``policy`` (id) for the player to move in ``s``, working in the
    :class:`search.Workspace` ``ws``; the searching bots share one listing of the legal actions. A kernel
    set (:func:`kernels_for`) compiles only the bots it was made for: another id raises ValueError."""
    if _WITH_RANDOM and policy == RANDOM:
        return random_action(s, rng, ws.acts)
    if _WITH_HEURISTIC and policy == HEURISTIC:
        return heuristic_action(s, hparams, ws.acts)
    if _WITH_SEARCH:
        n = list_actions(s, ws)
        if _WITH_PERFECT and policy == PERFECT:
            return perfect_pick(s, ws, n)
        if _WITH_PIMC_PLUS and policy == PIMC_PLUS:
            return plus_choice(s, samples, rng, ws, n)
        if _WITH_ROLLOUT and policy == ROLLOUT:
            return rollout_choice(s, samples, rng, ws, n)
        if _WITH_HYBRID and policy == HYBRID:
            return hybrid_choice(s, samples, rng, ws, n)
        if _WITH_HYBRID_INFER and policy == HYBRID_INFER:
            return hybrid_choice(s, samples, rng, ws, n, True)
        if _WITH_ISMCTS and policy == ISMCTS:
            return ismcts_choice(s, samples, rng, ws, n)
        if _WITH_ISMCTS_HYBRID and policy == ISMCTS_HYBRID:
            return ismcts_hybrid_choice(s, samples, rng, ws, n)
        if _WITH_PIMC and policy == PIMC:
            return pimc_pick(s, samples, rng, ws, n)
    raise ValueError("a bot this kernel set was not compiled for")


def play_out(s, policy, samples, hparams, rng, ws):
    """Play ``s`` to the end of the deal with the seat bots ``policy[p]``; return the number of actions."""
    n = 0
    while s[R.WINNER] < 0:
        p = s[R.TO_MOVE]
        pol = policy[p]
        # the cheap bots are called directly: going through the full dispatcher costs 4x their run time
        if _WITH_RANDOM and pol == RANDOM:
            a = random_action(s, rng, ws.acts)
        elif _WITH_HEURISTIC and pol == HEURISTIC:
            a = heuristic_action(s, hparams[p], ws.acts)
        else:
            a = choose_action(s, pol, samples[p], hparams[p], rng, ws)
        apply_action(s, a)
        n += 1
    return n


def play_deals(n_deals, policy, samples, hparams, deal_rng, bot_rng, out, ws):
    """Play ``n_deals`` random deals (dealer alternating, starting with 1); row i of ``out`` gets
    (winner, game points, points0, points1, closer, actions)."""
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    for i in range(n_deals):
        shuffle_deck(deal_rng, deck)
        init_round(deck, 1 - i % 2, s)
        k = play_out(s, policy, samples, hparams, bot_rng, ws)
        out[i, 0] = s[R.WINNER]
        out[i, 1] = s[R.GAME_POINTS]
        out[i, 2] = s[R.POINTS0]
        out[i, 3] = s[R.POINTS0 + 1]
        out[i, 4] = s[R.CLOSER]
        out[i, 5] = k


def play_match(policy, samples, hparams, deal_rng, bot_rng, first_dealer, ws):
    """Play one Bummerl (both start at 7, the deal winner counts down by his game points, first to 0 wins).

    Returns ``(winner, deals, game_points_0, game_points_1, closings_0, closings_1, closings_won_0,
    closings_won_1)``: a closing is won when the closer wins that deal.
    """
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    left0 = R.MATCH_POINTS
    left1 = R.MATCH_POINTS
    gp0 = 0
    gp1 = 0
    closes = np.zeros(2, dtype=np.int64)
    close_wins = np.zeros(2, dtype=np.int64)
    deals = 0
    dealer = first_dealer
    while left0 > 0 and left1 > 0:
        shuffle_deck(deal_rng, deck)
        init_round(deck, dealer, s)
        s[R.TO_GO0] = left0
        s[R.TO_GO0 + 1] = left1
        play_out(s, policy, samples, hparams, bot_rng, ws)
        if s[R.WINNER] == 0:
            left0 -= s[R.GAME_POINTS]
            gp0 += s[R.GAME_POINTS]
        else:
            left1 -= s[R.GAME_POINTS]
            gp1 += s[R.GAME_POINTS]
        closer = s[R.CLOSER]
        if closer >= 0:
            closes[closer] += 1
            if s[R.WINNER] == closer:
                close_wins[closer] += 1
        deals += 1
        dealer = 1 - dealer
    return (0 if left0 <= 0 else 1), deals, gp0, gp1, closes[0], closes[1], close_wins[0], close_wins[1]


# Keep in step with direct_rollout_values, its twin whose loops run in Python.
def rollout_values(s, seqs, policy, samples, hparams, exact, first_world, world_rngs, out, ws):
    """Honest evaluation: play each action sequence forward with one bot in both seats, world by world.

    World ``w`` (``w < len(world_rngs)``) is world ``first_world + w`` of the ``exact`` enumeration of
    ``world_at``, else a ``sample_world`` draw; it is drawn and played with its own random state
    ``world_rngs[w]`` alone, so a world's outcomes do not depend on which other worlds are evaluated in the
    same call (workers may split the worlds any way). Every row of ``seqs`` (actions padded with -1) is
    applied to the same world and the deal is played out by bot ``policy`` (``samples`` and heuristic row
    ``hparams``) for both players, each deciding from what he can see; ``out[w, i]`` gets the mover's
    signed game points. The play-outs of one world start from the same bot random state (common random
    numbers), so the rows of ``out`` are paired across sequences.
    """
    player = s[R.TO_MOVE]
    seats = np.full(2, policy, dtype=np.int64)
    seat_samples = np.full(2, samples, dtype=np.int64)
    seat_params = np.empty((2, hparams.shape[0]), dtype=np.float64)
    seat_params[0] = hparams
    seat_params[1] = hparams
    base = np.empty(R.STATE_SIZE, dtype=np.int64)
    child = np.empty(R.STATE_SIZE, dtype=np.int64)
    rng = np.empty(4, dtype=np.uint64)
    start = np.empty(4, dtype=np.uint64)
    bot_rng = np.empty(4, dtype=np.uint64)
    for w in range(world_rngs.shape[0]):
        rng[:] = world_rngs[w]
        world_into(s, player, first_world + w, exact, rng, ws.pool, base)
        for j in range(4):
            start[j] = next_u64(rng)
        for i in range(seqs.shape[0]):
            child[:] = base
            for j in range(seqs.shape[1]):
                if seqs[i, j] < 0:
                    break
                apply_action(child, seqs[i, j])
            bot_rng[:] = start
            play_out(child, seats, seat_samples, seat_params, bot_rng, ws)
            out[w, i] = signed_result(child, player)


#: Bots whose decision ``choice(s, samples, rng, ws, n)`` :func:`direct_rollout_values` calls from Python: their
#: play-outs then need no ``rollout_values`` > ``play_out`` > ``choose_action`` chain of kernels above the
#: bot, each level of which relinks and re-optimises the whole bot below it on a cold cache (2-3 CPU-s each
#: for ``hybrid``), against microseconds a decision from Python (a decision takes milliseconds).
DIRECT_CHOICES = {HYBRID: hybrid_decision}
#: the kernel each of those decisions calls (what a cold cache compiles last for them) and a function giving the
#: argument types it calls it with
DIRECT_KERNELS = {HYBRID: (hybrid_values, decision_signature)}


def direct_rollout_values(s, seqs, policy, samples, exact, first_world, world_rngs, out, ws):
    """:func:`rollout_values` for a bot of :data:`DIRECT_CHOICES` (its ``hparams`` unused), its per-world,
    per-sequence and per-decision loops here in Python around the bot's decision: the same worlds, random
    states and decisions, so the same ``out``. Keep in step with :func:`rollout_values`."""
    choice = DIRECT_CHOICES[policy]
    player = int(s[R.TO_MOVE])
    base = np.empty(R.STATE_SIZE, dtype=np.int64)
    child = np.empty(R.STATE_SIZE, dtype=np.int64)
    for w in range(world_rngs.shape[0]):
        rng = world_rngs[w].copy()
        world_into(s, player, first_world + w, exact, rng, ws.pool, base)
        start = np.array([next_u64(rng) for _ in range(4)], dtype=np.uint64)
        for i in range(seqs.shape[0]):
            child[:] = base
            for a in seqs[i]:
                if a < 0:
                    break
                apply_action(child, a)
            bot_rng = start.copy()
            while child[R.WINNER] < 0:
                apply_action(child, choice(child, samples, bot_rng, ws, list_actions(child, ws)))
            out[w, i] = signed_result(child, player)


def direct_warm_up(s, policy, exact, ws) -> None:
    """Compile (or load) every kernel :func:`direct_rollout_values` calls, with the argument types it calls
    them with, at little cost: world 0 is drawn, played on through its forced moves, and the bot decides
    once with one sample; a world that ends on forced moves needs no decision kernel."""
    player = int(s[R.TO_MOVE])
    rng = np.ones(4, dtype=np.uint64)
    world = np.empty(R.STATE_SIZE, dtype=np.int64)
    world_into(s, player, 0, exact, rng, ws.pool, world)
    next_u64(rng)
    n = list_actions(world, ws)
    while n == 1 and world[R.WINNER] < 0:
        apply_action(world, ws.acts[0])
        n = list_actions(world, ws)
    if world[R.WINNER] < 0:
        DIRECT_CHOICES[policy](world.copy(), 1, rng, ws, n)  # leaves ws.acts a reordered list of the actions
        apply_action(world, ws.acts[0])
    signed_result(world, player)


@dataclass(frozen=True)
class KernelSet:
    """The play kernels compiled for some of the bots (:func:`kernels_for`)."""

    choose_action: object
    play_out: object
    play_deals: object
    play_match: object
    rollout_values: object


_TEMPLATES = (choose_action, play_out, play_deals, play_match, rollout_values)
#: the global each kernel set sets to whether the bot is compiled in (numba prunes the branches it rules out)
_SWITCHES = {"_WITH_RANDOM": RANDOM, "_WITH_HEURISTIC": HEURISTIC, "_WITH_PERFECT": PERFECT, "_WITH_PIMC": PIMC,
             "_WITH_PIMC_PLUS": PIMC_PLUS, "_WITH_ROLLOUT": ROLLOUT, "_WITH_HYBRID": HYBRID,
             "_WITH_HYBRID_INFER": HYBRID_INFER, "_WITH_ISMCTS": ISMCTS,
             "_WITH_ISMCTS_HYBRID": ISMCTS_HYBRID}


@cache
def _kernel_set(policies: frozenset[int]) -> KernelSet:
    switches = {switch: policy in policies for switch, policy in _SWITCHES.items()}
    switches["_WITH_SEARCH"] = not policies <= {RANDOM, HEURISTIC}
    return KernelSet(**compile_set(_TEMPLATES, globals(), switches, set_label(policies)))


def kernels_for(policies) -> KernelSet:
    """The play kernels (``choose_action``, ``play_out``, ``play_deals``, ``play_match``,
    ``rollout_values``) compiled for the bots with kernel ids ``policies`` alone: a first run compiles only
    the bots it plays (every bot takes about 50 CPU-s, heuristic and random about 10). Given any other bot
    id, ``choose_action`` raises ValueError."""
    return _kernel_set(frozenset(int(policy) for policy in policies))


#: every bot compiled in, for scripts and tests that choose bots per call
EVERY_BOT = kernels_for(POLICIES.values())
choose_action = EVERY_BOT.choose_action
play_out = EVERY_BOT.play_out
play_deals = EVERY_BOT.play_deals
play_match = EVERY_BOT.play_match
rollout_values = EVERY_BOT.rollout_values
