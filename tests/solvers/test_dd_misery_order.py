"""Move ordering when a lone declarer must lose every trick left (Misery's window, ``duck_all``).

Each case names the card that should be tried first, read off the rule by hand; today's ordering for
other windows tries another card first, so ignoring ``duck_all`` fails every case.
"""

import numpy as np

from analyzer.solvers.dd.moves import _order_score
from analyzer.cards.tricks import NO_TRUMP
from analyzer.solvers.dd.tables import MODE_MIN

CLUBS, HEARTS, SPADES = 0, 2, 3
DECLARER = 0
TEAM = 1 << DECLARER


def _card(suit, rank):
    """Card id of ``rank`` 2..14 (A = 14) in ``suit``."""
    return 13 * suit + rank - 2


def _mask(cards):
    return sum(1 << c for c in cards)


def _first(seat, pos, hands, trick, leader, led_suit, win_seat, win_card):
    """The card of ``seat`` the Misery-window ordering tries first."""
    masks = tuple(np.int64(_mask(h)) for h in hands)
    present = np.int64(_mask([c for h in hands for c in h]) | _mask(trick))
    assert (leader + pos) % 4 == seat
    scores = {card: _order_score(card, seat, pos, masks, present, win_seat, win_card, led_suit, NO_TRUMP, TEAM,
                                 MODE_MIN, False, True)
              for card in hands[seat]}
    return max(scores, key=lambda card: (scores[card], -card))


def test_defender_on_lead_leads_below_all_the_declarers_cards_of_its_suit():
    # East's 3 of spades is below the declarer's 5 and 9: he must win it. The 2 of hearts, lower, finds
    # the declarer void there and lets him discard.
    hands = [[_card(SPADES, 5), _card(SPADES, 9), _card(CLUBS, 4)],
             [_card(SPADES, 3), _card(SPADES, 7), _card(HEARTS, 2)],
             [_card(SPADES, 14), _card(HEARTS, 3), _card(CLUBS, 2)],
             [_card(HEARTS, 4), _card(HEARTS, 5), _card(CLUBS, 3)]]
    assert _first(1, 0, hands, [], 1, -1, -1, -1) == _card(SPADES, 3)


def test_declarer_who_must_win_wins_high():
    # West led the 3 of spades; both of the declarer's spades win the trick: he wins with the jack.
    led = _card(SPADES, 3)
    hands = [[_card(SPADES, 9), _card(SPADES, 11)],
             [_card(SPADES, 4), _card(HEARTS, 2)],
             [_card(SPADES, 5), _card(HEARTS, 3)],
             [_card(HEARTS, 4)]]
    assert _first(DECLARER, 1, hands, [led], 3, SPADES, 3, led) == _card(SPADES, 11)


def test_defender_keeps_the_trick_low_while_the_declarer_is_still_to_play():
    # South led the 6 of spades; West, before the declarer, plays his 2 rather than his 5, so that the
    # declarer's 4 is not enough to duck.
    led = _card(SPADES, 6)
    hands = [[_card(SPADES, 4), _card(SPADES, 10)],
             [_card(HEARTS, 2), _card(HEARTS, 3)],
             [_card(HEARTS, 4)],
             [_card(SPADES, 2), _card(SPADES, 5)]]
    assert _first(3, 1, hands, [led], 2, SPADES, 2, led) == _card(SPADES, 2)


def test_defender_sheds_high_cards_under_a_defenders_winner_once_the_declarer_has_played():
    # West led the 3 of spades, the declarer ducked with the 2: East wins anyway and gets rid of his ace.
    led, ducked = _card(SPADES, 3), _card(SPADES, 2)
    hands = [[_card(HEARTS, 9)],
             [_card(SPADES, 7), _card(SPADES, 14)],
             [_card(SPADES, 5), _card(HEARTS, 3)],
             [_card(HEARTS, 4)]]
    assert _first(1, 2, hands, [led, ducked], 3, SPADES, 3, led) == _card(SPADES, 14)
