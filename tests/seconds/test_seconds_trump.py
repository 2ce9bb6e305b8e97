"""Trump emergence in both variants, played card by card through the reference and the kernel."""

import numpy as np

from analyzer.cards.deck import parse_card, parse_card_list
from analyzer.cards.masks import mask_of
from analyzer.games.seconds import kernels
from analyzer.games.seconds.rules import CARD_VALUES, TRUMP_ORIGINAL, TRUMP_SEED
from analyzer.games.seconds.state import DealState

C, D, H, S = range(4)


def play_both(hands_text, plays_text, variant, leader=0):
    """Play the listed cards on both engines; return (reference state, kernel taken, kernel meta)."""
    hands = [mask_of(parse_card_list(h)) for h in hands_text]
    ref = DealState(hands, leader, variant)
    arrays = kernels.new_state_arrays(len(hands))
    kernels.init_round(np.array(hands, np.int64), leader, *arrays)
    for card in parse_card_list(plays_text):
        ref.play(card)
        kernels.apply_action(*arrays, card, variant, CARD_VALUES)
    _, taken, voids, _, meta = arrays
    assert taken.tolist() == ref.taken
    assert voids.tolist() == ref.voids
    assert (meta[kernels.M_TRUMP], meta[kernels.M_TRUMP_TRICK]) == (ref.trump, ref.trump_trick)
    assert meta[kernels.M_LEADER] == ref.leader
    return ref


def test_seed_trick_one_discard_sets_no_trump_then_trick_two_does_and_wins():
    # Trick 1: seat 0 leads CA, seat 1 has no club and throws H5: trick 1 never makes trump (seed),
    # so CA wins: seat 0 takes C 1 (ace) and H 5.
    # Trick 2: seat 0 leads C3, seat 1 throws D9: the first off-suit card from trick 2 on, so
    # diamonds are trump at once and D9 wins its own trick: seat 1 takes C 3 and D 9.
    # Trick 3: seat 1 leads S7, seat 0 has only D4, a trump: seat 0 takes S 7 and D 4.
    ref = play_both(["CA C3 D4", "H5 D9 S7"], "CA H5 C3 D9 S7 D4", TRUMP_SEED)
    assert ref.trump == D and ref.trump_trick == 1
    assert ref.taken == [[1, 4, 5, 7], [3, 9, 0, 0]]


def test_original_trick_one_second_broken_suit_is_trump_and_wins_its_trick():
    # Trick 1, three players: CA led, H5 breaks hearts (first broken suit), D3 breaks diamonds,
    # the second broken suit, so diamonds become trump in trick 1 and D3 wins: seat 2 takes C1 D3 H5.
    ref = play_both(["CA", "H5", "D3"], "CA H5 D3", TRUMP_ORIGINAL)
    assert ref.trump == D and ref.trump_trick == 0 and ref.leader == 2
    assert ref.taken == [[0, 0, 0, 0], [0, 0, 0, 0], [1, 3, 5, 0]]


