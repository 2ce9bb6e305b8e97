"""The ``rikken advise`` experiment declared: its plan (a hand, a seat, the other seats' constraints), its
summary and its console view. It sits beside :mod:`advice` (the task and the table), which builds on
:mod:`experiments`, so that neither module imports the other both ways."""

from functools import partial

import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS, parse_hand, parse_seat
from analyzer.catalog import DD_DEFAULT_BUDGET as DEFAULT_BUDGET
from analyzer.errors import InputError
from analyzer.experiments.experiment import Experiment, Plan, Summary, records
from analyzer.games.rikken import advice, advice_verdict, rules
from analyzer.games.rikken.experiments import (
    Policies,
    chosen_contracts,
    compiled,
    constraint_params,
    dd_budget_params,
    rules_entry,
    speed_class,
)
from analyzer.games.rikken.findings import ADVISE_REPORT
from analyzer.games.rikken.queries import ADVISE_QUERY
from analyzer.reports.formatting import fill_console

# Heuristic play-outs take about 0.15 ms per deal and option: 50,000 deals answer in seconds with
# intervals of about +-0.5 points; an expert play-out takes about 60 times longer and a double-dummy deal
# seconds, so those get fewer deals and smaller chunks.
DEFAULT_DEALS = {"heuristic": 50_000, "random": 50_000, "expert": 2_000, "dd": 40}
DEFAULT_CHUNK_SIZE = {"heuristic": 10_000, "random": 10_000, "expert": 500, "dd": 2}
HAND_SIZE = 13


def advise_plan(hand: str, seat: str, dealer: str | None, policies: Policies, contracts: str,
                constraints: dict[str, list[str] | None], deals: int | None, seed: int, chunk_size: int | None,
                dd_budget: int | None = None, bracket: int = 0) -> Plan:
    """The checked plan of advising ``hand`` at ``seat``: ``constraints`` maps ``cards``, ``hcp``, ``aces`` and
    ``length`` to their option texts, which may name the other seats only; ``dd_budget`` is the ``--dd-budget``
    option; ``bracket`` the ``--bracket`` option (deals also played with perfect play, 0: none)."""
    my_seat = parse_seat(seat)
    mask = parse_hand(hand)
    if mask.bit_count() != HAND_SIZE:
        raise InputError(f"bad hand {hand!r}: {mask.bit_count()} cards, a Rikken hand has {HAND_SIZE}")
    dealer_seat = parse_seat(dealer) if dealer is not None else (my_seat - 1) % 4
    speed = speed_class(policies)
    chosen = chosen_contracts(contracts)
    options = advice.hand_options(mask, chosen)
    declarable = {o.contract for o in options}
    if rules.Contract.RIK_BETER in declarable:  # Rik in hearts is shown as its Rik Beter row
        declarable.add(int(rules.Contract.RIK))
    missing = sorted({int(c) for c in chosen} - declarable)
    if missing and contracts.strip() != "all":
        names = ", ".join(rules.CONTRACT_CLI_NAMES[c] for c in missing)
        raise InputError(f"the hand cannot declare {names}: Troela needs three aces")
    if not options:
        raise InputError("the hand can declare none of the chosen contracts (Troela needs three aces)")
    deals = deals or DEFAULT_DEALS[speed]
    budget = _bracket_budget(policies, bracket, deals, dd_budget)
    for name, texts in constraints.items():
        if any(_constraint_seat(text) == SEAT_LETTERS[my_seat] for text in texts or []):
            raise InputError(f"--{name} names {SEAT_LETTERS[my_seat]}, your seat, whose hand is given: constrain "
                             "the other seats")
    given = constraint_params("random", seed, [f"{SEAT_LETTERS[my_seat]}={hand.strip()}"],
                              *(constraints.get(name) for name in ("cards", "hcp", "aces", "length")))
    params = {**policies.params(), "dealing": "random", "seat": my_seat, "dealer": dealer_seat,
              "hand": hand.strip(), "options": advice.option_params(options), **given,
              **dd_budget_params(policies, None if bracket else dd_budget)}
    if bracket:
        params["bracket"] = {"deals": bracket, "of": deals, "budget": budget}
    return Plan(params, deals, seed, chunk_size or DEFAULT_CHUNK_SIZE[speed],
                manifest={"params": params, "rules": rules_entry("random")}, context=(mask, options),
                aggregate=partial(advice.advice_moments, n_options=len(options)))


