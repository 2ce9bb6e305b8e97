"""``games/rikken/advice_verdict.py`` and the bracket of ``advice.py``: the headline (declare, pass, or
options within noise) and the flags of options whose verdict changes under perfect play.

The rows are made up, so that every mean and interval is worked out by hand here (normal 95%
intervals, z = 1.96) rather than taken from the code under test.
"""

import numpy as np
import pandas as pd
import pytest

from analyzer.games.rikken.advice import Option, advice_moments, advice_table, bracket_quota
from analyzer.games.rikken.advice_verdict import DIFFERS, MADE_LESS, bracket_sentences, bracket_table, headline
from analyzer.games.rikken.rules import NO_TRUMP
from analyzer.games.rikken.rules import Contract as K

SPADES = 3
RIK, EIGHT, MISERY = Option(K.RIK, SPADES, called=2 * 13 + 12), Option(K.ALONE_8, SPADES), Option(K.MISERY, NO_TRUMP)
OPTIONS = [RIK, EIGHT, MISERY]
# Pays: mean 0.7, sd 0.949, half-width 0.588 on 10 deals: [0.112, 1.288].
PAYS = [1] * 9 + [-2]


def _rows(money: dict, perfect: dict | None = None) -> pd.DataFrame:
    """Option-major rows over the same deals: ``money`` maps an option to its money per deal (made where
    positive); ``perfect`` likewise under perfect play (every deal in the bracket)."""
    frames = []
    for index, option in enumerate(OPTIONS):
        values = np.asarray(money[option], dtype=np.int64)
        frame = pd.DataFrame({"option": index, "made": values > 0, "tricks": np.where(values > 0, 8, 5),
                              "money": values, "points": np.maximum(values, 0)})
        if perfect is not None:
            exact = np.asarray(perfect[option], dtype=np.int64)
            frame = frame.assign(perfect=True, perfect_made=exact > 0, perfect_money=exact,
                                 perfect_money_high=exact, perfect_exact=True, perfect_tricks=0)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _table(money, perfect=None):
    moments = advice_moments(_rows(money, perfect), len(OPTIONS))
    return moments, advice_table(moments, OPTIONS)


def test_every_option_losing_means_pass():
    """Rik loses 0.6 a deal on average ([-1.29, +0.09]: not above zero), the others far more: pass, and
    pass is the best row, each option's difference to it being its own money."""
    _, table = _table({RIK: [-1] * 8 + [1] * 2, EIGHT: [-3] * 10, MISERY: [-15] * 10})
    verdict = headline(table)
    assert verdict["advice"] == "pass" and verdict["options"] == ["pass"]
    assert verdict["sentence"].startswith("Advice: pass.")
    assert table.iloc[0]["option"] == "pass"
    rik = table.set_index("option").loc["rik-S"]
    assert rik["money_vs_best"] == pytest.approx(-0.6)
    assert (rik["vs_best_lo"], rik["vs_best_hi"]) == pytest.approx((rik["money_lo"], rik["money_hi"]))


def test_a_mean_above_zero_whose_interval_reaches_below_it_is_still_pass():
    """Rik makes +0.2 a deal, sd 1.033, half-width 0.640 on 10 deals: [-0.44, +0.84] is not above zero."""
    _, table = _table({RIK: [1] * 6 + [-1] * 4, EIGHT: [-3] * 10, MISERY: [-15] * 10})
    assert table.iloc[0]["option"] == "rik-S"
    assert headline(table)["advice"] == "pass"


def test_an_option_above_zero_and_clear_of_the_rest_is_named():
    _, table = _table({RIK: PAYS, EIGHT: [-3] * 10, MISERY: [-15] * 10})
    verdict = headline(table)
    assert verdict["advice"] == "rik-S" and verdict["options"] == ["rik-S"]
    assert verdict["sentence"].startswith("Advice: rik-S (spades trumps, calls HA), made 90.0%")


def test_options_within_noise_are_named_together():
    """8 Alone differs from Rik on one deal only (-3): paired mean -0.3, half-width 0.588, so the
    difference's interval [-0.888, +0.288] includes zero. Pass does not: Rik's interval lies above zero."""
    eight = [-2] + PAYS[1:]
    _, table = _table({RIK: PAYS, EIGHT: eight, MISERY: [-15] * 10})
    verdict = headline(table)
    assert verdict["advice"] == "close" and verdict["options"] == ["rik-S", "8-alone-S"]
    assert "no single best" in verdict["sentence"]


