"""The ``rikken advise`` experiment declared: its plan (a hand, a seat, the other seats' constraints), its
summary and its console view. It sits beside :mod:`advice` (the task and the table), which builds on
:mod:`experiments`, so that neither module imports the other both ways."""

from functools import partial

import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS, parse_hand, parse_seat
from analyzer.errors import InputError
from analyzer.experiments.experiment import Experiment, Plan, Summary, records
from analyzer.games.rikken import advice
from analyzer.games.rikken.experiments import (
    Policies,
    chosen_contracts,
    constraint_params,
    dd_budget_params,
    rules_entry,
    speed_class,
)
from analyzer.games.rikken.findings import ADVISE_REPORT
from analyzer.games.rikken.queries import ADVISE_QUERY

# Heuristic play-outs take about 0.15 ms per deal and option: 50,000 deals answer in seconds with
# intervals of about +-0.5 points; an expert play-out takes about 60 times longer and a double-dummy deal
# seconds, so those get fewer deals and smaller chunks.
DEFAULT_DEALS = {"heuristic": 50_000, "random": 50_000, "expert": 2_000, "dd": 40}
DEFAULT_CHUNK_SIZE = {"heuristic": 10_000, "random": 10_000, "expert": 500, "dd": 2}
HAND_SIZE = 13


def advise_plan(hand: str, seat: str, dealer: str | None, policies: Policies, contracts: str,
                constraints: dict[str, list[str] | None], deals: int | None, seed: int, chunk_size: int | None,
                dd_budget: int | None = None) -> Plan:
    """The checked plan of advising ``hand`` at ``seat``: ``constraints`` maps ``cards``, ``hcp``, ``aces`` and
    ``length`` to their option texts, which may name the other seats only; ``dd_budget`` is the ``--dd-budget``
    option."""
    my_seat = parse_seat(seat)
    mask = parse_hand(hand)
    if mask.bit_count() != HAND_SIZE:
        raise InputError(f"bad hand {hand!r}: {mask.bit_count()} cards, a Rikken hand has {HAND_SIZE}")
    dealer_seat = parse_seat(dealer) if dealer is not None else (my_seat - 1) % 4
    speed = speed_class(policies)
    options = advice.hand_options(mask, chosen_contracts(contracts))
    if not options:
        raise InputError("the hand can declare none of the chosen contracts (Troela needs three aces)")
    for name, texts in constraints.items():
        if any(_constraint_seat(text) == SEAT_LETTERS[my_seat] for text in texts or []):
            raise InputError(f"--{name} names {SEAT_LETTERS[my_seat]}, your seat, whose hand is given: constrain "
                             "the other seats")
    given = constraint_params("random", seed, [f"{SEAT_LETTERS[my_seat]}={hand.strip()}"],
                              *(constraints.get(name) for name in ("cards", "hcp", "aces", "length")))
    params = {**policies.params(), "dealing": "random", "seat": my_seat, "dealer": dealer_seat,
              "hand": hand.strip(), "options": advice.option_params(options), **given,
              **dd_budget_params(policies, dd_budget)}
    return Plan(params, deals or DEFAULT_DEALS[speed], seed, chunk_size or DEFAULT_CHUNK_SIZE[speed],
                manifest={"params": params, "rules": rules_entry("random")}, context=(mask, options),
                aggregate=partial(advice.advice_moments, n_options=len(options)))


def _advise_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.rikken.advice_chart import trick_distribution_chart  # the parent draws

    mask, options = plan.context
    params = plan.params
    table = advice.advice_table(advice.merge_advice_moments(chunks), options)
    policies = Policies.from_params(params).label()
    title = (f"{advice.describe_hand(mask)} at {SEAT_LETTERS[params['seat']]}, dealer "
             f"{SEAT_LETTERS[params['dealer']]}: {plan.n_items:,} deals, {policies}{advice.bounded_note(table)}")
    return Summary(
        tables={"advice": table}, figures={"tricks_per_option": lambda: trick_distribution_chart(table, title)},
        manifest={"deals": plan.n_items},
        shown=[(f"{title} (best expected money first; 95% intervals)", shown_table(table))],
        payload={"hand": params["hand"], "seat": SEAT_LETTERS[params["seat"]],
                 "dealer": SEAT_LETTERS[params["dealer"]], "deals": plan.n_items, "policies": policies,
                 "options": records(table)})


def shown_table(table: pd.DataFrame) -> pd.DataFrame:
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


ADVISE = Experiment("rikken-advise", advice.advice_chunk, advice.advice_moments, rows="deals",
                    description="rikken advise", summarize=_advise_summary, report=ADVISE_REPORT, query=ADVISE_QUERY)
