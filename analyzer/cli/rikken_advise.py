"""``analyzer rikken advise HAND``: what to declare with one hand, from play-outs on random deals of the rest."""

import time
from functools import partial
from typing import Annotated

import pandas as pd
import typer

from analyzer.cards.pbn import SEAT_LETTERS, parse_hand, parse_seat
from analyzer.cli.options import MAX_CHUNK_SIZE, MAX_ITEMS, JsonOut, OutDir, Scheduler, Seed, Workers, json_dumps
from analyzer.cli.rikken import (
    AcesOption,
    CardsOption,
    Dealing,
    DdBudgetOption,
    DeclarerPolicy,
    DefenderPolicy,
    HcpOption,
    LengthOption,
    Policy,
    PolicyOption,
    constraint_params,
    dd_budget_params,
    policies_from_options,
    print_table,
    start_run,
)
from analyzer.errors import InputError
from analyzer.experiments.runner import check_chunk_count, check_run_dir, run_chunks
from analyzer.games.rikken import advice
from analyzer.games.rikken.experiments import speed_class
from analyzer.games.rikken.advice_chart import trick_distribution_chart
from analyzer.games.rikken.rules import Contract, parse_contract
from analyzer.reports.progress import stage

# Heuristic play-outs take about 0.15 ms per deal and option: 50,000 deals answer in seconds with
# intervals of about +-0.5 points; an expert play-out takes about 60 times longer and a double-dummy deal
# seconds, so those get fewer deals and smaller chunks.
DEFAULT_DEALS = {"heuristic": 50_000, "random": 50_000, "expert": 2_000, "dd": 40}
DEFAULT_CHUNK_SIZE = {"heuristic": 10_000, "random": 10_000, "expert": 500, "dd": 2}
HAND_SIZE = 13


def advise(
    hand: Annotated[str, typer.Argument(help='Your 13 cards, spades first: "AKQT86.A2.K73.95".')],
    workers: Workers,
    seat: Annotated[str, typer.Option("--seat", help="Your seat.")] = "N",
    dealer: Annotated[str | None, typer.Option("--dealer", help="Dealer; the seat on his left leads.",
                                               show_default="the seat on your right: you lead")] = None,
    deals: Annotated[int | None, typer.Option("--deals", min=1, max=MAX_ITEMS, help="Random deals of the other "
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
    dd_budget: DdBudgetOption = None,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """What to declare with HAND: every contract it could bid, played out on the same random deals.

    Each option (a contract with its trump and called card; other long suits as alternative trumps)
    is played out on every deal, best expected money score first: make rate, points and money scores
    with 95% intervals, the paired difference to the best option, and the chance of each trick count.
    Further constraints (--cards, --hcp, --aces, --length) apply to the other seats.
    """
    my_seat = parse_seat(seat)
    mask = parse_hand(hand)
    if mask.bit_count() != HAND_SIZE:
        raise InputError(f"bad hand {hand!r}: {mask.bit_count()} cards, a Rikken hand has {HAND_SIZE}")
    dealer_seat = parse_seat(dealer) if dealer is not None else (my_seat - 1) % 4
    policies = policies_from_options(policy, declarer_policy, defender_policy)
    speed = speed_class(policies)
    deals = deals or DEFAULT_DEALS[speed]
    chunk_size = chunk_size or DEFAULT_CHUNK_SIZE[speed]
    chosen = list(Contract) if contracts.strip() == "all" else [parse_contract(c) for c in contracts.split(",")]
    options = advice.hand_options(mask, chosen)
    if not options:
        raise InputError("the hand can declare none of the chosen contracts (Troela needs three aces)")
    for name, texts in (("--cards", cards), ("--hcp", hcp), ("--aces", aces), ("--length", length)):
        if any(_constraint_seat(text) == SEAT_LETTERS[my_seat] for text in texts or []):
            raise InputError(f"{name} names {SEAT_LETTERS[my_seat]}, your seat, whose hand is given: constrain "
                             "the other seats")
    hand_text = f"{SEAT_LETTERS[my_seat]}={hand.strip()}"
    given = constraint_params(Dealing.random, seed, [hand_text], cards, hcp, aces, length)
    params = {**policies.params(), "dealing": "random", "seat": my_seat, "dealer": dealer_seat,
              "hand": hand.strip(), "options": advice.option_params(options), **given,
              **dd_budget_params(policies, dd_budget)}
    check_chunk_count(deals, chunk_size)
    check_run_dir(out, advice.advice_chunk, params, deals, seed=seed, chunk_size=chunk_size)
    store = start_run("rikken-advise", out, params, seed, chunk_size)
    started = time.time()
    chunks = run_chunks(advice.advice_chunk, params, deals, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="rikken advise", store=store, backend=scheduler, rows_dir=store.root / "deals",
                        aggregate=partial(advice.advice_moments, n_options=len(options)))
    with stage("writing summary"):
        table = advice.advice_table(advice.merge_advice_moments(chunks), options)
        store.write_csv("advice", table)
    title = (f"{advice.describe_hand(mask)} at {SEAT_LETTERS[my_seat]}, dealer {SEAT_LETTERS[dealer_seat]}: "
             f"{deals:,} deals, {policies.label()}{advice.bounded_note(table)}")
    with stage("drawing chart"):
        store.save_figure(trick_distribution_chart(table, title), "tricks_per_option")
    store.write_manifest({"deals": deals, "timings": {"seconds": round(time.time() - started, 3)}})
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), "hand": hand.strip(), "seat": SEAT_LETTERS[my_seat],
                               "dealer": SEAT_LETTERS[dealer_seat], "deals": deals, "policies": policies.label(),
                               "options": table.to_dict(orient="records")}))
        return
    print_table(_shown(table), f"{title} (best expected money first; 95% intervals)")
    typer.echo(f"results in {store.root}")


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    """The console view: one line per option, means as ``mean ±half-width`` (``mean [low, high]`` for an
    option with bounded rows, whose interval is not symmetric), tricks as the likeliest counts, and the
    bounded rows' count when there are any."""
    def plus_minus(measure: str, mean: str) -> list[str]:
        return [(f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]" if bounded else f"{m:+.2f} ±{(hi - lo) / 2:.2f}") if hi == hi
                else f"{m:+.2f}"
                for m, lo, hi, bounded in zip(table[mean], table[f"{measure}_lo"], table[f"{measure}_hi"],
                                              table["bounded"])]

    bounded = {"bounded": table["bounded"]} if table["bounded"].any() else {}
    return pd.DataFrame({
        "option": table["option"], "play": table["play"], "needs": table["target"],
        "made %": [f"{100 * r:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
                   for r, lo, hi in zip(table["rate"], table["rate_lo"], table["rate_hi"])],
        "points": plus_minus("points", "mean_points"), "money": plus_minus("money", "mean_money"),
        "money vs best": ["best", *plus_minus("vs_best", "money_vs_best")[1:]],
        "likeliest tricks": [_likeliest(row) for _, row in table.iterrows()], **bounded})


def _likeliest(row: pd.Series, shown: int = 3) -> str:
    """The ``shown`` most likely trick counts with their shares, e.g. ``9: 41%, 8: 30%, 10: 18%``."""
    shares = sorted(((row[f"p_tricks_{k}"], k) for k in range(advice.MAX_TRICKS + 1)), reverse=True)[:shown]
    return ", ".join(f"{k}: {100 * p:.0f}%" for p, k in shares if p > 0)


def _constraint_seat(text: str) -> str:
    """The seat letter a constraint text starts with (``E=SA,SK``, ``N:S=5-13``)."""
    return text.split("=")[0].split(":")[0].strip().upper()
