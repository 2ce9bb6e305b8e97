"""The shared trick rule ``beats`` against an independent ordering of the cards, on every case."""

import itertools

from analyzer.cards.tricks import NO_TRUMP, beats


def rank_in_trick(card: int, led_suit: int, trump: int) -> tuple[int, int]:
    """How a card ranks in a trick: trumps above the led suit above the rest, then by rank."""
    suit, rank = divmod(card, 13)
    return (2 if suit == trump else 1 if suit == led_suit else 0), rank


def test_beats_agrees_with_the_card_order_of_a_trick_on_every_case():
    # Every card against every winner the trick can have (a card of the led suit or a trump), every
    # led suit, every trump and no trump (as NO_TRUMP and as -1, Sloppy Seconds' "not yet").
    checked = 0
    for led_suit, trump in itertools.product(range(4), (*range(4), NO_TRUMP, -1)):
        winners = [c for c in range(52) if rank_in_trick(c, led_suit, trump)[0] > 0]
        for card, win_card in itertools.product(range(52), winners):
            if card == win_card:
                continue
            expected = rank_in_trick(card, led_suit, trump) > rank_in_trick(win_card, led_suit, trump)
            assert beats(card, win_card, 1, led_suit, trump) == expected, (card, win_card, led_suit, trump)
            checked += 1
    assert checked > 20_000


def test_with_no_winner_yet_a_card_of_the_led_suit_or_a_trump_takes_the_trick():
    for led_suit, trump, card in itertools.product(range(4), (*range(4), NO_TRUMP), range(52)):
        assert beats(card, -1, -1, led_suit, trump) == (card // 13 in (led_suit, trump))
