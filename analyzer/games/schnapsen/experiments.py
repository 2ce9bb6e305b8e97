"""Schnapsen experiments: chunk tasks for ``run_chunks``, their plans and their declarations.

``match_task``: Bummerl matches between two bots, each match played twice on the same deals with the
seats swapped. ``closing_task``: at every position where closing is legal, "close now" against
"play on", each played forward by one honest bot on the same worlds (``advice`` evaluates every legal
action of one position the same way).

Honest evaluation (:func:`honest_outcomes`): the hidden cards are drawn from what the player to move can
see (or, when there are few enough distinct deals, every one of them is taken once: "exact"), and in each
such world every choice is played to the end by the same bot for both players, a bot that itself only
uses what its player sees. Nothing in the evaluation looks at the true hidden cards.
"""

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from analyzer.cards.rng import bounded, next_u64, state_from_seed
from analyzer.errors import InputError
from analyzer.experiments.experiment import Experiment, Plan, Summary, game_rules, kernel_cached, records
from analyzer.experiments.progress import report_items
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.findings import CLOSING_REPORT, MATCH_REPORT
from analyzer.games.schnapsen.hybrid_bot import hybrid_values
from analyzer.games.schnapsen.ismcts_bot import ismcts_hybrid_values, ismcts_values
from analyzer.games.schnapsen.kernels import (
    apply_action,
    init_round,
    legal_actions,
    random_action,
    shuffle_deck,
    stock_closed_or_exhausted,
)
from analyzer.games.schnapsen.pimc_plus import WIN_WEIGHT, plus_pick, plus_values
from analyzer.games.schnapsen.play import (
    BOTS,
    HEURISTIC,
    HYBRID,
    HYBRID_INFER,
    ISMCTS,
    ISMCTS_HYBRID,
    PIMC,
    PIMC_PLUS,
    POLICIES,
    ROLLOUT,
    kernels_for,
)
from analyzer.games.schnapsen.queries import CLOSING_QUERY, MATCH_QUERY
from analyzer.games.schnapsen.rollout_bot import rollout_bot_values, rollout_pick
from analyzer.games.schnapsen.search import (
    DEFAULT_SAMPLES,
    Workspace,
    list_actions,
    new_workspace,
    pimc_values,
    world_count,
)
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.games.schnapsen.summary import (
    closing_positions,
    closing_sums,
    match_sums,
    summarize_closing,
    summarize_matches,
)
from analyzer.reports.stats import mean_interval, merge_sums

#: the bots that sample worlds: they take a sample count and can play in another engine
SAMPLING = tuple(kind.policy for kind in BOTS.values() if kind.sampling)


@dataclass(frozen=True)
class Bot:
    """A bot: policy name, PIMC samples (worlds per decision of ``pimc``; of ``pimc_plus`` at the first
    tricks; ``rollout`` plays out ``rollout_bot.PLAYOUTS_PER_SAMPLE`` times as many; ``hybrid`` uses both,
    see :mod:`hybrid_bot`) and heuristic parameters."""

    name: str
    samples: int = DEFAULT_SAMPLES
    params: HeuristicParams = field(default_factory=HeuristicParams)

    @property
    def policy(self) -> int:
        """The kernel policy id."""
        return POLICIES[self.name]

    @property
    def label(self) -> str:
        """Name as typed on the command line (``pimc:24`` for a non-default sample count, ``heuristic:classic``
        for the frozen earlier heuristic)."""
        if self.name == "heuristic" and self.params == HeuristicParams.classic():
            return "heuristic:classic"
        sampling = self.policy in SAMPLING
        return f"{self.name}:{self.samples}" if sampling and self.samples != DEFAULT_SAMPLES else self.name

    def as_dict(self) -> dict:
        """Picklable description for task parameters and manifests."""
        return {"name": self.name, "samples": self.samples, "params": self.params.__dict__}

    @classmethod
    def from_dict(cls, d: dict) -> "Bot":
        """Inverse of :meth:`as_dict`."""
        return cls(d["name"], d["samples"], HeuristicParams(**d["params"]))


