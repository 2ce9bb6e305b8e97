"""``analyzer rikken advise HAND``: what to declare with one hand, from play-outs on random deals of the rest."""

from typing import Annotated

import typer

from analyzer.catalog import DD_DEFAULT_BUDGET, DD_MAX_BUDGET
from analyzer.cli.options import MAX_CHUNK_SIZE, MAX_ITEMS, JsonOut, OutDir, Scheduler, Seed, Workers
from analyzer.cli.rikken import (
    AcesOption,
    CardsOption,
    DeclarerPolicy,
    DefenderPolicy,
    HcpOption,
    LengthOption,
    Policy,
    PolicyOption,
    WorldsOption,
    policies_from_options,
)
from analyzer.cli.running import run_and_print

BracketOption = Annotated[int, typer.Option(
    "--bracket", min=0, max=MAX_ITEMS,
    help="Also play this many of the deals with perfect play on both sides (double dummy) and show every option "
         "both ways, side by side, flagging those whose verdict changes; 0: no bracket. Perfect play takes "
         "seconds a deal: 40 is a quick look, 200 a firmer one.")]
AdviseDdBudget = Annotated[int | None, typer.Option(
    "--dd-budget", min=0, max=DD_MAX_BUDGET,
    help="With --policy dd or --bracket: completed tricks each perfect-play trick count may search beyond the made "
         "/ not made questions (about 2.5 million per CPU-second); a count that runs out is reported as the "
         "interval it was proved to lie in. 0: no limit.", show_default=f"{DD_DEFAULT_BUDGET:,}")]

def advise(
    hand: Annotated[str, typer.Argument(help='Your 13 cards, spades first: "AKQT86.A2.K73.95".')],
    workers: Workers,
    seat: Annotated[str, typer.Option("--seat", help="Your seat.")] = "N",
    dealer: Annotated[str | None, typer.Option("--dealer", help="Dealer; the seat on his left leads.",
                                               show_default="the seat on your right: you lead")] = None,
    deals: Annotated[int | None, typer.Option("--deals", "-n", min=1, max=MAX_ITEMS, help="Random deals of the other "
                                              "39 cards.", show_default="50000; 2000 with expert, 40 with dd")] = None,
    policy: PolicyOption = Policy.heuristic,
    declarer_policy: DeclarerPolicy = None,
    defender_policy: DefenderPolicy = None,
    contracts: Annotated[str, typer.Option("--contracts", help="Comma-separated contracts to consider, e.g. "
                                           "rik,9-alone,misery (default: all).")] = "all",
    cards: CardsOption = None,
    hcp: HcpOption = None,
    aces: AcesOption = None,
    length: LengthOption = None,
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: Annotated[int | None, typer.Option("--chunk-size", min=1, max=MAX_CHUNK_SIZE,
                                                   help="Deals per chunk; results depend on it.",
                                                   show_default="10000; 500 with expert, 2 with dd")] = None,
    bracket: BracketOption = 0,
    dd_budget: AdviseDdBudget = None,
    worlds: WorldsOption = None,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """What to declare with HAND: every contract it could bid, played out on the same random deals.

    Each option (a contract with its trump and called card; other long suits as alternative trumps)
    is played out on every deal, best expected money score first, beside passing (money 0): make rate,
    points and money scores with 95% intervals, the paired difference to the best row, and the chance of
    each trick count. The headline says what to do: the best option, "pass" when no option's money
    interval lies above zero, or the options within noise of each other. --bracket N plays N of the
    same deals again with perfect play on both sides and flags the options whose verdict changes.
    Further constraints (--cards, --hcp, --aces, --length) apply to the other seats.
    """
    from analyzer.games.rikken.advice_experiment import ADVISE, advise_plan

    policies = policies_from_options(policy, declarer_policy, defender_policy).with_worlds(worlds)
    constraints = {"cards": cards, "hcp": hcp, "aces": aces, "length": length}
    plan = advise_plan(hand, seat, dealer, policies, contracts, constraints, deals, seed, chunk_size, dd_budget,
                       bracket)
    run_and_print(ADVISE, plan, out=out, workers=workers, scheduler=scheduler, json_out=json_out)