def _bracket_budget(policies: Policies, bracket: int, deals: int, dd_budget: int | None) -> int | None:
    """The solver's budget of the bracket's perfect play (None without a bracket), after checking the
    bracket fits the run."""
    if not bracket:
        if dd_budget is not None and policies.names() != {"dd"}:
            raise InputError("--dd-budget needs --policy dd at every seat or --bracket: only perfect play's trick "
                             "counts have a budget")
        return None
    if policies.names() == {"dd"}:
        raise InputError("--bracket compares the chosen play with perfect play: with --policy dd every deal is "
                         "perfect play already")
    if bracket > deals:
        raise InputError(f"--bracket {bracket:,} is more than the run's {deals:,} deals: the bracket plays some of "
                         "the same deals again")
    from analyzer.solvers.dd.api import check_budget  # the solver, only for a bracket (``bots`` notes)

    return check_budget(DEFAULT_BUDGET if dd_budget is None else dd_budget)


def _advise_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.rikken.advice_chart import trick_distribution_chart  # the parent draws

    mask, options = plan.context
    params = plan.params
    moments = advice.merge_advice_moments(chunks)
    table = advice.advice_table(moments, options)
    policies = Policies.from_params(params)
    title = (f"{advice.describe_hand(mask)} at {SEAT_LETTERS[params['seat']]}, dealer "
             f"{SEAT_LETTERS[params['dealer']]}: {plan.n_items:,} deals, {policies.label()}"
             f"{advice.bounded_note(table)}")
    verdict = advice_verdict.headline(table)
    tables = {"advice": table}
    payload = {"hand": params["hand"], "seat": SEAT_LETTERS[params["seat"]],
               "dealer": SEAT_LETTERS[params["dealer"]], "deals": plan.n_items, "policies": policies.label(),
               "advice": verdict, "options": records(table)}
    flagged: list[str] = []
    shown_bracket = []
    if "bracket" in params:
        ordinary = table[table["option"] != advice.PASS]
        bracket = advice_verdict.bracket_table(moments, options, ordinary)
        flagged = advice_verdict.bracket_sentences(bracket, ordinary, advice_verdict.play_name(policies.label()))
        tables["bracket"] = bracket
        payload["bracket"] = {"deals": params["bracket"]["deals"], "budget": params["bracket"]["budget"],
                              "flagged": flagged, "options": records(bracket)}
        bounded = int(bracket["bounded"].sum())
        note = f", {bounded:,} of {int(bracket['n'].sum()):,} perfect-play rows bounded" if bounded else ""
        heading = (f"Bracket: {advice_verdict.play_name(policies.label())} play against perfect play on both sides "
                   f"(double dummy), the same {params['bracket']['deals']:,} deals{note}")
        shown_bracket = [(fill_console(heading), bracket_shown(bracket))]
    headline = "\n".join(fill_console(sentence) for sentence in [verdict["sentence"], *flagged])
    return Summary(
        tables=tables, figures={"tricks_per_option": lambda: trick_distribution_chart(table, title)},
        manifest={"deals": plan.n_items, "policies": policies.label()},
        shown=[(f"{headline}\n\n" + fill_console(f"{title} (best expected money first; 95% intervals)"),
                shown_table(table)),
               *shown_bracket],
        payload=payload)


