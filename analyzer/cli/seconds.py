"""``analyzer seconds ...``: Sloppy Seconds games between policies, and the rule variants side by side."""

import sys
import time
from typing import Annotated

import pandas as pd
import typer

from analyzer.cli.options import (
    MAX_ITEMS,
    ChunkSize,
    JsonOut,
    OutDir,
    Scheduler,
    Seed,
    Workers,
    json_dumps,
    out_dir_or_default,
)
from analyzer.errors import InputError
from analyzer.experiments.runner import check_chunk_count, check_run_dir, run_chunks
from analyzer.games.seconds import charts
from analyzer.games.seconds.experiments import play_task, variants_task
from analyzer.games.seconds.policies import PARAM_NAMES, POLICY_NAMES, params_array, parse_policies
from analyzer.games.seconds.rules import DEFAULT_TARGET, MINIMUM_VARIANTS, TRUMP_VARIANTS, SecondsRules
from analyzer.games.seconds.summary import play_sums, summarize_play, summarize_variants, variants_sums
from analyzer.reports.progress import stage
from analyzer.reports.stats import merge_sums
from analyzer.reports.store import RunStore

app = typer.Typer(help="Sloppy Seconds: 2-8 players, be second in every suit.", no_args_is_help=True)

Players = Annotated[int, typer.Option("--players", "-p", help="Number of players, 2..8.")]
Variant = Annotated[str, typer.Option("--variant", help=f"Trump rule: {' or '.join(TRUMP_VARIANTS)}.")]
Minimum = Annotated[str, typer.Option("--minimum", help=f"Minimum rule: {' or '.join(MINIMUM_VARIANTS)}.")]
# A game ends when a player reaches the target: 100 times the default still ends, a typo's billion not.
MAX_TARGET = 100 * DEFAULT_TARGET
Param = Annotated[list[str] | None, typer.Option(
    "--param", help=f"Policy parameter NAME=VALUE (repeatable): {', '.join(PARAM_NAMES)}.", show_default=False)]


def parse_params(items: list[str] | None) -> dict:
    """Turn ``NAME=VALUE`` strings into a dict of floats (names are checked by ``params_array``)."""
    values = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        try:
            if not sep:
                raise ValueError
            values[name.strip()] = float(value)
        except ValueError:
            raise InputError(f"bad --param {item!r}: write NAME=NUMBER") from None
    return values


def default_policies(n_players: int) -> str:
    """The ``--policies`` default: heuristic and random seats alternating, one per seat of the table."""
    return ",".join(("heuristic", "random")[seat % 2] for seat in range(n_players))


def _records(frame: pd.DataFrame) -> list[dict]:
    return frame.to_dict(orient="records")


def _start_run(experiment: str, out, params: dict, seed: int, chunk_size: int, rules) -> RunStore:
    store = RunStore(out_dir_or_default(out, experiment))
    store.write_manifest({"experiment": experiment, "command": " ".join(["analyzer", *sys.argv[1:]]), "seed": seed,
                          "chunk_size": chunk_size, "params": params, "rules": rules})
    return store


def _print_summary(summary: dict[str, pd.DataFrame], store: RunStore) -> None:
    for name, table in summary.items():
        typer.echo(f"{name}:\n{table.to_string(index=False, float_format=lambda v: f'{v:.3f}')}\n")
    typer.echo(f"results in {store.root}")