def parse_bot(text: str, samples: int | None = None) -> Bot:
    """Parse ``random``, ``heuristic``, ``heuristic:classic`` (the earlier heuristic, ``HeuristicParams.classic``),
    ``perfect``, ``pimc``, ``pimc_plus``, ``rollout``, ``hybrid``, or ``pimc:N`` / ``pimc_plus:N`` /
    ``rollout:N`` / ``hybrid:N`` (N samples).

    Raises
    ------
    InputError
        For an unknown bot or a bad sample count.
    """
    name, _, count = text.strip().lower().partition(":")
    if name not in POLICIES:
        raise InputError(f"unknown Schnapsen bot {text!r} (choose from {', '.join(POLICIES)})")
    n = samples if samples is not None else DEFAULT_SAMPLES
    if name == "heuristic" and count == "classic":
        return Bot(name, n, HeuristicParams.classic())
    if count and POLICIES[name] not in SAMPLING:
        raise InputError(f"{name} takes no ':{count}'" + (" (heuristic:classic is the earlier heuristic)"
                                                          if name == "heuristic" else "")
                         + f": only {_and_list([f'{n}:N' for n, k in BOTS.items() if k.sampling])} take a sample count")
    if count:
        try:
            n = int(count)
        except ValueError:
            raise InputError(f"bad sample count in {text!r}: write {name}:N") from None
    if n < 1 or n > 10_000:
        raise InputError(f"sample count must be 1..10000, got {n}")
    return Bot(name, n)


def _and_list(names: list[str], word: str = "and") -> str:
    """``a, b and c``."""
    return f"{', '.join(names[:-1])} {word} {names[-1]}" if len(names) > 1 else "".join(names)


def _seat_arrays(bots: list[Bot]):
    policy = np.array([b.policy for b in bots], dtype=np.int64)
    samples = np.array([b.samples for b in bots], dtype=np.int64)
    hparams = np.stack([b.params.to_array() for b in bots])
    return policy, samples, hparams


# ---------------------------------------------------------------------------------------- matches
def match_task(params: dict, start: int, count: int, seed_seq: np.random.SeedSequence) -> pd.DataFrame:
    """Play ``count`` match pairs: bot A in seat 0 then in seat 1, on the same deal sequence.

    Returns one row per match: ``pair, seating, a_seat, winner ("A"/"B"), deals, gp_a, gp_b`` and each
    bot's closings and closings won (``closes_a``, ``closes_b``, ``close_wins_a``, ``close_wins_b``).
    """
    a = Bot.from_dict(params["a"])
    b = Bot.from_dict(params["b"])
    play_match = kernels_for((a.policy, b.policy)).play_match
    ws = new_workspace()
    rows = []
    for i, child in enumerate(seed_seq.spawn(count)):
        deal_ss, bot_ss = child.spawn(2)
        for seating, seats in enumerate(([a, b], [b, a])):
            policy, samples, hparams = _seat_arrays(seats)
            winner, deals, gp0, gp1, c0, c1, cw0, cw1 = play_match(
                policy, samples, hparams, state_from_seed(deal_ss), state_from_seed(bot_ss), 1, ws)
            a_seat = seating
            gp, closes, close_wins = (gp0, gp1), (c0, c1), (cw0, cw1)
            rows.append({"pair": start + i, "seating": seating, "a_seat": a_seat,
                         "winner": "A" if winner == a_seat else "B", "deals": deals,
                         "gp_a": gp[a_seat], "gp_b": gp[1 - a_seat], "closes_a": int(closes[a_seat]),
                         "closes_b": int(closes[1 - a_seat]), "close_wins_a": int(close_wins[a_seat]),
                         "close_wins_b": int(close_wins[1 - a_seat])})
        report_items()
    return pd.DataFrame(rows)


def match_compiled(params: dict) -> bool:
    """Whether numba's cache holds the two bots' ``play_match`` (:func:`match_task`'s kernel): :data:`MATCH`
    compiles it first, with the notice, if not."""
    return kernel_cached(kernels_for((Bot.from_dict(params["a"]).policy, Bot.from_dict(params["b"]).policy)).play_match)


