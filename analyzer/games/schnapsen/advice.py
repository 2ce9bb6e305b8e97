"""``schnapsen advise``: every legal action of one position, evaluated honestly, and the headline it comes to.

The worlds (:func:`experiments.world_plan`) are split into chunks for ``run_chunks``; world ``w`` is drawn
and played with a random state from the ``w``-th child of the seed alone (:func:`world_seed`), so the
table is the same whatever the number of workers or the chunk size. The command runs :data:`ADVISE`, which
writes a run folder like every experiment (the outcome of every action in every world, the table).
"""

import math
from functools import partial

import numpy as np
import pandas as pd

from analyzer import catalog
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.experiments.compile_notice import compile_notice
from analyzer.experiments.experiment import Experiment, Plan, Summary, kernel_cached, records
from analyzer.experiments.parallel_compile import compile_in_parallel
from analyzer.experiments.progress import report_items
from analyzer.experiments.runner import run_chunks
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.experiments import MATCH, RULES, Bot, outcome_stats, sequence_array, world_plan
from analyzer.games.schnapsen.findings import ADVISE_REPORT
from analyzer.games.schnapsen.hybrid_bot import VALUE_PARTS, compile_value_part
from analyzer.games.schnapsen.kernels import legal_actions
from analyzer.games.schnapsen.play import (
    DIRECT_CHOICES,
    DIRECT_KERNELS,
    HYBRID,
    HYBRID_INFER,
    PERFECT,
    direct_rollout_values,
    direct_warm_up,
    kernels_for,
)
from analyzer.games.schnapsen.queries import ADVISE_QUERY
from analyzer.games.schnapsen.search import new_workspace, perfect_values
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.reports.formatting import fill_console, fixed
from analyzer.reports.stats import wilson_interval

#: the default bot of ``advise``: the strongest honest bot, and at a first lead cheaper than ``pimc``
DEFAULT_BOT = catalog.SCHNAPSEN_ADVICE_BOT
DEFAULT_WORLDS = catalog.SCHNAPSEN_ADVICE_WORLDS
# Chunks per worker: enough for the progress bar to move and the workers to finish together.
CHUNKS_PER_WORKER = 4
# the bots whose value functions compile in two parts at once, with the ``infer`` they pass
_PARTS_INFER = {HYBRID: False, HYBRID_INFER: True}


def world_seed(seed: int, world: int) -> np.random.SeedSequence:
    """The seed of world ``world``: the ``world``-th child of ``seed`` (as ``SeedSequence(seed).spawn``
    makes it), whichever chunk evaluates the world."""
    return np.random.SeedSequence(seed, spawn_key=(world,))


def advise_task(params: dict, start: int, count: int, seed_seq: np.random.SeedSequence) -> np.ndarray:
    """Worlds ``start .. start + count - 1`` of an honest evaluation (a chunk for ``run_chunks``; the chunk's
    own ``seed_seq`` is not used: each world is seeded by :func:`world_seed`).

    ``params``: ``state`` (the kernel state as a list), ``sequences`` (``sequence_array`` rows), ``bot``
    (``Bot.as_dict``), ``exact`` and ``seed``. Returns ``outcomes[w, i]``, the mover's signed game points in
    world ``start + w`` after sequence ``i``.
    """
    s = np.asarray(params["state"], dtype=np.int64)
    seqs = np.asarray(params["sequences"], dtype=np.int64)
    bot = Bot.from_dict(params["bot"])
    ws = new_workspace()
    out = np.zeros((count, len(seqs)), dtype=np.int64)
    for w in range(count):
        rng = state_from_seed(world_seed(params["seed"], start + w)).reshape(1, 4)
        if bot.policy in DIRECT_CHOICES:
            direct_rollout_values(s, seqs, bot.policy, bot.samples, params["exact"], start + w, rng, out[w:w + 1],
                                  ws)
        else:
            kernels_for((bot.policy,)).rollout_values(s, seqs, bot.policy, bot.samples, bot.params.to_array(),
                                                      params["exact"], start + w, rng, out[w:w + 1], ws)
        report_items()
    return out


def _direct_cached(policy: int) -> bool:
    """Whether numba's cache holds the kernel the decision of ``policy`` calls from Python with the types it
    calls it with: a ``match`` of the bot writes the same kernel's index with another specialisation."""
    kernel, signature = DIRECT_KERNELS[policy]
    # numba keeps the index on the dispatcher's cache object only (no public accessor), as kernel_cached
    return any(key[0] == signature() for key in kernel._cache._cache_file._load_index())


