"""Sloppy Seconds experiments: chunk tasks for ``run_chunks``, their plans and their declarations.

``play``: games to the target with one policy per seat. When the seats do not all use the same policy,
every game is replayed under each rotation of the policy list round the table, on the same deals and
the same play stream, so each policy sits in each seat against the same cards; policy comparisons are
paired on these (game, rotation) units.

``variants``: the same random deals played under each (trump rule, minimum rule) pair with one policy
at every seat and the same play stream: trump emergence, score distributions and seat advantage.
Seat 0 leads the first trick of every deal (the dealer is the last seat).
"""

import itertools

import numpy as np
import pandas as pd

from analyzer.cards.dealing import deal_random
from analyzer.experiments.experiment import Experiment, Plan, Summary, game_rules, records
from analyzer.games.seconds.findings import PLAY_REPORT, VARIANTS_REPORT
from analyzer.games.seconds.play import game_states, simulate_deals, simulate_games
from analyzer.games.seconds.policies import POLICY_NAMES, params_array, parse_policies
from analyzer.games.seconds.queries import PLAY_QUERY, VARIANTS_QUERY
from analyzer.games.seconds.rules import MINIMUM_VARIANTS, TRUMP_VARIANTS, SecondsRules
from analyzer.games.seconds.summary import play_sums, summarize_play, summarize_variants, variants_sums
from analyzer.reports.stats import merge_sums


def rotations(seat_policies: list[int]) -> list[list[int]]:
    """Policy lists for each rotation round the table (just one when every seat plays the same)."""
    n = len(seat_policies)
    if len(set(seat_policies)) == 1:
        return [list(seat_policies)]
    return [[seat_policies[(s + r) % n] for s in range(n)] for r in range(n)]