def paired_deals(a: Bot, b: Bot, n_deals: int, seed: int) -> pd.DataFrame:
    """Play ``n_deals`` random deals twice, A in seat 0 then in seat 1, on the same cards.

    Returns one row per deal with A's signed game points in each seating (``a_seat0``, ``a_seat1``) and
    their mean ``a_gp`` (B's result is its negative: every deal has one winner).
    """
    ws = new_workspace()
    deal_ss, bot_ss = np.random.SeedSequence(seed).spawn(2)
    out = np.zeros((n_deals, 6), dtype=np.int64)
    results = []
    for seats in ([a, b], [b, a]):
        policy, samples, hparams = _seat_arrays(seats)
        kernels_for(policy).play_deals(n_deals, policy, samples, hparams, state_from_seed(deal_ss), state_from_seed(bot_ss), out, ws)
        results.append(np.where(out[:, 0] == 0, out[:, 1], -out[:, 1]))
    a0, a1 = results[0], -results[1]
    return pd.DataFrame({"deal": np.arange(n_deals), "a_seat0": a0, "a_seat1": a1, "a_gp": (a0 + a1) / 2})


def _values_and_pick(bot: Bot):
    """The value kernel and the pick of a sampling bot other than ``pimc``."""
    if bot.policy == PIMC_PLUS:
        return plus_values, plus_pick
    if bot.policy in (ISMCTS, ISMCTS_HYBRID):
        return (ismcts_values if bot.policy == ISMCTS else ismcts_hybrid_values), rollout_pick
    if bot.policy == HYBRID_INFER:
        return (lambda s, samples, rng, ws, n: hybrid_values(s, samples, rng, ws, n, True)), rollout_pick
    return (rollout_bot_values if bot.policy == ROLLOUT else hybrid_values), rollout_pick


#: a win weight above any spread of mean game points (-3..3): the share of worlds won decides
DEAL_ONLY_WIN_WEIGHT = 100.0


def package_decider(bot: Bot, rng: np.ndarray, ws: Workspace):
    """A decision function ``decide(s, allowed) -> action`` for playing ``bot`` in another engine that
    offers only the actions ``allowed`` (a subset of ours in ``s``, e.g. no closing): the bot's choice
    among them. ``pimc_plus``, ``rollout`` and ``hybrid`` there play for the deal alone (worlds won first; with a
    package-rules workspace their worlds count only won or lost, without it game points break ties): such an engine
    counts games won, not game points.

    Raises
    ------
    InputError
        For a bot other than ``pimc``, ``pimc_plus``, ``rollout`` or ``hybrid``.
    """
    if bot.policy not in SAMPLING:
        raise InputError(f"the {bot.name} bot cannot play in another engine (pimc, pimc_plus, rollout and hybrid can)")

    def decide(s: np.ndarray, allowed: list[int]) -> int:
        if bot.policy != PIMC:
            values, pick = _values_and_pick(bot)
            n, worlds = values(s, bot.samples, rng, ws, list_actions(s, ws))
            flags = np.array([int(a) in allowed for a in ws.acts[:n]])
            return int(ws.acts[pick(ws.acts, ws.sums, ws.wins, n, worlds, flags, DEAL_ONLY_WIN_WEIGHT)])
        n, _ = pimc_values(s, bot.samples, rng, ws, list_actions(s, ws))
        options = [i for i in range(n) if int(ws.acts[i]) in allowed]
        return int(ws.acts[max(options, key=lambda i: ws.sums[i])])

    return decide


# ---------------------------------------------------------------------------------------- honest evaluation
HONEST = tuple(kind.policy for kind in BOTS.values() if kind.honest)


def check_honest(bot: Bot) -> None:
    """Refuse bots that see hidden cards for the honest evaluations.

    Raises
    ------
    InputError
        For the ``perfect`` bot.
    """
    if bot.policy not in HONEST:
        raise InputError(f"the {bot.name} bot sees hidden cards; honest closing odds need "
                         f"{_and_list([name for name, kind in BOTS.items() if kind.honest], 'or')}")


