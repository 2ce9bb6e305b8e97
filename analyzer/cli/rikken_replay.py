"""``analyzer rikken replay``: one round card by card, from a ``rikken play`` run or a given deal."""

import re
from typing import Annotated

import typer

from analyzer.cards.pbn import SEAT_LETTERS, parse_seat
from analyzer.catalog import DD_DEFAULT_BUDGET, DD_MAX_BUDGET, RIKKEN_CONSTRAINT_OPTIONS
from analyzer.cli.options import MAX_CHUNK_SIZE, JsonOut, json_dumps
from analyzer.cli.rikken import (
    DEFAULT_DEALER,
    AcesOption,
    BiddingMargin,
    BiddingOption,
    CardsOption,
    Dealing,
    DeclarerPolicy,
    DefenderPolicy,
    HandOption,
    HcpOption,
    LengthOption,
    PlayPolicyOption,
    Policy,
    SeatBidding,
    SeatPolicies,
    WorldsOption,
    given_deal,
    policies_from_options,
)
from analyzer.errors import InputError

JudgeOption = Annotated[bool, typer.Option(
    "--judge/--no-judge", help="Mark every card with its double-dummy cost: the tricks (or the contract) its side "
                               "gives up against the best card at that moment.")]
JudgeBudget = Annotated[int | None, typer.Option(
    "--dd-budget", min=0, max=DD_MAX_BUDGET,
    help="Completed tricks each judged trick count may search (about 2.5 million per CPU-second); a cost whose "
         "count runs out is shown as bounds. Made or not made is always exact. 0: no limit.",
    show_default=f"{DD_DEFAULT_BUDGET:,}")]


def replay(
    deal: Annotated[str | None, typer.Argument(help='A PBN deal "N:hand hand hand hand" or a .pbn or .lin file '
                                                    "(instead of --seed --index).", show_default=False)] = None,
    board: Annotated[str | None, typer.Option(
        "--board", help="The board of a .pbn or .lin file holding several.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="The rikken play run's seed (with --index); "
                                             "with a PBN deal, the seed of the random choices.",
                                             show_default="0 with a deal")] = None,
    index: Annotated[int | None, typer.Option("--index", min=0, help="Round of the run, 0-based, as numbered in "
                                              "its rounds/ rows.")] = None,
    policy: PlayPolicyOption = None,
    declarer_policy: DeclarerPolicy = None,
    defender_policy: DefenderPolicy = None,
    seat_policies: SeatPolicies = None,
    bidding: BiddingOption = None,
    seat_bidding: SeatBidding = None,
    bidding_margin: BiddingMargin = 0.0,
    dealing: Annotated[Dealing | None, typer.Option(
        "--dealing", help="The run's dealing model.", show_default="random")] = None,
    chunk_size: Annotated[int | None, typer.Option(
        "--chunk-size", min=1, max=MAX_CHUNK_SIZE, help="The run's --chunk-size (it decides each round's seed).",
        show_default="20000; 2 with dd at any seat")] = None,
    hand: HandOption = None,
    cards: CardsOption = None,
    hcp: HcpOption = None,
    aces: AcesOption = None,
    length: LengthOption = None,
    dealer: Annotated[str | None, typer.Option(
        "--dealer", help="With a PBN deal: the dealer; his left bids first and leads.",
        show_default=f"the file's Dealer tag, else {DEFAULT_DEALER} (as solve)")]
    = None,
    judge: JudgeOption = True,
    dd_budget: JudgeBudget = None,
    worlds: WorldsOption = None,
    json_out: JsonOut = False,
) -> None:
    """One round card by card: round --index of `rikken play --seed S` (same options), or a PBN deal.

    Shows the deal, the auction bid by bid, trump and call, the 13 tricks (leader, cards, winner, the
    declaring side's running count against what the contract needs) and each seat's scores. Every card
    is marked with its double-dummy cost against the best card at that moment (--no-judge: not).
    """
    from analyzer.games.rikken.replay import replay_payload
    from analyzer.games.rikken.strategy import bidding_params

    policies = policies_from_options(policy or Policy.heuristic, declarer_policy, defender_policy, seat_policies,
                                     policy_given=policy is not None).with_worlds(worlds).with_turn_budget()
    auction = bidding_params(bidding, seat_bidding, bidding_margin)
    if dd_budget is not None and not judge:
        raise InputError("--dd-budget is the budget of judging the cards: it goes without --no-judge")
    judge_budget = (DD_DEFAULT_BUDGET if dd_budget is None else dd_budget) if judge else None
    constraints = {key: list(values) for key, values in zip(RIKKEN_CONSTRAINT_OPTIONS, (hand, cards, hcp, aces, length))
                   if values}
    if deal is not None:
        result = _replay_pbn_deal(deal, board, index, dealing, chunk_size, constraints, dealer, seed, policies, auction,
                                  judge_budget)
    else:
        if board is not None:
            raise InputError("--board picks a board of a .pbn or .lin file: give the file")
        result = _replay_run_round(seed, index, dealer, dealing, chunk_size, constraints, policies, auction,
                                   judge_budget)
    payload = replay_payload(result)
    typer.echo(json_dumps(payload) if json_out else "\n".join(text_lines(payload)))


