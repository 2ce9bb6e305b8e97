"""``analyzer rikken replay``: one round card by card, from a ``rikken play`` run or a given deal."""

from typing import Annotated

import typer

from analyzer.cards.pbn import SEAT_LETTERS, parse_deal, parse_seat
from analyzer.cli.options import MAX_CHUNK_SIZE, JsonOut, json_dumps
from analyzer.cli.rikken import (
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
    policies_from_options,
)
from analyzer.errors import InputError
from analyzer.games.rikken.experiments import CONSTRAINT_OPTIONS
from analyzer.games.rikken.replay import replay_deal, replay_payload, replay_run_round
from analyzer.games.rikken.strategy import bidding_params


def replay(
    deal: Annotated[str | None, typer.Argument(help='A PBN deal "N:hand hand hand hand" (instead of --seed '
                                                    "--index).", show_default=False)] = None,
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
    dealer: Annotated[str | None, typer.Option("--dealer", help="With a PBN deal: the dealer; his left bids "
                                               "first and leads.", show_default="N")] = None,
    json_out: JsonOut = False,
) -> None:
    """One round card by card: round --index of `rikken play --seed S` (same options), or a PBN deal.

    Shows the deal, the auction bid by bid, trump and call, the 13 tricks (leader, cards, winner, the
    declaring side's running count against what the contract needs) and each seat's scores.
    """
    policies = policies_from_options(policy or Policy.heuristic, declarer_policy, defender_policy,
                                     seat_policies, policy_given=policy is not None)
    auction = bidding_params(bidding, seat_bidding, bidding_margin)
    constraints = {key: list(values) for key, values in zip(CONSTRAINT_OPTIONS, (hand, cards, hcp, aces, length))
                   if values}
    if deal is not None:
        if index is not None:
            raise InputError("give either --seed S --index I (a round of rikken play) or a PBN deal, not both")
        if dealing is not None or chunk_size is not None or constraints:
            raise InputError("--dealing, --chunk-size and deal constraints describe a rikken play run: they go "
                             "with --seed S --index I, not with a PBN deal")
        hands = parse_deal(deal)
        result = replay_deal(hands, parse_seat(dealer) if dealer is not None else 0, seed or 0, policies, auction)
    else:
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
        result = replay_run_round(seed, index, policies, dealing_name, chunk_size, constraints or None, auction)
    payload = replay_payload(result)
    typer.echo(json_dumps(payload) if json_out else "\n".join(text_lines(payload)))


def text_lines(payload: dict) -> list[str]:
    """The replay payload (``replay.replay_payload``) as text lines."""
    lines = [_title(payload["source"]), f"Dealer {payload['dealer']}, {payload['leader']} bids first and leads.",
             "Deal:"]
    lines += [f"  {seat}  {payload['deal'][seat]}" for seat in SEAT_LETTERS]
    lines.append(f"  PBN {payload['deal']['pbn']}")
    lines.append("Auction: " + ", ".join(f"{b['seat']} {b['bid']}" for b in payload["auction"]))
    if payload["passed_out"]:
        lines.append("Passed out: all four passed, nothing is played and every seat scores 0.")
        return lines
    lines += _setup_lines(payload)
    lines.append("Policies: " + ", ".join(f"{seat} {name}" for seat, name in payload["policies"].items()))
    needs = {c["seat"]: c["needs"] for c in payload["contracts"]}
    sides = {c["seat"]: "+".join(c["side"]) for c in payload["contracts"]}
    for trick in payload["tricks"]:
        cards = "  ".join(f"{c['seat']} {'face down ' + c['card'] if c['face_down'] else c['card']}"
                          for c in trick["cards"])
        counts = ", ".join(f"{sides[seat]} {n} (need {needs[seat]})" for seat, n in trick["side_tricks"].items())
        lines.append(f"  {trick['number']:>2}. {trick['leader']} leads: {cards}  -> {trick['winner']} wins; {counts}")
    for c in payload["contracts"]:
        lines.append(f"Result: {c['seat']} {c['contract']} {'made' if c['made'] else 'failed'}: "
                     f"{'+'.join(c['side'])} took {c['side_tricks']}, needed {c['needs']}.")
    lines.append("Scores: " + "; ".join(f"{seat} {s['tricks']} tricks, points {s['points']:+d}, money {s['money']:+d}"
                                        for seat, s in payload["scores"].items()))
    return lines


def _title(source: dict) -> str:
    if "deal" in source:
        return f"Rikken replay of a given deal, {source['policies']}, {source['bidding']}, seed {source['seed']}"
    extra = f", constraints {source['constraints']}" if "constraints" in source else ""
    return (f"Rikken replay: round {source['index']:,} of rikken play --seed {source['seed']} (chunk "
            f"{source['chunk']:,} of {source['chunk_size']:,} rounds), {source['policies']}, {source['bidding']}, dealing "
            f"{source['dealing']}{extra}")


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
