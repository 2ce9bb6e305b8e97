"""What one double-dummy trick count of a deal proves about another: bounds shared among the questions
of one deal, so a later count starts from them instead of searching for them.

Every count here is a side's guaranteed tricks (the side maximises, the others minimise) from the same
position: the same hands, trump and seat on lead, at a trick boundary. A side's question may carry a
Rikken call (the called card's holder must play it when its suit is first led, and lead it when leading
that suit) and a blind call (the bidder may lead face down, which binds the others to follow the called
suit). Two rules, each a strategy-stealing argument on one play that both sides' guarantees cover:

- **Disjoint sides** ``A`` and ``B``, neither call blind, each called card held inside its own side (or no
  call): ``count(A) + count(B) <= tricks left``. A call only forbids plays of its own side, so when ``A``
  plays the strategy that guarantees ``count(A)`` in its game and ``B`` the one that guarantees
  ``count(B)`` in its game, every card ``B`` plays is a legal card of a non-member in ``A``'s game and
  the other way round: the one play those two strategies make (whatever the other seats do) is covered
  by both guarantees, so ``A`` takes ``count(A)`` tricks and ``B``, in the same play, ``count(B)`` others.
  A blind lead is left out: it binds the other seats to follow the called suit, which is no legal play
  of theirs in the other side's game.
- **A lone seat inside a side**: ``A = {s}`` without a call, ``B`` any side holding ``s`` whose called
  card (if any) is held inside ``B`` by a seat other than ``s``: ``count(A) <= count(B)``. ``s`` plays its
  lone strategy in ``B``'s game, where that strategy is legal (the call binds another seat; the blind
  lead is ``s``'s own option, which it does not use, so no trick is led face down) and every other seat's
  plays are legal plays of ``A``'s game, so ``s`` alone takes ``count(A)`` of ``B``'s tricks.

Each rule holds for proved intervals as well as for exact counts: with ``low <= count <= high`` known of
one side, the rules give ``count(A) <= left - low(B)``, ``count(B) >= low(A)`` and ``count(A) <= high(B)``.
"""

from typing import NamedTuple


class Side(NamedTuple):
    """One side's count question: its seat mask, called card (-1: none) and whether the call is blind."""

    team: int
    called_card: int = -1
    blind: bool = False


class KnownCounts:
    """The bounds proved so far on a deal's counts, per trump, and the bounds they imply on another count.

    Parameters
    ----------
    hands : array_like of 4 int64
        Seat masks at the position every count starts from (a trick boundary, one seat on lead).
    """

    def __init__(self, hands):
        self._hands = [int(h) for h in hands]
        self.left = max(h.bit_count() for h in self._hands)
        self._known = {}

    def _holder(self, card: int) -> int:
        return next((s for s in range(4) if card >= 0 and self._hands[s] >> card & 1), -1)

    def _call_inside(self, side: Side) -> bool:
        """No call, a call already played, or a called card held inside the side."""
        holder = self._holder(side.called_card)
        return holder < 0 or bool(side.team >> holder & 1)

    def add(self, trump: int, side: Side, low: int, high: int) -> None:
        """Record ``low <= count <= high`` for ``side`` under ``trump``."""
        self._known.setdefault(int(trump), []).append((side, int(low), int(high)))

    def bounds(self, trump: int, side: Side) -> tuple[int, int]:
        """``(low, high)`` on ``side``'s count under ``trump`` implied by the recorded counts (see the module notes)."""
        low, high = 0, self.left
        if not self._call_inside(side):
            return low, high
        lone = side.team.bit_count() == 1 and side.called_card < 0 and not side.blind
        for other, other_low, other_high in self._known.get(int(trump), []):
            if not self._call_inside(other):
                continue
            if not side.team & other.team:
                if not side.blind and not other.blind:
                    high = min(high, self.left - other_low)
            elif lone and other.team & side.team == side.team and self._holder(other.called_card) != _seat(side.team):
                high = min(high, other_high)
            elif (other.team.bit_count() == 1 and other.called_card < 0 and not other.blind
                  and side.team & other.team == other.team and self._holder(side.called_card) != _seat(other.team)):
                low = max(low, other_low)
        return low, high


def _seat(team: int) -> int:
    return team.bit_length() - 1