def test_the_bracket_flags_an_option_that_pays_one_way_and_loses_the_other():
    """Rik pays under ordinary play ([0.112, 1.288]) and loses 1 on every deal with perfect play: flagged
    as a changed verdict. Misery is made on all 10 deals one way and on 3 the other: the perfect money
    interval spans zero (-6 +- 8.98), so the verdict is not firm, but the paired make-rate change -0.7
    (half-width 0.299) is: flagged as made less often. 8 Alone loses both ways: no flag."""
    perfect = {RIK: [-1] * 10, EIGHT: [-3] * 10, MISERY: [15] * 3 + [-15] * 7}
    moments, table = _table({RIK: PAYS, EIGHT: [-3] * 10, MISERY: [15] * 10}, perfect)
    ordinary = table[table["option"] != "pass"]
    bracket = bracket_table(moments, OPTIONS, ordinary).set_index("option")
    assert bracket.loc["rik-S", "flag"] == DIFFERS
    assert (bracket.loc["rik-S", "verdict"], bracket.loc["rik-S", "perfect_verdict"]) == ("pays", "loses")
    assert bracket.loc["misery", "flag"] == MADE_LESS and bracket.loc["misery", "perfect_verdict"] == "unclear"
    assert bracket.loc["misery", "rate_change"] == pytest.approx(-0.7)
    assert bracket.loc["misery", "perfect_money"] == pytest.approx(-6)
    assert bracket.loc["8-alone-S", "flag"] == ""
    sentences = bracket_sentences(bracket.reset_index(), ordinary, "heuristic")
    by_option = {sentence.split()[0]: sentence for sentence in sentences}
    assert set(by_option) == {"rik-S", "misery"}
    assert by_option["rik-S"].startswith("rik-S pays under heuristic play (+0.70 a deal) but loses with perfect play")
    assert by_option["misery"].startswith("misery is made 100% under heuristic play but only 30%")
    for sentence in sentences:  # an interval inside parentheses reads badly: no nesting
        depth = 0
        for char in sentence:
            depth += {"(": 1, ")": -1}.get(char, 0)
            assert depth <= 1, sentence


@pytest.mark.parametrize("bracket, total, chunk", [(40, 50_000, 10_000), (7, 10, 3), (200, 2_000, 500), (3, 3, 1)])
def test_bracket_quotas_add_up_to_the_bracket(bracket, total, chunk):
    quotas = [bracket_quota(bracket, total, start, min(chunk, total - start)) for start in range(0, total, chunk)]
    assert sum(quotas) == bracket
    assert all(0 <= q <= min(chunk, total - start) for q, start in zip(quotas, range(0, total, chunk)))
    if (bracket, total, chunk) == (40, 50_000, 10_000):
        assert quotas == [8] * 5


def test_the_bracket_replays_the_same_deals_perfectly_and_leaves_the_ordinary_play_alone():
    """Chunk of 4 deals, 2 of them in the bracket: the ordinary columns equal those of the run without the
    bracket, and the perfect-play tricks are the solver's count for 8 Alone in spades on each deal."""
    from analyzer.cards.pbn import parse_hand
    from analyzer.games.rikken import rules
    from analyzer.games.rikken.advice import advice_chunk, hand_options, option_params
    from analyzer.games.rikken.dd import declarer_count

    hand = "AKQT86.A2.K73.95"
    options = hand_options(parse_hand(hand), [K.ALONE_8])
    params = {"policy": "heuristic", "declarer_policy": "heuristic", "defender_policy": "heuristic",
              "dealing": "random", "seat": 0, "dealer": 3, "options": option_params(options),
              "constraints": {"hand": [f"N={hand}"]}}
    plain = advice_chunk(params, 4, 4, np.random.SeedSequence(9))
    bracketed = advice_chunk({**params, "bracket": {"deals": 4, "of": 8, "budget": 0}}, 4, 4,
                             np.random.SeedSequence(9))
    pd.testing.assert_frame_equal(bracketed[plain.columns], plain)
    assert bracketed["perfect"].tolist() == [True, True, False, False]
    for row in bracketed[bracketed["perfect"]].itertuples():
        hands = [row.cards_n, row.cards_e, row.cards_s, row.cards_w]
        tricks = declarer_count(hands, 0, SPADES, 1 << 0, rules.Kind.TRICKS)
        assert row.perfect_tricks == tricks and row.perfect_made == (tricks >= 8)
        assert row.perfect_money == (3 * (tricks - 7) if tricks >= 8 else -3 * (1 + 8 - tricks))


def test_the_console_shows_a_lopsided_interval_as_its_ends():
    from analyzer.games.rikken.advice import MAX_TRICKS
    from analyzer.games.rikken.advice_experiment import shown_table

    # The best option has bounded rows, the other none: the other's difference to the best reaches
    # further down (the best's high ends) than up. The review's case: -19.00 in [-36.09, -2.87].
    row = {"rate": 0.5, "rate_lo": 0.4, "rate_hi": 0.6, **{f"p_tricks_{k}": 0.0 for k in range(MAX_TRICKS + 1)}}
    table = pd.DataFrame([
        {**row, "option": "best", "mean_money": 5.0, "money_lo": 4.0, "money_hi": 30.0, "money_vs_best": 0.0,
         "vs_best_lo": 0.0, "vs_best_hi": 0.0, "bounded": 3},
        {**row, "option": "other", "mean_money": -14.0, "money_lo": -15.0, "money_hi": -13.0,
         "money_vs_best": -19.0, "vs_best_lo": -36.09, "vs_best_hi": -2.87, "bounded": 0}])
    shown = shown_table(table)
    assert list(shown["money"]) == ["+5.00 [+4.00, +30.00]", "-14.00 ±1.00"]
    assert shown["vs best"].iloc[1] == "-19.00 [-36.09, -2.87]"
