"""Plain-Python brute-force reference for the double-dummy solver (small endings only).

Written straight from docs/rules.md section 1 with no pruning and no shared code: every legal card of
every hand is tried and the question "can the team force its final count into [lo, hi]" is
answered by plain AND/OR minimax.  Memoised on the full position, which keeps 4-5 card endings fast
without changing what is computed.

Cards are ints ``suit * 13 + rank``; hands are tuples of sorted card ids per seat (N E S W).
"""

from functools import lru_cache


def _suit(card):
    return card // 13


class Rules:
    """The fixed facts of one question: trump (4 = none), team seats, called card, blind bidder."""

    def __init__(self, trump, team_seats, called_card=-1, blind_bidder=-1):
        self.trump = trump
        self.team = frozenset(team_seats)
        self.called = called_card
        self.blind_bidder = blind_bidder

    def plays(self, hands, seat, trick):
        """Legal plays of ``seat`` as (card, face_down) pairs, given the trick so far.

        ``trick`` is a tuple of (seat, card, face_down).
        """
        hand = hands[seat]
        holds_called = self.called in hand
        if not trick:
            result = []
            for card in hand:
                # Whoever holds the called card and leads its suit must lead the called card itself.
                if holds_called and _suit(card) == _suit(self.called) and card != self.called:
                    continue
                result.append((card, False))
            out = any(self.called in h for h in hands)
            void_in_called = all(_suit(c) != _suit(self.called) for c in hand)
            if seat == self.blind_bidder and self.called >= 0 and out and void_in_called:
                result += [(card, True) for card in hand]
            return result
        first_seat, first_card, first_down = trick[0]
        led = _suit(self.called) if first_down else _suit(first_card)
        if holds_called and led == _suit(self.called):
            return [(self.called, False)]
        follow = [c for c in hand if _suit(c) == led]
        return [(c, False) for c in (follow or hand)]

    def winner(self, trick):
        """Seat winning a complete trick: highest trump, else highest card of the led suit.

        A face-down lead counts as the called suit and never wins.
        """
        first_seat, first_card, first_down = trick[0]
        led = _suit(self.called) if first_down else _suit(first_card)
        contenders = [(seat, card) for seat, card, down in trick if not down]
        trumps = [(card, seat) for seat, card in contenders if _suit(card) == self.trump]
        if trumps:
            return max(trumps)[1]
        followers = [(card, seat) for seat, card in contenders if _suit(card) == led]
        return max(followers)[1]


def can_force(rules, hands, leader, lo, hi, trick=()):
    """Whether the team can make its trick count from here (this trick included) land in [lo, hi].

    ``hands``: 4 tuples of cards; ``leader``: seat to play next; ``trick``: (seat, card, face_down)
    triples already played to the current trick.
    """

    @lru_cache(maxsize=None)
    def go(hands, to_play, trick, won):
        if all(len(h) == 0 for h in hands) and not trick:
            return lo <= won <= hi
        team_moves = to_play in rules.team
        results = []
        for card, down in rules.plays(hands, to_play, trick):
            new_hands = list(hands)
            new_hands[to_play] = tuple(c for c in hands[to_play] if c != card)
            new_hands = tuple(new_hands)
            new_trick = trick + ((to_play, card, down),)
            if len(new_trick) == 4:
                taker = rules.winner(new_trick)
                results.append(go(new_hands, taker, (), won + (taker in rules.team)))
            else:
                results.append(go(new_hands, (to_play + 1) % 4, new_trick, won))
        return any(results) if team_moves else all(results)

    return go(tuple(tuple(sorted(h)) for h in hands), leader, tuple(trick), 0)


def max_tricks(rules, hands, leader, trick=()):
    """Most tricks (from here) the team can guarantee when it plays to win tricks."""
    total = max(len(h) for h in hands)
    best = 0
    for target in range(1, total + 1):
        if can_force(rules, hands, leader, target, 99, trick):
            best = target
    return best