@app.command()
def play(
    workers: Workers,
    players: Players = 4,
    policies: Annotated[str | None, typer.Option(
        "--policies", help=f"Comma-separated policies, one per seat or one for all: {', '.join(POLICY_NAMES)}.",
        show_default="heuristic,random,... one per seat")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_ITEMS,
                                       help="Games to the target (per rotation).")] = 200,
    variant: Variant = "seed",
    minimum: Minimum = "per-suit",
    target: Annotated[int, typer.Option("--target", min=1, max=MAX_TARGET, help="Game target score.")] = DEFAULT_TARGET,
    param: Param = None,
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = 25,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """Play games to the target; per seat and per policy: score per deal and win rate, paired differences.

    With different policies at the table every game is replayed under each rotation of the policy list,
    on the same deals, so each policy meets the same cards from every seat.
    """
    rules = SecondsRules(n_players=players, trump=variant, minimum=minimum, target=target)
    seat_policies = parse_policies(policies or default_policies(players), players)
    policy_params = parse_params(param)
    params_array(players, **policy_params)
    task_params = {"rules": {"n_players": players, "trump": variant, "minimum": minimum, "target": target},
                   "policies": seat_policies, "policy_params": policy_params}
    names = [POLICY_NAMES[p] for p in seat_policies]
    check_chunk_count(games, chunk_size)
    check_run_dir(out, play_task, task_params, games, seed=seed, chunk_size=chunk_size)
    store = _start_run("seconds-play", out, {**task_params, "policy_names": names}, seed, chunk_size,
                       {"game": "seconds", **rules.as_dict()})
    started = time.perf_counter()
    chunks = run_chunks(play_task, task_params, games, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="seconds games", store=store, backend=scheduler, rows_dir=store.root / "games",
                        aggregate=play_sums)
    played = time.perf_counter()
    with stage("writing summary"):
        sums = merge_sums(chunks)
        summary = summarize_play(sums)
        for name, table in summary.items():
            store.write_csv(f"summary_{name}", table)
    with stage("drawing charts"):
        store.save_figure(charts.play_figure(summary, f"Sloppy Seconds, {players} players: {', '.join(names)}"),
                          "play")
    store.write_manifest({"games": games, "rows": int(sums["by_seat"]["n"].sum()),
                          "timings": {"play_seconds": round(played - started, 3),
                                      "summary_seconds": round(time.perf_counter() - played, 3)}})
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), "rules": rules.as_dict(), "policies": names,
                               **{k: _records(v) for k, v in summary.items()}}))
        return
    _print_summary(summary, store)


@app.command()
def variants(
    workers: Workers,
    players: Players = 4,
    policy: Annotated[str, typer.Option("--policy", help=f"Policy at every seat: {', '.join(POLICY_NAMES)}.")]
    = "heuristic",
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, max=MAX_ITEMS,
                                       help="Deals, each played under all four rule pairs.")] = 2000,
    param: Param = None,
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = 500,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """The trump rules (seed, original) and minimum rules (per-suit, per-hand) side by side on the same deals."""
    SecondsRules(n_players=players)
    policy_id = parse_policies(policy, 1)[0]
    policy_params = parse_params(param)
    params_array(players, **policy_params)
    task_params = {"n_players": players, "policy": policy_id, "policy_params": policy_params}
    rule_sets = [SecondsRules(players, t, m).as_dict() for t in TRUMP_VARIANTS for m in MINIMUM_VARIANTS]
    check_chunk_count(deals, chunk_size)
    check_run_dir(out, variants_task, task_params, deals, seed=seed, chunk_size=chunk_size)
    store = _start_run("seconds-variants", out, {**task_params, "policy_name": POLICY_NAMES[policy_id]}, seed,
                       chunk_size, {"game": "seconds", "rule_sets": rule_sets})
    started = time.perf_counter()
    chunks = run_chunks(variants_task, task_params, deals, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="seconds variants", store=store, backend=scheduler, rows_dir=store.root / "deals",
                        aggregate=variants_sums)
    played = time.perf_counter()
    with stage("writing summary"):
        sums = merge_sums(chunks)
        summary = summarize_variants(sums)
        for name, table in summary.items():
            store.write_csv(f"summary_{name}", table)
    with stage("drawing charts"):
        store.save_figure(charts.variants_figure(sums, summary, f"Sloppy Seconds rule variants, {players} players, "
                                                 f"{POLICY_NAMES[policy_id]} play"), "variants")
    store.write_manifest({"deals": deals, "rows": int(sums["scores"]["count"].sum()),
                          "timings": {"play_seconds": round(played - started, 3),
                                      "summary_seconds": round(time.perf_counter() - played, 3)}})
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), "n_players": players, "policy": POLICY_NAMES[policy_id],
                               **{k: _records(v) for k, v in summary.items()}}))
        return
    _print_summary({k: v for k, v in summary.items() if k != "trump_tricks"}, store)
