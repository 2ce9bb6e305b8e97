"""Quick tricks (``_quick_tricks``) against the brute-force minimax: never more than the side on lead takes.

Endings of 3 cards per hand from three suits, for partners opposite and adjacent, one against
three and three against one, either side on lead, dealt for the two rules added for issue 36: at no
trump the leader and its partner share a suit's top two cards; with trumps the leader holds a run
of top trumps, long enough or not to draw the opponents'.
A partner's ruff as a sure trick (``_partner_ruffs``) is checked on random endings with trumps.
Each of the rules added for issue 36 must also fire: the quick tricks must reach the true count
in endings where only that rule can give it (past the leader's cash as counted before: with no
partner to reach, or no partner at all).
"""

from functools import lru_cache

import numpy as np

from analyzer.solvers.dd import solve
from analyzer.solvers.dd.quick_tricks import _partner_ruffs, _quick_tricks

from .reference_minimax import Rules, can_force, max_tricks

SIZE = 3
TEAMS = ((0, 2), (0, 1), (0,), (1, 2, 3))


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _lengths(hand, suit):
    return sum(1 for c in hand if c // 13 == suit)


def _cash_bound(hands, leader, side, trump):
    """At least the leader's cash as counted before the two rules: per suit its top run, or its whole
    holding once the run reaches every opponent's length; a side suit only for as many rounds as every
    opponent holding trumps can follow."""
    opponents = [s for s in range(4) if s not in side]
    ruffers = [s for s in opponents if trump < 4 and _lengths(hands[s], trump)]
    total = 0
    for suit in range(4):
        out = sorted((c for h in hands for c in h if c // 13 == suit), reverse=True)
        run = 0
        for card in out:
            if card not in hands[leader]:
                break
            run += 1
        count = run
        if run and run >= max(_lengths(hands[s], suit) for s in opponents):
            count = _lengths(hands[leader], suit)
        if suit != trump and ruffers:
            count = min([count] + [_lengths(hands[s], suit) for s in ruffers])
        total += count
    return total


def _partner_entry(hands, leader, partner):
    """Whether the partner holds the top card of a suit the leader holds."""
    for suit in range(4):
        out = [c for h in hands for c in h if c // 13 == suit]
        if _lengths(hands[leader], suit) and max(out) in hands[partner]:
            return True
    return False


def _split_suit(hands, leader, partner):
    """Whether some suit's top two cards still out lie one with the leader and one with the partner, both
    of whom hold two cards or more of it."""
    for suit in range(4):
        out = sorted((c for h in hands for c in h if c // 13 == suit), reverse=True)
        if len(out) < 2:
            continue
        lengths = [sum(1 for c in hands[s] if c // 13 == suit) for s in (leader, partner)]
        holders = {next(s for s in range(4) if card in hands[s]) for card in out[:2]}
        if holders == {leader, partner} and min(lengths) >= 2:
            return True
    return False


@lru_cache(maxsize=None)
def _endings(kind):
    """(hands, trump, team seats, leader, side on lead, quick tricks claimed, the side's true count).

    ``split``: no trump; when the side on lead has two seats, the leader and its partner hold the top
    two cards of a suit, one each, and another card of it.  ``draw``: the first suit is trumps and
    the leader holds its top one to three trumps; in one against three the lone seat leads.
    """
    rng = np.random.default_rng(3636 if kind == "split" else 3637)
    cases = []
    for i in range(240):
        suits = [int(s) for s in rng.permutation(4)[:3]]
        trump = suits[0] if kind == "draw" else 4
        team = TEAMS[i % len(TEAMS)]
        # Drawing trumps: one against three with the lone seat on lead, half the time.
        leader = 0 if kind == "draw" and len(team) != 2 else int(rng.integers(4))
        side = team if leader in team else tuple(s for s in range(4) if s not in team)
        hands = [[] for _ in range(4)]
        if kind == "split" and len(side) == 2:
            partner = sum(side) - leader
            top, second, low_a, low_b = (13 * suits[0] + int(r) for r in [12, 11] + list(rng.permutation(11)[:2]))
            first, other = (leader, partner) if rng.integers(2) else (partner, leader)
            hands[first] += [top, low_a]
            hands[other] += [second, low_b]
        elif kind == "draw":
            hands[leader] += [13 * trump + 12 - r for r in range(int(rng.integers(1, 4)))]
        dealt = {c for h in hands for c in h}
        rest = [int(c) for c in rng.permutation([13 * s + r for s in suits for r in range(13)]) if c not in dealt]
        for seat in range(4):
            while len(hands[seat]) < SIZE:
                hands[seat].append(rest.pop())
        hands = [tuple(sorted(h)) for h in hands]
        # The search passes its team, whichever side is on lead.
        claim, _ = _quick_tricks(_masks(hands), leader, trump, sum(1 << s for s in team), -1)
        true = max_tricks(Rules(trump, side), hands, leader)
        cases.append((hands, trump, team, leader, side, int(claim), true))
    return cases


def test_quick_tricks_never_exceed_the_side_on_leads_count():
    for kind in ("split", "draw"):
        for hands, trump, _, leader, side, claim, true in _endings(kind):
            assert claim <= true, (hands, trump, leader, side)


def test_both_hands_top_cards_of_a_suit_count():
    # No trump, partners, no way to the partner's top cards: only the shared suit's second trick
    # takes the count past the leader's own cash.
    cases = [(claim, true) for hands, _, _, leader, side, claim, true in _endings("split")
             if len(side) == 2 and not _partner_entry(hands, leader, sum(side) - leader)
             and _split_suit(hands, leader, sum(side) - leader) and claim > _cash_bound(hands, leader, side, 4)]
    assert len(cases) >= 12
    assert sum(claim == true for claim, true in cases) >= 8


def test_drawn_trumps_let_side_suits_count():
    # A lone leader against opponents with trumps: only drawing them takes the count past its cash.
    cases = [(claim, true) for hands, trump, _, leader, side, claim, true in _endings("draw")
             if len(side) == 1 and claim > _cash_bound(hands, leader, side, trump)]
    assert len(cases) >= 12
    assert sum(claim == true for claim, true in cases) >= 8


@lru_cache(maxsize=None)
def _ruff_endings():
    """Random endings with trumps: (hands, trump, team seats, leader, side on lead, ruff claimed, true count)."""
    rng = np.random.default_rng(3638)
    cases = []
    for i in range(240):
        suits = [int(s) for s in rng.permutation(4)[:3]]
        cards = [int(c) for c in rng.permutation([13 * s + r for s in suits for r in range(13)])[:4 * SIZE]]
        hands = [tuple(sorted(cards[SIZE * s:SIZE * (s + 1)])) for s in range(4)]
        team = TEAMS[i % len(TEAMS)]
        leader = int(rng.integers(4))
        side = team if leader in team else tuple(s for s in range(4) if s not in team)
        claim = _partner_ruffs(_masks(hands), leader, suits[0], sum(1 << s for s in team))
        cases.append((hands, suits[0], team, leader, side, bool(claim), max_tricks(Rules(suits[0], side), hands, leader)))
    return cases


def test_a_partners_ruff_is_a_trick():
    claims = [true for _, _, _, _, _, claim, true in _ruff_endings() if claim]
    assert all(true >= 1 for true in claims)
    assert len(claims) >= 30
    # Sides that take no trick at all are common enough here that a looser rule would be caught.
    assert sum(true == 0 for *_, true in _ruff_endings()) >= 30


def test_solver_counts_match_reference_on_these_endings():
    for hands, trump, team, leader, side, _, true in _endings("split") + _endings("draw") + _ruff_endings():
        team_true = true if side == team else SIZE - true
        assert solve(_masks(hands), trump, leader, sum(1 << s for s in team)) == team_true


def _holding(hand, suit):
    return [c for c in hand if c // 13 == suit]


@lru_cache(maxsize=None)
def _long_split_endings():
    """Endings of 4 cards: (hands, trump, team seats, leader, side on lead, claim, whether the side can take
    the claim (brute force), shared suit).  A third have trumps (the second suit), which the opponents
    of a side of two do not hold (the shared suit is counted only then).

    When the side on lead has two seats, the leader and its partner hold the first suit's ace and king,
    one each, one of them with one more card of it and the other with two or three more; the opponents
    hold at most two cards of it each, but in a quarter of the endings one of them holds three (then
    the long cards need not be the side's).  Other team shapes are dealt at random from the same suits.
    """
    rng = np.random.default_rng(3639)
    cases = []
    for i in range(200):
        suits = [int(s) for s in rng.permutation(4)[:3]]
        trump = suits[1] if i % 3 == 2 else 4
        team = TEAMS[i % len(TEAMS)]
        leader = int(rng.integers(4))
        side = team if leader in team else tuple(s for s in range(4) if s not in team)
        hands = [[] for _ in range(4)]
        if len(side) == 2:
            partner = sum(side) - leader
            lows = [13 * suits[0] + int(r) for r in rng.permutation(11)]
            long_hand, short_hand = (leader, partner) if rng.integers(2) else (partner, leader)
            top_hand = long_hand if rng.integers(2) else short_hand
            hands[top_hand].append(13 * suits[0] + 12)
            hands[long_hand + short_hand - top_hand].append(13 * suits[0] + 11)
            hands[short_hand].append(lows.pop())
            for _ in range(int(rng.integers(2, 4))):
                hands[long_hand].append(lows.pop())
            for seat in range(4):
                if seat not in side:
                    # A quarter of the endings: the first opponent holds three.
                    count = 3 if (i // 4) % 4 == 3 and seat == min(set(range(4)) - set(side)) else int(rng.integers(3))
                    hands[seat] += [lows.pop() for _ in range(count)]
            others = [13 * s + r for s in suits[1:] for r in range(13)]
        else:
            others = [13 * s + r for s in suits for r in range(13)]
        rest = [int(c) for c in rng.permutation(others)]
        for seat in [s for s in range(4) if s not in side] + list(side):
            while len(hands[seat]) < 4:
                # With trumps, a side of two's opponents get none.
                card = next(c for c in reversed(rest) if len(side) != 2 or seat in side or c // 13 != trump)
                rest.remove(card)
                hands[seat].append(card)
        hands = [tuple(sorted(h)) for h in hands]
        claim, _ = _quick_tricks(_masks(hands), leader, trump, sum(1 << s for s in team), -1)
        # One brute-force question per ending (a full count of 4-card endings takes four).
        reaches = claim == 0 or can_force(Rules(trump, side), hands, leader, int(claim), 99)
        cases.append((hands, trump, team, leader, side, int(claim), reaches, suits[0]))
    return cases


def test_long_cards_of_a_shared_suit_never_exceed_the_count():
    for hands, trump, _, leader, side, _, reaches, _ in _long_split_endings():
        assert reaches, (hands, trump, leader, side)


def _tops_only_the_shared_suit(hands, side, shared):
    """Whether every other suit's top card still out is an opponent's (the side cashes only the shared suit)."""
    for suit in range(4):
        out = [c for h in hands for c in h if c // 13 == suit]
        if suit != shared and out and not any(max(out) in hands[s] for s in side):
            continue
        if suit != shared and out:
            return False
    return True


def test_long_cards_of_a_shared_suit_count():
    # The side tops only the shared suit, the opponents hold at most two cards of it: the long hand's
    # length is counted, whichever of the two is long (two before the rule).
    by_long_hand = {"leader": [], "partner": []}
    for hands, trump, _, leader, side, claim, _, shared in _long_split_endings():
        if trump != 4 or len(side) != 2 or not _tops_only_the_shared_suit(hands, side, shared):
            continue
        partner = sum(side) - leader
        if max(len(_holding(hands[s], shared)) for s in range(4) if s not in side) > 2:
            continue
        own, theirs = len(_holding(hands[leader], shared)), len(_holding(hands[partner], shared))
        by_long_hand["leader" if own > theirs else "partner"].append((claim, max(own, theirs)))
    for long_hand, cases in by_long_hand.items():
        assert len(cases) >= 10, long_hand
        assert all(claim >= length for claim, length in cases), long_hand


def test_solver_counts_match_reference_on_long_split_endings():
    for hands, trump, team, leader, side, *_ in _long_split_endings()[:40]:
        true = max_tricks(Rules(trump, side), hands, leader)
        team_true = true if side == team else 4 - true
        assert solve(_masks(hands), trump, leader, sum(1 << s for s in team)) == team_true
