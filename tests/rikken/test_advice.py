"""``games/rikken/advice.py``: a hand's options, its play-outs and the paired summary.

Expectations come from the rules (docs/rules.md) and hands worked out by hand, and the summary's
moment algebra is checked against a direct computation from the rows.
"""

import numpy as np
import pandas as pd
import pytest

from analyzer.cards.deck import card_id
from analyzer.cards.pbn import parse_hand
from analyzer.games.rikken import rules
from analyzer.games.rikken.advice import (
    PARTNER_NAMES_TRUMP,
    advice_chunk,
    advice_moments,
    advice_table,
    chunk_deals,
    hand_options,
    merge_advice_moments,
    option_params,
)
from analyzer.games.rikken.experiments import random_deals
from analyzer.games.rikken.rules import Contract as K
from analyzer.reports.stats import paired_difference

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, KING = 12, 11
ALL_SPADES = "AKQJT98765432..."


def _options(text: str) -> dict:
    return {o.name: o for o in hand_options(parse_hand(text), list(K))}


def _params(hand: str, seat: int = 0, dealer: int = 3, policy: str = "heuristic", contracts=tuple(K)) -> dict:
    options = hand_options(parse_hand(hand), contracts)
    return {"policy": policy, "declarer_policy": policy, "defender_policy": policy, "dealing": "random",
            "seat": seat, "dealer": dealer, "options": option_params(options),
            "constraints": {"hand": [f"{'NESW'[seat]}={hand}"]}}, options


def test_options_of_a_one_suiter_name_its_suit_and_call_the_longest_side_ace():
    options = _options("AKQT86.A2.K73.95")
    # Two aces: no Troela; the six spades are the only suit of four or more, so no alternatives.
    assert "troela" not in options
    assert len(options) == len(K) - 1
    assert options["rik-S"].trump == SPADES
    # The ace of a side suit he holds and lacks the ace of, the longer one first: diamonds (3) over clubs (2).
    assert options["rik-S"].called == card_id(DIAMONDS, ACE) and not options["rik-S"].blind
    assert options["rik-beter"].trump == HEARTS
    assert options["misery"].trump == rules.NO_TRUMP


def test_a_second_long_suit_is_an_alternative_trump_for_rik_and_the_alone_contracts():
    options = _options("AK32.QJ987.K2.32")
    assert {"rik-S", "8-alone-H", "8-alone-S", "13-alone-S"} <= set(options)
    assert "rik-C" not in options and "rik-D" not in options
    # Rik Beter's trump is hearts whatever the hand: one option.
    assert [name for name in options if name.startswith("rik-beter")] == ["rik-beter"]


def test_rik_in_hearts_is_one_row_with_rik_beter():
    """Rik in hearts and Rik Beter play and score alike (issue 40 item 8): the Rik Beter row stands for both."""
    hand = parse_hand("AK32.QJ987.K2.32")
    both = {o.name: o for o in hand_options(hand, [rules.Contract.RIK, rules.Contract.RIK_BETER])}
    assert set(both) == {"rik-S", "rik-beter"}
    assert "Rik in hearts" in both["rik-beter"].describe()
    rik_only = {o.name: o for o in hand_options(hand, [rules.Contract.RIK])}
    assert set(rik_only) == {"rik-H", "rik-S"}
    assert (rik_only["rik-H"].trump, rik_only["rik-H"].called) == (both["rik-beter"].trump, both["rik-beter"].called)


def test_a_hand_whose_only_rik_is_in_hearts_may_ask_for_rik_and_rik_beter():
    """Its Rik is the Rik Beter row, so asking for both names no contract the hand cannot declare (review)."""
    from analyzer.games.rikken.advice_experiment import advise_plan
    from analyzer.games.rikken.experiments import Policies

    plan = advise_plan("32.AKQJT98.K3.95", "S", None, Policies.everywhere("heuristic"), "rik,rik-beter", {}, 10, 1,
                       None)
    assert [o.name for o in plan.context[1]] == ["rik-beter"]


