"""Deck reduction and hand-worked scoring examples (docs/rules.md section 3), on both engines."""

import numpy as np
import pytest

from analyzer.cards.deck import parse_card
from analyzer.errors import InputError
from analyzer.games.seconds import kernels
from analyzer.games.seconds import state as reference
from analyzer.games.seconds.rules import (
    CARD_VALUES,
    MINIMUM_PER_HAND,
    MINIMUM_PER_SUIT,
    SecondsRules,
    check_players,
    deck_mask,
    hand_size,
    parse_minimum_variant,
    parse_trump_variant,
    removed_cards,
)


def names(cards):
    return [parse_card(c) for c in cards]


# 52 mod n 2s go, clubs first: 3 -> 1 (C2, as the seed document says), 5 -> 2, 6 -> 4, 7 -> 3, 8 -> 4.
@pytest.mark.parametrize(
    ("n", "removed", "per_hand"),
    [
        (2, [], 26),
        (3, ["C2"], 17),
        (4, [], 13),
        (5, ["C2", "D2"], 10),
        (6, ["C2", "D2", "H2", "S2"], 8),
        (7, ["C2", "D2", "H2"], 7),
        (8, ["C2", "D2", "H2", "S2"], 6),
    ],
)
def test_deck_reduction(n, removed, per_hand):
    assert removed_cards(n) == names(removed)
    assert hand_size(n) == per_hand
    mask = deck_mask(n)
    assert mask.bit_count() == 52 - len(removed)
    for card in names(removed):
        assert not mask >> card & 1


@pytest.mark.parametrize("n", [0, 1, 9, 13])
def test_player_count_out_of_range_is_input_error(n):
    with pytest.raises(InputError):
        SecondsRules(n_players=n)


def test_variant_names():
    assert parse_trump_variant("seed") == 0 and parse_trump_variant("Original") == 1
    assert parse_minimum_variant("per-suit") == 0 and parse_minimum_variant("per-hand") == 1
    with pytest.raises(InputError):
        parse_trump_variant("schell")
    with pytest.raises(InputError):
        parse_minimum_variant("none")


def test_card_values_sum_to_91_per_suit():
    # K 13 + Q 12 + J 11 + (2 + ... + 10 = 54) + A 1 = 91.
    assert CARD_VALUES[parse_card("SK")] == 13 and CARD_VALUES[parse_card("HA")] == 1
    assert CARD_VALUES[parse_card("DT")] == 10 and CARD_VALUES[parse_card("C2")] == 2
    assert all(CARD_VALUES[13 * s:13 * s + 13].sum() == 91 for s in range(4))


def suit_scores_both(points, minimum):
    """Score one suit via the reference and via the kernel (other suits empty for the kernel)."""
    ref = reference.score_suit(points, minimum)
    taken = np.zeros((len(points), 4), np.int64)
    taken[:, 0] = points
    out = np.zeros(len(points), np.int64)
    kernels.score_deal(taken, MINIMUM_PER_SUIT if minimum == MINIMUM_PER_SUIT else MINIMUM_PER_HAND, out)
    return ref, out


# Each case: points taken in one suit, expected per-suit-variant scores, expected scores without floor.
SUIT_CASES = [
    # Ties for first: both 40s are "the most" and score 0; 11 is the second distinct total; 0 is
    # below 5 (floor 5 per suit; nothing without it).
    ([40, 40, 11, 0], [0, 0, 11, 5], [0, 0, 11, 0]),
    # Ties for second: both 20s score 20; 1 is third: 0, floored to 5 per suit.
    ([50, 20, 20, 1], [0, 20, 20, 5], [0, 20, 20, 0]),
    # Two players, one took the whole suit: the 0 is the second distinct total and scores 0 (then 5).
    ([91, 0], [0, 5], [0, 0]),
    # A player with 0 below the second: third place, 0 (floored to 5).
    ([60, 31, 0], [0, 31, 5], [0, 31, 0]),
    # Second place with 3 points: the per-suit floor lifts the 3 to 5, and lifts the 4 (third) too.
    ([84, 4, 3], [0, 5, 5], [0, 4, 0]),
    # Everyone level: no second place, all score 0 (5 each with the floor).
    ([22, 22, 22, 22], [0, 0, 0, 0], [0, 0, 0, 0]),
    # Exactly 5 is not below 5: in third place it scores 0, the floor does not lift it.
    ([60, 26, 5], [0, 26, 0], [0, 26, 0]),
    # 4 is below 5: third place, lifted to 5 per suit.
    ([60, 27, 4], [0, 27, 5], [0, 27, 0]),
    # Exactly 5 in second place scores its total, 5; the 0 below it is lifted per suit.
    ([86, 5, 0], [0, 5, 5], [0, 5, 0]),
]


