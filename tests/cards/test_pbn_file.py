"""PBN files: tags read through comments, escapes, ``#`` and sections; files we write read back by endplay's
PBN parser (an independent oracle); bad files one line; `rikken deal --pbn` and `rikken solve FILE.pbn`."""

import os
import subprocess
import sys

import numpy as np
import pytest
from endplay.parsers import pbn as endplay_pbn

from analyzer.cards.dealing import deal_random
from analyzer.cards.pbn import format_deal, parse_hand
from analyzer.cards.pbn_file import board_deal, deal_games, format_pbn, game_deal, parse_pbn, read_pbn
from analyzer.errors import InputError

HANDWRITTEN = r"""% PBN 2.1
% EXPORT
; a comment line between games is no game
[Event "Club night; round 1"]
[Board "1"]
[Dealer "E"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Annotator "A \"quoted\" name"]
{ a comment
  [Board "99"] spanning lines, with a tag inside that is no tag }
[Auction "E"]
1S Pass 2S Pass
Pass Pass

[Event "#"]
[Board "2"]  ; the event repeats the previous game's
[Deal "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Play "S"]
SA S2 S5 ST
"""


def test_tags_are_read_through_comments_escapes_repeats_and_sections():
    games = parse_pbn(HANDWRITTEN)
    assert len(games) == 2
    first, second = games
    assert first["Event"] == "Club night; round 1"
    assert first["Annotator"] == 'A "quoted" name'
    assert first["Board"] == "1" and first["Auction"] == "E"
    assert second["Event"] == "Club night; round 1" and second["Board"] == "2"
    assert "Dealer" not in second
    # The same four hands, written from E in the second game: E holds what N held in the first.
    masks, dealer = board_deal_from(games, "2")
    assert dealer is None
    assert int(masks[1]) == parse_hand("AKQJ.T98.765.432")
    masks, dealer = board_deal_from(games, "1")
    assert dealer == 1 and int(masks[0]) == parse_hand("AKQJ.T98.765.432")


def board_deal_from(games, board):
    return game_deal(next(g for g in games if g["Board"] == board))


def test_files_we_write_are_read_by_endplay_with_the_same_deals_boards_and_dealers(tmp_path):
    deals = deal_random(12, 20261205)
    path = tmp_path / "deals.pbn"
    path.write_text(format_pbn(deal_games(deals, 'an "event"', dealer=3)))
    boards = endplay_pbn.load(path.open())
    assert [b.board_num for b in boards] == list(range(1, 13))
    assert [b.deal.to_pbn() for b in boards] == [format_deal(d) for d in deals]
    assert {int(b.dealer) for b in boards} == {3}  # endplay's Player: N 0, E 1, S 2, W 3
    # And by our reader, with every tag of the roster present.
    games = read_pbn(path)
    assert games[0]["Event"] == 'an "event"' and games[0]["Vulnerable"] == "None" and games[0]["Contract"] == ""
    masks, dealer = board_deal(path, "7")
    np.testing.assert_array_equal(masks, deals[6])
    assert dealer == 3


@pytest.mark.parametrize("text, message", [
    ('[Event "x"]\n{ never closed\n', "line 2: a { comment is never closed"),
    ('[Event "x"]\n[Deal N:...]\n', 'line 2: a tag must read [Name "value"]'),
    ('[Event "no line break in a value\n"]\n', 'line 1: a tag must read'),
])
def test_malformed_text_is_one_line_with_its_line_number(text, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("{", r"\{")):
        parse_pbn(text)


def test_a_latin1_file_is_read_as_the_pbn_standard_writes_it(tmp_path):
    latin1 = tmp_path / "l.pbn"
    latin1.write_bytes('[Event "Café club"]\n[Board "1"]\n'.encode("latin-1"))
    assert read_pbn(latin1) == [{"Event": "Café club", "Board": "1"}]


def test_bad_files_are_one_line(tmp_path):
    binary = tmp_path / "b.pbn"
    binary.write_bytes(b"\xff\xfe\x00[Deal")
    with pytest.raises(InputError, match="not a text file"):
        read_pbn(binary)
    with pytest.raises(InputError, match="cannot read"):
        read_pbn(tmp_path / "missing.pbn")
    no_deal = tmp_path / "n.pbn"
    no_deal.write_text('[Board "4"]\n')
    with pytest.raises(InputError, match="board 4 has no Deal tag"):
        board_deal(no_deal, None)
    bad_dealer = tmp_path / "d.pbn"
    bad_dealer.write_text('[Board "2"]\n[Dealer "X"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n')
    with pytest.raises(InputError, match=r"d.pbn: board 2 has Dealer tag 'X': use N, E, S or W"):
        board_deal(bad_dealer, None)
    empty = tmp_path / "e.pbn"
    empty.write_text("% PBN 2.1\n")
    with pytest.raises(InputError, match="no games"):
        board_deal(empty, None)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, check=False)


def test_solve_reads_a_board_of_a_file_written_by_deal(tmp_path):
    path = tmp_path / "d.pbn"
    dealt = run_cli("rikken", "deal", "-n", "3", "--seed", "11", "--pbn", str(path))
    assert dealt.returncode == 0, dealt.stderr
    second = dealt.stdout.splitlines()[1]
    from_file = run_cli("rikken", "solve", str(path), "--board", "2", "--json")
    from_text = run_cli("rikken", "solve", second, "--json")
    assert from_file.returncode == 0, from_file.stderr
    assert from_file.stdout == from_text.stdout
    several = run_cli("rikken", "solve", str(path))
    assert several.returncode == 2 and several.stderr.strip() == f"error: {path} holds 3 boards: pick one with --board"


def test_deal_pbn_writes_through_a_link_and_refuses_missing_folders_and_devices(tmp_path):
    target, link = tmp_path / "target.pbn", tmp_path / "link.pbn"
    target.write_text("old")
    link.symlink_to(target.name)
    assert run_cli("rikken", "deal", "-n", "1", "--pbn", str(link)).returncode == 0
    assert link.is_symlink() and target.read_text().startswith("% PBN")
    typo = run_cli("rikken", "deal", "-n", "1", "--pbn", str(tmp_path / "typo" / "x.pbn"))
    assert typo.returncode == 2 and "does not exist" in typo.stderr and not (tmp_path / "typo").exists()
    fifo = tmp_path / "fifo.pbn"  # not a regular file, like a device, and harmless if the check broke
    os.mkfifo(fifo)
    refused = run_cli("rikken", "deal", "-n", "1", "--pbn", str(fifo))
    assert refused.returncode == 2 and refused.stderr.strip() == f"error: --pbn {fifo} is not a regular file; name a file to write"
    empty = run_cli("rikken", "deal", "-n", "1", "--pbn", "")
    assert empty.returncode == 2 and empty.stderr.strip() == "error: --pbn is empty: name a file"


def test_deal_pbn_refuses_a_loop_of_links_and_a_name_ending_in_a_slash(tmp_path):
    first, second = tmp_path / "first.pbn", tmp_path / "second.pbn"
    first.symlink_to(second.name)
    second.symlink_to(first.name)
    loop = run_cli("rikken", "deal", "-n", "1", "--pbn", str(first))
    assert loop.returncode == 2 and loop.stderr.strip() == f"error: --pbn {first} is a loop of links: name a file"
    slash = run_cli("rikken", "deal", "-n", "1", "--pbn", f"{tmp_path / 'x.pbn'}/")
    assert slash.returncode == 2 and "names a folder" in slash.stderr and not (tmp_path / "x.pbn").exists()
