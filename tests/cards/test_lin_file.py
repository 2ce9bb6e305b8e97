"""LIN files read as PBN games and written from deals; endplay's LIN writer and reader are the oracles."""

import numpy as np
import pytest
from endplay.parsers import lin as endplay_lin
from endplay.types import Board, Deal, Player

from analyzer.cards.dealing import deal_random
from analyzer.cards.lin_file import format_lin, parse_lin
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


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_files_we_write_endplay_reads_with_the_same_deals_boards_and_dealers(dealer):
    deals = deal_random(7, 20261207 + dealer)
    boards = endplay_lin.loads(format_lin(deals, dealer))
    assert [b.board_num for b in boards] == list(range(1, 8))
    for board, d in zip(boards, deals):
        assert board.deal.to_pbn() == format_deal(d) and int(board.dealer) == dealer


def test_rikken_deal_writes_the_deals_it_prints_to_a_lin_file(tmp_path, capsys):
    from analyzer.cli.app import main

    path = tmp_path / "deals.lin"
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "deal", "-n", "3", "--seed", "5", "--lin", str(path)])
    assert stop.value.code == 0
    printed = capsys.readouterr().out.split("\n")[:3]
    assert [g["Deal"] for g in parse_lin(path.read_text())] == printed
    assert board_deal(path, "2")[1] == 3  # dealt by W, as every command's default
