"""``analyzer rikken solve``: double-dummy answers for a Rikken deal (a full table or one question)."""

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from analyzer.cards.deck import SUIT_LETTERS, card_id, card_name, parse_card
from analyzer.cards.pbn import SEAT_LETTERS, parse_deal, parse_seat
from analyzer.cli.options import JsonOut
from analyzer.errors import InputError
from analyzer.games.rikken.calling import call_candidates
from analyzer.solvers.dd import solve

ACE = 12
KING = 11
NO_TRUMP = 4
STRAIN_LETTERS = SUIT_LETTERS + "N"


def parse_strain(text: str) -> int:
    """Parse a trump letter ``C D H S`` or ``N`` (no trump) into 0..4."""
    index = STRAIN_LETTERS.find(text.strip().upper()) if len(text.strip()) == 1 else -1
    if index < 0:
        raise InputError(f"unknown trump {text!r}: use C, D, H, S or N")
    return index


def parse_team(text: str) -> int:
    """Parse a team as seat letters (``NS``, ``NE``, ``N``, ``ESW`` ...) into a seat mask."""
    mask = 0
    for char in text.strip():
        bit = 1 << parse_seat(char)
        if mask & bit:
            raise InputError(f"bad team {text!r}: seat {char} named twice")
        mask |= bit
    if not 0 < mask < 15:
        raise InputError(f"bad team {text!r}: name one to three seats, e.g. NS, NE or N")
    return mask


def parse_goal(text: str) -> tuple[str, int]:
    """Parse ``max`` or ``ge:K`` / ``le:K`` / ``eq:K``."""
    name, _, count = text.strip().lower().partition(":")
    if name == "max" and not count:
        return "max", 0
    if name in ("ge", "le", "eq") and count.isdigit() and 0 <= int(count) <= 13:
        return name, int(count)
    raise InputError(f"bad goal {text!r}: use max, ge:K, le:K or eq:K with K in 0..13")


def calls_for(hand: int, trump: int) -> list[tuple[int, bool]]:
    """Cards the bidder may call under ``trump`` as (card, blind), following RULES.md section 1."""
    held, void = call_candidates(hand, trump)
    aces = sum(int(hand) >> card_id(s, ACE) & 1 for s in range(4))
    rank = KING if aces == 4 else ACE
    if held:
        return [(card_id(s, rank), False) for s in held]
    return [(card_id(s, rank), True) for s in void]


def _team_name(mask: int) -> str:
    return "".join(SEAT_LETTERS[s] for s in range(4) if mask >> s & 1)


def _holder(hands, card: int) -> int:
    """Seat holding ``card``, or -1 when it is no longer in a hand (an ending)."""
    return next((s for s in range(4) if int(hands[s]) >> card & 1), -1)


def dd_table(hands, leader: int) -> list[dict]:
    """Every seat as declarer under every trump suit: tricks alone and with each callable partner,
    plus Misery (no tricks) and 1 Alone (exactly one) at no trump."""
    rows = []
    for declarer in range(4):
        alone_bit = 1 << declarer
        for trump in range(4):
            row = {"declarer": SEAT_LETTERS[declarer], "trump": STRAIN_LETTERS[trump],
                   "alone": solve(hands, trump, leader, alone_bit), "calls": {}}
            for card, blind in calls_for(int(hands[declarer]), trump):
                partner = _holder(hands, card)
                if partner < 0:
                    continue
                tricks = solve(hands, trump, leader, alone_bit | 1 << partner, called_card=card, blind_call=blind)
                row["calls"][card_name(card)] = {"partner": SEAT_LETTERS[partner], "blind": blind, "tricks": tricks}
            rows.append(row)
    return rows


def misery_table(hands, leader: int) -> list[dict]:
    """Per seat: whether Misery (0 tricks) and 1 Alone (exactly 1) are makeable at no trump."""
    return [{"declarer": SEAT_LETTERS[d],
             "misery": solve(hands, NO_TRUMP, leader, 1 << d, goal="le", k=0),
             "one_alone": solve(hands, NO_TRUMP, leader, 1 << d, goal="eq", k=1)} for d in range(4)]


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
            print(json.dumps({"leader": SEAT_LETTERS[lead], "contracts": rows, "misery": misery}))
        else:
            _print_tables(rows, misery, lead)
        return
    if trump is None or team is None:
        raise InputError("a single question needs both --trump and --team")
    strain = parse_strain(trump)
    side = parse_team(team)
    goal_name, count = parse_goal(goal)
    called_card = parse_card(called) if called is not None else -1
    answer = solve(hands, strain, lead, side, goal=goal_name, k=count, called_card=called_card, blind_call=blind)
    result = {"trump": STRAIN_LETTERS[strain], "leader": SEAT_LETTERS[lead], "team": _team_name(side), "goal": goal}
    if goal_name == "max":
        result["tricks"] = answer
        text = f"{_team_name(side)} take {answer} trick(s) with best play"
    else:
        result["makes"] = answer
        text = f"{_team_name(side)} {'can' if answer else 'cannot'} make {goal}"
    if json_out:
        print(json.dumps(result))
    else:
        print(text)