def _replay_pbn_deal(deal, board, index, dealing, chunk_size, constraints, dealer, seed, policies, auction,
                     judge_budget):
    """The round of a PBN deal (or a .pbn file's board) given on the command line; the run's options are
    refused with it."""
    from analyzer.games.rikken.replay import replay_deal

    if index is not None:
        raise InputError("give either --seed S --index I (a round of rikken play) or a PBN deal, not both")
    if dealing is not None or chunk_size is not None or constraints:
        raise InputError("--dealing, --chunk-size and deal constraints describe a rikken play run: they go "
                         "with --seed S --index I, not with a PBN deal")
    hands, file_dealer = given_deal(deal, board)
    dealer_seat = parse_seat(dealer) if dealer is not None else file_dealer if file_dealer is not None else \
        parse_seat(DEFAULT_DEALER)
    return replay_deal(hands, dealer_seat, seed or 0, policies, auction, judge_budget)


def _replay_run_round(seed, index, dealer, dealing, chunk_size, constraints, policies, auction, judge_budget):
    """Round ``index`` of ``rikken play --seed seed`` with the run's options."""
    from analyzer.games.rikken.replay import replay_run_round

    if index is None:
        raise InputError("give --seed S --index I (round I of rikken play --seed S) or a PBN deal "
                         '"N:hand hand hand hand"')
    if seed is None:
        raise InputError("--index needs --seed: the seed of the rikken play run")
    if dealer is not None:
        raise InputError("--dealer is for a PBN deal: round I of a run is dealt by seat I mod 4")
    dealing_name = (dealing or Dealing.random).value
    if constraints and dealing_name == "packets":
        raise InputError("deal constraints need --dealing random: a packet deal is made from the previous "
                         "round's tricks")
    return replay_run_round(seed, index, policies, dealing_name, chunk_size, constraints or None, auction,
                            judge_budget)


def text_lines(payload: dict) -> list[str]:
    """The replay payload (``replay.replay_payload``) as text lines."""
    lines = [_title(payload["source"]), f"Dealer {payload['dealer']}, {payload['leader']} bids first and leads.",
             "Deal:"]
    lines += [f"  {seat}  {payload['deal'][seat]}" for seat in SEAT_LETTERS]
    lines.append(f"  PBN {payload['deal']['pbn']}")
    lines.append("Auction: " + ", ".join(f"{b['seat']} {b['bid']}" for b in payload["auction"]))
    if payload["passed_out"]:
        lines.append("Passed out: all four passed, nothing is played and every seat scores 0.")
        return _wrapped(lines)
    lines += _setup_lines(payload)
    lines.append("Policies: " + ", ".join(f"{seat} {name}" for seat, name in payload["policies"].items()))
    needs = {c["seat"]: c["needs"] for c in payload["contracts"]}
    sides = {c["seat"]: "+".join(c["side"]) for c in payload["contracts"]}
    several = len(payload["contracts"]) > 1
    for trick in payload["tricks"]:
        cards = "  ".join(f"{c['seat']} {'face down ' + c['card'] if c['face_down'] else c['card']}"
                          f"{cost_mark(c.get('cost', []), several)}" for c in trick["cards"])
        counts = ", ".join(f"{sides[seat]} {n} (need {needs[seat]})" for seat, n in trick["side_tricks"].items())
        lines.append(f"  {trick['number']:>2}. {trick['leader']} leads: {cards}  -> {trick['winner']} wins; {counts}")
    if "judge_budget" in payload["source"]:
        lines += _judged_lines(payload)
    for c in payload["contracts"]:
        lines.append(f"Result: {c['seat']} {c['contract']} {'made' if c['made'] else 'failed'}: "
                     f"{'+'.join(c['side'])} took {c['side_tricks']}, needed {c['needs']}.")
    lines.append("Scores:  tricks  points  money")  # a seat a line: wrapped, one line split a seat's figures
    lines += [f"  {seat}  {s['tricks']:>9}  {s['points']:>+6d}  {s['money']:>+5d}"
              for seat, s in payload["scores"].items()]
    if payload["undecided"]:
        lines.append(f"{payload['undecided']} dd turns stopped at the turn budget before a card was proved best: "
                     "this round is not a perfect-play result.")
    return _wrapped(lines)