def world_plan(s: np.ndarray, samples: int) -> tuple[int, bool]:
    """How many worlds an honest evaluation of ``s`` takes and whether they are enumerated: every deal the
    player to move cannot tell apart (:func:`search.world_count`) when the stock is closed or exhausted, or
    when there are at most ``samples`` of them; else ``samples`` drawn uniformly."""
    count = int(world_count(s, int(s[R.TO_MOVE])))
    exact = count <= samples or bool(stock_closed_or_exhausted(s))
    return (count if exact else samples), exact


def sequence_array(sequences: list[list[int]]) -> np.ndarray:
    """Action sequences as the rows of an int64 array, padded with -1 (``rollout_values``' ``seqs``)."""
    seqs = np.full((len(sequences), max(len(q) for q in sequences)), -1, dtype=np.int64)
    for i, q in enumerate(sequences):
        seqs[i, :len(q)] = q
    return seqs


def honest_outcomes(s: np.ndarray, sequences: list[list[int]], bot: Bot, samples: int, rng: np.ndarray,
                    ws: Workspace) -> tuple[np.ndarray, bool]:
    """Play every action sequence forward from ``s`` with ``bot`` in both seats, world by world, on the
    worlds of :func:`world_plan`, each with its own random state drawn from ``rng``.

    Returns ``(outcomes, exact)``: ``outcomes[w, i]`` is the mover's signed game points in world ``w``
    after sequence ``i``, and ``exact`` says the worlds were enumerated (each once).
    """
    n_worlds, exact = world_plan(s, samples)
    world_rngs = np.array([[next_u64(rng) for _ in range(4)] for _ in range(n_worlds)], dtype=np.uint64)
    out = np.zeros((n_worlds, len(sequences)), dtype=np.int64)
    kernels_for((bot.policy,)).rollout_values(s, sequence_array(sequences), bot.policy, bot.samples, bot.params.to_array(), exact, 0,
                   world_rngs, out, ws)
    return out, exact


def outcome_stats(values: np.ndarray, exact: bool) -> tuple[float, float, float]:
    """Mean of per-world values with its 95% interval: none needed when the worlds were enumerated
    (the mean is then the exact average over every world; only the bot's own sampling can move it)."""
    if exact:
        mean = float(np.mean(values))
        return mean, mean, mean
    return mean_interval(values)


def _bot_choice(s: np.ndarray, bot: Bot, hp: np.ndarray, rng: np.ndarray, ws: Workspace,
                allow_close: bool) -> int:
    """The bot's own action in ``s`` (pimc: best average over its sampled worlds), never closing unless
    ``allow_close``."""
    if bot.policy == PIMC:
        n, _ = pimc_values(s, bot.samples, rng, ws, list_actions(s, ws))
        options = [i for i in range(n) if allow_close or ws.acts[i] != R.CLOSE]
        return int(ws.acts[max(options, key=lambda i: ws.sums[i])])
    if bot.policy in SAMPLING:
        values, pick = _values_and_pick(bot)
        n, worlds = values(s, bot.samples, rng, ws, list_actions(s, ws))
        flags = np.array([allow_close or a != R.CLOSE for a in ws.acts[:n]])
        return int(ws.acts[pick(ws.acts, ws.sums, ws.wins, n, worlds, flags, WIN_WEIGHT)])
    if bot.policy == HEURISTIC:
        params = hp if allow_close else replace(bot.params, close_points=10**9).to_array()
        return int(heuristic_action(s, params, ws.acts))
    if allow_close:
        return int(random_action(s, rng, ws.acts))
    n = legal_actions(s, ws.acts)
    options = [int(a) for a in ws.acts[:n] if a != R.CLOSE]
    return options[int(bounded(rng, len(options)))]


def play_on_sequence(s: np.ndarray, bot: Bot, rng: np.ndarray, ws: Workspace) -> list[int]:
    """"Play on" at a position where closing is legal: the bot's own choice among the other actions,
    decided once from what the mover sees; after an exchange (the mover is still on lead and could close
    now) also its next choice, again without closing, so the sequence ends with a card led."""
    hp = bot.params.to_array()
    first = _bot_choice(s, bot, hp, rng, ws, allow_close=False)
    if first != R.EXCHANGE:
        return [first]
    after = s.copy()
    apply_action(after, first)
    return [first, _bot_choice(after, bot, hp, rng, ws, allow_close=False)]


