"""``analyzer schnapsen ...``: Bummerl matches between bots, closing odds, and advice for one position."""

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
from analyzer.games.schnapsen import charts
from analyzer.games.schnapsen.experiments import advise as advise_position
from analyzer.games.schnapsen.experiments import (
    check_honest,
    closing_task,
    match_task,
    parse_bot,
)
from analyzer.games.schnapsen.play import PERFECT, POLICIES
from analyzer.games.schnapsen.rollout_bot import PLAYOUTS_PER_SAMPLE
from analyzer.games.schnapsen.search import DEFAULT_SAMPLES
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.games.schnapsen.summary import (
    closing_positions,
    closing_sums,
    match_sums,
    summarize_closing,
    summarize_matches,
)
from analyzer.reports.progress import stage
from analyzer.reports.stats import merge_sums
from analyzer.reports.store import RunStore

app = typer.Typer(help="Schnapsen (2 players, 20 cards): bots, Bummerl matches, closing odds, advice.",
                  no_args_is_help=True)

BOT_HELP = (f"{', '.join(POLICIES)} (pimc:N / pimc_plus:N / rollout:N / hybrid:N for N samples; "
            "heuristic:classic is the earlier heuristic; perfect sees every card; in a Bummerl, pimc_plus, "
            "rollout and hybrid play for the Bummerl: a deal is worth the chance of winning it after that deal)")
Samples = Annotated[int, typer.Option("--samples", min=1, max=10_000,
                                      help=f"Sampled worlds per pimc / pimc_plus decision; rollout plays out "
                                           f"{PLAYOUTS_PER_SAMPLE} times as many, hybrid does both (pimc:N sets it "
                                           "for one bot).")]


def _records(frame: pd.DataFrame) -> list[dict]:
    return frame.to_dict(orient="records")


def _two_bots(bots: tuple[str, str]) -> tuple[str, str]:
    # "--bots heuristic --matches 2" would take "--matches" as the second bot and then stumble on "2".
    if any(bot.startswith("-") for bot in bots):
        raise typer.BadParameter("--bots takes two bots, e.g. --bots heuristic pimc")
    return bots


def _print_tables(tables: dict[str, pd.DataFrame]) -> None:
    for name, table in tables.items():
        typer.echo(f"{name}:\n{table.to_string(index=False, float_format=lambda v: f'{v:.3f}')}\n")


@app.command()
def match(
    workers: Workers,
    bots: Annotated[tuple[str, str], typer.Option("--bots", help=f"The two bots A B: {BOT_HELP}.",
                                                  callback=_two_bots)] = ("heuristic", "random"),
    matches: Annotated[int, typer.Option("--matches", "-n", min=1, max=MAX_ITEMS,
                                         help="Match pairs (each played with seats swapped).")] = 100,
    samples: Samples = DEFAULT_SAMPLES,
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = 10,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """Bummerl matches A against B; every match is replayed on the same deals with the seats swapped.

    Reports A's match win rate with a 95% Wilson interval, game points per deal, paired differences
    (per pair of matches on the same deals) and each bot's closings and closing success; charts of win
    rates, game points per deal and closing in the run folder.
    """
    a, b = (parse_bot(x, samples) for x in bots)
    params = {"a": a.as_dict(), "b": b.as_dict()}
    check_chunk_count(matches, chunk_size)
    check_run_dir(out, match_task, params, matches, seed=seed, chunk_size=chunk_size)
    store = RunStore(out_dir_or_default(out, "schnapsen-match"))
    store.write_manifest({"experiment": "schnapsen-match", "seed": seed, "chunk_size": chunk_size, "params": params})
    started = time.perf_counter()
    chunks = run_chunks(match_task, params, matches, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="schnapsen matches", store=store, backend=scheduler,
                        rows_dir=store.root / "matches", aggregate=match_sums)
    elapsed = time.perf_counter() - started
    with stage("writing summary"):
        summary = summarize_matches(merge_sums(chunks), a.label, b.label)
        for name, table in summary.items():
            store.write_csv(f"summary_{name}", table)
    with stage("drawing charts"):
        store.save_figure(charts.match_win_rate(summary), "match_win_rate")
        store.save_figure(charts.match_game_points(summary), "match_game_points")
        store.save_figure(charts.match_closing(summary), "match_closing")
    store.write_manifest({"command": " ".join(["analyzer", *sys.argv[1:]]), "seed": seed, "chunk_size": chunk_size, "matches": matches,
                          "bots": params, "rules": "docs/rules.md section 2",
                          "timings": {"simulate_seconds": round(elapsed, 3)}})
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), **{k: _records(v) for k, v in summary.items()}}))
        return
    _print_tables(summary)
    typer.echo(f"written to {store.root}")


