"""The one double-dummy question ``rikken solve`` is asked on its command line, as typed: the trump (strain),
the declaring side, the goal and the called card, parsed and checked without the solver, so that a bad
option is rejected before the solver's first compile."""

from analyzer.cards.deck import N_RANKS, SUIT_LETTERS, card_id, card_name
from analyzer.cards.pbn import SEAT_LETTERS, parse_seat
from analyzer.cards.tricks import NO_TRUMP
from analyzer.errors import InputError
from analyzer.games.rikken.calling import call_candidates

ACE = 12
KING = 11
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
    """Cards the bidder may call under ``trump`` as (card, blind), following docs/rules.md section 1."""
    held, void = call_candidates(hand, trump)
    aces = sum(int(hand) >> card_id(s, ACE) & 1 for s in range(4))
    rank = KING if aces == 4 else ACE
    if held:
        return [(card_id(s, rank), False) for s in held]
    return [(card_id(s, rank), True) for s in void]


def check_call(hands, trump: int, team: int, called_card: int, blind: bool) -> None:
    """Reject a call no Rik or Rik Beter bidder could have made (docs/rules.md section 1, "The call").

    The declaring side is the bidder and the holder of the called card, an ace (a king when the bidder
    holds all four aces) not of the trump suit and not the bidder's own. With 13-card hands the call
    must be one ``calls_for`` gives the bidder, blind or not as ``blind`` says; in an ending the card
    may already be played, and only what the remaining cards show is checked.

    Raises
    ------
    InputError
        Naming the card and why it cannot be called.
    """
    name = card_name(called_card)
    if trump == NO_TRUMP:
        raise InputError(f"cannot call {name} at no trump: only Rik and Rik Beter call a card, with a trump suit")
    if called_card // N_RANKS == trump:
        raise InputError(f"cannot call {name}: the called card may not be of the trump suit")
    if called_card % N_RANKS not in (ACE, KING):
        raise InputError(f"cannot call {name}: the bidder calls an ace (a king when he holds all four aces)")
    members = [s for s in range(4) if team >> s & 1]
    holder = card_holder(hands, called_card)
    if members == [holder]:
        raise InputError(f"cannot call {name}: {SEAT_LETTERS[holder]} holds it, and a bidder never calls his own card")
    if len(members) != 2:
        raise InputError(f"cannot call {name} with team {team_name(team)}: the side is the bidder and the "
                         "card's holder, two seats")
    if holder < 0:
        return
    if holder not in members:
        raise InputError(f"cannot call {name} with team {team_name(team)}: {SEAT_LETTERS[holder]} holds it "
                         "and so is the bidder's partner")
    bidder = members[0] if members[1] == holder else members[1]
    hand = int(hands[bidder])
    callable_cards = calls_for(hand, trump)
    if bin(hand).count("1") == 13 and (called_card, blind) not in callable_cards:
        allowed = ", ".join(card_name(c) + (" (blind)" if b else "") for c, b in callable_cards) or "none"
        raise InputError(f"{SEAT_LETTERS[bidder]} cannot call {name}{' blind' if blind else ''} with "
                         f"{STRAIN_LETTERS[trump]} trumps; callable: {allowed}")


def team_name(mask: int) -> str:
    """The seat letters of a team mask.

    Parameters
    ----------
    mask : int
        Bit ``s`` set for each seat ``s`` (0-3, N E S W) of the team.

    Returns
    -------
    str
        The team's seat letters in seat order, e.g. ``"NS"`` for ``0b0101``.
    """
    return "".join(SEAT_LETTERS[s] for s in range(4) if mask >> s & 1)


def card_holder(hands, card: int) -> int:
    """The seat holding ``card``.

    Parameters
    ----------
    hands : sequence of int
        The four seats' card masks.
    card : int
        The card's index.

    Returns
    -------
    int
        The seat holding ``card``, or -1 when it is no longer in a hand (an ending).
    """
    return next((s for s in range(4) if int(hands[s]) >> card & 1), -1)
