"""Plain-Python Sloppy Seconds: a slow, readable twin of the kernels, used by tests and exploration.

Everything here works on Python ints and lists. Randomness goes through the same kernel PRNG
(``analyzer.cards.rng``) and is drawn in the same order as in the kernels, so a seeded game played here
and in ``kernels``/``play`` must come out card for card the same.
"""

import copy

from analyzer.cards.rng import bounded
from analyzer.games.seconds.policies import (
    BELOW_WEIGHT,
    MAX_TRIES,
    N_SAMPLES,
    P_SURE,
    P_TOP,
    P_UNSURE,
    RANK_WEIGHT,
    SUIT_FLOOR,
    TOP_PENALTY,
    TRUMP_LENGTH_BONUS,
)
from analyzer.games.seconds.rules import (
    CARD_VALUES,
    MINIMUM_PER_SUIT,
    MINIMUM_SCORE,
    N_SUITS,
    TRUMP_SEED,
)

SUIT_SIZE = 13


def suit_of(card: int) -> int:
    """Suit index 0..3 of a card id."""
    return card // SUIT_SIZE


def rank_of(card: int) -> int:
    """Rank index 0..12 of a card id."""
    return card % SUIT_SIZE


def cards_in(mask: int) -> list[int]:
    """Card ids in ``mask``, lowest first."""
    return [c for c in range(52) if mask >> c & 1]


def score_suit(points: list[int], minimum: int) -> list[int]:
    """Score one suit from the points each player took in it (ranking rule plus per-suit floor).

    Parameters
    ----------
    points : list of int
        Points taken in the suit, one per player.
    minimum : int
        ``MINIMUM_PER_SUIT`` applies the floor of 5 here; otherwise no floor.
    """
    distinct = sorted(set(points), reverse=True)
    second = distinct[1] if len(distinct) > 1 else None
    scores = [p if p == second else 0 for p in points]
    if minimum == MINIMUM_PER_SUIT:
        scores = [MINIMUM_SCORE if p < MINIMUM_SCORE else s for p, s in zip(points, scores)]
    return scores


def score_deal(taken: list[list[int]], minimum: int) -> list[int]:
    """Deal scores from ``taken[player][suit]`` points, with either minimum variant."""
    n = len(taken)
    totals = [0] * n
    for suit in range(N_SUITS):
        for player, score in enumerate(score_suit([taken[p][suit] for p in range(n)], minimum)):
            totals[player] += score
    if minimum != MINIMUM_PER_SUIT:
        totals = [max(total, MINIMUM_SCORE) for total in totals]
    return totals


