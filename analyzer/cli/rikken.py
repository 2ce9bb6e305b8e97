"""``analyzer rikken ...``: deals, bid-success experiments, full rounds, double-dummy answers."""

import sys
import time
from enum import Enum
from functools import partial
from typing import Annotated

import pandas as pd
import typer
from rich.console import Console
from rich.table import Table

from analyzer.cards.constraints import build_constraints
from analyzer.cards.dealing import deal_constrained, deal_random
from analyzer.cards.deck import parse_card
from analyzer.cards.pbn import SEAT_LETTERS, format_deal, parse_deal, parse_seat
from analyzer.cli.options import (
    MAX_CHUNK_SIZE,
    MAX_ITEMS,
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
from analyzer.games.rikken import charts as rikken_charts
from analyzer.games.rikken import summary as rikken_summary
from analyzer.games.rikken.compare import compare_runs
from analyzer.games.rikken.dd import (
    DEFAULT_BUDGET,
    STRAIN_LETTERS,
    check_call,
    dd_table,
    misery_table,
    parse_goal,
    parse_strain,
    parse_team,
    team_name,
)
from analyzer.games.rikken.experiments import (
    CONSTRAINT_OPTIONS,
    Policies,
    bids_chunk,
    default_chunk_size,
    play_chunk,
)
from analyzer.games.rikken.rules import Contract, parse_contract
from analyzer.games.rikken.strategy import bidding_label, bidding_params
from analyzer.reports.manifest import read_manifest
from analyzer.reports.progress import stage
from analyzer.reports.store import RunStore
from analyzer.solvers.dd import solve
from analyzer.solvers.dd.api import MAX_BUDGET

app = typer.Typer(help="Rikken: 4 players, auction, called-ace partnerships.", no_args_is_help=True)


class Policy(str, Enum):
    """Card-play policies of Rikken experiments; ``expert`` searches sampled hidden hands with heuristic
    rollouts; ``dd`` is perfect play by both sides (double dummy)."""

    heuristic = "heuristic"
    random = "random"
    expert = "expert"
    dd = "dd"


class Dealing(str, Enum):
    """Dealing models (docs/rules.md: ``random`` uniform deals, ``packets`` traditional gather-cut-deal)."""

    random = "random"
    packets = "packets"


class PlayPolicy(str, Enum):
    """Card-play policies that play full rounds card by card; ``dd`` asks the solver at every turn."""

    heuristic = "heuristic"
    random = "random"
    expert = "expert"
    dd = "dd"


# `rikken deal` holds every deal as text before printing: 10^6 deals take about 650 MB and 100 s.
MAX_PRINTED_DEALS = 10**6


PolicyOption = Annotated[Policy, typer.Option("--policy", help="Card-play policy of the seats no other policy option "
                                                                 "names; expert = sampled hidden hands and "
                                                                 "rollouts (about 60x heuristic time); dd = "
                                                                 "perfect play (seconds per deal).")]
DeclarerPolicy = Annotated[Policy | None, typer.Option(
    "--declarer-policy", help="Policy of the declaring side (bidder and partner); dd seats assume perfect play "
                              "by everyone else.", show_default="--policy")]
DefenderPolicy = Annotated[Policy | None, typer.Option("--defender-policy", help="Policy of the defenders.",
                                                       show_default="--policy")]
BidsChunkSize = Annotated[int | None, typer.Option("--chunk-size", min=1, max=MAX_CHUNK_SIZE,
                                                   help="Deals per chunk; results depend on it.",
                                                   show_default="20000; 500 with expert, 2 with dd at any seat")]
DdBudgetOption = Annotated[int | None, typer.Option(
    "--dd-budget", min=0, max=MAX_BUDGET,
    help="With --policy dd: completed tricks each trick count may search beyond the made / not made questions "
         "(about 2.5 million per CPU-second); when they run out the count is reported as the interval it was "
         "proved to lie in. 0: no limit, every count exact.", show_default=f"{DEFAULT_BUDGET:,}")]
PlayPolicyOption = Annotated[PlayPolicy | None, typer.Option("--policy", show_default="heuristic",
                                                             help="Card-play policy of the seats no other policy "
                                                                  "option names; expert = sampled hidden hands "
                                                                  "and rollouts; dd = perfect play (seconds per "
                                                                  "round).")]
PlayChunkSize = Annotated[int | None, typer.Option("--chunk-size", min=1, max=MAX_CHUNK_SIZE,
                                                   help="Rounds per chunk; results depend on it.",
                                                   show_default="20000; 500 with expert, 2 with dd at any seat")]
DealingOption = Annotated[Dealing, typer.Option("--dealing", help="Dealing model.")]
HandOption = Annotated[list[str] | None, typer.Option("--hand", help="Fix a whole hand: N=AKQ2.T93.K4.J876.")]
CardsOption = Annotated[list[str] | None, typer.Option("--cards", help="Fix some cards: E=SA,SK.")]
HcpOption = Annotated[list[str] | None, typer.Option("--hcp", help="HCP range: S=12-15.")]
AcesOption = Annotated[list[str] | None, typer.Option("--aces", help="Aces held: W=2-4.")]
LengthOption = Annotated[list[str] | None, typer.Option("--length", help="Suit length: N:S=5-13.")]
RoundsPerGame = Annotated[int | None, typer.Option(
    "--rounds-per-game", min=1, max=MAX_CHUNK_SIZE,  # a game never straddles chunks, so it fits in one
    help="Also score games of K consecutive rounds (points mode): each seat's probability of winning one, "
         "a tie for the highest total shared; --rounds and --chunk-size must be multiples of K.")]
BiddingOption = Annotated[str | None, typer.Option(
    "--bidding", help="Auction policy of every seat: rules (the hand-written policy) or learned:FILE (a strategy "
                      "of `rikken strategy fit`: the legal bid of best predicted money above --bidding-margin).",
    show_default="rules")]
SeatBidding = Annotated[str | None, typer.Option(
    "--seat-bidding", help="Auction policy of each seat N,E,S,W, e.g. learned:FILE,rules,rules,rules (instead of "
                           "--bidding).")]
BiddingMargin = Annotated[float, typer.Option("--bidding-margin", help="Predicted money a learned seat's bid must "
                                                                       "beat (money per deal).")]
SeatPolicies = Annotated[str | None, typer.Option(
    "--seat-policies", help="Policy of each seat N,E,S,W, e.g. heuristic,random,heuristic,random (instead of "
                            "--policy / --declarer-policy / --defender-policy).")]


def dd_budget_params(policies: Policies, budget: int | None) -> dict:
    """``{"dd_budget": ...}`` for the run's parameters when dd plays every seat (the solver counts the tricks),
    else nothing; ``--dd-budget`` with any other policy is an error (card-by-card play has no budget)."""
    if policies.names() == {"dd"}:
        return {"dd_budget": DEFAULT_BUDGET if budget is None else budget}
    if budget is not None:
        raise InputError("--dd-budget needs --policy dd at every seat: only the solver's trick counts have a budget")
    return {}


def policies_from_options(policy: Policy, declarer: Policy | None, defender: Policy | None, seats: str | None = None,
                          policy_given: bool = False) -> Policies:
    """The run's card-play policies from the policy options; a mix of them that contradicts itself is an error."""
    if seats is None:
        return Policies((declarer or policy).value, (defender or policy).value)
    if declarer is not None or defender is not None or policy_given:
        raise InputError("--seat-policies names every seat's policy: drop --policy, --declarer-policy and "
                         "--defender-policy")
    names = [name.strip().lower() for name in seats.split(",")]
    known = [p.value for p in Policy]
    if len(names) != 4 or not set(names) <= set(known):
        raise InputError(f"--seat-policies needs four of {', '.join(known)} for N,E,S,W, got {seats!r}")
    return Policies(None, None, tuple(names))


@app.command()
def deal(
    count: Annotated[int, typer.Option("--count", "-n", min=1, max=MAX_PRINTED_DEALS, help="Number of deals.")] = 1,
    seed: Seed = 0,
    hand: HandOption = None,
    cards: CardsOption = None,
    hcp: HcpOption = None,
    aces: AcesOption = None,
    length: LengthOption = None,
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
        typer.echo(json_dumps({"seed": seed, "deals": lines}))
    else:
        typer.echo("\n".join(lines))


def constraint_params(dealing: Dealing, seed: int, *texts: list[str] | None) -> dict:
    """``{"constraints": option name -> texts as given}`` for a run's params (``{}`` without any).

    The constraints are checked here, before a run folder is written: a bad, impossible or
    near-impossible one is an error now rather than in every chunk.
    """
    given = {key: list(values) for key, values in zip(CONSTRAINT_OPTIONS, texts) if values}
    if not given:
        return {}
    if dealing == Dealing.packets:
        raise InputError("deal constraints need --dealing random: a packet deal is made from the previous "
                         "round's tricks")
    deal_constrained(0, seed, build_constraints(*(values or [] for values in texts)))
    return {"constraints": given}


def start_run(experiment: str, out, params: dict, seed: int, chunk_size: int) -> RunStore:
    """Create the run directory of a Rikken experiment and write its first manifest."""
    store = RunStore(out_dir_or_default(out, experiment))
    store.write_manifest({"experiment": experiment, "command": " ".join(["analyzer", *sys.argv[1:]]), "seed": seed,
                          "chunk_size": chunk_size, "params": params,
                          "rules": {"game": "rikken", "dealing": params["dealing"], "scoring": ["points", "money"]}})
    return store


@app.command()
def bids(
    deals: Annotated[int, typer.Option("--deals", min=1, max=MAX_ITEMS,
                                       help="Number of deals; every seat's hand is evaluated (--seat: "
                                            "those seats' only).")],
    workers: Workers,
    policy: PolicyOption = Policy.heuristic,
    declarer_policy: DeclarerPolicy = None,
    defender_policy: DefenderPolicy = None,
    dealing: DealingOption = Dealing.random,
    contracts: Annotated[str, typer.Option("--contracts", help="Comma-separated contracts to evaluate, e.g. "
                                           "rik,9-alone,misery (default: all).")] = "all",
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: BidsChunkSize = None,
    dd_budget: DdBudgetOption = None,
    hand: HandOption = None,
    cards: CardsOption = None,
    hcp: HcpOption = None,
    aces: AcesOption = None,
    length: LengthOption = None,
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", help="Evaluate only these seats' hands (repeat or comma list, e.g. N or N,S): the rows, "
                       "summary and charts cover those hands only.", show_default="all four")] = None,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """Every contract every hand could declare, played out: success rates, scores, charts.

    Deal constraints (--hand, --cards, --hcp, --aces, --length, as in `rikken deal`) hold for every
    deal, at absolute seats N E S W; the dealer rotates (deal d is dealt by seat d mod 4).
    """
    policies = policies_from_options(policy, declarer_policy, defender_policy)
    chunk_size = chunk_size or default_chunk_size(policies)
    chosen = list(Contract) if contracts.strip() == "all" else [parse_contract(c) for c in contracts.split(",")]
    if "dd" in policies.names() and dealing == Dealing.packets:
        raise InputError("--dealing packets gathers the cards of played tricks: use heuristic or random policies")
    params = {**policies.params(), "dealing": dealing.value, "contracts": sorted({int(c) for c in chosen}),
              **constraint_params(dealing, seed, hand, cards, hcp, aces, length),
              **dd_budget_params(policies, dd_budget)}
    if seat:
        chosen_seats = {parse_seat(text) for value in seat for text in value.split(",")}
        params["seats"] = [letter for index, letter in enumerate(SEAT_LETTERS) if index in chosen_seats]
    check_chunk_count(deals, chunk_size)
    check_run_dir(out, bids_chunk, params, deals, seed=seed, chunk_size=chunk_size)
    store = start_run("rikken-bids", out, params, seed, chunk_size)
    started = time.time()
    chunks = run_chunks(bids_chunk, params, deals, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="rikken bids", store=store, backend=scheduler, rows_dir=store.root / "hands",
                        aggregate=rikken_summary.bids_moments)
    played = time.time()
    with stage("writing summary"):
        moments = rikken_summary.merge_bids_moments(chunks)
        summary = rikken_summary.summarize_bids(moments)
        best = rikken_summary.best_contracts(moments)
        store.write_csv("summary", summary)
        store.write_csv("bidding_chart", best)
    with stage("drawing charts"):
        for figure, stem in ((rikken_charts.success_by_trumps_and_hcp(moments), "success_by_trumps_hcp"),
                             (rikken_charts.low_contract_success(moments), "misery_one_alone_by_low_cards"),
                             (rikken_charts.bidding_chart(best), "bidding_chart")):
            if figure is not None:  # None: no contract this chart draws was evaluated
                store.save_figure(figure, stem)
    finished = time.time()
    n_hands = len(params.get("seats", SEAT_LETTERS)) * deals
    store.write_manifest({"hands": n_hands, "timings": {"play_seconds": round(played - started, 3),
                                                        "summary_seconds": round(finished - played, 3)}})
    overall = summary[summary["feature"] == "all"].drop(columns=["feature", "bin"])
    shown = pd.DataFrame({
        "contract": overall["contract"], "hands": overall["n"],
        "made %": [f"{100 * r:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
                   for r, lo, hi in zip(overall["rate"], overall["rate_lo"], overall["rate_hi"])],
        "money/hand": [f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]"
                       for m, lo, hi in zip(overall["mean_score"], overall["score_lo"], overall["score_hi"])],
        "points/hand": overall["mean_points"].round(3)})
    if overall["bounded"].any():
        # Counts the search left as intervals: the money interval spans them, the mean is their low end.
        shown["bounded"] = overall["bounded"]
    hands_of = f" (seats {', '.join(params['seats'])})" if "seats" in params else ""
    _report(overall, shown, store, json_out, f"Rikken bids: {deals:,} deals, {n_hands:,} hands{hands_of}, "
                                             f"{policies.label()}, dealing {dealing.value} (rates with 95% Wilson "
                                             "intervals)")


