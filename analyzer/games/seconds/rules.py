"""Sloppy Seconds rules as data: deck reduction, variants, card values (docs/rules.md section 3).

Readings settled here (the rules leave them open or the seed document is terse; docs/rules.md collects them):

* Player counts are 2..8: the kernels' arrays are sized for them. The rule (remove 2s until the deck divides)
  also allows 10, 12, 13, 16, 17, 24-26 and 48-52 players; every other count above 8 would need more than
  four 2s removed (docs/rules.md).
* Trump variant ``seed``: on trick 1 (index 0) a card off the led suit sets nothing; from trick 2 on,
  the first off-suit card makes its suit trump at once and for the rest of the deal.
* Trump variant ``original``: every off-suit card "breaks" its suit, trick 1 included; the first suit
  broken is only remembered; the first card of a *different* suit played off-suit makes that suit trump.
  Replaying the first broken suit off-suit changes nothing.
* In both variants the trump counts from the card that sets it, so that card can win its own trick.
  No earlier card of the same trick can be of the new trump suit, so judging the whole trick with the
  trump as it stands at the end of the trick is the same thing.
* Per-suit ranking: the highest total scores 0 (all tied players), the second-highest *distinct* total
  scores that total (all tied players), lower totals score 0. If every player has the same total there
  is no second and all score 0. Minimum ``per-suit``: a suit total below 5 scores 5 for that suit
  whatever its rank. Minimum ``per-hand``: a deal score (sum over suits) below 5 becomes 5.
* Dealing: after the 2s are removed, the cards are shuffled and dealt equally; dealing one card at a
  time or in packets from a uniform shuffle gives the same distribution of hands.
* Game: the first dealer of game ``g`` is seat ``g mod n`` (so seats share the first lead over many
  games); the dealer rotates clockwise after every deal, the player left of the dealer leads. A game ends
  after the first deal at which some total reaches the target (``>=``) *and* the highest total is held
  by one player only; that player wins. While the top is tied, deals continue.
"""

from dataclasses import dataclass

from analyzer.cards.deck import N_CARDS, card_id
from analyzer.errors import InputError

MIN_PLAYERS = 2
MAX_PLAYERS = 8
N_SUITS = 4
MINIMUM_SCORE = 5

TRUMP_VARIANTS = ("seed", "original")
MINIMUM_VARIANTS = ("per-suit", "per-hand")
TRUMP_SEED = 0
TRUMP_ORIGINAL = 1
MINIMUM_PER_SUIT = 0
MINIMUM_PER_HAND = 1

DEFAULT_TARGET = 1000
ORIGINAL_TARGET = 300

# Scoring value by rank index 0..12 (2..A): face value for 2..10, J 11, Q 12, K 13, A 1.
_RANK_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1)


def __getattr__(name: str):
    # CARD_VALUES (the value of each of the 52 card ids, suit-major, handed to kernels) is an int64 array
    # built on first use, so that the command's help imports no numpy.
    if name == "CARD_VALUES":
        import numpy as np

        value = np.tile(np.array(_RANK_VALUES, dtype=np.int64), N_SUITS)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# 2s are removed in this order (clubs, diamonds, hearts, spades) until the deck divides.
_TWOS_IN_REMOVAL_ORDER = tuple(card_id(suit, 0) for suit in range(N_SUITS))


def removed_cards(n_players: int) -> list[int]:
    """Return the card ids taken out of the deck for ``n_players`` (2s, clubs first).

    Parameters
    ----------
    n_players : int
        Number of players, 2..8.

    Returns
    -------
    list of int
        The removed 2s, e.g. ``[0]`` (C2) for three players, ``[]`` for four.
    """
    check_players(n_players)
    return list(_TWOS_IN_REMOVAL_ORDER[: N_CARDS % n_players])


def deck_mask(n_players: int) -> int:
    """Return the bit mask of the cards dealt to ``n_players`` players."""
    mask = (1 << N_CARDS) - 1
    for card in removed_cards(n_players):
        mask &= ~(1 << card)
    return mask


def hand_size(n_players: int) -> int:
    """Return the number of cards each of ``n_players`` players is dealt."""
    return (N_CARDS - len(removed_cards(n_players))) // n_players


def check_players(n_players: int) -> None:
    """Raise ``InputError`` unless ``n_players`` is 2..8."""
    if not MIN_PLAYERS <= int(n_players) <= MAX_PLAYERS:
        raise InputError(f"this analyzer plays Sloppy Seconds with {MIN_PLAYERS} to {MAX_PLAYERS} players, got "
                         f"{n_players} (the rules also allow 10, 12, 13, 16, 17, 24-26 and 48-52; see docs/rules.md)")


def parse_trump_variant(name: str) -> int:
    """Map a trump variant name (``seed`` or ``original``) to its kernel id."""
    try:
        return TRUMP_VARIANTS.index(name.strip().lower())
    except ValueError:
        raise InputError(f"unknown trump variant {name!r}: use one of {', '.join(TRUMP_VARIANTS)}") from None


def parse_minimum_variant(name: str) -> int:
    """Map a minimum variant name (``per-suit`` or ``per-hand``) to its kernel id."""
    try:
        return MINIMUM_VARIANTS.index(name.strip().lower())
    except ValueError:
        raise InputError(f"unknown minimum variant {name!r}: use one of {', '.join(MINIMUM_VARIANTS)}") from None


@dataclass(frozen=True)
class SecondsRules:
    """One rule set: player count, trump and minimum variants, game target.

    Parameters
    ----------
    n_players : int
        Number of players, 2..8.
    trump : str
        ``seed`` (default) or ``original``.
    minimum : str
        ``per-suit`` (default) or ``per-hand``.
    target : int
        Game target score (default 1000).
    """

    n_players: int = 4
    trump: str = "seed"
    minimum: str = "per-suit"
    target: int = DEFAULT_TARGET

    def __post_init__(self):
        check_players(self.n_players)
        parse_trump_variant(self.trump)
        parse_minimum_variant(self.minimum)
        if int(self.target) < 1:
            raise InputError(f"the game target must be a positive score, got {self.target}")

    @property
    def trump_id(self) -> int:
        """Kernel id of the trump variant."""
        return parse_trump_variant(self.trump)

    @property
    def minimum_id(self) -> int:
        """Kernel id of the minimum variant."""
        return parse_minimum_variant(self.minimum)

    @property
    def deck(self) -> int:
        """Mask of the cards in play."""
        return deck_mask(self.n_players)

    @property
    def hand_size(self) -> int:
        """Cards per player."""
        return hand_size(self.n_players)

    def as_dict(self) -> dict:
        """Plain dict for manifests and JSON output."""
        return {
            "n_players": self.n_players,
            "trump": self.trump,
            "minimum": self.minimum,
            "target": int(self.target),
            "removed": [int(c) for c in removed_cards(self.n_players)],
        }