def advise_compiled(params: dict) -> bool:
    """Whether numba's cache holds the kernel the chunks of ``params`` run (the bot's kernel set's
    ``rollout_values``, the one its decision calls from Python, or the perfect solve): :data:`ADVISE` compiles
    it first, with the notice, if not."""
    if params.get("perfect"):
        return kernel_cached(perfect_values)
    policy = Bot.from_dict(params["bot"]).policy
    if policy in DIRECT_KERNELS:
        return _direct_cached(policy)
    return kernel_cached(kernels_for((policy,)).rollout_values)


def advise_warm_up(params: dict) -> None:
    """Compile (or load) the kernels the chunks of ``params`` run, without playing a world: the honest bots'
    ``rollout_values`` called on no world, or for a bot whose play-outs run from Python
    (``play.DIRECT_CHOICES``) the kernels they call (:func:`play.direct_warm_up`); ``hybrid`` and
    ``hybrid_infer`` on a cold cache first compile the two parts of their value functions in two processes
    (:func:`hybrid_bot.compile_value_part`); the perfect bot's one world solved."""
    if params.get("perfect"):
        advice_rows(params, 0, 1, np.random.SeedSequence(params["seed"]))
        return
    bot = Bot.from_dict(params["bot"])
    if bot.policy in _PARTS_INFER and not advise_compiled(params):
        # the two halves below the bot's value functions compile at once in two processes; this one then
        # loads them and compiles only the levels above (up to hybrid_values, or rollout_values)
        compile_in_parallel([partial(compile_value_part, part, _PARTS_INFER[bot.policy]) for part in VALUE_PARTS])
    s = np.asarray(params["state"], dtype=np.int64)
    if bot.policy in DIRECT_CHOICES:
        direct_warm_up(s, bot.policy, params["exact"], new_workspace())
        return
    seqs = np.asarray(params["sequences"], dtype=np.int64)
    kernels_for((bot.policy,)).rollout_values(
        s, seqs, bot.policy, bot.samples, bot.params.to_array(), params["exact"], 0,
        np.empty((0, 4), dtype=np.uint64), np.empty((0, len(seqs)), dtype=np.int64), new_workspace())


def advise_plan(state: SchnapsenState, bot: Bot, seed: int, samples: int) -> tuple[dict, int]:
    """The task parameters and the number of worlds of an honest evaluation of every legal action.

    Raises
    ------
    InputError
        For a finished deal.
    """
    if state.is_over:
        raise InputError("the deal is already over")
    s = state.to_array()
    acts = np.zeros(16, dtype=np.int64)
    n = legal_actions(s, acts)
    n_worlds, exact = world_plan(s, samples)
    params = {"state": s.tolist(), "sequences": sequence_array([[int(a)] for a in acts[:n]]).tolist(),
              "bot": bot.as_dict(), "exact": exact, "seed": seed}
    return params, n_worlds


