"""``games/rikken/replay_judge.py``: every card's double-dummy cost.

The oracle is a brute-force minimax written here from the rules of play (docs/rules.md section 1:
follow suit, highest trump, else highest card of the led suit) on small endings, independent of the
solver; on full deals, perfect play must give up nothing and budgeted costs must bracket exact ones.
"""

from functools import lru_cache

import numpy as np
import pytest

from analyzer.games.rikken.dd import playout_one_dd
from analyzer.games.rikken.replay_judge import card_costs
from analyzer.games.rikken.rules import Contract as K

NO_TRUMP = 4
HEARTS = 2
N, E, S, W = range(4)


def _winner(trick, trump):
    """Seat winning a full trick of (seat, card) pairs, by the rules of play."""
    led = trick[0][1] // 13
    trumps = [(card, seat) for seat, card in trick if card // 13 == trump]
    if trumps:
        return max(trumps)[1]
    return max((card, seat) for seat, card in trick if card // 13 == led)[1]


def _legal(hand, trick):
    cards = [c for c in range(52) if hand >> c & 1]
    if trick:
        led = trick[0][1] // 13
        follow = [c for c in cards if c // 13 == led]
        return follow or cards
    return cards


@lru_cache(maxsize=None)
def _future(hands, leader, trick, trump, team, minimise):
    """Tricks ``team`` takes from here when its seats play to maximise them (to minimise them when
    ``minimise``: a Misery declarer) and the others play against it; ``trick`` is the trick in progress."""
    if len(trick) == 4:
        winner = _winner(trick, trump)
        return (team >> winner & 1) + _future(hands, winner, (), trump, team, minimise)
    mover = (leader + len(trick)) % 4
    if hands[mover] == 0:
        return 0
    results = []
    for card in _legal(hands[mover], trick):
        rest = list(hands)
        rest[mover] &= ~(1 << card)
        results.append(_future(tuple(rest), leader, trick + ((mover, card),), trump, team, minimise))
    on_team = bool(team >> mover & 1)
    return max(results) if on_team != minimise else min(results)


def _brute_costs(hands, leader, plays, trump, team, misery):
    """Per card: (tricks its side gave up, whether it gave up the contract), by brute force.

    Trick contracts count the team's final tricks; a Misery declarer's contract holds while he can still
    take no trick."""
    won, trick, hands = 0, (), tuple(hands)

    def value():
        future = _future(hands, leader, trick, trump, team, misery)
        return won + future

    before = value()
    out = []
    for seat, card in plays:
        rest = list(hands)
        rest[seat] &= ~(1 << card)
        hands = tuple(rest)
        trick = trick + ((seat, card),)
        if len(trick) == 4:
            winner = _winner(trick, trump)
            won += team >> winner & 1
            leader, trick = winner, ()
        after = value()
        declaring = bool(team >> seat & 1)
        if misery:
            # Made while the declarer can still end with no trick.
            reach_before, reach_after = before == 0, after == 0
            lost = reach_before and not reach_after if declaring else not reach_before and reach_after
            out.append((None, lost))
        else:
            out.append((before - after if declaring else after - before, False))
        before = after
    return out


def _random_ending(rng, size):
    cards = rng.permutation(52)[:4 * size]
    hands = [sum(1 << int(c) for c in cards[i * size:(i + 1) * size]) for i in range(4)]
    return hands


def _random_plays(rng, hands, leader, trump):
    """A random legal play of the whole ending: (seat, card) pairs."""
    hands, plays, trick = list(hands), [], ()
    while hands[0] or trick:
        mover = (leader + len(trick)) % 4
        card = int(rng.choice(_legal(hands[mover], trick)))
        hands[mover] &= ~(1 << card)
        plays.append((mover, card))
        trick = trick + ((mover, card),)
        if len(trick) == 4:
            leader, trick = _winner(trick, trump), ()
    return plays


def _setup(hands, leader, contract_of, trump, partner=-1):
    return {"hands": np.array(hands, dtype=np.int64), "leader": leader,
            "contract_of": np.array(contract_of, dtype=np.int64), "partner": partner, "trump": trump,
            "called_card": -1, "blind": 0}


def test_trick_costs_match_a_brute_force_on_small_endings():
    """Troela (N with partner S, hearts) on random 4-card endings played at random: each card's cost is
    the brute force's drop in the side's final tricks."""
    given_up = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        hands = _random_ending(rng, 4)
        leader = int(rng.integers(4))
        plays = _random_plays(rng, hands, leader, HEARTS)
        costs = card_costs(_setup(hands, leader, [K.TROELA, -1, -1, -1], HEARTS, partner=S), plays)
        expected = _brute_costs(hands, leader, plays, HEARTS, 1 << N | 1 << S, misery=False)
        assert [(c.tricks_low, c.tricks_high) for [c] in costs] == [(t, t) for t, _ in expected], seed
        given_up += sum(t for t, _ in expected)
    # Random cards give tricks away: endings where nothing is ever lost would prove little.
    assert given_up >= 5


def test_misery_costs_match_a_brute_force_on_small_endings():
    """Misery (E, no trumps) on random 4-card endings: the card that lets the declarer be forced to a
    trick (or, for a defender, lets him escape) gives up the contract, as the brute force says."""
    turns = 0
    for seed in range(10):
        rng = np.random.default_rng(100 + seed)
        hands = _random_ending(rng, 4)
        leader = int(rng.integers(4))
        plays = _random_plays(rng, hands, leader, NO_TRUMP)
        costs = card_costs(_setup(hands, leader, [-1, K.MISERY, -1, -1], NO_TRUMP), plays)
        expected = _brute_costs(hands, leader, plays, NO_TRUMP, 1 << E, misery=True)
        assert [c.contract for [c] in costs] == [lost for _, lost in expected], seed
        assert all(c.tricks_low is None for [c] in costs)
        turns += sum(lost for _, lost in expected)
    assert turns >= 2


def test_an_ending_worked_by_hand():
    """N (alone, spades trumps) holds SA HK; E HA H2, S H3 H4, W H5 D2; N leads.

    N makes one trick whatever he leads (SA then HK into the HA; or HK taken by the HA, then the SA ruffs
    E's H2), so no lead costs him anything. Under the HK, E's H2 instead of the HA lets the HK hold and
    the SA take the second trick: a cost of one trick to the defenders."""
    spade_ace, heart_king = 3 * 13 + 12, 2 * 13 + 11
    heart_ace, heart_2, heart_3, heart_4, heart_5, diamond_2 = 2 * 13 + 12, 26, 27, 28, 29, 13
    hands = [1 << spade_ace | 1 << heart_king, 1 << heart_ace | 1 << heart_2, 1 << heart_3 | 1 << heart_4,
             1 << heart_5 | 1 << diamond_2]
    plays = [(N, heart_king), (E, heart_2), (S, heart_3), (W, heart_5), (N, spade_ace), (E, heart_ace),
             (S, heart_4), (W, diamond_2)]
    costs = card_costs(_setup(hands, N, [K.ALONE_8, -1, -1, -1], 3), plays)
    assert [c.tricks_low for [c] in costs] == [0, 1, 0, 0, 0, 0, 0, 0]


def test_perfect_play_gives_up_nothing_and_budgets_give_bounds():
    """Troela (N with S, clubs): a round played double dummy (every seat dd) costs nothing on any card; a
    round played at random, judged with a tiny budget, has every cost an interval holding the exact one."""
    rng = np.random.default_rng(7)
    cards = rng.permutation(52)
    hands = [sum(1 << int(c) for c in cards[i * 13:(i + 1) * 13]) for i in range(4)]
    setup = _setup(hands, E, [K.TROELA, -1, -1, -1], 0, partner=S)
    rng_state = np.array([1, 2, 3, 4], dtype=np.uint64)
    _, trace = playout_one_dd(setup["hands"], E, setup["contract_of"], S, 0, -1, 0, rng_state)
    exact = card_costs(setup, trace[:, :2], 0)
    assert all(c.tricks_low == c.tricks_high == 0 and not c.contract for [c] in exact)
    random_plays = _random_plays(np.random.default_rng(8), hands, E, 0)
    exact = card_costs(setup, random_plays, 0)
    bounded = card_costs(setup, random_plays, 1)
    assert any(c.tricks_low for [c] in exact)
    for [e], [b] in zip(exact, bounded):
        assert b.tricks_low <= e.tricks_low == e.tricks_high <= b.tricks_high and b.contract == e.contract
