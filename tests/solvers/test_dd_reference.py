"""The double-dummy solver against the plain brute-force minimax on random small endings.

Endings of 3-4 cards per hand are dealt from the full deck with a seeded generator; the reference
(tests/solvers/reference_minimax.py) shares no code with the solver.
"""

import numpy as np
import pytest

from analyzer.cards.pbn import parse_deal
from analyzer.solvers.dd import best_moves, solve

from .reference_minimax import Rules, can_force, max_tricks

TEAMS = {
    "NS": 0b0101,
    "NE": 0b0011,
    "EW": 0b1010,
    "N": 0b0001,
    "SWE": 0b1110,
}


def _seats(team):
    return [s for s in range(4) if team >> s & 1]


def _ending(rng, size, played=0, leader=0):
    """Random hands of ``size`` cards (seats that already played to the trick get one fewer)."""
    cards = [int(c) for c in rng.permutation(52)[: 4 * size]]
    hands = [cards[i * size:(i + 1) * size] for i in range(4)]
    trick = []
    trick_leader = (leader - played) % 4
    for i in range(played):
        seat = (trick_leader + i) % 4
        trick.append((seat, hands[seat].pop()))
    return hands, trick


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _legal_trick(rng, size, played, leader, trump):
    """Deal an ending whose trick in progress is legal (followers follow suit when they can)."""
    while True:
        hands, trick = _ending(rng, size, played, leader)
        if not trick:
            return hands, trick
        led = trick[0][1] // 13
        ok = all(c // 13 == led or all(x // 13 != led for x in hands[s]) for s, c in trick[1:])
        if ok:
            return hands, trick


CASES = [(seed, team) for seed in range(12) for team in TEAMS]


@pytest.mark.parametrize("seed,team_name", CASES)
def test_max_tricks_matches_reference(seed, team_name):
    rng = np.random.default_rng(1000 + seed)
    team = TEAMS[team_name]
    size = 3 if seed % 3 else 4
    played = seed % 4
    leader = int(rng.integers(4))
    trump = int(rng.integers(5))
    hands, trick = _legal_trick(rng, size, played, leader, trump)
    rules = Rules(trump, _seats(team))
    expected = max_tricks(rules, hands, leader, tuple((s, c, False) for s, c in trick))
    got = solve(_masks(hands), trump, leader, team, trick=[c for _, c in trick])
    assert got == expected


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("goal", ["ge", "le", "eq"])
def test_yes_no_goals_match_reference(seed, goal):
    rng = np.random.default_rng(2000 + seed)
    team = list(TEAMS.values())[seed % len(TEAMS)]
    size = 4
    leader = int(rng.integers(4))
    trump = 4 if seed % 2 else int(rng.integers(4))
    played = seed % 3
    hands, trick = _legal_trick(rng, size, played, leader, trump)
    rules = Rules(trump, _seats(team))
    ref_trick = tuple((s, c, False) for s, c in trick)
    for k in range(size + 1):
        lo, hi = {"ge": (k, 99), "le": (-99, k), "eq": (k, k)}[goal]
        expected = can_force(rules, hands, leader, lo, hi, ref_trick)
        got = solve(_masks(hands), trump, leader, team, goal=goal, k=k, trick=[c for _, c in trick])
        assert got == expected, (goal, k)


def _called_ending(rng, size, blind):
    """An ending where seat 0 bids and calls an ace held by another seat (its partner).

    Seat 0 bids and calls an ace held by a random other seat; for a blind call seat 0 is void in the
    called suit, otherwise it holds a card there; deals that do not fit are redrawn.
    """
    while True:
        hands, _ = _ending(rng, size)
        suit = int(rng.integers(4))
        ace = suit * 13 + 12
        holders = [s for s in range(4) if ace in hands[s]]
        if not holders or holders[0] == 0:
            continue
        if blind and any(c // 13 == suit for c in hands[0]):
            continue
        if not blind and not any(c // 13 == suit for c in hands[0]):
            continue
        return hands, ace, holders[0]


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("blind", [False, True])
def test_called_card_and_blind_lead_match_reference(seed, blind):
    rng = np.random.default_rng(3000 + seed + 100 * blind)
    size = 4 if seed % 2 else 3
    hands, ace, holder = _called_ending(rng, size, blind)
    team = 1 | (1 << holder)
    trump = int(rng.integers(5))
    while trump == ace // 13:
        trump = int(rng.integers(5))
    leader = 0 if blind or seed % 2 else int(rng.integers(4))
    rules = Rules(trump, _seats(team), called_card=ace, blind_bidder=0 if blind else -1)
    masks = _masks(hands)
    expected = max_tricks(rules, hands, leader)
    got = solve(masks, trump, leader, team, called_card=ace, blind_call=blind)
    assert got == expected
    for k in range(size + 1):
        assert solve(masks, trump, leader, team, goal="eq", k=k, called_card=ace, blind_call=blind) == can_force(
            rules, hands, leader, k, k
        )


def test_blind_lead_in_progress_matches_reference():
    """A face-down lead already on the table: followers follow the called suit, it never wins."""
    for seed in range(10):
        rng = np.random.default_rng(4000 + seed)
        hands, ace, holder = _called_ending(rng, 3, True)
        team = 1 | (1 << holder)
        trump = 4 if seed % 2 else (ace // 13 + 1) % 4
        down = hands[0].pop()
        rules = Rules(trump, _seats(team), called_card=ace, blind_bidder=0)
        expected = max_tricks(rules, hands, 1, ((0, down, True),))
        got = solve(_masks(hands), trump, 1, team, trick=[down], called_card=ace, blind_call=True, trick_blind=True)
        assert got == expected


@pytest.mark.parametrize("seed", range(8))
def test_best_moves_keep_the_value(seed):
    """Each card best_moves offers reaches the position's value; each other legal card does not."""
    rng = np.random.default_rng(5000 + seed)
    team = TEAMS["NS"] if seed % 2 else TEAMS["N"]
    leader = int(rng.integers(4))
    trump = int(rng.integers(5))
    hands, _ = _ending(rng, 3)
    rules = Rules(trump, _seats(team))
    value = max_tricks(rules, hands, leader)
    face_up, face_down = best_moves(_masks(hands), trump, leader, team)
    assert face_down == 0
    for card in hands[leader]:
        after = [list(h) for h in hands]
        after[leader].remove(card)
        trick = ((leader, card, False),)
        # The mover's side keeps the value iff the team still gets value (and no more when defending).
        keeps = can_force(rules, after, (leader + 1) % 4, value, 99, trick)
        if not team >> leader & 1:
            keeps = keeps and not can_force(rules, after, (leader + 1) % 4, value + 1, 99, trick)
        assert bool(face_up >> card & 1) == keeps, card


def test_long_suit_blocked_by_partners_higher_cards():
    """West's hearts K765 cash only while East, on lead with 98, cannot be made to overtake them.

    East leads a heart to the king; on the next heart East must play the 9 and is left on lead
    with spades only, so West's last two hearts never cash.  Counting West's whole suit as quick
    tricks gave East-West 4 tricks here instead of 2 (found by the 2,000-deal DDS test).
    """
    hands = parse_deal("N:64.J..AQ 952.98.. KQJ.Q.A. T.K765..", hand_size=None)
    card_lists = [[c for c in range(52) if int(mask) >> c & 1] for mask in hands]
    expected = max_tricks(Rules(4, [1, 3]), card_lists, 1)
    assert expected == 2
    assert solve(hands, 4, 1, TEAMS["EW"]) == expected


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("team_name", list(TEAMS))
def test_second_hand_positions_match_reference(seed, team_name):
    """No-trump endings with only the lead played: where second hand's side surely takes the trick,
    the solver also counts the top cards its winner then cashes, without searching on."""
    rng = np.random.default_rng(5000 + seed)
    team = TEAMS[team_name]
    leader = int(rng.integers(4))
    hands, trick = _legal_trick(rng, 4, 1, leader, 4)
    rules = Rules(4, _seats(team))
    expected = max_tricks(rules, hands, leader, tuple((s, c, False) for s, c in trick))
    assert solve(_masks(hands), 4, leader, team, trick=[c for _, c in trick]) == expected


@pytest.mark.parametrize("seed", range(24))
def test_second_hand_counts_a_suit_only_its_winner_holds(seed):
    """No-trump endings where second hand holds the ace of the suit led and alone holds the cards
    left of another suit: its side surely takes the trick and it leads next, so each of those cards
    is a trick of its own, counted without searching on."""
    rng = np.random.default_rng(7000 + seed)
    alone, led = (int(s) for s in rng.permutation(4)[:2])
    leader = int(rng.integers(4))
    second = (leader + 1) % 4
    own = [13 * alone + int(r) for r in rng.permutation(13)[: int(rng.integers(1, 4))]]
    lead_card = 13 * led + int(rng.integers(12))
    rest = [int(c) for c in rng.permutation(52) if c // 13 != alone and c not in (lead_card, 13 * led + 12)]
    hands = [[] for _ in range(4)]
    hands[second] = own + [13 * led + 12] + rest[: 3 - len(own)]
    rest = rest[3 - len(own):]
    for seat in range(4):
        if seat != second:
            hands[seat], rest = rest[:4 if seat != leader else 3], rest[4 if seat != leader else 3:]
    team = list(TEAMS.values())[seed % len(TEAMS)]
    trick = ((leader, lead_card, False),)
    expected = max_tricks(Rules(4, _seats(team)), hands, second, trick)
    assert solve(_masks(hands), 4, second, team, trick=[lead_card]) == expected


def test_second_hand_winner_overtaken_by_partner():
    """South leads the spade 3; West's 5 holds against North's 2, but East has only the queen and
    must overtake, so East, not West, leads next and West's diamonds never cash: East-West take 1.
    Counting West's top diamond after the trick gave 2 (found by the 2,000-deal DDS test)."""
    hands = [[2, 39, 37], [49, 34, 29], [3, 31], [14, 42, 22]]
    trick = [(2, 40)]
    rules = Rules(4, _seats(TEAMS["EW"]))
    expected = max_tricks(rules, hands, 3, tuple((s, c, False) for s, c in trick))
    assert expected == 1
    assert solve(_masks(hands), 4, 3, TEAMS["EW"], trick=[40]) == expected


def test_called_card_below_its_holders_higher_card():
    """East holds SK and the called S8: led a spade, East must play the eight (no sure trick for SK)."""
    hands = [[2, 39, 42, 32], [50, 22, 45, 1], [38, 25, 5, 9], [35, 31, 46, 48]]
    rules = Rules(4, [0, 1], called_card=45)
    assert solve(_masks(hands), 4, 0, 0b0011, goal="ge", k=1, called_card=45) == can_force(rules, hands, 0, 1, 99)
    assert solve(_masks(hands), 4, 0, 0b0011, called_card=45) == max_tricks(rules, hands, 0)


@pytest.mark.parametrize("seed", range(12))
def test_any_called_card_matches_reference(seed):
    """Called cards of any rank (the solver takes any card; Rikken calls only aces and kings)."""
    rng = np.random.default_rng(3500 + seed)
    for _ in range(4):
        hands, _ = _ending(rng, 3 + seed % 2)
        team = list(TEAMS.values())[seed % len(TEAMS)]
        holder = _seats(team)[int(rng.integers(len(_seats(team))))]
        called = hands[holder][int(rng.integers(len(hands[holder])))]
        leader = int(rng.integers(4))
        trump = int(rng.integers(5))
        rules = Rules(trump, _seats(team), called_card=called)
        masks = _masks(hands)
        assert solve(masks, trump, leader, team, called_card=called) == max_tricks(rules, hands, leader)
        for k in range(len(hands[0]) + 1):
            assert solve(masks, trump, leader, team, goal="le", k=k, called_card=called) == can_force(
                rules, hands, leader, -99, k)


def test_side_on_lead_needing_every_trick_against_a_ruffing_partner():
    """North leads from spades, topped by East's ace, and North-South need both tricks: South, void
    in spades with the only trump (hearts), ruffs the ace and then wins with the diamond 3.  The
    cut-off "the other side can take the trick the leader leads" must not fire here."""
    hands = parse_deal("N:32... A..2. .2.3. ...32", hand_size=None)
    card_lists = [[c for c in range(52) if int(mask) >> c & 1] for mask in hands]
    rules = Rules(2, [0, 2])
    assert max_tricks(rules, card_lists, 0) == 2
    assert solve(hands, 2, 0, TEAMS["NS"]) == 2
    assert solve(hands, 2, 0, TEAMS["NS"], goal="ge", k=2)


@pytest.mark.parametrize("seed", range(6))
def test_side_on_lead_needing_every_trick_matches_reference(seed):
    """Endings where the side on lead needs every trick left (or the other side needs just one)."""
    rng = np.random.default_rng(7300 + seed)
    for _ in range(8):
        hands, _ = _ending(rng, 3 + seed % 2)
        leader = int(rng.integers(4))
        trump = int(rng.integers(5))
        for team in (TEAMS["NS"], TEAMS["NE"], TEAMS["SWE"]):
            rules = Rules(trump, _seats(team))
            masks = _masks(hands)
            size = len(hands[0])
            for k in (1, size):
                assert solve(masks, trump, leader, team, goal="ge", k=k) == can_force(rules, hands, leader, k, 99)