def _wrapped(lines: list[str]) -> list[str]:
    """The title and the scores wrapped to the console's width, as the judged summary is; a trick stays on
    its line (one line a trick, cards in order)."""
    from analyzer.reports.formatting import CONSOLE_WIDTH, fill_console

    return [line if re.match(r"\s+\d+\. [NESW] leads:", line) or len(line) <= CONSOLE_WIDTH
            else fill_console(line, subsequent_indent="  ") for line in lines]


def cost_mark(costs: list[dict], several: bool = False) -> str:
    """A card's double-dummy cost as bridge viewers mark it: ``(-1)`` one trick given up, ``(-[0, 2])``
    between 0 and 2, ``!`` the contract given up; prefixed by the declarer's seat when ``several`` contracts
    are in play; empty for a card that gave up nothing."""
    from analyzer.reports.formatting import format_bounds

    marks = []
    for cost in costs:
        low, high = cost["tricks"], cost["tricks_high"]
        tricks = f"-{format_bounds(low, high)}" if high else ""
        mark = tricks + ("!" if cost["contract"] else "")
        if mark:
            marks.append(f"{cost['declarer']}{mark}" if several else mark)
    return f" ({', '.join(marks)})" if marks else ""


def _judged_lines(payload: dict) -> list[str]:
    """The legend of the cost marks, and per contract who gave up tricks and where its fate turned."""
    from analyzer.reports.formatting import fill_console

    lines = [f"Each card judged double dummy (budget {payload['source']['judge_budget']:,} completed tricks per "
             "count): (-n) its side gave up n tricks against the best card at that moment, (-[a, b]) between a "
             "and b, ! it gave up the contract."]
    for contract in payload["contracts"]:
        seat = contract["seat"]
        given: dict[str, list[int]] = {s: [0, 0] for s in SEAT_LETTERS}
        turns = []
        for trick in payload["tricks"]:
            for card in trick["cards"]:
                cost = next(c for c in card["cost"] if c["declarer"] == seat)
                if cost["tricks"] is not None:
                    given[card["seat"]][0] += cost["tricks"]
                    given[card["seat"]][1] += cost["tricks_high"]
                if cost["contract"]:
                    deed = "gave it up" if card["seat"] in contract["side"] else "let it make"
                    turns.append(f"trick {trick['number']}, {card['seat']} {card['card']} {deed}")
        if any(high for _, high in given.values()):
            defenders = [s for s in SEAT_LETTERS if s not in contract["side"]]
            lines.append(f"{seat} {contract['contract']}: tricks given up by " + ", by ".join(
                _side_given(side, given) for side in (contract["side"], defenders)) + ".")
        lines.append(f"{seat} {contract['contract']}: " + (
            "its fate turned at " + "; ".join(turns) + "." if turns
            else "no card turned its fate: it went as perfect play from the deal says."))
    return [fill_console(line, subsequent_indent="  ") for line in lines]


def _side_given(side: list[str], given: dict[str, list[int]]) -> str:
    """``W+N 1 (W 1, N 0)``: the tricks a side gave up (bounds when a count was bounded), then each seat's."""
    from analyzer.reports.formatting import format_bounds

    low, high = (sum(given[s][i] for s in side) for i in (0, 1))
    return f"{'+'.join(side)} {format_bounds(low, high)} (" + ", ".join(
        f"{s} {format_bounds(*given[s])}" for s in side) + ")"


def _title(source: dict) -> str:
    if "deal" in source:
        return f"Rikken replay of a given deal, {source['policies']}, {source['bidding']}, seed {source['seed']}"
    extra = f", constraints {source['constraints']}" if "constraints" in source else ""
    return (f"Rikken replay: round {source['index']:,} of rikken play --seed {source['seed']} (chunk "
            f"{source['chunk']:,} of {source['chunk_size']:,} rounds), {source['policies']}, {source['bidding']}, "
            f"dealing {source['dealing']}{extra}")


def _setup_lines(payload: dict) -> list[str]:
    """The contract(s), trump and call."""
    lines = []
    for c in payload["contracts"]:
        partner = f" with partner {c['side'][1]}" if len(c["side"]) == 2 else ""
        lines.append(f"Contract: {c['seat']} {c['contract']}{partner}: {'+'.join(c['side'])} need {c['needs']}.")
    call = payload["call"]
    trump = f"Trump: {payload['trump']}."
    if call is not None:
        kind = ("blind " if call["blind"] else "") + ("king call" if call["king"] else "ace call")
        trump += f" Called {call['card']} ({kind}); {call['holder']} holds it."
    elif payload["contracts"][0]["contract"] in ("Rik", "Rik Beter"):
        trump += " No card could be called: the bidder plays alone."
    lines.append(trump)
    return lines