def test_three_aces_allow_troela_and_a_void_makes_the_call_blind():
    options = _options("AKQJT.AKQJT.AKQ.")
    assert options["troela"].trump == PARTNER_NAMES_TRUMP
    # The only ace he lacks is the ace of clubs, a suit he is void in: a blind call.
    rik = next(o for name, o in options.items() if name.startswith("rik-") and name != "rik-beter")
    assert rik.called == card_id(CLUBS, ACE) and rik.blind


def test_all_four_aces_call_a_king_he_lacks_outside_trumps():
    rik = _options("A432.A32.A32.A32")["rik-S"]
    suit, rank = divmod(rik.called, 13)
    assert rank == KING and suit != SPADES


def test_a_chunk_draws_its_deals_and_its_play_from_its_seeds_first_two_children():
    """The draws the advice and the bench's bracket tail share: deals from the first child, play from the second."""
    hand = "AKQT86.A2.K73.95"
    params, _ = _params(hand, seat=2, dealer=1)
    deals, leader, play_seed = chunk_deals(params, 5, np.random.SeedSequence(21))
    deal_child, play_child = np.random.SeedSequence(21).spawn(2)
    assert (deals == random_deals(5, deal_child, params["constraints"])).all()
    assert (deals[:, 2] == parse_hand(hand)).all()
    assert (leader == 2).all()  # E deals, so S leads
    assert (play_seed.entropy, play_seed.spawn_key) == (21, play_child.spawn_key)
    rows = advice_chunk(params, 0, 5, np.random.SeedSequence(21))
    assert (rows[rows["option"] == 0]["cards_e"].to_numpy() == deals[:, 1]).all()


@pytest.fixture(scope="module")
def one_suit_rows():
    """The thirteen spades at N, 60 deals, random play, with N on lead and with E on lead."""
    out = {}
    for dealer in (3, 0):
        params, options = _params(ALL_SPADES, dealer=dealer, policy="random")
        out[dealer] = (advice_chunk(params, 0, 60, np.random.SeedSequence(7)), options)
    return out


def test_thirteen_trumps_take_every_trick_whoever_leads(one_suit_rows):
    for rows, options in one_suit_rows.values():
        names = [o.name for o in options]
        for name in ("rik-S", "8-alone-S", "13-alone-S", "open-13-alone-S"):
            chosen = rows[rows["option"] == names.index(name)]
            assert (chosen["tricks"] == 13).all() and chosen["made"].all()
        thirteen = rows[rows["option"] == names.index("13-alone-S")]
        # 13 Alone: base 15, one against three, so +45 in money and 15 points.
        assert (thirteen["money"] == 45).all() and (thirteen["points"] == 15).all()
        rik = rows[rows["option"] == names.index("rik-S")]
        # Rik with 13 tricks: 1 + 5 overtricks = 6, each partner settles with one defender.
        assert (rik["money"] == 6).all() and (rik["points"] == 6).all()


def test_misery_with_thirteen_spades_depends_only_on_the_lead(one_suit_rows):
    for dealer, expected_tricks in ((3, 13), (0, 0)):
        rows, options = one_suit_rows[dealer]
        names = [o.name for o in options]
        misery = rows[rows["option"] == names.index("misery")]
        one = rows[rows["option"] == names.index("1-alone")]
        # At no trump he wins a trick only by leading: on lead he never loses it; off lead he never gets it.
        assert (misery["tricks"] == expected_tricks).all() and (one["tricks"] == expected_tricks).all()
        assert misery["made"].all() == (expected_tricks == 0)
        assert not one["made"].any()
        # Misery is worth 5 either way: +15 made, -15 failed against three defenders.
        assert (misery["money"] == (15 if expected_tricks == 0 else -15)).all()


@pytest.fixture(scope="module")
def strong_hand_rows():
    params, options = _params("AKQT86.A2.K73.95", seat=2, dealer=1)
    return advice_chunk(params, 100, 300, np.random.SeedSequence(11)), options


