"""``analyzer rikken ...``: deals, bid-success experiments, full rounds, double-dummy tables."""

import json
from typing import Annotated

import typer

from analyzer.cards.dealing import deal_constrained, deal_random
from analyzer.cards.pbn import format_deal
from analyzer.cli.deal_constraints import build_constraints
from analyzer.cli.options import JsonOut, Seed

app = typer.Typer(help="Rikken: 4 players, auction, called-ace partnerships.", no_args_is_help=True)

SeatValues = Annotated[list[str] | None, typer.Option(show_default=False)]


@app.command()
def deal(
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="Number of deals.")] = 1,
    seed: Seed = 0,
    hand: Annotated[list[str] | None, typer.Option("--hand", help="Fix a whole hand: N=AKQ2.T93..J8765.")] = None,
    cards: Annotated[list[str] | None, typer.Option("--cards", help="Fix some cards: E=SA,SK.")] = None,
    hcp: Annotated[list[str] | None, typer.Option("--hcp", help="HCP range: S=12-15.")] = None,
    aces: Annotated[list[str] | None, typer.Option("--aces", help="Aces held: W=2-4.")] = None,
    length: Annotated[list[str] | None, typer.Option("--length", help="Suit length: N:S=5-13.")] = None,
    json_out: JsonOut = False,
) -> None:
    """Print random or constrained deals in PBN (N first)."""
    seats = build_constraints(hand or [], cards or [], hcp or [], aces or [], length or [])
    if all(s.fixed == 0 and s.is_trivial() for s in seats):
        deals = deal_random(count, seed)
    else:
        deals = deal_constrained(count, seed, seats)
    lines = [format_deal(row) for row in deals]
    if json_out:
        typer.echo(json.dumps({"seed": seed, "deals": lines}))
    else:
        typer.echo("\n".join(lines))