@app.command()
def play(
    rounds: Annotated[int, typer.Option("--rounds", min=1, max=MAX_ITEMS, help="Number of full rounds.")],
    workers: Workers,
    policy: PlayPolicyOption = None,
    declarer_policy: DeclarerPolicy = None,
    defender_policy: DefenderPolicy = None,
    seat_policies: SeatPolicies = None,
    bidding: BiddingOption = None,
    seat_bidding: SeatBidding = None,
    bidding_margin: BiddingMargin = 0.0,
    dealing: DealingOption = Dealing.random,
    seed: Seed = 0,
    scheduler: Scheduler = None,
    chunk_size: PlayChunkSize = None,
    rounds_per_game: RoundsPerGame = None,
    hand: HandOption = None,
    cards: CardsOption = None,
    hcp: HcpOption = None,
    aces: AcesOption = None,
    length: LengthOption = None,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """Full rounds: auction, calls, play and scoring in both modes.

    Deal constraints (--hand, --cards, --hcp, --aces, --length, as in `rikken deal`) hold for every
    round's deal, at absolute seats N E S W; the dealer rotates (round r is dealt by seat r mod 4), so a
    constrained seat bids first, or deals, in turn.
    """
    policies = policies_from_options(Policy((policy or PlayPolicy.heuristic).value), declarer_policy, defender_policy,
                         seat_policies, policy_given=policy is not None)
    if rounds_per_game is not None:  # whole games in every chunk: each chunk counts its own games
        chunk_size = rikken_summary.game_chunk_size(rounds, rounds_per_game, chunk_size, default_chunk_size(policies))
    chunk_size = chunk_size or default_chunk_size(policies)
    params = {**policies.params(), "dealing": dealing.value,
              **constraint_params(dealing, seed, hand, cards, hcp, aces, length),
              **bidding_params(bidding, seat_bidding, bidding_margin)}
    if rounds_per_game is not None:  # chunks of a game-scored run also hold game counts
        params["rounds_per_game"] = rounds_per_game
    check_chunk_count(rounds, chunk_size)
    check_run_dir(out, play_chunk, params, rounds, seed=seed, chunk_size=chunk_size)
    store = start_run("rikken-play", out, params, seed, chunk_size)
    started = time.time()
    chunks = run_chunks(play_chunk, params, rounds, seed=seed, chunk_size=chunk_size, workers=workers,
                        description="rikken rounds", store=store, backend=scheduler, rows_dir=store.root / "rounds",
                        aggregate=partial(rikken_summary.rounds_moments, rounds_per_game=rounds_per_game))
    with stage("writing summary"):
        moments = rikken_summary.merge_rounds_moments(chunks)
        contracts = rikken_summary.contract_summary(moments)
        seats = rikken_summary.seat_summary(moments)
        store.write_csv("summary", contracts)
        store.write_csv("seats", seats)
        games = rikken_summary.game_summary(moments)  # empty without --rounds-per-game
        if not games.empty:
            store.write_csv("games", games)
    with stage("drawing charts"):
        store.save_figure(rikken_charts.play_chart(contracts, seats), "contracts_and_scores")
    store.write_manifest({"rounds": rounds, "timings": {"seconds": round(time.time() - started, 3)}})
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), "contracts": contracts.to_dict(orient="records"),
                               "seats": seats.to_dict(orient="records"),
                               **({"games": games.to_dict(orient="records")} if len(games) else {})}))
        return
    print_table(contracts, f"Rikken rounds: {rounds:,}, {policies.label()}, {bidding_label(params)}, "
                           f"dealing {dealing.value}")
    print_table(seats, "Mean score per round by seat (95% intervals)")
    if not games.empty:
        print_table(games.drop(columns=["outright_prob", "outright_lo", "outright_hi"]),
                     f"Games of {rounds_per_game} rounds, points mode: win probability per seat (a tie for the top "
                     "shares the game; 95% Wilson intervals)")
    typer.echo(f"results in {store.root}")