@app.command()
def closing(
    workers: Workers,
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, max=MAX_ITEMS, help="Deals to play and examine.")] = 100,
    bot: Annotated[str, typer.Option("--bot", help="Honest bot that plays the deals and both choices forward: "
                                                   "pimc[:N], pimc_plus[:N], rollout[:N], hybrid[:N], heuristic or "
                                                   "random.")] = "pimc",
    samples: Annotated[int, typer.Option("--samples", min=1, max=10_000, help=(
        "Worlds per position: sampled hidden cards on which both choices are played out (every world, "
        "exactly, when there are no more)."))] = DEFAULT_SAMPLES,
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = 10,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """At every position where closing is legal: "close now" against "play on", both played to the end by
    the same honest bot on the same worlds.

    Tables by stock size, own points, opponent points, trumps and high trumps held; heatmaps of closing
    success and of the gain from closing, and a "close when" decision map.
    """
    chosen = parse_bot(bot)
    check_honest(chosen)
    params = {"bot": chosen.as_dict(), "samples": samples}
    check_chunk_count(deals, chunk_size)
    check_run_dir(out, closing_task, params, deals, seed=seed, chunk_size=chunk_size)
    store = RunStore(out_dir_or_default(out, "schnapsen-closing"))
    store.write_manifest({"experiment": "schnapsen-closing", "seed": seed, "chunk_size": chunk_size, "params": params})
    started = time.perf_counter()
    chunks = run_chunks(closing_task, params, deals, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="schnapsen closing", store=store, backend=scheduler,
                        rows_dir=store.root / "closing_positions", aggregate=closing_sums)
    elapsed = time.perf_counter() - started
    sums = merge_sums(chunks)
    positions = closing_positions(sums)
    if positions == 0:
        raise InputError("no position with a legal closing was reached; play more deals")
    with stage("writing summary"):
        summary = summarize_closing(sums)
        store.write_csv("summary_closing", summary)
    with stage("drawing charts"):
        store.save_figure(charts.success_heatmap(sums, chosen.label), "closing_success")
        store.save_figure(charts.gain_heatmap(sums, chosen.label), "closing_gain")
        store.save_figure(charts.close_when_map(sums, chosen.label), "close_when")
    store.write_manifest({"command": " ".join(["analyzer", *sys.argv[1:]]), "seed": seed, "chunk_size": chunk_size, "deals": deals,
                          "bot": params["bot"], "samples": samples, "positions": positions, "rules": "docs/rules.md section 2",
                          "timings": {"simulate_seconds": round(elapsed, 3)}})
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), "positions": positions, "summary": _records(summary)}))
        return
    _print_tables({"closing": summary})
    typer.echo(f"written to {store.root}")


@app.command()
def advise(
    state: Annotated[str, typer.Argument(help=(
        "Position in Schnapsen state notation: ';'-separated fields hand0=, hand1=, stock= (draw order, "
        "face-up trump last), leader=, and optionally trump=, trick=, points=a,b, pending=a,b, tricks=a,b, "
        "closed=P,PTS,TRICK, shown=A|B, nothold=A|B, history=. Write hand1=? (the hand of the player not "
        "to move) and ? stock cards for what the player to move cannot see; history= then lists the "
        "cards played."))],
    bot: Annotated[str, typer.Option("--bot", help=(
        "Bot that plays every action forward for both players: pimc[:N], pimc_plus[:N], rollout[:N], "
        "hybrid[:N], heuristic or random (honest); perfect solves the position as given, every card known."))] = "pimc",
    samples: Annotated[int, typer.Option("--samples", min=1, max=10_000, help=(
        "Sampled worlds (hidden cards) the actions are played out on; every world, exactly, once the "
        "stock is closed or exhausted or when there are no more."))] = 20,
    seed: Seed = 0,
    json_out: JsonOut = False,
) -> None:
    """Every legal action of one position (cards, marriages, exchange, close) with expected game points,
    win probability and the paired difference to the best action, for the player to move."""
    position = SchnapsenState.from_text(state)
    chosen = parse_bot(bot)
    table, exact = advise_position(position, chosen, seed, samples)
    worlds = int(table["worlds"].iloc[0])
    if chosen.policy == PERFECT:
        method = "perfect information (every card as given), 1 world, exact"
    else:
        kind = "exact (every world once)" if exact else "sampled"
        method = f"honest play-outs by {chosen.label}, {worlds} world{'s' if worlds != 1 else ''}, {kind}"
    if json_out:
        typer.echo(json_dumps({"player": position.to_move, "bot": chosen.label, "worlds": worlds, "exact": exact,
                               "method": method, "actions": _records(table)}))
        return
    typer.echo(f"player {position.to_move} to move; {method}:")
    typer.echo(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
