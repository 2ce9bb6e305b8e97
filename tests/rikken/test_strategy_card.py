"""The strategy card's cells: three-ace hands apart, small cells blank, the contracts without trumps shown by
low cards. Expected cells are counted by hand from the frames built here."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyzer.games.rikken.bidding import PASS
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.strategy import card_cells, contract_card
from analyzer.games.rikken.strategy_charts import strategy_card


def hands(n: int, hcp: int, aces: int, trumps: int, low_cards: int, bid: int, made: bool = False) -> list[dict]:
    return [{"hcp": hcp, "aces": aces, "trumps": trumps, "low_cards": low_cards, "bid": int(bid),
             "predicted": np.nan if bid == PASS else 0.5, "made": made}] * n


def frame(*groups) -> pd.DataFrame:
    return pd.DataFrame([row for group in groups for row in group])


def only(cells: pd.DataFrame, panel: str, hcp: str, bin_label: str) -> dict:
    rows = cells[(cells["panel"] == panel) & (cells["hcp"] == hcp) & (cells["bin"] == bin_label)]
    assert len(rows) == 1
    return rows.iloc[0].to_dict()


def test_three_ace_hands_have_their_own_panel_and_stay_out_of_the_grids():
    bids = frame(hands(40, 16, 3, 5, 4, K.TROELA, made=True), hands(30, 16, 1, 5, 4, K.RIK, made=True),
                 hands(10, 16, 1, 5, 4, PASS))
    cells = card_cells(bids)
    # The 40 three-ace hands: HCP 16 is bin 15-17.
    aces = only(cells, "three_aces", "15-17", "")
    assert (aces["hands"], aces["bid"], aces["share"], aces["make_rate"]) == (40, "troela", 1.0, 1.0)
    # The grid cell (15-17, 5 trumps) holds the other 40 hands only: Rik 30 of 40, all made.
    trick = only(cells, "trumps", "15-17", "5")
    assert (trick["hands"], trick["bid"], trick["share"], trick["make_rate"]) == (40, "rik", 0.75, 1.0)
    assert "troela" not in set(cells.loc[cells["panel"] != "three_aces", "bid"])


def test_cells_name_a_bid_only_with_30_hands_and_10_bidders():
    bids = frame(hands(29, 10, 0, 6, 6, K.RIK),  # 29 hands: too few
                 hands(30, 13, 0, 6, 6, K.RIK, made=True),  # 30 hands: shown
                 hands(25, 7, 0, 4, 10, PASS), hands(5, 7, 0, 4, 10, K.MISERY))  # 5 Misery bidders: too few
    cells = card_cells(bids)
    small = only(cells, "trumps", "9-11", "6")
    assert (small["hands"], small["bid"]) == (29, "")
    assert only(cells, "trumps", "12-14", "6")["bid"] == "rik"
    assert only(cells, "low_cards", "6-8", "10+")["bid"] == ""


def test_the_low_card_grid_shows_the_commonest_bid_without_trumps_even_when_pass_is_commoner():
    bids = frame(hands(60, 3, 0, 4, 11, PASS), hands(12, 3, 0, 4, 11, K.OPEN_MISERY, made=True),
                 hands(28, 3, 0, 4, 11, K.MISERY, made=False), hands(30, 3, 0, 4, 11, K.RIK))
    cells = card_cells(bids)
    low = only(cells, "low_cards", "0-5", "10+")
    # Pass (60) and Rik (30) outnumber Misery (28), but this grid names the contracts without trumps.
    assert (low["hands"], low["bid"], low["share"], low["make_rate"]) == (130, "misery", 28 / 130, 0.0)
    assert only(cells, "trumps", "0-5", "4")["bid"] == "pass"


def test_the_card_draws_every_panel(tmp_path):
    bids = frame(hands(40, 16, 3, 5, 4, K.TROELA, made=True), hands(40, 3, 0, 4, 11, K.MISERY, made=True),
                 hands(40, 12, 1, 6, 5, K.RIK))
    figure = strategy_card(card_cells(bids), contract_card(bids), "a title")
    texts = {t.get_text() for ax in figure.axes for t in ax.texts}
    assert {"troela\n100% of 40\nmade 100%", "misery\n100% of 40\nmade 100%", "rik\n100% of 40\nmade 0%"} <= texts
    plt.close(figure)