@app.command()
def compare(
    run_a: Annotated[str, typer.Argument(help="Baseline run directory (A).")],
    run_b: Annotated[str, typer.Argument(help="Run directory to compare with it (B), same seed and size.")],
    json_out: JsonOut = False,
) -> None:
    """Paired differences B - A of two bids (or two play) runs on the same deals, e.g. two policy mixes."""
    experiment, tables = compare_runs(run_a, run_b)
    labels = [Policies.from_params(read_manifest(run)["params"]).label() for run in (run_a, run_b)]
    if json_out:
        typer.echo(json_dumps({"experiment": experiment, "a": {"run_dir": run_a, "policies": labels[0]},
                               "b": {"run_dir": run_b, "policies": labels[1]},
                               **{name: table.to_dict(orient="records") for name, table in tables.items()}}))
        return
    contracts = tables["contracts"]
    unit, money = ("hands", "money/hand") if experiment == "rikken-bids" else ("declared", "declarer money")
    print_table(pd.DataFrame({"contract": contracts["contract"], unit: contracts["n"],
                               "made % A": _fmt(contracts["made_a"], 100, ".1f"),
                               "made % B": _fmt(contracts["made_b"], 100, ".1f"),
                               "made B - A (pp)": _fmt_interval(contracts, "made", 100, "+.1f"),
                               f"{money} B - A": _fmt_interval(contracts, "money", 1, "+.2f")}),
                 f"Same deals, B - A paired (95% intervals); A: {labels[0]}, B: {labels[1]}")
    if "seats" in tables:
        seats = tables["seats"]
        print_table(pd.DataFrame({"mode": seats["mode"], "seat": seats["seat"], "rounds": seats["n"],
                                   "score A": _fmt(seats["score_a"], 1, "+.3f"),
                                   "score B": _fmt(seats["score_b"], 1, "+.3f"),
                                   "score B - A": _fmt_interval(seats, "score", 1, "+.3f")}),
                     "Mean score per round by seat, B - A paired (95% intervals)")
    typer.echo("--json adds the means of A and B for every measure" +
               (" and the declaring side's tricks" if experiment == "rikken-bids" else ""))