class DealState:
    """One deal in progress.

    Parameters
    ----------
    hands : list of int
        Hand masks, seat 0..n-1.
    leader : int
        Seat that leads trick 1 (left of the dealer).
    trump_variant : int
        ``TRUMP_SEED`` or ``TRUMP_ORIGINAL``.
    """

    def __init__(self, hands, leader, trump_variant):
        self.n = len(hands)
        self.hands = [int(h) for h in hands]
        self.leader = leader
        self.trump_variant = trump_variant
        self.trick: list[int] = []
        self.trick_index = 0
        self.trump = -1
        self.first_broken = -1
        self.trump_trick = -1
        self.played = 0
        self.voids = [0] * self.n
        self.taken = [[0] * N_SUITS for _ in range(self.n)]
        self.history: list[int] = []

    @property
    def to_play(self) -> int:
        """Seat whose turn it is."""
        return (self.leader + len(self.trick)) % self.n

    @property
    def done(self) -> bool:
        """True once every card has been played."""
        return not any(self.hands)

    @property
    def led_suit(self) -> int:
        """Suit led to the current trick, or -1 before the lead."""
        return suit_of(self.trick[0]) if self.trick else -1

    def legal(self) -> list[int]:
        """Legal cards for the seat to play, lowest id first: follow suit if able."""
        hand = cards_in(self.hands[self.to_play])
        follow = [c for c in hand if suit_of(c) == self.led_suit]
        return follow if follow else hand

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play; settle the trick when it is complete."""
        seat = self.to_play
        if card not in self.legal():
            raise ValueError(f"card {card} is not legal for seat {seat}")
        if self.trick and suit_of(card) != self.led_suit:
            self.voids[seat] |= 1 << self.led_suit
            self._off_suit(card)
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick.append(card)
        self.history.append(card)
        if len(self.trick) == self.n:
            winner = (self.leader + self.trick_winner_position()) % self.n
            for c in self.trick:
                self.taken[winner][suit_of(c)] += int(CARD_VALUES[c])
            self.leader = winner
            self.trick = []
            self.trick_index += 1

    def trump_if_played(self, card: int) -> int:
        """Trump suit in force once the seat to play plays ``card`` (readings in ``rules.py``)."""
        suit = suit_of(card)
        if self.trump >= 0 or not self.trick or suit == self.led_suit:
            return self.trump
        if self.trump_variant == TRUMP_SEED:
            return suit if self.trick_index >= 1 else -1
        return suit if self.first_broken >= 0 and suit != self.first_broken else -1

    def _off_suit(self, card: int) -> None:
        if self.trump >= 0:
            return
        trump = self.trump_if_played(card)
        if trump >= 0:
            self.trump = trump
            self.trump_trick = self.trick_index
        elif self.trump_variant != TRUMP_SEED and self.first_broken < 0:
            self.first_broken = suit_of(card)

    def trick_winner_position(self) -> int:
        """Position in the trick (0 = leader) of the card winning it so far."""
        return winning_position(self.trick, self.trump)

    def copy(self) -> "DealState":
        """An independent copy of this state."""
        other = copy.copy(self)
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.voids = list(self.voids)
        other.taken = [list(row) for row in self.taken]
        other.history = list(self.history)
        return other

    def scores(self, minimum: int) -> list[int]:
        """Deal scores from the points taken so far."""
        return score_deal(self.taken, minimum)


def beats(card: int, best: int, trump: int) -> bool:
    """True if ``card`` beats ``best``, the card winning the trick so far."""
    if suit_of(card) == suit_of(best):
        return rank_of(card) > rank_of(best)
    return suit_of(card) == trump


def winning_position(trick: list[int], trump: int) -> int:
    """Position (0 = lead) of the card winning ``trick`` with ``trump`` (-1: none)."""
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def random_choice(state: DealState, rng) -> int:
    """The random policy: a uniform legal card, drawn as in the kernel (index into ascending ids)."""
    legal = state.legal()
    return legal[int(bounded(rng, len(legal)))]


def play_deal(hands, leader, trump_variant, choose, rng) -> DealState:
    """Play a whole deal, asking ``choose(state, rng)`` for every card; return the final state."""
    state = DealState(hands, leader, trump_variant)
    while not state.done:
        state.play(choose(state, rng))
    return state



def suit_potential(taken, suit, me, add_seat, add_points, minimum, params) -> float:
    """Twin of ``policies.potential_if_i_take`` / ``potential_if_other_takes``: heuristic value of ``suit``
    for ``me`` once ``add_seat`` takes ``add_points`` more (the per-suit floor counts only with ``suit_floor``)."""
    totals = [row[suit] + (add_points if p == add_seat else 0) for p, row in enumerate(taken)]
    mine = totals[me]
    max_other = max(v for p, v in enumerate(totals) if p != me)
    below_top = [v for v in totals if v < max(totals)]
    second = max(below_top) if below_top else -1
    if minimum == MINIMUM_PER_SUIT and params[SUIT_FLOOR] != 0.0 and mine < MINIMUM_SCORE:
        value = float(MINIMUM_SCORE)
    else:
        value = float(mine) if mine == second else 0.0
    if mine > max_other:
        value -= params[TOP_PENALTY] * (mine - max_other)
    elif mine < second:
        value += params[BELOW_WEIGHT] * mine
    return value


def heuristic_candidates(state: DealState) -> list[tuple[int, str, int]]:
    """The heuristic's candidates for the seat to play: the lowest and the highest legal card of each (suit,
    outcome class).

    Returns ``(card, outcome, taker)`` tuples, lowest card first. Outcome classes, as in
    ``policies.outcome_classes``: ``"losing"`` (cannot take the lead of the trick; ``taker`` is the seat
    winning it so far), ``"unsure"`` (takes the lead, but an unseen card of the suit is higher) and
    ``"sure"`` (takes the lead and nothing unseen beats it: above the unseen cards of its suit, or last);
    for the last two ``taker`` is the seat to play.
    """
    seat = state.to_play
    hidden = [c for p in range(state.n) if p != seat for c in cards_in(state.hands[p])]
    last = len(state.trick) == state.n - 1
    chosen = {}
    for card in state.legal():
        suit = suit_of(card)
        trump = state.trump_if_played(card)
        if not state.trick:
            winning, taker = True, seat
        else:
            w = winning_position(state.trick, trump)
            winning = beats(card, state.trick[w], trump)
            taker = seat if winning else (state.leader + w) % state.n
        if not winning:
            outcome = "losing"
        elif last or not [c for c in hidden if suit_of(c) == suit and c > card]:
            outcome = "sure"
        else:
            outcome = "unsure"
        # Legal cards come lowest first: the first and the last card seen in a class are its ends.
        chosen.setdefault((suit, outcome), []).append((card, outcome, taker))
    return sorted({ends for members in chosen.values() for ends in (members[0], members[-1])})


def heuristic_choice(state: DealState, minimum: int, params) -> int:
    """Twin of ``policies.choose_heuristic`` (see that module's docstring for the idea)."""
    seat = state.to_play
    candidates = heuristic_candidates(state)
    if len(candidates) == 1:
        return candidates[0][0]
    last = len(state.trick) == state.n - 1

    def chance(card, outcome):
        if outcome == "losing":
            return None
        if outcome == "unsure":
            return params[P_UNSURE]
        if last:
            return 1.0
        return params[P_SURE] if suit_of(card) == state.trump_if_played(card) else params[P_TOP]

    def kind(card, outcome):
        if outcome != "sure":
            return outcome
        return "sure in trumps" if not last and suit_of(card) == state.trump_if_played(card) else "sure"

    winner = (state.leader + winning_position(state.trick, state.trump)) % state.n if state.trick else -1
    trick_points = [sum(int(CARD_VALUES[c]) for c in state.trick if suit_of(c) == s) for s in range(N_SUITS)]
    # The trick as it stands adds the same to every candidate of one kind: worked out only for mixed kinds.
    take_all = give_all = 0.0
    if len({kind(card, outcome) for card, outcome, _ in candidates}) > 1:
        for s in range(N_SUITS):
            if trick_points[s]:
                base = suit_potential(state.taken, s, seat, -1, 0, minimum, params)
                take_all += suit_potential(state.taken, s, seat, seat, trick_points[s], minimum, params) - base
                give_all += suit_potential(state.taken, s, seat, winner, trick_points[s], minimum, params) - base
    best_card, best_value = -1, -1e300
    for card, outcome, taker in candidates:
        suit = suit_of(card)
        before = suit_potential(state.taken, suit, seat, taker, trick_points[suit], minimum, params)
        after = suit_potential(state.taken, suit, seat, taker, trick_points[suit] + int(CARD_VALUES[card]), minimum,
                               params)
        bonus = 0.0
        if state.trump < 0 and state.trump_if_played(card) >= 0:
            length = len([c for c in cards_in(state.hands[seat]) if suit_of(c) == suit])
            bonus = params[TRUMP_LENGTH_BONUS] * (length - 1)
        value = params[RANK_WEIGHT] * rank_of(card) + bonus
        p_me = chance(card, outcome)
        if p_me is None:
            value += give_all + (after - before)
        else:
            value += p_me * (take_all + (after - before))
        if value > best_value:
            best_card, best_value = card, value
    return best_card


def sample_world(state: DealState, seat: int, rng, params) -> list[int]:
    """Twin of ``policies.sample_world``: hidden hands consistent with sizes and shown voids."""
    n = state.n
    cards = [c for p in range(n) if p != seat for c in cards_in(state.hands[p])]
    cards.sort()
    max_tries = int(params[MAX_TRIES])
    world = []
    for attempt in range(max_tries + 1):
        use_voids = attempt < max_tries
        for i in range(len(cards) - 1, 0, -1):
            j = int(bounded(rng, i + 1))
            cards[i], cards[j] = cards[j], cards[i]

        def may_hold(p, suit):
            return p != seat and (not use_voids or not state.voids[p] >> suit & 1)

        world = [state.hands[p] if p == seat else 0 for p in range(n)]
        need = [0 if p == seat else len(cards_in(state.hands[p])) for p in range(n)]
        ok = True
        for eligible_count in range(n):
            for card in cards:
                suit = suit_of(card)
                if sum(may_hold(p, suit) for p in range(n)) != eligible_count:
                    continue
                seats = [p for p in range(n) if may_hold(p, suit) and need[p] > 0]
                if not seats:
                    ok = False
                    break
                r = int(bounded(rng, sum(need[p] for p in seats)))
                for p in seats:
                    if r < need[p]:
                        world[p] |= 1 << card
                        need[p] -= 1
                        break
                    r -= need[p]
            if not ok:
                break
        if ok:
            return world
    return world


def sampling_choice(state: DealState, minimum: int, params, rng) -> int:
    """Twin of ``policies.choose_sampling``: best mean deal score over sampled hidden hands."""
    seat = state.to_play
    legal = state.legal()
    if len(legal) == 1:
        return legal[0]
    totals = [0.0] * len(legal)
    for _ in range(int(params[N_SAMPLES])):
        world = sample_world(state, seat, rng, params)
        for k, card in enumerate(legal):
            sim = state.copy()
            sim.hands = list(world)
            sim.play(card)
            while not sim.done:
                sim.play(heuristic_choice(sim, minimum, params))
            totals[k] += sim.scores(minimum)[seat]
    return legal[max(range(len(legal)), key=lambda k: (totals[k], -k))]
