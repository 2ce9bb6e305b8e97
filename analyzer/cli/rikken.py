"""``analyzer rikken ...``: deals, bid-success experiments, full rounds, double-dummy answers.

The game's modules (numba kernels, pandas) are imported by the command bodies, so that ``--help`` loads
none of them (the option names come from ``analyzer.catalog``).
"""

from enum import Enum
from pathlib import Path
from typing import Annotated, NamedTuple

import typer

from analyzer.cards.pbn import SEAT_LETTERS, format_deal, parse_deal, parse_seat
from analyzer.catalog import (
    DD_DEFAULT_BUDGET,
    DD_MAX_BUDGET,
    RIKKEN_BOTS,
    RIKKEN_DEALINGS,
    RIKKEN_DEFAULT_WORLDS,
    RIKKEN_MAX_WORLDS,
)
from analyzer.cli.options import (
    MAX_CHUNK_SIZE,
    MAX_ITEMS,
    JsonOut,
    OutDir,
    Scheduler,
    Seed,
    Workers,
    json_dumps,
)
from analyzer.cli.running import print_table, run_and_print
from analyzer.errors import InputError

app = typer.Typer(help="Rikken: 4 players, auction, called-ace partnerships.", no_args_is_help=True)
# A deal given without a dealer (`solve`, `replay` of a deal, the PBN files `deal` writes): W deals, so N, on
# his left, bids first and leads (the rules: the dealer's left opens and leads); one default everywhere.
DEFAULT_DEALER = "W"


#: Card-play policies by name, from ``catalog.RIKKEN_BOTS`` (the registry is built from it), with their help.
Policy = Enum("Policy", {name: name for name in RIKKEN_BOTS}, type=str)


#: Dealing models (docs/rules.md: ``random`` uniform deals, ``packets`` traditional gather-cut-deal).
Dealing = Enum("Dealing", {name: name for name in RIKKEN_DEALINGS}, type=str)


def help_text() -> str:
    """``name = help; ...`` for every bot, for a command's ``--policy`` help."""
    return "; ".join(f"{name} = {text}" for name, text in RIKKEN_BOTS.items())


# `rikken deal` holds every deal as text before printing: 10^6 deals take about 650 MB and 100 s.
MAX_PRINTED_DEALS = 10**6


PolicyOption = Annotated[Policy, typer.Option("--policy", help="Card-play policy of the seats no other policy option "
                                                                 f"names: {help_text()}.")]
DeclarerPolicy = Annotated[Policy | None, typer.Option(
    "--declarer-policy", help="Policy of the declaring side (bidder and partner); dd seats assume perfect play "
                              "by everyone else.", show_default="--policy")]
DefenderPolicy = Annotated[Policy | None, typer.Option("--defender-policy", help="Policy of the defenders.",
                                                       show_default="--policy")]
DdBudgetOption = Annotated[int | None, typer.Option(
    "--dd-budget", min=0, max=DD_MAX_BUDGET,
    help="With --policy dd: completed tricks each trick count may search beyond the made / not made questions "
         "(about 2.5 million per CPU-second); when they run out the count is reported as the interval it was "
         "proved to lie in. 0: no limit, every count exact.", show_default=f"{DD_DEFAULT_BUDGET:,}")]
SolveBudgetOption = Annotated[int, typer.Option(
    "--dd-budget", min=0, max=DD_MAX_BUDGET,
    help="Completed tricks each trick count may search beyond the made / not made questions (about 2.5 million "
         "per CPU-second); a count that runs out is shown as the interval it was proved to lie in. 0: no limit, "
         "every count exact.")]
BidsChunkSize = Annotated[int | None, typer.Option("--chunk-size", min=1, max=MAX_CHUNK_SIZE,
                                                   help="Deals per chunk; results depend on it.",
                                                   show_default="20000; 500 with expert, 2 with dd at any seat")]
PlayPolicyOption = Annotated[Policy | None, typer.Option("--policy", show_default="heuristic",
                                                             help="Card-play policy of the seats no other policy "
                                                                  f"option names: {help_text()}.")]
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


def policies_from_options(policy: Policy, declarer: Policy | None, defender: Policy | None, seats: str | None = None,
                          policy_given: bool = False):
    """The run's card-play policies (``experiments.Policies``) from the policy options; a mix of them that
    contradicts itself is an error."""
    from analyzer.games.rikken.bots import check_table
    from analyzer.games.rikken.experiments import Policies

    if seats is None:
        policies = Policies((declarer or policy).value, (defender or policy).value)
        check_table(policies.names())
        return policies
    if declarer is not None or defender is not None or policy_given:
        raise InputError("--seat-policies names every seat's policy: drop --policy, --declarer-policy and "
                         "--defender-policy")
    names = [name.strip().lower() for name in seats.split(",")]
    known = [p.value for p in Policy]
    if len(names) != 4 or not set(names) <= set(known):
        raise InputError(f"--seat-policies needs four of {', '.join(known)} for N,E,S,W, got {seats!r}")
    check_table(names)
    return Policies(None, None, tuple(names))


