"""``analyzer schnapsen ...``: Bummerl matches between bots, closing odds, and advice for one position.

The game's modules (numba kernels, pandas) are imported by the command bodies, so that ``--help`` loads
none of them (the option names come from ``analyzer.catalog``).
"""

from typing import Annotated

import typer

from analyzer.catalog import (
    SCHNAPSEN_ADVICE_BOT,
    SCHNAPSEN_ADVICE_WORLDS,
    SCHNAPSEN_BOTS,
    SCHNAPSEN_PLAYOUTS_PER_SAMPLE,
    SCHNAPSEN_SAMPLES,
)
from analyzer.cli.options import MAX_ITEMS, ChunkSize, JsonOut, OutDir, Scheduler, Seed, Workers
from analyzer.cli.running import run_and_print

app = typer.Typer(help="Schnapsen (2 players, 20 cards): bots, Bummerl matches, closing odds, advice.",
                  no_args_is_help=True)

BOT_HELP = ("; ".join(f"{name}{'[:N]' if sampling else ''}: {text}"
                      for name, (sampling, _, text) in SCHNAPSEN_BOTS.items())
            + " (N samples). In a Bummerl, pimc_plus, rollout and hybrid play for the Bummerl: a deal is worth "
              "the chance of winning it after that deal")
HONEST_BOTS = ", ".join(f"{name}{'[:N]' if sampling else ''}"
                        for name, (sampling, honest, _) in SCHNAPSEN_BOTS.items() if honest)
Samples = Annotated[int, typer.Option("--samples", min=1, max=10_000,
                                      help=f"Sampled worlds per pimc / pimc_plus decision; rollout plays out "
                                           f"{SCHNAPSEN_PLAYOUTS_PER_SAMPLE} times as many, hybrid does both "
                                           "(pimc:N sets it for one bot).")]


#: What a comma between the two bots gets (also when click counts the pair as one bot, see ``app._with_hint``).
BOTS_COMMA_HINT = "--bots takes two bots separated by a space, not a comma: --bots heuristic random"


def _two_bots(bots: tuple[str, str]) -> tuple[str, str]:
    # "--bots heuristic --matches 2" would take "--matches" as the second bot and then stumble on "2".
    if any("," in bot for bot in bots):
        raise typer.BadParameter(BOTS_COMMA_HINT)
    if any(bot.startswith("-") for bot in bots):
        raise typer.BadParameter("--bots takes two bots, e.g. --bots heuristic pimc")
    return bots


@app.command()
def match(
    workers: Workers,
    bots: Annotated[tuple[str, str], typer.Option("--bots", metavar="A B", callback=_two_bots,
                                                  help=f"The two bots A B: {BOT_HELP}.")] = ("heuristic", "random"),
    matches: Annotated[int, typer.Option("--matches", "-n", min=1, max=MAX_ITEMS,
                                         help="Match pairs (each played with seats swapped).")] = 100,
    samples: Samples = SCHNAPSEN_SAMPLES,
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
    from analyzer.games.schnapsen.experiments import MATCH, match_plan

    run_and_print(MATCH, match_plan(bots, matches, samples, seed, chunk_size), out=out, workers=workers,
                  scheduler=scheduler, json_out=json_out)


@app.command()
def closing(
    workers: Workers,
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, max=MAX_ITEMS, help="Deals to play and examine.")] = 100,
    bot: Annotated[str, typer.Option("--bot", help=f"Honest bot that plays the deals and both choices forward: "
                                                   f"{HONEST_BOTS}.")] = "pimc",
    samples: Annotated[int, typer.Option("--samples", min=1, max=10_000, help=(
        "Worlds per position: sampled hidden cards on which both choices are played out (every world, "
        "exactly, when there are no more)."))] = SCHNAPSEN_SAMPLES,
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
    from analyzer.games.schnapsen.experiments import CLOSING, closing_plan

    run_and_print(CLOSING, closing_plan(bot, deals, samples, seed, chunk_size), out=out, workers=workers,
                  scheduler=scheduler, json_out=json_out)


@app.command()
def advise(
    state: Annotated[str, typer.Argument(help=(
        "Position in Schnapsen state notation: ';'-separated fields hand0=, hand1=, stock= (draw order, "
        "face-up trump last), leader=, and optionally trump=, trick=, points=a,b, pending=a,b, tricks=a,b, "
        "closed=P,PTS,TRICK, shown=A|B, nothold=A|B, history=. Write hand1=? (the hand of the player not "
        "to move) and ? stock cards for what the player to move cannot see; history= then lists the "
        "cards played."))],
    workers: Workers,
    bot: Annotated[str, typer.Option("--bot", help=(
        f"Bot that plays every action forward for both players: {HONEST_BOTS} (honest); perfect solves the "
        "position as given, every card known."))] = SCHNAPSEN_ADVICE_BOT,
    samples: Annotated[int, typer.Option("--samples", "-n", min=1, max=10_000, help=(
        "Sampled worlds (hidden cards) the actions are played out on; every world, exactly, once the "
        "stock is closed or exhausted or when there are no more."))] = SCHNAPSEN_ADVICE_WORLDS,
    seed: Seed = 0,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """Every legal action of one position (cards, marriages, exchange, close) with expected game points,
    win probability and the paired difference to the best action, for the player to move; a headline says
    which action is best, or which are within noise of each other. The same seed gives the same answer
    whatever the workers."""
    from analyzer.games.schnapsen.advice import ADVISE, run_plan
    from analyzer.games.schnapsen.experiments import parse_bot
    from analyzer.games.schnapsen.state import SchnapsenState

    plan = run_plan(SchnapsenState.from_text(state), parse_bot(bot), seed, samples, workers, as_given=state)
    run_and_print(ADVISE, plan, out=out, workers=workers, scheduler=None, json_out=json_out)