def test_every_deal_holds_the_hand_and_every_option_plays_the_same_deals(strong_hand_rows):
    rows, options = strong_hand_rows
    assert len(rows) == 300 * len(options)
    assert (rows["cards_s"] == parse_hand("AKQT86.A2.K73.95")).all()
    deals = rows.pivot(index="deal", columns="option", values="cards_n")
    assert deals.shape == (300, len(options)) and (deals.nunique(axis=1) == 1).all()
    assert deals.index.tolist() == list(range(100, 400))
    hands = rows[["cards_n", "cards_e", "cards_s", "cards_w"]].to_numpy()
    assert (np.bitwise_or.reduce(hands, axis=1) == (1 << 52) - 1).all()
    assert all(int(h).bit_count() == 13 for h in hands.ravel())


def test_each_row_is_scored_by_the_rules(strong_hand_rows):
    rows, options = strong_hand_rows
    for row in rows.drop_duplicates(["option", "tricks"]).itertuples():
        made, value = rules.contract_value(row.contract, row.tricks)
        assert row.made == made and row.points == (value if made else 0)
        if rules.SIDE[row.contract] == rules.Side.ALONE:
            assert row.money == (3 * value if made else -3 * value)


def test_the_alone_levels_share_one_play_out(strong_hand_rows):
    rows, options = strong_hand_rows
    names = [o.name for o in options]
    tricks = rows.pivot(index="deal", columns="option", values="tricks")
    for level in ("9-alone-S", "10-alone-S", "13-alone-S"):
        assert (tricks[names.index(level)] == tricks[names.index("8-alone-S")]).all()


def test_the_summary_equals_a_direct_computation_from_the_rows(strong_hand_rows):
    rows, options = strong_hand_rows
    half = rows["deal"] < 250  # two chunks merged must equal one
    moments = merge_advice_moments([advice_moments(rows[half].reset_index(drop=True), len(options)),
                                    advice_moments(rows[~half].reset_index(drop=True), len(options))])
    table = advice_table(moments, options).set_index("option")
    money = rows.pivot(index="deal", columns="option", values="money")
    best = int(money.mean().idxmax())
    assert table.index[0] == options[best].name
    for index, option in enumerate(options):
        entry = table.loc[option.name]
        chosen = rows[rows["option"] == index]
        assert entry["n"] == 300 and entry["rate"] == pytest.approx(chosen["made"].mean())
        assert entry["mean_money"] == pytest.approx(chosen["money"].mean())
        half_width = 1.959963984540054 * chosen["points"].std(ddof=1) / np.sqrt(300)
        assert entry["points_hi"] - entry["mean_points"] == pytest.approx(half_width, abs=1e-9)
        difference, low, high = paired_difference(money[index], money[best])
        assert entry["money_vs_best"] == pytest.approx(difference, abs=1e-9)
        if index != best:
            assert (entry["vs_best_lo"], entry["vs_best_hi"]) == pytest.approx((low, high), abs=1e-9)
        shares = chosen["tricks"].value_counts(normalize=True)
        for tricks, share in shares.items():
            assert entry[f"p_tricks_{tricks}"] == pytest.approx(share)
    probabilities = table.drop(index="pass")[[f"p_tricks_{k}" for k in range(14)]].sum(axis=1)
    assert np.allclose(probabilities, 1.0)
    assert pd.Series(table["mean_money"]).is_monotonic_decreasing
    # Pass scores 0 on every deal: its difference to the best is minus the best's money, paired.
    passing = table.loc["pass"]
    assert (passing["mean_money"], passing["money_lo"], passing["money_hi"]) == (0, 0, 0)
    assert np.isnan(passing["rate"]) and passing["made"] == 0
    difference, low, high = paired_difference(money[best] * 0, money[best])
    assert (passing["money_vs_best"], passing["vs_best_lo"], passing["vs_best_hi"]) == \
        pytest.approx((difference, low, high), abs=1e-9)