WorldsOption = Annotated[int | None, typer.Option(
    "--worlds", min=1, max=RIKKEN_MAX_WORLDS,
    help="With sampled-dd at a seat: hidden-hand worlds it draws and solves per decision, twice as many when "
         "defending an Open Misery (more: steadier and slower, about linearly).",
    show_default=str(RIKKEN_DEFAULT_WORLDS))]


@app.command()
def deal(
    count: Annotated[int, typer.Option("--count", "-n", min=1, max=MAX_PRINTED_DEALS, help="Number of deals.")] = 1,
    seed: Seed = 0,
    hand: HandOption = None,
    cards: CardsOption = None,
    hcp: HcpOption = None,
    aces: AcesOption = None,
    length: LengthOption = None,
    pbn: Annotated[str | None, typer.Option("--pbn", help="Also write the deals to this PBN file (boards 1..n, "
                                            "dealer W so that N leads, as `rikken solve` assumes).")] = None,
    lin: Annotated[str | None, typer.Option("--lin", help="Also write the deals to this LIN file (Bridge Base "
                                            "Online's hand records: boards 1..n, dealer W).")] = None,
    json_out: JsonOut = False,
) -> None:
    """Print random or constrained deals in PBN (N first)."""
    from analyzer.cards.constraints import build_constraints
    from analyzer.cards.dealing import deal_constrained, deal_random
    from analyzer.cards.lin_file import format_lin
    from analyzer.cards.pbn_file import deal_games, format_pbn

    seats = build_constraints(hand or [], cards or [], hcp or [], aces or [], length or [])
    if all(s.fixed == 0 and s.is_trivial() for s in seats):
        deals = deal_random(count, seed)
    else:
        deals = deal_constrained(count, seed, seats)
    lines = [format_deal(row) for row in deals]
    files = {"--pbn": (pbn, lambda: format_pbn(deal_games(deals, f"analyzer rikken deal --seed {seed}",
                                                           parse_seat(DEFAULT_DEALER)))),
             "--lin": (lin, lambda: format_lin(deals, parse_seat(DEFAULT_DEALER)))}
    for option, (name, text) in files.items():
        if name is not None:
            _write_file(name, option, text())
    if json_out:
        typer.echo(json_dumps({"seed": seed, "deals": lines}))
    else:
        typer.echo("\n".join(lines))


def _write_file(name: str, option: str, text: str) -> None:
    """Write ``text`` to the file ``name`` given with ``option`` (whole or not at all)."""
    from analyzer.reports.store import atomic_write, user_file

    target = user_file(name, option)
    try:
        atomic_write(target, lambda p: Path(p).write_text(text, encoding="utf-8"))
    except OSError as error:
        raise InputError(f"cannot write {name}: {error.strerror or error}") from None


def _seat_letters(seat: list[str] | None) -> list[str] | None:
    """The seats of repeated or comma-listed ``--seat`` options as letters in N E S W order (None: all)."""
    if not seat:
        return None
    chosen = {parse_seat(text) for value in seat for text in value.split(",")}
    return [letter for index, letter in enumerate(SEAT_LETTERS) if index in chosen]