# ---------------------------------------------------------------------------------------- closing
HIGH_TRUMP_RANKS = (R.TEN, R.ACE)
CLOSING_COLUMNS = ["deal", "position", "player", "stock_size", "own_points", "opp_points", "own_pending",
                   "own_has_trick", "opp_has_trick", "trumps_held", "high_trumps_held", "worlds", "exact",
                   "close_win", "close_gp", "playon_action", "playon_win", "playon_gp", "gain", "gain_lo",
                   "gain_hi", "bot_action"]


def closing_row(s: np.ndarray, bot: Bot, samples: int, rng: np.ndarray, ws: Workspace) -> dict:
    """Honest "close now" against "play on" at ``s`` (closing legal there): both played forward by
    ``bot`` on the same worlds; the position's features, each choice's win rate and game points, and
    the paired gain with its 95% interval."""
    play_on = play_on_sequence(s, bot, rng, ws)
    outcomes, exact = honest_outcomes(s, [[R.CLOSE], play_on], bot, samples, rng, ws)
    p = int(s[R.TO_MOVE])
    trump = int(s[R.TRUMP])
    hand = int(s[R.HAND0 + p])
    trumps = hand & int(R.SUIT_MASKS[trump])
    high = sum((hand >> R.card_of(trump, r)) & 1 for r in HIGH_TRUMP_RANKS)
    gain, gain_lo, gain_hi = outcome_stats(outcomes[:, 0] - outcomes[:, 1], exact)
    return {"position": SchnapsenState.from_array(s).to_text(), "player": p, "stock_size": R.STOCK_SIZE - int(s[R.DRAWN]),
            "own_points": int(s[R.POINTS0 + p]), "opp_points": int(s[R.POINTS0 + 1 - p]),
            "own_pending": int(s[R.PENDING0 + p]), "own_has_trick": int(s[R.TRICKS0 + p] > 0),
            "opp_has_trick": int(s[R.TRICKS0 + 1 - p] > 0),
            "trumps_held": trumps.bit_count(), "high_trumps_held": int(high), "worlds": len(outcomes),
            "exact": bool(exact), "close_win": float((outcomes[:, 0] > 0).mean()),
            "close_gp": float(outcomes[:, 0].mean()),
            "playon_action": " ".join(R.action_name(a) for a in play_on),
            "playon_win": float((outcomes[:, 1] > 0).mean()), "playon_gp": float(outcomes[:, 1].mean()),
            "gain": gain, "gain_lo": gain_lo, "gain_hi": gain_hi}


def closing_task(params: dict, start: int, count: int, seed_seq: np.random.SeedSequence) -> pd.DataFrame:
    """Play ``count`` deals with ``params["bot"]`` in both seats and evaluate each legal closing honestly.

    At every position where closing is legal, "close now" and "play on" (the bot's own choice among
    the other actions) are each played forward by the bot for both players on the same
    ``params["samples"]`` worlds, or on every world when there are that few (:func:`closing_row`); the
    deal then continues with the bot's own choice (``bot_action``: ``close`` where the bot closed). One
    row per such position, with its deal and the whole position in state notation (``position``: every
    card placed, ready for ``analyzer schnapsen advise``).
    """
    bot = Bot.from_dict(params["bot"])
    check_honest(bot)
    samples = int(params.get("samples", DEFAULT_SAMPLES))
    hp = bot.params.to_array()
    ws = new_workspace()
    rows = []
    s = ws.state
    for i, child in enumerate(seed_seq.spawn(count)):
        deal_ss, bot_ss = child.spawn(2)
        deal_rng = state_from_seed(deal_ss)
        rng = state_from_seed(bot_ss)
        shuffle_deck(deal_rng, ws.deck)
        init_round(ws.deck, (start + i) % 2, s)
        while s[R.WINNER] < 0:
            n = legal_actions(s, ws.acts)
            can_close = R.CLOSE in ws.acts[:n]
            action = _bot_choice(s, bot, hp, rng, ws, allow_close=True)
            if can_close:
                rows.append({"deal": start + i, **closing_row(s, bot, samples, rng, ws),
                             "bot_action": R.action_name(action)})
            apply_action(s, action)
        report_items()
    return pd.DataFrame(rows, columns=CLOSING_COLUMNS)