@pytest.mark.parametrize(("points", "per_suit", "bare"), SUIT_CASES)
def test_suit_scoring_hand_worked(points, per_suit, bare):
    ref, kernel = suit_scores_both(points, MINIMUM_PER_SUIT)
    assert ref == per_suit
    # The kernel scores all four suits; the three empty suits add the floor 5 for every player.
    assert list(kernel - 15) == per_suit
    assert reference.score_suit(points, MINIMUM_PER_HAND) == bare


def deal_scores_both(taken, minimum):
    ref = reference.score_deal(taken, minimum)
    out = np.zeros(len(taken), np.int64)
    kernels.score_deal(np.array(taken, np.int64), minimum, out)
    assert list(out) == ref
    return ref


def test_floor_whole_deal_two_players_one_takes_all():
    # Seat 0 took all 91 points of every suit: it is top everywhere (0 per suit, and 91 is not below 5).
    # Seat 1 has 0 everywhere, the second distinct total, worth 0.
    # per-suit: seat 1 gets the floor 5 in each suit -> [0, 20]; per-hand: both deal totals are 0 -> 5 each.
    taken = [[91, 91, 91, 91], [0, 0, 0, 0]]
    assert deal_scores_both(taken, MINIMUM_PER_SUIT) == [0, 20]
    assert deal_scores_both(taken, MINIMUM_PER_HAND) == [5, 5]


def test_floor_three_players_mixed():
    # Columns C D H S. C: [80, 3, 6] -> second is 6 (seat 2), seat 1's 3 is third.
    # D: [0, 91, 0] -> second is 0 (seats 0 and 2, worth 0). H: [91, 0, 0] same. S: [40, 40, 11] -> 11.
    # per-hand: seat 0 = 0 -> 5, seat 1 = 0 -> 5, seat 2 = 6 + 11 = 17.
    # per-suit: every total below 5 becomes 5: seat 0 = C 0 + D 5 + H 0 + S 0 = 5,
    # seat 1 = C 5 + D 0 + H 5 + S 0 = 10, seat 2 = C 6 + D 5 + H 5 + S 11 = 27.
    taken = [[80, 0, 91, 40], [3, 91, 0, 40], [6, 0, 0, 11]]
    assert deal_scores_both(taken, MINIMUM_PER_HAND) == [5, 5, 17]
    assert deal_scores_both(taken, MINIMUM_PER_SUIT) == [5, 10, 27]


@pytest.mark.parametrize(("clubs", "diamonds", "per_hand"), [(2, 2, 5), (2, 3, 5), (2, 4, 6)])
def test_per_hand_minimum_boundary(clubs, diamonds, per_hand):
    # Two players: seat 1 is second in clubs and diamonds (scores its totals there) and took no hearts
    # or spades (second with 0, worth 0). Per hand its deal total is clubs + diamonds: 4 is below 5 and
    # becomes 5, exactly 5 stays 5 (not 5 per suit, i.e. not 10), 6 stays 6. Seat 0 is top everywhere:
    # 0, lifted to 5. Per suit, seat 1 is below 5 in all four suits: 4 * 5 = 20, seat 0 scores 0.
    taken = [[91 - clubs, 91 - diamonds, 91, 91], [clubs, diamonds, 0, 0]]
    assert deal_scores_both(taken, MINIMUM_PER_HAND) == [5, per_hand]
    assert deal_scores_both(taken, MINIMUM_PER_SUIT) == [0, 20]


def test_policy_parameters_in_one_place():
    from analyzer.games.seconds.policies import DEFAULT_PARAMS, LARGE_TABLE_PARAMS, PARAM_NAMES, params_array

    assert params_array(4).tolist() == [DEFAULT_PARAMS[name] for name in PARAM_NAMES]
    six = dict(zip(PARAM_NAMES, params_array(6)))
    assert all(six[name] == value for name, value in LARGE_TABLE_PARAMS.items())
    assert dict(zip(PARAM_NAMES, params_array(6, rank_weight=2)))["rank_weight"] == 2.0
    with pytest.raises(InputError):
        params_array(4, speed=1)
    for bad in ({"n_samples": 0}, {"max_tries": -1}, {"p_top": 1.5}):
        with pytest.raises(InputError):
            params_array(4, **bad)


def test_the_refusal_names_every_larger_table_the_rule_allows():
    # Four 2s can go: a count divides the deck after removing them when 52 mod n is at most 4.
    allowed = [n for n in range(9, 53) if 52 % n <= 4]
    runs, start = [], allowed[0]
    for previous, n in zip(allowed, allowed[1:] + [None]):
        if n != previous + 1:
            runs += [f"{start}-{previous}"] if previous - start >= 2 else [str(k) for k in range(start, previous + 1)]
            start = n
    with pytest.raises(InputError) as refused:
        check_players(9)
    assert f"also allow {', '.join(runs[:-1])} and {runs[-1]};" in str(refused.value)