@app.command()
def bids(
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, max=MAX_ITEMS,
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
    from analyzer.games.rikken.experiments import BIDS, bids_plan, constraint_params

    policies = policies_from_options(policy, declarer_policy, defender_policy)
    constraints = constraint_params(dealing.value, seed, hand, cards, hcp, aces, length)
    plan = bids_plan(policies, dealing.value, contracts, constraints, _seat_letters(seat), deals, seed, chunk_size,
                     dd_budget)
    run_and_print(BIDS, plan, out=out, workers=workers, scheduler=scheduler, json_out=json_out)


@app.command()
def play(
    rounds: Annotated[int, typer.Option("--rounds", "-n", min=1, max=MAX_ITEMS, help="Number of full rounds.")],
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
    worlds: WorldsOption = None,
    out: OutDir = None,
    json_out: JsonOut = False,
) -> None:
    """Full rounds: auction, calls, play and scoring in both modes.

    Deal constraints (--hand, --cards, --hcp, --aces, --length, as in `rikken deal`) hold for every
    round's deal, at absolute seats N E S W; the dealer rotates (round r is dealt by seat r mod 4), so a
    constrained seat bids first, or deals, in turn.
    """
    from analyzer.games.rikken.experiments import PLAY, constraint_params, play_plan
    from analyzer.games.rikken.strategy import bidding_params

    policies = policies_from_options(policy or Policy.heuristic, declarer_policy, defender_policy, seat_policies,
                                     policy_given=policy is not None).with_worlds(worlds).with_turn_budget()
    constraints = constraint_params(dealing.value, seed, hand, cards, hcp, aces, length)
    plan = play_plan(policies, dealing.value, constraints, bidding_params(bidding, seat_bidding, bidding_margin),
                     rounds_per_game, rounds, seed, chunk_size)
    run_and_print(PLAY, plan, out=out, workers=workers, scheduler=scheduler, json_out=json_out)


@app.command()
def compare(
    run_a: Annotated[str, typer.Argument(help="Baseline run directory (A).")],
    run_b: Annotated[str, typer.Argument(help="Run directory to compare with it (B), same seed and size.")],
    json_out: JsonOut = False,
) -> None:
    """Paired differences B - A of two bids (or two play) runs on the same deals, e.g. two policy mixes."""
    import pandas as pd

    from analyzer.games.rikken.compare import compare_runs
    from analyzer.games.rikken.experiments import Policies
    from analyzer.reports.manifest import read_manifest

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


def _fmt_interval(frame, measure: str, scale: float, spec: str) -> list[str]:
    """``diff [lo, hi]`` of one paired measure of ``compare_runs``."""
    parts = [_fmt(frame[f"{measure}_{key}"], scale, spec) for key in ("diff", "lo", "hi")]
    return [f"{d} [{lo}, {hi}]" for d, lo, hi in zip(*parts)]


def _count_text(count) -> str:
    """An exact count, or the interval a budgeted count was proved to lie in (``[2, 3]``)."""
    from analyzer.reports.formatting import format_bounds

    return format_bounds(*count) if isinstance(count, list) else str(count)


#: Width of the solve table without its calls column: the other columns at their widest, borders, padding.
_SOLVE_FIXED_WIDTH = 40


def _print_tables(rows: list[dict], misery: list[dict], leader: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"Double-dummy tricks for the declaring side ({SEAT_LETTERS[leader]} leads)")
    table.add_column("declarer")
    table.add_column("trump")
    # A count is never split ("[8," over "13]"): the alone column does not wrap, and the calls of a row go on
    # one line where the terminal is wide enough for the longest, else one a line.
    table.add_column("alone", justify="right", no_wrap=True)
    table.add_column("with called card (partner): tricks")
    call_texts = [[f"{name}{'*' if c['blind'] else ''} ({c['partner']}): {_count_text(c['tricks'])}"
                   for name, c in row["calls"].items()] for row in rows]
    widest = max((len(", ".join(texts)) for texts in call_texts), default=0)
    separator = ", " if console.width >= _SOLVE_FIXED_WIDTH + widest else "\n"
    for row, texts in zip(rows, call_texts):
        calls = separator.join(texts) or "-"
        table.add_row(row["declarer"], row["trump"], _count_text(row["alone"]), calls)
    console.print(table)
    console.print("* blind call; [a, b]: a count the --dd-budget left between a and b", markup=False)
    second = Table(title="Misery / 1 Alone at no trump (makeable?)")
    for name in ("declarer", "Misery", "1 Alone"):
        second.add_column(name)
    for row in misery:
        second.add_row(row["declarer"], "yes" if row["misery"] else "no", "yes" if row["one_alone"] else "no")
    console.print(second)


@app.command("solve")
def solve_command(
    deal: Annotated[str, typer.Argument(help='PBN deal "N:hand hand hand hand" (endings with equal hands too), '
                                        "or a .pbn or .lin file.")],
    board: Annotated[str | None, typer.Option(
        "--board", help="The board of a .pbn or .lin file holding several.")] = None,
    dealer: Annotated[str | None, typer.Option("--dealer", help="Dealer seat; the player on his left leads.",
                                               show_default="the file's Dealer tag, else W")] = None,
    trump: Annotated[str | None, typer.Option("--trump", help="One question: trump C, D, H, S or N.")] = None,
    leader: Annotated[str | None, typer.Option(
        "--leader", help="One question: seat on lead (default: left of dealer).")] = None,
    team: Annotated[str | None, typer.Option(
        "--team", help="One question: the declaring side, e.g. NS, NE, N.")] = None,
    goal: Annotated[str, typer.Option("--goal", help="One question: max, ge:K, le:K (Misery: le:0) or eq:K.")] = "max",
    called: Annotated[str | None, typer.Option("--called", help="One question: the called card, e.g. HA.")] = None,
    blind: Annotated[bool, typer.Option("--blind", help="One question: the call was blind.")] = False,
    dd_budget: SolveBudgetOption = DD_DEFAULT_BUDGET,
    json_out: JsonOut = False,
) -> None:
    """Double-dummy table for a Rikken deal, or the answer to one question (with --trump and --team)."""
    from analyzer.experiments.parallel_compile import compile_solver_helpers

    hands, lead = _deal_and_leader(deal, board, dealer, leader)
    # Every option is checked before the solver's first compile (tens of seconds on a cold cache).
    question = None
    if trump is None and team is None:
        if called is not None or blind or goal != "max":
            raise InputError("--goal, --called and --blind need a single question: give --trump and --team")
    elif trump is None or team is None:
        raise InputError("a single question needs both --trump and --team")
    else:
        question = _parse_question(hands, trump, team, goal, called, blind)
    # On a cold cache the solver's helper groups compile at once; the solver's import then compiles the search.
    compile_solver_helpers()
    if question is None:
        from analyzer.games.rikken.dd import dd_table

        rows, misery = dd_table(hands, lead, dd_budget)
        if json_out:
            typer.echo(json_dumps({"leader": SEAT_LETTERS[lead], "contracts": rows, "misery": misery}))
        else:
            _print_tables(rows, misery, lead)
        return
    result, text = _one_question(hands, lead, question, dd_budget)
    typer.echo(json_dumps(result) if json_out else text)


def given_deal(deal: str, board: str | None, hand_size: int | None = 13):
    """The seat masks of a deal given on the command line, a PBN string or a board of a .pbn or .lin file,
    and the file's dealer (None for a string, or a board without a Dealer tag); ``hand_size`` as in
    ``parse_deal``."""
    from analyzer.cards.pbn_file import board_deal

    if not deal.strip().lower().endswith((".pbn", ".lin")):
        if board is not None:
            raise InputError("--board picks a board of a .pbn or .lin file; the deal given is not one")
        return parse_deal(deal, hand_size=hand_size), None
    hands, file_dealer = board_deal(deal, board)
    if hand_size is not None:
        hands = parse_deal(format_deal(hands), hand_size=hand_size)  # the same check as a deal typed in
    return hands, file_dealer


def _deal_and_leader(deal: str, board: str | None, dealer: str | None, leader: str | None):
    """The hands of ``solve``'s deal (a PBN string or a board of a .pbn or .lin file) and the seat on lead."""
    hands, file_dealer = given_deal(deal, board, hand_size=None)
    dealer_seat = parse_seat(dealer) if dealer is not None else (
        file_dealer if file_dealer is not None else parse_seat(DEFAULT_DEALER))
    return hands, parse_seat(leader) if leader is not None else (dealer_seat + 1) % 4


class _Question(NamedTuple):
    """``solve``'s one question, parsed and checked: strain, side, goal as given, its name and count, called
    card (-1: none) and whether the call was blind."""

    strain: int
    side: int
    goal: str
    goal_name: str
    count: int
    called_card: int
    blind: bool


def _parse_question(hands, trump: str, team: str, goal: str, called: str | None, blind: bool) -> _Question:
    """``solve``'s one question parsed and checked, without the solver."""
    from analyzer.cards.deck import parse_card
    from analyzer.games.rikken.dd_question import check_call, parse_goal, parse_strain, parse_team

    strain = parse_strain(trump)
    side = parse_team(team)
    goal_name, count = parse_goal(goal)
    called_card = parse_card(called) if called is not None else -1
    if called is not None:
        check_call(hands, strain, side, called_card, blind)
    return _Question(strain, side, goal, goal_name, count, called_card, blind)


def _one_question(hands, lead: int, question: _Question, dd_budget: int) -> tuple[dict, str]:
    """``solve``'s answer to one question (:func:`_parse_question`): its JSON object and its sentence."""
    from analyzer.games.rikken.dd_question import STRAIN_LETTERS, team_name
    from analyzer.solvers.dd import solve, solve_bounds

    strain, side, goal, goal_name, count, called_card, blind = question
    result = {"trump": STRAIN_LETTERS[strain], "leader": SEAT_LETTERS[lead], "team": team_name(side), "goal": goal}
    if goal_name == "max":
        low, high = solve_bounds(hands, strain, lead, side, dd_budget, called_card=called_card, blind_call=blind)
        result["tricks"] = low if low == high else [low, high]
        return result, f"{team_name(side)} take {_count_text(result['tricks'])} trick(s) with best play"
    answer = solve(hands, strain, lead, side, goal=goal_name, k=count, called_card=called_card, blind_call=blind)
    result["makes"] = answer
    return result, f"{team_name(side)} {'can' if answer else 'cannot'} make {goal}"
