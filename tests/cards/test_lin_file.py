"""LIN files read as PBN games; endplay's LIN writer is the oracle."""

import numpy as np
import pytest
from endplay.parsers import lin as endplay_lin
from endplay.types import Board, Deal, Player

from analyzer.cards.dealing import deal_random
from analyzer.cards.lin_file import parse_lin
from analyzer.cards.pbn import format_deal
from analyzer.cards.pbn_file import board_deal
from analyzer.errors import InputError


def test_files_endplay_writes_are_read_with_the_same_deals_boards_and_dealers(tmp_path):
    deals = deal_random(12, 20261206)
    boards = [Board(Deal(format_deal(d)), board_num=n, dealer=Player((n * 3) % 4)) for n, d in enumerate(deals, 1)]
    path = tmp_path / "hands.lin"
    path.write_text(endplay_lin.dumps(boards))  # each board's last hand left out, as BBO writes them
    for n, d in enumerate(deals, 1):
        masks, dealer = board_deal(path, str(n))
        np.testing.assert_array_equal(masks, d)
        assert dealer == (n * 3) % 4  # endplay's Player: N 0, E 1, S 2, W 3, as ours


@pytest.mark.parametrize("text, message", [
    ("md|5SAKQ,,,|", "does not start with a dealer digit"),
    ("md|1SAKQHAKQ,,,|", "is not written as S..H..D..C.."),
    ("md|1SAKQJT98765432HDC,SAHAKQJT98765DC,,|", "a card is dealt twice"),
    ("md|1SAKQJT98765432HDC,SHAKQJT98765432DC,,|", "do not share out the 52 cards, 13 each"),
])
def test_malformed_boards_are_one_line(text, message):
    with pytest.raises(InputError, match=message) as error:
        parse_lin(text, "x.lin")
    assert "\n" not in str(error.value) and "x.lin: board 1" in str(error.value)