def _fmt(values, scale: float, spec: str) -> list[str]:
    return [format(scale * v, spec) for v in values]


def _fmt_interval(frame: pd.DataFrame, measure: str, scale: float, spec: str) -> list[str]:
    """``diff [lo, hi]`` of one paired measure of ``compare_runs``."""
    parts = [_fmt(frame[f"{measure}_{key}"], scale, spec) for key in ("diff", "lo", "hi")]
    return [f"{d} [{lo}, {hi}]" for d, lo, hi in zip(*parts)]


def _report(table: pd.DataFrame, shown: pd.DataFrame, store: RunStore, json_out: bool, title: str) -> None:
    if json_out:
        typer.echo(json_dumps({"run_dir": str(store.root), "contracts": table.to_dict(orient="records")}))
        return
    print_table(shown, title)
    typer.echo(f"results in {store.root}")


def print_table(frame: pd.DataFrame, title: str) -> None:
    """Print a frame as a rich table (left-aligned text, right-aligned numbers)."""
    table = Table(title=title)
    for column in frame.columns:
        table.add_column(column, justify="left" if frame[column].dtype == object else "right")
    for row in frame.itertuples(index=False):
        table.add_row(*[_cell(v) for v in row])
    console = Console()
    console.width = max(console.width, 110)
    console.print(table)


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _print_tables(rows: list[dict], misery: list[dict], leader: int) -> None:
    console = Console()
    table = Table(title=f"Double-dummy tricks for the declaring side ({SEAT_LETTERS[leader]} leads)")
    table.add_column("declarer")
    table.add_column("trump")
    table.add_column("alone", justify="right")
    table.add_column("with called card (partner): tricks")
    for row in rows:
        calls = ", ".join(f"{name}{'*' if c['blind'] else ''} ({c['partner']}): {c['tricks']}"
                          for name, c in row["calls"].items()) or "-"
        table.add_row(row["declarer"], row["trump"], str(row["alone"]), calls)
    console.print(table)
    console.print("* blind call")
    second = Table(title="Misery / 1 Alone at no trump (makeable?)")
    for name in ("declarer", "Misery", "1 Alone"):
        second.add_column(name)
    for row in misery:
        second.add_row(row["declarer"], "yes" if row["misery"] else "no", "yes" if row["one_alone"] else "no")
    console.print(second)


