"""Card, hand and deal notation round trips and errors."""

import pytest
from hypothesis import given, strategies as st

from analyzer.cards.deck import card_name, parse_card, parse_card_list
from analyzer.cards.masks import cards_of, highest_bit_index, lowest_bit_index, popcount
from analyzer.cards.pbn import format_deal, format_hand, parse_deal, parse_hand
from analyzer.errors import InputError


def test_card_ids_follow_suit_times_13_plus_rank():
    assert parse_card("C2") == 0
    assert parse_card("SA") == 51
    assert parse_card("h10") == parse_card("HT") == 2 * 13 + 8
    assert card_name(parse_card("DQ")) == "DQ"


@pytest.mark.parametrize("text", ["X5", "S1", "S", "SAA", ""])
def test_bad_cards_raise(text):
    with pytest.raises(InputError):
        parse_card(text)


def test_card_list_rejects_duplicates():
    assert parse_card_list("SA SK, H2") == [51, 50, 26]
    with pytest.raises(InputError, match="twice"):
        parse_card_list("SA SA")


def test_hand_parsing_orders_suits_spades_first():
    mask = parse_hand("AKQ2.T93..J8765")
    names = sorted(card_name(c) for c in cards_of(mask))
    assert names == sorted(["SA", "SK", "SQ", "S2", "HT", "H9", "H3", "CJ", "C8", "C7", "C6", "C5"])
    assert format_hand(mask) == "AKQ2.T93..J8765"


@pytest.mark.parametrize("text", ["AKQ.T93.J8765", "AKQZ...", "AA...", "A.K.Q.J.T"])
def test_bad_hands_raise(text):
    with pytest.raises(InputError):
        parse_hand(text)


DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def test_deal_round_trip_and_rotation():
    masks = parse_deal(DEAL)
    assert format_deal(masks) == DEAL
    rotated = parse_deal("E:" + " ".join(DEAL[2:].split()[1:] + DEAL[2:].split()[:1]))
    assert (rotated == masks).all()


@pytest.mark.parametrize("text, message", [
    ("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876", "4 hands"),
    ("N:AKQJ.AKQ.AKQ.AKQ AKQJ.AKQ.AKQ.AKQ 6543.876.876.876 2.5432.5432.5432", "twice"),
    ("N:AKQJ.AKQ.AKQ.AKQ2 T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543", "13 cards"),
    ("AKQJ.AKQ.AKQ.AKQ", "N:hand"),
])
def test_bad_deals_raise(text, message):
    with pytest.raises(InputError, match=message):
        parse_deal(text)


@given(st.integers(min_value=1, max_value=(1 << 52) - 1))
def test_mask_helpers_match_python(mask):
    assert popcount(mask) == bin(mask).count("1")
    assert lowest_bit_index(mask) == (mask & -mask).bit_length() - 1
    assert highest_bit_index(mask) == mask.bit_length() - 1
