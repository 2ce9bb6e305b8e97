"""Hand evaluation and the bidding policy, on hands evaluated by hand."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.cards.deck import parse_card
from analyzer.cards.pbn import parse_deal, parse_hand
from analyzer.errors import InputError
from analyzer.games.rikken.bidding import (
    PASS,
    BiddingParams,
    bid_for,
    choose_trump,
    choose_trump_batch,
    estimated_tricks,
    estimated_tricks_batch,
    fourth_ace_holder,
    hand_features,
    is_legal_bid,
    liabilities,
    liabilities_batch,
    playable_contracts,
    qualifying_contracts,
    troela_batch,
    troela_trump,
)
from analyzer.games.rikken.rules import LEVEL, NO_TRUMP
from analyzer.games.rikken.rules import Contract as K

C, D, H, S = 0, 1, 2, 3
# Spades AKQJ32: no loser in the top three, three more trumps -> 6. Hearts K2: one loser (no ace), 1.
# Diamonds Q43: no ace, no king -> 2 losers, 1. Clubs 32: 2 losers, 0. Total 8 playing tricks.
STRONG = "AKQJ32.K2.Q43.32"
LOWEST = "432.432.5432.432"
ONE_ACE = "A432.432.432.432"
THREE_ACES = "A432.A32.A32.432"


def test_estimated_tricks_by_losing_trick_count():
    assert estimated_tricks(parse_hand(STRONG), S) == 8.0
    # Hearts trump instead: spades are now a side suit, its 3 extra cards count 0.5 each -> 3 + 1.5 + 1 + 1.
    assert estimated_tricks(parse_hand(STRONG), H) == 6.5
    # Side-suit length value is a parameter: at 0 the extras vanish.
    assert estimated_tricks(parse_hand(STRONG), H, BiddingParams(side_length_value=0.0)) == 5.0


def test_hand_features_of_a_strong_hand():
    features = hand_features(parse_hand(STRONG), S)
    # HCP: A K Q J of spades 10, HK 3, DQ 2 = 15. Liabilities (safe 4 = "6", +2 per card): spade J at
    # third place (9 > 8), the HK second (11 > 6), the DQ third (10 > 8) -> 3.
    assert features == {"hcp": 15, "aces": 1, "kings": 2, "len_1": 6, "len_2": 3, "len_3": 2, "len_4": 2,
                        "longest": 6, "trumps": 6, "voids": 0, "singletons": 0, "est_tricks": 8.0, "liabilities": 3}
    assert hand_features(parse_hand("AKQJT98765432..."), NO_TRUMP)["voids"] == 3
    assert hand_features(parse_hand(STRONG), NO_TRUMP)["trumps"] == 0


def test_liabilities_measure():
    # 2 3 4 in a suit sit at or below 4, 6, 8: safe. A lone 9 (rank 7) above 4: one liability.
    assert liabilities(parse_hand(LOWEST), 4, 2) == 0
    assert liabilities(parse_hand("9.5432.5432.5432"), 4, 2) == 1
    # The ace of A432 is the fourth card: 12 > 4 + 2 * 3.
    assert liabilities(parse_hand(ONE_ACE), 4, 2) == 1


def test_choose_trump_longest_then_points_then_higher_suit():
    # Three four-card suits: spades AK32 (7 points) beats hearts Q432 (2) and diamonds 5432.
    hand = parse_hand("AK32.Q432.5432.2")
    assert choose_trump(hand) == S
    assert choose_trump(hand, excluded=S) == H
    # Equal length and points: the higher suit.
    assert choose_trump(parse_hand("5432.5432.432.32")) == S


def test_troela_partner_names_trump_outside_his_ace_suit():
    # Partner: SA and six spades, four hearts: spades would be his best suit but it is his ace suit.
    assert troela_trump(parse_hand("AQ65432.KJ32.32.")) == H
    with pytest.raises(InputError):
        troela_trump(parse_hand("A5432.A32.32.432"))


def test_strong_hand_bids_rik_then_eight_alone_then_passes():
    hand = parse_hand(STRONG)
    exact = BiddingParams(alone_margin=0.0)
    assert bid_for(hand, 0, True, exact) == K.RIK
    # Rik is taken; hearts are too short for Rik Beter, 8 tricks is enough for 8 Alone at margin 0.
    assert bid_for(hand, LEVEL[K.RIK], False, exact) == K.ALONE_8
    assert bid_for(hand, LEVEL[K.ALONE_8], False, exact) == PASS
    # The default margin of one trick keeps this 8-trick hand out of 8 Alone.
    assert bid_for(hand, LEVEL[K.RIK], False) == PASS


def test_nine_trick_hand_bids_eight_alone_by_default():
    # Spades AKQJ32 6, hearts KQ2 2 (one loser: no ace), diamonds 43 0, clubs A2 1 -> 9 = 8 + the margin.
    hand = parse_hand("AKQJ32.KQ2.43.A2")
    assert estimated_tricks(hand, S) == 9.0
    assert bid_for(hand, LEVEL[K.RIK], False) == K.ALONE_8


def test_heart_suit_bids_rik_beter_over_rik():
    # Hearts AKQ432, 6 trumps: estimate 8 with hearts.
    assert bid_for(parse_hand("K2.AKQJ32.Q43.32"), LEVEL[K.RIK], False) == K.RIK_BETER


def test_low_hands_bid_the_best_paying_misery():
    # All cards 2-5: safe for every tier -> Open Misery All (P = 15).
    assert bid_for(parse_hand(LOWEST), 0, True) == K.OPEN_MISERY_ALL
    # A single doubleton ace over low cards: exactly one sure trick -> Open 1 Alone All.
    assert bid_for(parse_hand("A2.5432.5432.432"), 0, True) == K.OPEN_ONE_ALONE_ALL
    # The same ace in a four-card suit is not trusted to take its trick: no 1 Alone of any kind.
    assert not {K.ONE_ALONE, K.OPEN_ONE_ALONE, K.OPEN_ONE_ALONE_ALL} & set(qualifying_contracts(parse_hand(ONE_ACE)))
    assert bid_for(parse_hand(ONE_ACE), 0, True, BiddingParams(one_alone_max_ace_suit=4)) == K.OPEN_ONE_ALONE_ALL
    # Closed Misery only: lowest cards up to "6" are safe for Misery, not for Open Misery (up to "5").
    assert qualifying_contracts(parse_hand("6.6432.65432.432")) == [K.MISERY]
    assert bid_for(parse_hand("6.6432.65432.432"), 0, True) == K.MISERY


def test_joining_at_level_four():
    # Standing Misery (level 4): a misery hand may join it; at level 5 it must pass.
    hand = parse_hand("6.6432.65432.432")
    assert bid_for(hand, 4, False) == K.MISERY
    assert bid_for(hand, 5, False) == PASS


def test_troela_obligation():
    hand = parse_hand(THREE_ACES)
    assert bid_for(hand, 0, True) == K.TROELA
    assert bid_for(hand, LEVEL[K.ALONE_12], True) == K.TROELA
    assert bid_for(hand, LEVEL[K.OPEN_MISERY], True) == K.TROELA  # level 9 is not above 10
    # Standing bid above level 10: no obligation, and Troela is no longer a legal bid.
    assert bid_for(hand, LEVEL[K.OPEN_MISERY_ALL], True) != K.TROELA


def test_playable_contracts_lists_every_contract_set_up():
    rows = playable_contracts(parse_hand(STRONG))
    by_contract = {row[0]: row[1:] for row in rows}
    assert set(by_contract) == set(K) - {K.TROELA}
    # Rik: spades trump, the ace of the longest open suit (diamonds Q43) is called.
    assert by_contract[K.RIK] == (S, parse_card("DA"), False)
    # Rik Beter: hearts trump; open suits D (3 cards) and C (2) -> DA.
    assert by_contract[K.RIK_BETER] == (H, parse_card("DA"), False)
    assert by_contract[K.ALONE_9] == (S, -1, False)
    assert by_contract[K.MISERY] == (NO_TRUMP, -1, False)


def test_playable_contracts_troela_needs_the_deal():
    # N holds three aces; the DA is with S: spades 876, hearts 76, diamonds AQJ76, clubs KQ8.
    # Diamonds (his ace suit) are excluded; spades and clubs have three cards, clubs 5 points -> clubs.
    deal = parse_deal("N:A432.A32.32.A432 KQ5.KQ54.K54.765 876.76.AQJ76.KQ8 JT9.JT98.T98.JT9")
    rows = playable_contracts(int(deal[0]), deal=deal)
    assert (K.TROELA, C, -1, False) in rows
    with pytest.raises(InputError):
        playable_contracts(int(deal[0]))


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 13), st.booleans())
def test_policy_bids_are_legal(perm, standing, first_turn):
    hand = sum(1 << c for c in perm[:13])
    bid = bid_for(hand, standing, first_turn)
    aces = sum(hand >> (s * 13 + 12) & 1 for s in range(4))
    if first_turn and aces == 3 and standing < 10:
        assert bid == K.TROELA
    assert bid == PASS or is_legal_bid(bid, standing)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.permutations(range(52)), min_size=1, max_size=30))
def test_batch_trump_equals_single(perms):
    hands = np.array([sum(1 << c for c in perm[:13]) for perm in perms], dtype=np.int64)
    assert choose_trump_batch(hands).tolist() == [choose_trump(int(h)) for h in hands]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(52)), st.integers(0, 3)), min_size=1, max_size=20))
def test_batch_trump_with_exclusion_equals_single(rows):
    hands = np.array([sum(1 << c for c in perm[:13]) for perm, _x in rows], dtype=np.int64)
    excluded = np.array([x for _p, x in rows], dtype=np.int64)
    expected = [choose_trump(int(h), int(x)) for h, x in zip(hands, excluded)]
    assert choose_trump_batch(hands, excluded).tolist() == expected


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 3), st.integers(0, 3))
def test_troela_batch_equals_single(perm, missing_suit, bidder):
    # Give the bidder the three aces other than ``missing_suit`` plus ten random cards; deal the rest.
    aces = [s * 13 + 12 for s in range(4) if s != missing_suit]
    rest = [c for c in perm if c not in aces]
    bidder_cards = aces + [c for c in rest if c != missing_suit * 13 + 12][:10]
    others = [c for c in rest if c not in bidder_cards]
    hands = [sum(1 << c for c in others[13 * i:13 * i + 13]) for i in range(3)]
    hands.insert(bidder, sum(1 << c for c in bidder_cards))
    deal = np.array(hands, dtype=np.int64)
    partner, trump = troela_batch(deal[None, :], np.array([bidder]))
    assert partner[0] == fourth_ace_holder(deal, bidder)
    assert trump[0] == troela_trump(int(deal[partner[0]]))


def test_troela_batch_needs_three_aces():
    deal = parse_deal("N:A432.A32.32.5432 KQ5.KQ54.AK54.76 876.76.QJ76.AKQ8 JT9.JT98.T98.JT9")
    with pytest.raises(InputError):
        troela_batch(deal[None, :], np.array([0]))


def test_loser_free_hand_reaches_thirteen_alone_despite_the_margin():
    # Spades AKQJT98 (7 trumps, no loser), hearts AKQ, diamonds AKQ: 7 + 3 + 3 = 13 estimated tricks.
    hand = parse_hand("AKQJT98.AKQ.AKQ.")
    assert estimated_tricks(hand, S) == 13.0
    assert {K.ALONE_12, K.ALONE_13, K.OPEN_ALONE_13} <= set(qualifying_contracts(hand))
    # Open 13 Alone pays 20, the most of all: bid it at once.
    assert bid_for(hand, 0, False) == K.OPEN_ALONE_13
    # With six trumps it is not shown: 13 Alone (15) instead.
    six = parse_hand("AKQJT9.AKQ.AKQ.A")
    assert estimated_tricks(six, S) == 13.0
    assert bid_for(six, 0, False) == K.ALONE_13


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(52)), st.integers(0, 4)), min_size=1, max_size=20),
       st.sampled_from([0.0, 0.5, 1.0]), st.integers(0, 6), st.integers(0, 3))
def test_batch_estimates_and_liabilities_equal_single(rows, side_value, safe, step):
    hands = np.array([sum(1 << c for c in perm[:13]) for perm, _t in rows], dtype=np.int64)
    trumps = np.array([t for _p, t in rows], dtype=np.int64)
    params = BiddingParams(side_length_value=side_value)
    expected = [estimated_tricks(int(h), int(t), params) for h, t in zip(hands, trumps)]
    assert estimated_tricks_batch(hands, trumps, params).tolist() == expected
    assert liabilities_batch(hands, safe, step).tolist() == [liabilities(int(h), safe, step) for h in hands]


def test_batch_estimate_of_the_worked_example():
    # STRONG is worth 8 with spades (worked out above) and 6.5 with hearts.
    hands = np.array([parse_hand(STRONG)] * 2, dtype=np.int64)
    assert estimated_tricks_batch(hands, np.array([S, H])).tolist() == [8.0, 6.5]
