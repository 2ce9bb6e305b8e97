"""Rikken rule tables (docs/rules.md section 1), as data that Python code and kernels share.

Contracts are numbered 0..15 in auction order. Each table below is indexed by contract id, so a
kernel receives the same facts as int64 arrays instead of reading Python objects.
"""

from enum import IntEnum

import numpy as np

from analyzer.cards.tricks import NO_TRUMP  # noqa: F401 (Rikken code reads rules.NO_TRUMP)
from analyzer.errors import InputError


class Contract(IntEnum):
    """Contract ids, lowest level first."""

    RIK = 0
    RIK_BETER = 1
    ALONE_8 = 2
    MISERY = 3
    ONE_ALONE = 4
    ALONE_9 = 5
    ALONE_10 = 6
    ALONE_11 = 7
    ALONE_12 = 8
    OPEN_MISERY = 9
    OPEN_ONE_ALONE = 10
    TROELA = 11
    OPEN_MISERY_ALL = 12
    OPEN_ONE_ALONE_ALL = 13
    ALONE_13 = 14
    OPEN_ALONE_13 = 15


class Kind(IntEnum):
    """How a contract is won: a trick target, no tricks, or exactly one trick."""

    TRICKS = 0
    MISERY = 1
    ONE = 2


class Side(IntEnum):
    """Who plays with the bidder."""

    CALLED = 0  # the holder of the called ace (or king)
    ALONE = 1
    TROELA = 2  # the holder of the fourth ace


class TrumpRule(IntEnum):
    """Who sets trumps."""

    BIDDER = 0
    HEARTS = 1
    PARTNER = 2  # Troela: the partner names any suit except that of his own ace
    NONE = 3


class Exposure(IntEnum):
    """What is shown after trick 1."""

    CLOSED = 0
    BIDDER = 1  # the bidder's hand
    ALL = 2  # all four hands; the defenders play as one mind


N_CONTRACTS = 16
N_LEVELS = 13

# name, CLI name, level, kind, side, trump rule, target tricks, base points P, exposure
_TABLE = [
    ("Rik", "rik", 1, Kind.TRICKS, Side.CALLED, TrumpRule.BIDDER, 8, 1, Exposure.CLOSED),
    ("Rik Beter", "rik-beter", 2, Kind.TRICKS, Side.CALLED, TrumpRule.HEARTS, 8, 1, Exposure.CLOSED),
    ("8 Alone", "8-alone", 3, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 8, 1, Exposure.CLOSED),
    ("Misery", "misery", 4, Kind.MISERY, Side.ALONE, TrumpRule.NONE, 0, 5, Exposure.CLOSED),
    ("1 Alone", "1-alone", 4, Kind.ONE, Side.ALONE, TrumpRule.NONE, 1, 5, Exposure.CLOSED),
    ("9 Alone", "9-alone", 5, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 9, 1, Exposure.CLOSED),
    ("10 Alone", "10-alone", 6, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 10, 1, Exposure.CLOSED),
    ("11 Alone", "11-alone", 7, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 11, 1, Exposure.CLOSED),
    ("12 Alone", "12-alone", 8, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 12, 1, Exposure.CLOSED),
    ("Open Misery", "open-misery", 9, Kind.MISERY, Side.ALONE, TrumpRule.NONE, 0, 10, Exposure.BIDDER),
    ("Open 1 Alone", "open-1-alone", 9, Kind.ONE, Side.ALONE, TrumpRule.NONE, 1, 10, Exposure.BIDDER),
    ("Troela", "troela", 10, Kind.TRICKS, Side.TROELA, TrumpRule.PARTNER, 8, 2, Exposure.CLOSED),
    ("Open Misery All", "open-misery-all", 11, Kind.MISERY, Side.ALONE, TrumpRule.NONE, 0, 15, Exposure.ALL),
    ("Open 1 Alone All", "open-1-alone-all", 11, Kind.ONE, Side.ALONE, TrumpRule.NONE, 1, 15, Exposure.ALL),
    ("13 Alone", "13-alone", 12, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 13, 15, Exposure.CLOSED),
    ("Open 13 Alone", "open-13-alone", 13, Kind.TRICKS, Side.ALONE, TrumpRule.BIDDER, 13, 20, Exposure.BIDDER),
]

CONTRACT_NAMES = tuple(row[0] for row in _TABLE)
CONTRACT_CLI_NAMES = tuple(row[1] for row in _TABLE)
LEVEL = np.array([row[2] for row in _TABLE], dtype=np.int64)
KIND = np.array([row[3] for row in _TABLE], dtype=np.int64)
SIDE = np.array([row[4] for row in _TABLE], dtype=np.int64)
TRUMP_RULE = np.array([row[5] for row in _TABLE], dtype=np.int64)
TARGET = np.array([row[6] for row in _TABLE], dtype=np.int64)
BASE_POINTS = np.array([row[7] for row in _TABLE], dtype=np.int64)
EXPOSURE = np.array([row[8] for row in _TABLE], dtype=np.int64)
# Overtricks score only in trick contracts below 13 (13 Alone cannot overtake).
OVERTRICKS_SCORE = np.array([row[3] == Kind.TRICKS and row[6] < 13 for row in _TABLE], dtype=np.int64)
# Levels at which a player may join the standing bid instead of outbidding it.
JOINABLE_LEVELS = (4, 9, 11)
TROELA_LEVEL = 10


class ScoringMode(IntEnum):
    """Scoring variant: ``points`` (default, the seed) or zero-sum ``money``."""

    POINTS = 0
    MONEY = 1


class DealingModel(IntEnum):
    """Dealing variant: uniform ``random`` (default) or traditional ``packets`` (gather, cut, 6+7)."""

    RANDOM = 0
    PACKETS = 1


def parse_contract(text: str) -> Contract:
    """Parse a contract by its CLI name (``rik``, ``9-alone``, ``open-misery-all`` ...) or display name."""
    key = text.strip().lower().replace(" ", "-").replace("_", "-")
    for contract, (name, cli_name, *_rest) in zip(Contract, _TABLE):
        if key in (cli_name, name.lower().replace(" ", "-")):
            return contract
    raise InputError(f"unknown contract {text!r}: use one of {', '.join(CONTRACT_CLI_NAMES)}")


def contract_value(contract: int, tricks: int) -> tuple[bool, int]:
    """Return (made, V) for the declaring side's trick count: V = P when made, P + undertricks when failed.

    P includes one point per overtrick where the table allows it. Misery and 1 Alone have no
    undertricks: they are worth their base either way.
    """
    kind = KIND[contract]
    base = int(BASE_POINTS[contract])
    target = int(TARGET[contract])
    if kind == Kind.MISERY:
        return tricks == 0, base
    if kind == Kind.ONE:
        return tricks == 1, base
    if tricks >= target:
        return True, base + (tricks - target) * int(OVERTRICKS_SCORE[contract])
    return False, base + (target - tricks)
