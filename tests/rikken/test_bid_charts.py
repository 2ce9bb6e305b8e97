"""The `rikken bids` bidding chart, trick-contract panels and Misery / 1 Alone chart, on hand-made
per-hand tables whose advice is worked out by hand."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from analyzer.games.rikken import charts
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, Kind
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.summary import (
    HCP_LABELS,
    NOT_PLAYABLE,
    best_contracts,
    best_no_trump,
    bids_moments,
    merge_bids_moments,
    moment_rows,
)

# Declarer's money when made / failed (the sign is applied below): simple values that keep the
# expected means easy to work out.
STAKE = {"rik": 2, "rik-beter": 2, "misery": 15, "1-alone": 15, "open-misery": 30, "open-1-alone": 30,
         "open-misery-all": 45, "open-1-alone-all": 45}


def hands_table(groups: list[dict], contracts=tuple(K)) -> pd.DataFrame:
    """Per-hand rows as ``bids_chunk`` writes them: each group is ``n`` identical hands (``hcp``,
    ``trumps`` = cards in the named suit, ``hearts``, ``low_cards``) of which the first ``made[name]``
    make contract ``name``; Troela is not playable (no three aces)."""
    frames = []
    for group in groups:
        n = group["n"]
        frame = pd.DataFrame({"hcp": np.full(n, group["hcp"]), "aces": 1, "longest": group["trumps"],
                              "low_cards": group.get("low_cards", 5), "voids": 0, "trumps": group["trumps"],
                              "hearts": group["hearts"], "troela_trumps": 0})
        for contract in contracts:
            name = CONTRACT_CLI_NAMES[contract]
            made = np.arange(n) < group.get("made", {}).get(name, 0)
            stake = STAKE.get(name, 3)
            frame[f"tricks_{name}"] = NOT_PLAYABLE if contract == K.TROELA else np.where(made, 13, 0)
            frame[f"made_{name}"] = made & (contract != K.TROELA)
            frame[f"money_{name}"] = np.where(made, stake, -stake)
            frame[f"points_{name}"] = 0
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


# Cell (14-16 HCP, 5 cards in the named suit): 60 hands with 5 hearts (hearts is the named suit, so
# Rik and Rik Beter are the same play and are made alike), 40 hands with 2 hearts. Over the whole cell
# Rik Beter is made 62 times in 100, so a chart averaging it over the hearts would advise it for the
# 2-heart hands too, where it is made 8 times in 40.
CELL_A = [{"n": 60, "hcp": 15, "trumps": 5, "hearts": 5, "made": {"rik": 54, "rik-beter": 54, "8-alone": 6}},
          {"n": 40, "hcp": 15, "trumps": 5, "hearts": 2, "made": {"rik": 30, "rik-beter": 8, "8-alone": 4}}]
# Cell (14-16, 6): 50 hands with 3 hearts; 8 Alone made 30 times, 9 Alone 20, Rik 45, Rik Beter never.
CELL_B = [{"n": 50, "hcp": 15, "trumps": 6, "hearts": 3, "made": {"rik": 45, "8-alone": 30, "9-alone": 20}}]
# Cell (0-4, 4): 10 hands, fewer than MIN_CELL = 30: counted, not judged.
CELL_C = [{"n": 10, "hcp": 3, "trumps": 4, "hearts": 4, "made": {"rik": 10}}]
TRICK_HANDS = CELL_A + CELL_B + CELL_C


@pytest.fixture(scope="module")
def trick_moments() -> pd.DataFrame:
    return bids_moments(hands_table(TRICK_HANDS))


def cell(best: pd.DataFrame, hcp_bin: str, trumps: int) -> dict:
    rows = best[(best["hcp_bin"] == hcp_bin) & (best["trumps"] == trumps)]
    assert len(rows) == 1
    return rows.iloc[0].to_dict()


def test_rik_beter_is_advised_only_for_the_heart_lengths_it_is_good_for(trick_moments):
    best = best_contracts(trick_moments)
    a = cell(best, "14-16", 5)
    # 5 hearts: Rik 54/60 and Rik Beter 54/60 made, 8 Alone 6/60: the highest made half the time is
    # Rik Beter; means 0.9*2 - 0.1*2 = +1.6 for both (a tie goes to the higher bid).
    assert a["rik_beter_safe_hearts"] == "5" and a["rik_beter_ev_hearts"] == "5"
    # The other 40 hands (2 hearts): Rik 30/40 (mean 0.75*2 - 0.25*2 = +1.0), 8 Alone 4/40.
    assert a["highest_safe"] == "rik" and a["best_ev"] == "rik"
    assert a["best_ev_value"] == pytest.approx(1.0)
    assert a["hands"] == 100
    b = cell(best, "14-16", 6)
    # 8 Alone 30/50 >= 1/2, 9 Alone 20/50 < 1/2; means: Rik 0.9*2 - 0.1*2 = 1.6, 8 Alone 0.6*3 - 0.4*3 = 0.6.
    assert (b["highest_safe"], b["best_ev"], b["rik_beter_safe_hearts"], b["rik_beter_ev_hearts"]) == \
        ("8-alone", "rik", "", "")
    assert b["best_ev_value"] == pytest.approx(1.6)
    c = cell(best, "0-4", 4)
    assert (c["hands"], c["highest_safe"], c["best_ev"], c["rik_beter_safe_hearts"]) == (10, "", "", "")
    assert np.isnan(c["best_ev_value"])  # no advice, so no money (0 would read as passing's)
    assert len(best) == 3


def test_chunked_moments_give_the_same_bidding_chart(trick_moments):
    table = hands_table(TRICK_HANDS)
    merged = merge_bids_moments([bids_moments(table.iloc[:70]), bids_moments(table.iloc[70:])])
    pd.testing.assert_frame_equal(best_contracts(merged), best_contracts(trick_moments))


def cell_texts(ax) -> dict:
    """Text of each cell of a heatmap axis, by (x, y) data position."""
    return {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in ax.texts}


def test_bidding_chart_cells_state_the_advice_hearts_and_hands(trick_moments):
    figure = charts.bidding_chart(best_contracts(trick_moments))
    safe, ev = figure.axes[:2]
    # x runs over the named suit's lengths 4..6, y over the HCP bins.
    assert [t.get_text() for t in safe.get_xticklabels()] == ["4", "5", "6"]
    row = HCP_LABELS.index("14-16")
    assert cell_texts(safe)[(1, row)] == "rik\n\u26655\nn 100"
    assert cell_texts(safe)[(2, row)] == "8-alone\nn 50"
    assert cell_texts(ev)[(1, row)] == "rik\n+1.00\n\u26655\nn 100"
    assert cell_texts(safe)[(0, HCP_LABELS.index("0-4"))] == "n 10"
    # The legend names what the maps show, in auction order.
    legend = [t.get_text() for t in figure.legends[0].get_texts()]
    assert legend == ["rik", "rik-beter", "8-alone"]
    plt.close(figure)


def test_bidding_chart_labels_fit_inside_their_cells():
    # The widest labels a real chart carries: a long contract name, a money value, a range of heart lengths
    # and a five-digit count, in a full 7 x 7 grid (the headline chart's shape).
    rows = [{"hcp_bin": hcp, "trumps": trumps, "hands": 12_683, "highest_safe": "10-alone", "best_ev": "10-alone",
             "best_ev_value": -12.34, "rik_beter_safe_hearts": "3-4,6", "rik_beter_ev_hearts": "3-4,6", "bounded": 0}
            for hcp in HCP_LABELS for trumps in range(4, 11)]
    figure = charts.bidding_chart(pd.DataFrame(rows))
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    for ax in figure.axes[:2]:
        to_data = ax.transData.inverted()
        for text in ax.texts:
            (x0, y0), (x1, y1) = to_data.transform(text.get_window_extent(renderer).get_points())
            assert x1 - x0 < 0.95 and abs(y1 - y0) < 0.95, text.get_text()
    plt.close(figure)


def test_contract_colours_follow_the_auction_order():
    colours = charts.contract_colours([K.ALONE_9, K.RIK, K.ALONE_8])
    assert list(colours) == ["pass", "rik", "8-alone", "9-alone"]
    assert len({colours[name] for name in colours}) == 4


def test_trick_panels_draw_rik_beter_by_hearts_and_merge_the_all_zero_contracts(trick_moments):
    figure = charts.success_by_trumps_and_hcp(trick_moments)
    panels = {ax.get_title(): ax for ax in figure.axes if ax.get_title()}
    row = HCP_LABELS.index("14-16")
    rik_beter = panels["rik-beter: % made"]
    assert rik_beter.get_xlabel() == "hearts held"
    # Hearts 2..5 (cells of 40, 50 and 60 hands; 4 hearts only in the 10-hand cell, blank).
    assert [t.get_text() for t in rik_beter.get_xticklabels()] == ["2", "3", "4", "5"]
    assert cell_texts(rik_beter) == {(0, row): "20", (1, row): "0", (3, row): "90"}
    rik = panels["rik: % made"]
    assert rik.get_xlabel() == "cards in the suit named"
    # Named suits of 5 and 6 cards (the 4-card cell has 10 hands, too few to draw).
    assert [t.get_text() for t in rik.get_xticklabels()] == ["5", "6"]
    assert cell_texts(rik) == {(0, row): "84", (1, row): "90"}
    # 10 Alone and above are never made: one note, no panel each.
    assert {title for title in panels if title.endswith("% made")} == \
        {"rik: % made", "rik-beter: % made", "8-alone: % made", "9-alone: % made"}
    note = " ".join(t.get_text() for ax in figure.axes for t in ax.texts if "Not drawn" in t.get_text())
    for name in ("10-alone", "11-alone", "12-alone", "13-alone", "open-13-alone"):
        assert f"{name}: made 0 of 160 hands" in note
    # Hands per cell: one panel for the contracts played in the named suit, one for Rik Beter's hearts.
    counts = [ax for title, ax in panels.items() if title.startswith("hands per cell")]
    assert len(counts) == 2
    named = next(ax for ax in counts if "8-alone" in ax.get_title())
    assert cell_texts(named) == {(1, row): "100", (2, row): "50", (0, HCP_LABELS.index("0-4")): "10"}
    plt.close(figure)


NO_TRUMP_HANDS = [
    # 0-4 HCP, 10 low cards: Misery 30/50 (mean (30 - 20) * 15 / 50 = +3.0), 1 Alone 5/50 (-12.0),
    # Open Misery 28/50 ((28 - 22) * 30 / 50 = +3.6): Open Misery is the best and worth bidding.
    {"n": 50, "hcp": 2, "trumps": 4, "hearts": 3, "low_cards": 10,
     "made": {"misery": 30, "1-alone": 5, "open-misery": 28}},
    # 11-13 HCP, 4 low cards: only 1 Alone is ever made, 8/40 ((8 - 32) * 15 / 40 = -9.0): pass.
    {"n": 40, "hcp": 12, "trumps": 4, "hearts": 3, "low_cards": 4, "made": {"1-alone": 8}},
]


def test_best_no_trump_contract_per_low_cards_and_hcp():
    table = best_no_trump(bids_moments(hands_table(NO_TRUMP_HANDS)))
    rows = {(r.hcp_bin, r.low_cards): r for r in table.itertuples(index=False)}
    assert set(rows) == {("0-4", 10), ("11-13", 4)}
    good, bad = rows[("0-4", 10)], rows[("11-13", 4)]
    assert (good.top, good.advice, good.hands) == ("open-misery", "open-misery", 50)
    assert good.top_rate == pytest.approx(0.56) and good.top_money == pytest.approx(3.6)
    assert (bad.top, bad.advice, bad.hands) == ("1-alone", "pass", 40)
    assert bad.top_rate == pytest.approx(0.2) and bad.top_money == pytest.approx(-9.0)


def test_no_trump_chart_cells_and_outline():
    figure = charts.low_contract_success(bids_moments(hands_table(NO_TRUMP_HANDS)))
    heatmap = figure.axes[0]
    # Low cards 4..10 on x.
    assert cell_texts(heatmap) == {(6, HCP_LABELS.index("0-4")): "OM 56%\n+3.6\nn 50",
                                   (0, HCP_LABELS.index("11-13")): "1A 20%\n-9.0\nn 40"}
    outlined = [p for p in heatmap.patches if not p.get_fill()]
    assert len(outlined) == 1 and outlined[0].get_x() == pytest.approx(6 - 0.48)
    plt.close(figure)


def only(contracts) -> pd.DataFrame:
    return bids_moments(hands_table(TRICK_HANDS + NO_TRUMP_HANDS, contracts))


def test_charts_with_nothing_to_draw_are_none():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rik = only([K.RIK])
        assert charts.low_contract_success(rik) is None
        misery = only([K.MISERY])
        assert charts.success_by_trumps_and_hcp(misery) is None
        assert best_contracts(misery).empty and charts.bidding_chart(best_contracts(misery)) is None
        for figure in (charts.success_by_trumps_and_hcp(rik), charts.bidding_chart(best_contracts(rik)),
                       charts.low_contract_success(misery)):
            assert figure is not None
            plt.close(figure)


def test_moments_keep_each_grid_only_for_the_contracts_that_chart_it(trick_moments):
    for contract in K:
        if contract == K.TROELA:
            continue
        trick = KIND[contract] == Kind.TRICKS
        assert moment_rows(trick_moments, contract, "hcp_policy_trumps_hearts").empty != trick
        assert moment_rows(trick_moments, contract, "hcp_low_cards").empty == trick
    # Rik Beter's trumps are its hearts: code = HCP bin * 14 + hearts.
    rows = moment_rows(trick_moments, K.RIK_BETER, "hcp_trumps")
    bin_1416 = HCP_LABELS.index("14-16")
    assert dict(zip(rows["code"], rows["n"])) == {bin_1416 * 14 + 2: 40, bin_1416 * 14 + 3: 50,
                                                   bin_1416 * 14 + 5: 60, 4: 10}