def chunk_size(n_worlds: int, workers: int) -> int:
    """Worlds per chunk (the results do not depend on it)."""
    return max(1, n_worlds // (CHUNKS_PER_WORKER * workers))


def perfect_outcomes(state: SchnapsenState) -> tuple[np.ndarray, list[int]]:
    """The ``perfect`` bot's value of every legal action, every card known: ``(outcomes, actions)`` with one
    row of outcomes (one world).

    Raises
    ------
    InputError
        For a finished deal, or hidden cards.
    """
    if state.is_over:
        raise InputError("the deal is already over")
    _check_every_card(state)
    ws = new_workspace()
    n = perfect_values(state.to_array(), ws.stack, ws.moves, ws.tt, ws.gen, ws.acts, ws.vals)
    return ws.vals[:n].reshape(1, n).copy(), [int(a) for a in ws.acts[:n]]


def _check_every_card(state: SchnapsenState) -> None:
    if state.hidden_filled:
        raise InputError("the perfect bot needs every card: name the opponent's hand and the stock")


def advise(state: SchnapsenState, bot: Bot, seed: int, samples: int = DEFAULT_WORLDS,
           workers: int = 1) -> tuple[pd.DataFrame, bool]:
    """Evaluate every legal action of ``state`` for the player to move.

    Honest bots play each action forward for both players on the same worlds (``samples`` drawn, or all of
    them when the stock is closed or exhausted or there are at most ``samples``: :func:`experiments.world_plan`),
    in ``workers`` processes with a progress bar; ``perfect`` solves the position as given, every card known.
    Returns the :func:`advice_table` and whether the worlds were exact (every one taken once).

    Raises
    ------
    InputError
        For a finished deal, or ``perfect`` with hidden cards.
    """
    plan = run_plan(state, bot, seed, samples, workers)
    with compile_notice(MATCH.kernels, ADVISE.compile_seconds):
        advise_warm_up(plan.params)
    chunks = run_chunks(advice_rows, plan.params, plan.n_items, seed=seed, chunk_size=plan.chunk_size,
                        workers=workers, description="worlds")
    return _advise_summary(plan, [world_outcomes(rows) for rows in chunks]).tables["advice"], plan.params["exact"]


def advice_rows(params: dict, start: int, count: int, seed_seq: np.random.SeedSequence) -> pd.DataFrame:
    """The chunk task of :data:`ADVISE`: :func:`advise_task`'s outcomes as rows ``world, action, game_points``
    (world-major, the actions in their order); with the ``perfect`` bot (``params["perfect"]``) the one world
    of the position as given, solved."""
    actions = [R.action_name(row[0]) for row in params["sequences"]]
    if params.get("perfect"):
        solved, order = perfect_outcomes(SchnapsenState.from_array(np.asarray(params["state"], dtype=np.int64)))
        outcomes = solved[:, [order.index(row[0]) for row in params["sequences"]]]
    else:
        outcomes = advise_task(params, start, count, seed_seq)
    return pd.DataFrame({"world": np.repeat(np.arange(start, start + count), len(actions)),
                         "action": actions * count, "game_points": outcomes.ravel()})


def world_outcomes(rows: pd.DataFrame) -> np.ndarray:
    """The aggregate of a chunk of :func:`advice_rows`: ``outcomes[w, i]``, action ``i`` in the chunk's world
    ``w`` (the whole chunk: a world's row of actions is all the advice needs)."""
    n_actions = int((rows["world"] == rows["world"].iloc[0]).sum())
    return rows["game_points"].to_numpy(dtype=np.int64).reshape(-1, n_actions)


def run_plan(state: SchnapsenState, bot: Bot, seed: int, samples: int, workers: int, as_given: str = "") -> Plan:
    """The :data:`ADVISE` plan of one position: every legal action, on the worlds of :func:`advise_plan`
    (``perfect``: the position as given, one world). The manifest records the position ``as_given`` (with
    its ``?``), not the state, whose hidden cards hold a placeholder filling, and the bot as typed.

    Raises
    ------
    InputError
        For a finished deal, or ``perfect`` with hidden cards.
    """
    if bot.policy == PERFECT:
        _check_every_card(state)
        params, _ = advise_plan(state, bot, seed, 1)
        params, n_worlds = {**params, "perfect": True, "exact": True}, 1
        method = "perfect information (every card as given), 1 world, exact"
    else:
        params, n_worlds = advise_plan(state, bot, seed, samples)
        kind = "exact (every world once)" if params["exact"] else "sampled"
        method = f"honest play-outs by {bot.label}, {n_worlds} world{'s' if n_worlds != 1 else ''}, {kind}"
    context = {"player": state.to_move, "bot": bot.label, "method": method}
    # the bot as typed (its sample count only when it samples), and the worlds only when they are drawn
    sampled = {} if params["exact"] else {"samples": samples}
    return Plan(params, n_worlds, seed, chunk_size(n_worlds, workers), context=context,
                manifest={"params": {"state": as_given or state.to_text(), "bot": bot.label, **sampled},
                          "rules": RULES})


def _advise_summary(plan: Plan, chunks: list) -> Summary:
    actions = [row[0] for row in plan.params["sequences"]]
    exact = plan.params["exact"]
    table = advice_table(actions, np.concatenate(chunks), exact)
    verdict = headline(table, exact)
    context = plan.context
    title = f"player {context['player']} to move; {context['method']}"
    return Summary(tables={"advice": table}, manifest={"worlds": plan.n_items, "headline": verdict["sentence"]},
                   shown=[(fill_console(verdict["sentence"]) + "\n\n" + title,
                           table.drop(columns="worlds"))],  # the title counts the worlds, the same for every row
                   payload={**context, "worlds": plan.n_items, "exact": exact, "headline": verdict,
                            "actions": records(table)})


def advice_table(actions: list[int], outcomes: np.ndarray, exact: bool) -> pd.DataFrame:
    """One row per action, best mean first: ``action, expected_gp, gp_lo, gp_hi, win_probability, win_lo, win_hi,
    vs_best, vs_best_lo, vs_best_hi, worlds``; ``win_probability`` is the share of the worlds the action won,
    with its 95% Wilson interval; ``vs_best`` is the paired difference to the best action on the same worlds
    with its 95% interval (no interval when the worlds were enumerated: each bound is then the value)."""
    means = outcomes.mean(axis=0)
    best = int(np.argmax(means))
    rows = []
    for i, a in enumerate(actions):
        gp, lo, hi = outcome_stats(outcomes[:, i], exact)
        diff, d_lo, d_hi = outcome_stats(outcomes[:, i] - outcomes[:, best], exact)
        won = int((outcomes[:, i] > 0).sum())
        win_lo, win_hi = (won / len(outcomes),) * 2 if exact else wilson_interval(won, len(outcomes))
        rows.append({"action": R.action_name(a), "expected_gp": gp, "gp_lo": lo, "gp_hi": hi,
                     "win_probability": won / len(outcomes), "win_lo": float(win_lo), "win_hi": float(win_hi),
                     "vs_best": diff, "vs_best_lo": d_lo, "vs_best_hi": d_hi, "worlds": len(outcomes)})
    return pd.DataFrame(rows).sort_values("expected_gp", ascending=False, kind="stable").reset_index(drop=True)


def headline(table: pd.DataFrame, exact: bool) -> dict:
    """The advice in one sentence, from :func:`advice_table` (best mean first).

    The best action, unless others are within noise of it: their paired difference to it on the same
    worlds has an interval reaching zero (with enumerated worlds: no difference at all), and then they are
    all named, as ``rikken advise`` does for its options.

    Returns
    -------
    dict
        ``clear`` (one action is best), ``actions`` (the actions named, best first) and ``sentence``.
    """
    best = table.iloc[0]
    others = table.iloc[1:]
    if others.empty:
        return {"clear": True, "actions": [best["action"]],
                "sentence": f"Advice: {best['action']}, the only legal action."}
    # a NaN bound (one sampled world) cannot tell the actions apart either
    close = others[others["vs_best"] >= 0] if exact else others[~(others["vs_best_hi"] < 0)]
    if close.empty:
        runner = others.iloc[0]
        return {"clear": True, "actions": [best["action"]],
                "sentence": f"Advice: {best['action']}, {_game_points(best, exact)}, won in "
                            f"{_won(best, exact)} of the worlds; {_ahead(runner, exact)}."}
    names = [best["action"], *close["action"]]
    why = ("the same expected game points over every world" if exact else
           "their paired differences to the best on the same worlds include zero")
    return {"clear": False, "actions": names,
            "sentence": f"No action is clearly best: {_listed(names)} are within noise of each other ({why}); "
                        f"{best['action']} has the highest mean, {_game_points(best, exact)}."}


def _game_points(row, exact: bool) -> str:
    if exact:
        return f"{fixed(row['expected_gp'], 2, sign=True)} game points (exact)"
    if not (math.isfinite(row["gp_lo"]) and math.isfinite(row["gp_hi"])):
        return f"{fixed(row['expected_gp'], 2, sign=True)} game points (too few worlds for an interval)"
    return (f"{fixed(row['expected_gp'], 2, sign=True)} game points [{fixed(row['gp_lo'], 2, sign=True)}, "
            f"{fixed(row['gp_hi'], 2, sign=True)}]")


def _won(row, exact: bool) -> str:
    share = f"{fixed(100 * row['win_probability'], 1)}%"
    return share if exact else f"{share} [{fixed(100 * row['win_lo'], 1)}, {fixed(100 * row['win_hi'], 1)}]"


def _ahead(runner, exact: bool) -> str:
    gap = f"{fixed(-runner['vs_best'], 2)} ahead of the next, {runner['action']}"
    if exact:
        return gap + " (exact)"
    if not (math.isfinite(runner["vs_best_lo"]) and math.isfinite(runner["vs_best_hi"])):
        return gap + " (too few worlds for an interval)"
    return f"{gap} (95% {fixed(-runner['vs_best_hi'], 2)} to {fixed(-runner['vs_best_lo'], 2)}, same worlds)"


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]


ADVISE = Experiment("schnapsen-advise", advice_rows, world_outcomes, rows="worlds", description="worlds",
                    summarize=_advise_summary, report=ADVISE_REPORT, query=ADVISE_QUERY, kernels="Schnapsen",
                    compile_seconds=20, warm_up=advise_warm_up, compiled=advise_compiled)