@app.command("solve")
def solve_command(
    deal: Annotated[str, typer.Argument(help='PBN deal "N:hand hand hand hand" (endings with equal hands too).')],
    dealer: Annotated[str, typer.Option("--dealer", help="Dealer seat; the player on his left leads.")] = "W",
    trump: Annotated[str | None, typer.Option("--trump", help="One question: trump C, D, H, S or N.")] = None,
    leader: Annotated[str | None, typer.Option("--leader", help="One question: seat on lead (default: left of dealer).")] = None,
    team: Annotated[str | None, typer.Option("--team", help="One question: the declaring side, e.g. NS, NE, N.")] = None,
    goal: Annotated[str, typer.Option("--goal", help="One question: max, ge:K, le:K (Misery: le:0) or eq:K.")] = "max",
    called: Annotated[str | None, typer.Option("--called", help="One question: the called card, e.g. HA.")] = None,
    blind: Annotated[bool, typer.Option("--blind", help="One question: the call was blind.")] = False,
    json_out: JsonOut = False,
) -> None:
    """Double-dummy table for a Rikken deal, or the answer to one question (with --trump and --team)."""
    hands = parse_deal(deal, hand_size=None)
    lead = parse_seat(leader) if leader is not None else (parse_seat(dealer) + 1) % 4
    if trump is None and team is None:
        if called is not None or blind or goal != "max":
            raise InputError("--goal, --called and --blind need a single question: give --trump and --team")
        rows = dd_table(hands, lead)
        misery = misery_table(hands, lead)
        if json_out:
            typer.echo(json_dumps({"leader": SEAT_LETTERS[lead], "contracts": rows, "misery": misery}))
        else:
            _print_tables(rows, misery, lead)
        return
    if trump is None or team is None:
        raise InputError("a single question needs both --trump and --team")
    strain = parse_strain(trump)
    side = parse_team(team)
    goal_name, count = parse_goal(goal)
    called_card = parse_card(called) if called is not None else -1
    if called is not None:
        check_call(hands, strain, side, called_card, blind)
    answer = solve(hands, strain, lead, side, goal=goal_name, k=count, called_card=called_card, blind_call=blind)
    result = {"trump": STRAIN_LETTERS[strain], "leader": SEAT_LETTERS[lead], "team": team_name(side), "goal": goal}
    if goal_name == "max":
        result["tricks"] = answer
        text = f"{team_name(side)} take {answer} trick(s) with best play"
    else:
        result["makes"] = answer
        text = f"{team_name(side)} {'can' if answer else 'cannot'} make {goal}"
    typer.echo(json_dumps(result) if json_out else text)


