"""The search's rules of play (``analyzer.solvers.dd.rules``) against the brute force's plain rules.

On random positions with a random trick in progress, trump, team, called card and blind bidder:
the face-up legal cards (``_legal``) and whether a blind lead is allowed (``_blind_allowed``)
equal ``reference_minimax.Rules.plays``; the trick's current winner (``start_winner``) and the
last trick's taker (``_last_trick``) equal ``Rules.winner``; a card now winning stays the winner
(``_holds``) exactly when no later opponent has a legal card that takes the trick from it (with a called
card in play it may err only towards "does not hold").
"""

import numpy as np

from analyzer.solvers.dd.rules import _blind_allowed, _holds, _last_trick, _legal, start_winner
from analyzer.solvers.dd.tables import BLIND

from .reference_minimax import Rules

CASES = 1500


def _mask(cards):
    return sum(1 << c for c in cards)


def _random_positions(seed):
    """(rules, hands after the trick's cards, leader, trick as (seat, card, face_down) triples)."""
    rng = np.random.default_rng(seed)
    for _ in range(CASES):
        size = int(rng.integers(1, 6))
        # Cards of two or three suits, so voids, ruffs and overruffs are common.
        suits = rng.permutation(4)[:int(rng.integers(2, 4))]
        deck = [int(c) for c in rng.permutation([13 * int(t) + r for t in suits for r in range(13)])]
        hands = [sorted(deck[size * s:size * (s + 1)]) for s in range(4)]
        spare = deck[4 * size:]
        called = bidder = -1
        if rng.random() < 0.6:
            # A called card another seat holds (or one already played: from the undealt cards).
            bidder = int(rng.integers(4))
            held = [c for s in range(4) if s != bidder for c in hands[s]]
            called = int(rng.choice(held)) if rng.random() < 0.8 else spare.pop()
            if rng.random() < 0.5:
                # The bidder void in the called suit, so a blind lead may be allowed.
                keep = [c for c in hands[bidder] if c // 13 != called // 13]
                fill = [c for c in spare if c // 13 != called // 13][:size - len(keep)]
                hands[bidder] = sorted(keep + fill)
        trump = int(rng.choice(list(suits) + [4]))
        team = tuple(s for s in range(4) if rng.random() < 0.5) or (0,)
        rules = Rules(trump, team, called, bidder)
        leader = int(rng.integers(4))
        trick = ()
        for pos in range(int(rng.integers(4))):
            seat = (leader + pos) % 4
            plays = rules.plays(tuple(map(tuple, hands)), seat, trick)
            card, down = plays[int(rng.integers(len(plays)))]
            hands[seat] = [c for c in hands[seat] if c != card]
            trick += ((seat, card, down),)
        yield rules, [tuple(h) for h in hands], leader, trick


def _winner_so_far(rules, trick):
    """The plain rules' winner of a trick in progress, -1 while no face-up card follows the led suit or trumps."""
    led = _led_suit(rules, trick)
    if not any(not down and card // 13 in (led, rules.trump) for _, card, down in trick):
        return -1
    return rules.winner(trick)


def _led_suit(rules, trick):
    _, card, down = trick[0]
    return rules.called // 13 if down else card // 13


def test_legal_cards_and_blind_leads_match_the_plain_rules():
    checked_blind = 0
    for rules, hands, leader, trick in _random_positions(41):
        seat = (leader + len(trick)) % 4
        plays = rules.plays(tuple(hands), seat, trick)
        led = _led_suit(rules, trick) if trick else -1
        face_up = _mask(card for card, down in plays if not down)
        assert _legal(np.int64(_mask(hands[seat])), len(trick), led, rules.called) == face_up, (hands, seat, trick)
        if not trick:
            blind = any(down for _, down in plays)
            masks = np.array([_mask(h) for h in hands], dtype=np.int64)
            assert _blind_allowed(masks, seat, rules.called, rules.blind_bidder) == blind
            checked_blind += blind
    assert checked_blind >= 5


def test_the_winner_so_far_and_the_last_trick_match_the_plain_rules():
    for rules, hands, leader, trick in _random_positions(42):
        if not trick:
            continue
        cards = np.array([card + (BLIND if down else 0) for _, card, down in trick] + [0] * (4 - len(trick)))
        seat, card = start_winner(cards, leader, len(trick), trick[0][2], rules.trump, rules.called)
        assert seat == _winner_so_far(rules, trick), (trick, rules.trump, rules.called)
        if seat >= 0:
            assert card == next(c for s, c, down in trick if s == seat and not down)
    rng = np.random.default_rng(43)
    for _ in range(CASES):
        last = [int(c) for c in rng.permutation(52)[:4]]
        leader = int(rng.integers(4))
        trump = int(rng.integers(5))
        seat, _ = _last_trick(np.array([1 << c for c in last], dtype=np.int64), leader, trump)
        assert seat == Rules(trump, (0,)).winner(tuple(((leader + i) % 4, last[(leader + i) % 4], False)
                                                       for i in range(4)))


def test_a_winning_card_holds_exactly_when_no_later_opponent_can_take_the_trick():
    held = beaten = 0
    for rules, hands, leader, trick in _random_positions(44):
        win_seat = _winner_so_far(rules, trick) if trick else -1
        if win_seat < 0:
            continue
        pos = len(trick)
        seat = (leader + pos) % 4
        win_card = next(c for s, c, d in trick if s == win_seat and not d)
        team = sum(1 << s for s in rules.team)
        masks = np.array([_mask(h) for h in hands], dtype=np.int64)
        # The player to move plays its card to the trick first; the later ones are checked against the winner.
        takes = False
        for step in range(1, 4 - pos):
            other = (seat + step) % 4
            if (other in rules.team) == (seat in rules.team):
                continue
            for card, _ in rules.plays(tuple(hands), other, trick):
                takes = takes or rules.winner(trick + ((other, card, False),)) == other
        got = _holds(win_card, seat, pos, masks, _led_suit(rules, trick), rules.trump, team)
        # A holder of the called card may have to play it below a higher card: then ``_holds`` may only err
        # towards "does not hold".
        assert not (got and takes), (hands, trick, seat, rules.trump)
        if rules.called < 0:
            assert got == (not takes), (hands, trick, seat, rules.trump)
        held += got
        beaten += not got
    assert held >= 50 and beaten >= 50


def test_a_ruff_holds_unless_a_later_opponent_can_overruff():
    # Spades (suit 3) trumps, hearts (suit 2) led by seat 0; seat 1 ruffed with the 5 of spades; its
    # partner seat 2 (adjacent partners) is to play, then seat 3, an opponent.
    ruff = 13 * 3 + 3
    for last_hand, holds in (([13 * 3 + 4, 13 * 0 + 5], False),  # the 6 of spades overruffs
                             ([13 * 3 + 1, 13 * 0 + 5], True),  # only a lower trump
                             ([13 * 2 + 12, 13 * 3 + 9], True)):  # must follow hearts
        hands = np.array([0, 0, _mask([13 * 2 + 1]), _mask(last_hand)], dtype=np.int64)
        assert _holds(ruff, 2, 2, hands, 2, 3, 0b0110) == holds, last_hand