def test_seed_same_trick_no_trump_on_trick_one():
    # The same trick under the seed rule: trick 1 sets no trump, CA wins.
    ref = play_both(["CA", "H5", "D3"], "CA H5 D3", TRUMP_SEED)
    assert ref.trump == -1 and ref.trump_trick == -1 and ref.leader == 0
    assert ref.taken == [[1, 3, 5, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


def test_original_one_broken_suit_never_makes_trump():
    # Seat 1 only ever discards hearts: hearts are broken (twice) but no second suit is, so there is
    # never a trump and seat 0 wins every trick with clubs: C 1 + 13 + 12, H 5 + 6 + 7.
    ref = play_both(["CA CK CQ", "H5 H6 H7"], "CA H5 CK H6 CQ H7", TRUMP_ORIGINAL)
    assert ref.trump == -1 and ref.first_broken == H
    assert ref.taken == [[26, 0, 18, 0], [0, 0, 0, 0]]


def test_seed_same_hands_hearts_become_trump_on_trick_two():
    # Seed rule on the same hands: trick 1 CA wins (C 1, H 5); trick 2 H6 makes hearts trump and wins
    # (C 13, H 6); seat 1 leads H7 and seat 0's CQ cannot beat the trump (C 12, H 7).
    ref = play_both(["CA CK CQ", "H5 H6 H7"], "CA H5 CK H6 H7 CQ", TRUMP_SEED)
    assert ref.trump == H and ref.trump_trick == 1
    assert ref.taken == [[1, 0, 5, 0], [25, 0, 13, 0]]


def test_trump_setter_can_be_overtrumped_in_the_same_trick():
    # Seed rule, 3 players. Trick 1: CA CK CQ, all clubs, seat 0 wins and leads trick 2.
    # Trick 2: SA led, seat 1 throws D4 (diamonds become trump), seat 2, also void in spades, throws
    # D5, a higher trump, and wins: seat 2 takes S 1, D 4 + 5.
    ref = play_both(["CA SA", "CK D4", "CQ D5"], "CA CK CQ SA D4 D5", TRUMP_SEED)
    assert ref.trump == D and ref.trump_trick == 1 and ref.leader == 2
    assert ref.taken[2] == [0, 9, 0, 1]


def test_seed_only_the_first_off_suit_card_makes_trump():
    # Trick 1: CA CK CQ, seat 0 wins. Trick 2: SA led, seat 1 throws D4 (diamonds trump), seat 2
    # throws H9, a third suit: not trump, so D4 wins: seat 1 takes S 1, D 4, H 9.
    ref = play_both(["CA SA", "CK D4", "CQ H9"], "CA CK CQ SA D4 H9", TRUMP_SEED)
    assert ref.trump == D and ref.trump_trick == 1 and ref.leader == 1
    assert ref.taken == [[26, 0, 0, 0], [0, 4, 9, 1], [0, 0, 0, 0]]


def test_original_only_the_second_broken_suit_makes_trump():
    # Trick 1, four players: CA led, H5 breaks hearts, D3 breaks diamonds (trump at once), S9 breaks a
    # third suit, which is not trump: D3 wins C 1, D 3, H 5, S 9 for seat 2.
    ref = play_both(["CA", "H5", "D3", "S9"], "CA H5 D3 S9", TRUMP_ORIGINAL)
    assert ref.trump == D and ref.trump_trick == 0 and ref.leader == 2
    assert ref.taken[2] == [1, 3, 5, 9]


def test_trump_stays_once_made():
    # Seed: trick 1 CA C2 (seat 0 takes C 3); trick 2 C3 led, D9 makes diamonds trump and wins (C 3,
    # D 9); trick 3 seat 1 leads S7, seat 0 throws H5: hearts do not become trump, S7 wins (H 5, S 7).
    ref = play_both(["CA C3 H5", "C2 D9 S7"], "CA C2 C3 D9 S7 H5", TRUMP_SEED)
    assert ref.trump == D and ref.trump_trick == 1
    assert ref.taken == [[3, 0, 0, 0], [3, 9, 5, 7]]
    # Original, same cards: D9 in trick 2 only breaks diamonds and C3 wins (seat 0: C 6, D 9); seat 0
    # leads H5 and S7 breaks a second suit: spades are trump from trick 3 and S7 wins (H 5, S 7).
    ref = play_both(["CA C3 H5", "C2 D9 S7"], "CA C2 C3 D9 H5 S7", TRUMP_ORIGINAL)
    assert ref.trump == S and ref.trump_trick == 2 and ref.first_broken == D
    assert ref.taken == [[6, 9, 0, 0], [0, 0, 5, 7]]


def test_original_later_trick_second_broken_suit():
    # Original: trick 1 breaks hearts (H2 on CA); trick 2 another heart changes nothing; trick 3 a
    # spade breaks a second suit: spades are trump from trick 3 (index 2) and S2 wins it.
    ref = play_both(["CA CK CQ", "H2 H3 S2"], "CA H2 CK H3 CQ S2", TRUMP_ORIGINAL)
    assert ref.trump == S and ref.trump_trick == 2 and ref.leader == 1
    assert ref.taken == [[14, 0, 5, 0], [12, 0, 0, 2]]


def test_voids_are_recorded_and_following_is_forced():
    # Seat 1 holds no club, so its H2 on CA shows it void in clubs; seat 0 still holds CK.
    ref = play_both(["CA CK", "H2 H3"], "CA H2", TRUMP_SEED)
    assert ref.voids == [0, 1 << C]
    ref = DealState([mask_of(parse_card_list("CA CK")), mask_of(parse_card_list("H2 C3"))], 0, TRUMP_SEED)
    ref.play(parse_card("CA"))
    assert ref.legal() == [parse_card("C3")]