# ---------------------------------------------------------------------------------------- declarations
RULES = game_rules("schnapsen", source="docs/rules.md section 2")


def match_plan(bots: tuple[str, str], matches: int, samples: int, seed: int, chunk_size: int) -> Plan:
    """The checked plan of ``matches`` match pairs between the two bots named in ``bots``."""
    a, b = (parse_bot(text, samples) for text in bots)
    params = {"a": a.as_dict(), "b": b.as_dict()}
    return Plan(params, matches, seed, chunk_size, manifest={"params": params, "rules": RULES})


def _match_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.schnapsen import charts  # the parent draws; workers need not load matplotlib

    a, b = (Bot.from_dict(plan.params[seat]) for seat in ("a", "b"))
    summary = summarize_matches(merge_sums(chunks), a.label, b.label)
    return Summary(
        tables={f"summary_{name}": table for name, table in summary.items()},
        figures={"match_win_rate": lambda: charts.match_win_rate(summary),
                 "match_game_points": lambda: charts.match_game_points(summary),
                 "match_closing": lambda: charts.match_closing(summary)},
        manifest={"matches": plan.n_items, "bots": plan.params},
        shown=list(summary.items()), payload={name: records(table) for name, table in summary.items()})


def closing_plan(bot: str, deals: int, samples: int, seed: int, chunk_size: int) -> Plan:
    """The checked plan of ``deals`` deals played by the honest ``bot``, ``samples`` worlds per position."""
    chosen = parse_bot(bot)
    check_honest(chosen)
    params = {"bot": chosen.as_dict(), "samples": samples}
    return Plan(params, deals, seed, chunk_size, manifest={"params": params, "rules": RULES})


def _closing_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.schnapsen import charts

    sums = merge_sums(chunks)
    positions = closing_positions(sums)
    if positions == 0:
        raise InputError("no position with a legal closing was reached; play more deals")
    label = Bot.from_dict(plan.params["bot"]).label
    summary = summarize_closing(sums)
    return Summary(
        tables={"summary_closing": summary},
        figures={"closing_success": lambda: charts.success_heatmap(sums, label),
                 "closing_gain": lambda: charts.gain_heatmap(sums, label),
                 "close_when": lambda: charts.close_when_map(sums, label)},
        manifest={"deals": plan.n_items, "bot": plan.params["bot"], "samples": plan.params["samples"],
                  "positions": positions},
        shown=[("closing", summary)], payload={"positions": positions, "summary": records(summary)})


def settings_as_read(params: dict) -> dict:
    """A run's parameters as a reader reads them (``ReportSpec.settings``): each bot by the name typed for it
    (``pimc``, ``pimc:24``), not its stored description, whose sample count a heuristic never uses."""
    return {key: Bot.from_dict(value).label if key in ("a", "b", "bot") and isinstance(value, dict) else value
            for key, value in params.items()}


MATCH = Experiment("schnapsen-match", match_task, match_sums, rows="matches", description="schnapsen matches",
                   summarize=_match_summary, report=replace(MATCH_REPORT, settings=settings_as_read),
                   query=MATCH_QUERY,
                   kernels="Schnapsen", compile_seconds=15, compiled=match_compiled)
CLOSING = Experiment("schnapsen-closing", closing_task, closing_sums, rows="closing_positions",
                     description="schnapsen closing", summarize=_closing_summary,
                     report=replace(CLOSING_REPORT, settings=settings_as_read),
                     query=CLOSING_QUERY, kernels="Schnapsen", compile_seconds=20)
#: every Schnapsen experiment, for the catalog
EXPERIMENTS = (MATCH, CLOSING)