def bracket_shown(bracket: pd.DataFrame) -> pd.DataFrame:
    """The console view of the bracket: per option the make rate and money under each play on the same
    deals (money ``[low, high]`` with bounded rows), the paired change in money, and the flag."""
    def rate(prefix: str) -> list[str]:
        rates = zip(bracket[f"{prefix}rate"], bracket[f"{prefix}rate_lo"], bracket[f"{prefix}rate_hi"])
        return [f"{100 * r:.0f} [{100 * lo:.0f},{100 * hi:.0f}]" for r, lo, hi in rates]

    def interval(mean: str, low: str, high: str) -> list[str]:
        return [(f"{m:+.1f} [{lo:+.1f},{hi:+.1f}]" if not symmetric(m, lo, hi) else f"{m:+.1f} ±{(hi - lo) / 2:.1f}")
                if hi == hi else f"{m:+.1f}" for m, lo, hi in zip(bracket[mean], bracket[low], bracket[high])]

    return pd.DataFrame({
        "option": bracket["option"], "made %": rate(""),
        "money": interval("mean_money", "money_lo", "money_hi"),
        "perfect made %": rate("perfect_"),
        "perfect money": interval("perfect_money", "perfect_money_lo", "perfect_money_hi"),
        "flag": bracket["flag"]})


def symmetric(mean: float, low: float, high: float) -> bool:
    """Whether ``[low, high]`` is centred on ``mean`` (sampling error alone), so that ``mean ±half`` says it.

    Bounded rows make an interval reach further up than down, on an option's money or on a difference
    whose other side is bounded: those are shown as ``[low, high]``."""
    return abs((high - mean) - (mean - low)) <= 1e-9 * max(1.0, abs(mean))


def shown_table(table: pd.DataFrame) -> pd.DataFrame:
    """The console view, narrow enough for 80 columns: one line per option and pass, the make rate,
    money as ``mean ±half-width`` (``mean [low, high]`` where bounded rows make the interval lopsided:
    an option's own, or a difference to a best with bounded rows), the paired difference to the best row,
    the two likeliest trick counts, and the bounded rows' count when there are any. Trump, call and points
    are in the CSV and the JSON."""
    def plus_minus(measure: str, mean: str) -> list[str]:
        return [(f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]" if not symmetric(m, lo, hi) else f"{m:+.2f} ±{(hi - lo) / 2:.2f}")
                if hi == hi else f"{m:+.2f}"
                for m, lo, hi in zip(table[mean], table[f"{measure}_lo"], table[f"{measure}_hi"])]

    bounded = {"bounded": table["bounded"]} if table["bounded"].any() else {}
    return pd.DataFrame({
        "option": table["option"],
        "made %": [f"{100 * r:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]" if r == r else "-"
                   for r, lo, hi in zip(table["rate"], table["rate_lo"], table["rate_hi"])],
        "money": plus_minus("money", "mean_money"),
        "vs best": ["best", *plus_minus("vs_best", "money_vs_best")[1:]],
        "likeliest tricks": [_likeliest(row) for _, row in table.iterrows()], **bounded})


def _likeliest(row: pd.Series, shown: int = 2) -> str:
    """The ``shown`` most likely trick counts with their shares, e.g. ``9: 41%, 8: 30%`` (empty for pass)."""
    shares = sorted(((row[f"p_tricks_{k}"], k) for k in range(advice.MAX_TRICKS + 1)
                     if row[f"p_tricks_{k}"] > 0), reverse=True)[:shown]
    return ", ".join(f"{k}: {100 * p:.0f}%" for p, k in shares)


def _constraint_seat(text: str) -> str:
    """The seat letter a constraint text starts with (``E=SA,SK``, ``N:S=5-13``)."""
    return text.split("=")[0].split(":")[0].strip().upper()


# No warm_up, unlike BIDS and PLAY: on a cold cache item 0 of seed 0 (one deal) also compiles here the kernels a
# solver bot calls from Python (the solver's entry points; sampled-dd's heuristic and expert kernels), which each
# worker would compile again; under dd its solve costs well under a CPU-second (docs/performance.md, session 18).
ADVISE = Experiment("rikken-advise", advice.advice_chunk, advice.advice_moments, rows="deals",
                    description="rikken advise", summarize=_advise_summary, report=ADVISE_REPORT, query=ADVISE_QUERY,
                    kernels="Rikken", compiled=compiled)
