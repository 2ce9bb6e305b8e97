"""``analyzer seconds ...``: Sloppy Seconds games between policies, and the rule variants side by side."""

from typing import Annotated

import typer

from analyzer.catalog import SECONDS_PARAMS, SECONDS_POLICIES
from analyzer.cli.options import MAX_ITEMS, ChunkSize, JsonOut, OutDir, Scheduler, Seed, Workers
from analyzer.cli.running import run_and_print
from analyzer.errors import InputError
from analyzer.games.seconds.rules import DEFAULT_TARGET, MINIMUM_VARIANTS, TRUMP_VARIANTS, SecondsRules

app = typer.Typer(help="Sloppy Seconds: 2-8 players, be second in every suit.", no_args_is_help=True)

Players = Annotated[int, typer.Option("--players", "-p", help="Number of players, 2..8.")]
Variant = Annotated[str, typer.Option("--variant", help=f"Trump rule: {' or '.join(TRUMP_VARIANTS)}.")]
Minimum = Annotated[str, typer.Option("--minimum", help=f"Minimum rule: {' or '.join(MINIMUM_VARIANTS)}.")]
# A game ends when a player reaches the target: 100 times the default still ends, a typo's billion not.
MAX_TARGET = 100 * DEFAULT_TARGET
Param = Annotated[list[str] | None, typer.Option(
    "--param", help=f"Policy parameter NAME=VALUE (repeatable): {', '.join(SECONDS_PARAMS)}.", show_default=False)]


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


@app.command()
def play(
    workers: Workers,
    players: Players = 4,
    policies: Annotated[str | None, typer.Option(
        "--policies", help=f"Comma-separated policies, one per seat or one for all: {', '.join(SECONDS_POLICIES)}.",
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
    from analyzer.games.seconds.experiments import PLAY, play_plan

    rules = SecondsRules(n_players=players, trump=variant, minimum=minimum, target=target)
    plan = play_plan(rules, policies or default_policies(players), games, parse_params(param), seed, chunk_size)
    run_and_print(PLAY, plan, out=out, workers=workers, scheduler=scheduler, json_out=json_out)


@app.command()
def variants(
    workers: Workers,
    players: Players = 4,
    policy: Annotated[str, typer.Option("--policy", help=f"Policy at every seat: {', '.join(SECONDS_POLICIES)}.")]
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
    from analyzer.games.seconds.experiments import VARIANTS, variants_plan

    plan = variants_plan(players, policy, deals, parse_params(param), seed, chunk_size)
    run_and_print(VARIANTS, plan, out=out, workers=workers, scheduler=scheduler, json_out=json_out)