def play_task(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """Chunk task of ``play``: one row per (game, rotation, seat). A game's deals come from its own
    seed (``game_states``), so the game index with the run's seed and chunk size identifies its cards."""
    rules = SecondsRules(**params["rules"])
    policy_params = params_array(rules.n_players, **params["policy_params"])
    states = game_states(seed_seq, count)
    frames = []
    for r, seat_policies in enumerate(rotations(params["policies"])):
        out = simulate_games(count, seat_policies, rules, None, policy_params, first_game=start, states=states)
        n = rules.n_players
        games = np.repeat(np.arange(start, start + count), n)
        seats = np.tile(np.arange(n), count)
        frames.append(pd.DataFrame({
            "game": games,
            "rotation": r,
            "seat": seats,
            "policy": [POLICY_NAMES[seat_policies[s]] for s in seats],
            "total": out["totals"].reshape(-1),
            "n_deals": np.repeat(out["n_deals"], n),
            "win": np.repeat(out["winner"], n) == seats,
        }))
    frame = pd.concat(frames, ignore_index=True)
    frame["score_per_deal"] = frame["total"] / frame["n_deals"]
    return frame


def variants_task(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """Chunk task of ``variants``: one row per (deal, trump rule, minimum rule, seat), with the seat's
    hand as a card mask (``cards``: the rows of a deal hold all its cards)."""
    n = params["n_players"]
    deal_seq, play_seq = seed_seq.spawn(2)
    probe = SecondsRules(n_players=n)
    deals = deal_random(count, deal_seq, n, probe.deck)
    leaders = np.zeros(count, np.int64)
    policy_params = params_array(n, **params["policy_params"])
    frames = []
    for trump, minimum in itertools.product(TRUMP_VARIANTS, MINIMUM_VARIANTS):
        rules = SecondsRules(n_players=n, trump=trump, minimum=minimum)
        out = simulate_deals(deals, leaders, [params["policy"]] * n, rules, play_seq, policy_params)
        frames.append(pd.DataFrame({
            "deal": np.repeat(np.arange(start, start + count), n),
            "trump_rule": trump,
            "minimum_rule": minimum,
            "seat": np.tile(np.arange(n), count),
            "cards": deals.reshape(-1),
            "score": out["scores"].reshape(-1),
            "trump_suit": np.repeat(out["trump_suit"], n),
            "trump_trick": np.repeat(out["trump_trick"], n),
        }))
    return pd.concat(frames, ignore_index=True)




# ---------------------------------------------------------------------------------------- declarations
def play_plan(rules: SecondsRules, policies: str, games: int, policy_params: dict, seed: int, chunk_size: int) -> Plan:
    """The checked plan of ``games`` games under ``rules``, ``policies`` naming one policy per seat (or one for all)."""
    seat_policies = parse_policies(policies, rules.n_players)
    params_array(rules.n_players, **policy_params)
    params = {"rules": {"n_players": rules.n_players, "trump": rules.trump, "minimum": rules.minimum,
                        "target": rules.target},
              "policies": seat_policies, "policy_params": policy_params}
    names = [POLICY_NAMES[p] for p in seat_policies]
    return Plan(params, games, seed, chunk_size, context=names,
                manifest={"params": {**params, "policy_names": names},
                          "rules": game_rules("seconds", **rules.as_dict())})


def _play_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.seconds import charts  # the parent draws; workers need not load matplotlib

    sums = merge_sums(chunks)
    summary = summarize_play(sums)
    rules = SecondsRules(**plan.params["rules"])
    title = f"Sloppy Seconds, {rules.n_players} players: {', '.join(plan.context)}"
    return Summary(
        tables={f"summary_{name}": table for name, table in summary.items()},
        figures={"play": lambda: charts.play_figure(summary, title)},
        manifest={"games": plan.n_items, "rows": int(sums["by_seat"]["n"].sum())},
        shown=list(summary.items()),
        payload={"rules": rules.as_dict(), "policies": plan.context,
                 **{name: records(table) for name, table in summary.items()}})


def variants_plan(players: int, policy: str, deals: int, policy_params: dict, seed: int, chunk_size: int) -> Plan:
    """The checked plan of ``deals`` deals of ``players`` played by ``policy`` under every rule pair."""
    SecondsRules(n_players=players)
    policy_id = parse_policies(policy, 1)[0]
    params_array(players, **policy_params)
    params = {"n_players": players, "policy": policy_id, "policy_params": policy_params}
    rule_sets = [SecondsRules(players, t, m).as_dict() for t in TRUMP_VARIANTS for m in MINIMUM_VARIANTS]
    return Plan(params, deals, seed, chunk_size,
                manifest={"params": {**params, "policy_name": POLICY_NAMES[policy_id]},
                          "rules": game_rules("seconds", rule_sets=rule_sets)})


def _variants_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.seconds import charts

    sums = merge_sums(chunks)
    summary = summarize_variants(sums)
    players, policy = plan.params["n_players"], POLICY_NAMES[plan.params["policy"]]
    title = f"Sloppy Seconds rule variants, {players} players, {policy} play"
    return Summary(
        tables={f"summary_{name}": table for name, table in summary.items()},
        figures={"variants": lambda: charts.variants_figure(sums, summary, title)},
        manifest={"deals": plan.n_items, "rows": int(sums["scores"]["count"].sum())},
        shown=[(name, table) for name, table in summary.items() if name != "trump_tricks"],
        payload={"n_players": players, "policy": policy, **{name: records(table) for name, table in summary.items()}})


PLAY = Experiment("seconds-play", play_task, play_sums, rows="games", description="seconds games",
                  summarize=_play_summary, report=PLAY_REPORT, query=PLAY_QUERY,
                  kernels="Sloppy Seconds")
VARIANTS = Experiment("seconds-variants", variants_task, variants_sums, rows="deals", description="seconds variants",
                      summarize=_variants_summary, report=VARIANTS_REPORT, query=VARIANTS_QUERY,
                      kernels="Sloppy Seconds")
#: every Sloppy Seconds experiment, for the catalog
EXPERIMENTS = (PLAY, VARIANTS)
