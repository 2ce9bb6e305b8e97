"""Stored rows read back for a person: the hands of a deal as PBN strings."""

import pandas as pd

from analyzer.cards.pbn import parse_hand
from analyzer.reports.dataset import read_dataset, write_part


def test_readable_rows_show_each_hand_as_pbn(tmp_path):
    hands = ["AKQT86.A2.K73.95", "J.KQJT9.AQJ2.AK3", "-.-.-.-"]
    masks = [parse_hand(h) if h != "-.-.-.-" else 0 for h in hands]
    write_part(tmp_path, 0, pd.DataFrame({"deal": [0, 1, 2], "cards_n": masks, "hcp": [13, 20, 0]}))
    rows = read_dataset(tmp_path, readable=True)
    assert list(rows["cards_n"]) == ["AKQT86.A2.K73.95", "J.KQJT9.AQJ2.AK3", "..."]
    assert list(rows["hcp"]) == [13, 20, 0] and list(read_dataset(tmp_path)["cards_n"]) == masks
