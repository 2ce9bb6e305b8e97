"""``analyzer rikken replay`` end to end: a real ``rikken play`` run's rounds shown again, as text and strict JSON.

Expectations come from the run's stored rows (``rounds/``) and from the rules; the rows chosen (a passed-out
round, a blind call) are found in the stored table, not in the replay's output.
"""

import json
import re

import pandas as pd
import pytest

from analyzer.cards.deck import parse_card
from analyzer.cards.pbn import SEAT_LETTERS, format_hand
from analyzer.cli.app import main
from analyzer.games.rikken.dd import DEFAULT_BUDGET

DEAL_COLUMNS = ("cards_n", "cards_e", "cards_s", "cards_w")
# N holds every spade, E every heart, S every diamond, W every club.
FULL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
PLAY = ["--seed", "4", "--chunk-size", "500"]


def _run(capsys, *argv):
    with pytest.raises(SystemExit) as stop:
        main(["rikken", *argv])
    captured = capsys.readouterr()
    assert stop.value.code == 0, captured.err
    return captured.out


def _strict_json(text: str) -> dict:
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """40 heuristic rounds of ``rikken play --seed 4`` in one chunk: the rows the run stored."""
    out = tmp_path_factory.mktemp("play") / "run"
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "play", "--rounds", "40", "--workers", "1", "--out", str(out), "--json", *PLAY])
    assert stop.value.code == 0
    return pd.read_parquet(out / "rounds").set_index("round").sort_index()


def _replay(capsys, index, *extra):
    text = _run(capsys, "replay", "--index", str(index), *PLAY, *extra)
    payload = _strict_json(_run(capsys, "replay", "--index", str(index), *PLAY, *extra, "--json"))
    return text, payload


def test_json_and_text_show_the_stored_round(stored, capsys):
    index = int(stored.index[~stored["passed_out"]][3])
    row = stored.loc[index]
    text, payload = _replay(capsys, index)
    assert payload["source"] == {"seed": 4, "index": index, "chunk": 0, "chunk_size": 500, "dealing": "random",
                                 "policies": "policy heuristic", "bidding": "bidding rules",
                                 "judge_budget": DEFAULT_BUDGET}
    hands = [format_hand(row[c]) for c in DEAL_COLUMNS]
    assert [payload["deal"][seat] for seat in SEAT_LETTERS] == hands
    for seat, hand in zip(SEAT_LETTERS, hands):
        assert f"  {seat}  {hand}" in text.splitlines()
    assert [payload["scores"][seat] for seat in SEAT_LETTERS] == [
        {"tricks": row[f"tricks_{s}"], "points": row[f"points_{s}"], "money": row[f"money_{s}"]} for s in range(4)]
    # The scores a seat a line under their heads, so no wrap splits a seat from its figures.
    assert "Scores:  tricks  points  money" in text
    for s, seat in enumerate(SEAT_LETTERS):
        figures = " +".join(re.escape(f"{v:+d}") for v in (row[f"points_{s}"], row[f"money_{s}"]))
        figures = rf"{row[f'tricks_{s}']} +{figures}"
        assert re.search(rf"^  {seat} +{figures}$", text, re.MULTILINE), seat
    # Every trick line shows the four cards in play order and the winner, as the JSON has them.
    lines = [line for line in text.splitlines() if re.match(r"\s+\d+\. [NESW] leads:", line)]
    assert len(lines) == len(payload["tricks"]) == 13
    for line, trick in zip(lines, payload["tricks"]):
        cards = "  ".join(f"{c['seat']} {c['card']}" for c in trick["cards"])
        # Without the cost marks (their own test checks them).
        assert f"{trick['leader']} leads: {cards}  -> {trick['winner']} wins" in re.sub(r" \([^)]*\)", "", line)
    # Thirteen tricks of four different cards: the whole pack, each seat its own hand.
    played = {seat: 0 for seat in SEAT_LETTERS}
    for trick in payload["tricks"]:
        for card in trick["cards"]:
            played[card["seat"]] |= 1 << parse_card(card["card"])
    assert [played[seat] for seat in SEAT_LETTERS] == [int(row[c]) for c in DEAL_COLUMNS]
    contract = payload["contracts"][0]
    assert f"Result: {contract['seat']} {contract['contract']} {'made' if contract['made'] else 'failed'}" in text
    assert bool(row[f"made_{SEAT_LETTERS.index(contract['seat'])}"]) == contract["made"]


def test_a_passed_out_round_says_so(stored, capsys):
    index = int(stored.index[stored["passed_out"]][0])
    text, payload = _replay(capsys, index)
    assert payload["passed_out"] and payload["tricks"] == [] and payload["trump"] is None
    assert "Passed out: all four passed" in text and "leads:" not in text
    bids = ", ".join(f"{SEAT_LETTERS[(index + k) % 4]} pass" for k in range(1, 5))
    assert f"Auction: {bids}" in text


def test_a_blind_call_shows_the_face_down_lead(stored, capsys):
    index = int(stored.index[stored["blind_call"]][0])
    row = stored.loc[index]
    text, payload = _replay(capsys, index)
    call = payload["call"]
    assert call["blind"] and not call["king"] and parse_card(call["card"]) == row["called_card"]
    assert f"Called {call['card']} (blind ace call)" in text
    downs = [c for t in payload["tricks"] for c in t["cards"] if c["face_down"]]
    bidder = payload["contracts"][0]["seat"]
    assert downs and all(c["seat"] == bidder for c in downs)
    assert f"{bidder} face down {downs[0]['card']}" in text


def test_a_given_deal_under_dd_play(capsys):
    """S bids first (E deals) with all thirteen diamonds: Open 13 Alone, every trick, P = 20."""
    text = _run(capsys, "replay", FULL, "--dealer", "E", "--policy", "dd")
    payload = _strict_json(_run(capsys, "replay", FULL, "--dealer", "E", "--policy", "dd", "--json"))
    assert payload["source"] == {"deal": FULL, "seed": 0,
                                 "policies": "policy dd (dd turns within 1,000,000 completed tricks)",
                                 "bidding": "bidding rules", "judge_budget": DEFAULT_BUDGET}
    assert payload["contracts"] == [{"seat": "S", "contract": "Open 13 Alone", "side": ["S"],
                                     "needs": "all 13 tricks", "side_tricks": 13, "made": True}]
    assert text.count("-> S wins") == 13 and "S 13 (need all 13 tricks)" in text
    assert payload["scores"]["S"] == {"tricks": 13, "points": 20, "money": 60}


def test_dd_round_of_a_run(tmp_path, capsys):
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "play", "--rounds", "4", "--policy", "dd", "--seed", "5", "--workers", "1", "--out", str(out),
              "--json"])
    assert stop.value.code == 0
    capsys.readouterr()  # the play run's own summary
    row = pd.read_parquet(out / "rounds").set_index("round").loc[2]
    payload = _strict_json(_run(capsys, "replay", "--seed", "5", "--index", "2", "--policy", "dd", "--json"))
    assert payload["source"]["chunk"] == 1 and payload["source"]["chunk_size"] == 2
    assert [payload["scores"][seat]["money"] for seat in SEAT_LETTERS] == [row[f"money_{s}"] for s in range(4)]


def test_every_card_is_marked_with_its_cost_and_no_judge_leaves_them_out(stored, capsys):
    """The text marks each card as its JSON cost says ((-n) tricks, ! the contract), the summary line adds
    the tricks per seat, and --no-judge drops costs, marks and the summary."""
    index = int(stored.index[~stored["passed_out"]][3])
    text, payload = _replay(capsys, index)
    [contract] = payload["contracts"]
    lines = [line for line in text.splitlines() if re.match(r"\s+\d+\. [NESW] leads:", line)]
    given = {seat: 0 for seat in SEAT_LETTERS}
    for line, trick in zip(lines, payload["tricks"]):
        for card in trick["cards"]:
            [cost] = card["cost"]
            assert cost["tricks"] == cost["tricks_high"]  # this round's counts are exact within the budget
            mark = (f"-{cost['tricks']}" if cost["tricks"] else "") + ("!" if cost["contract"] else "")
            shown = f"{card['seat']} {card['card']}" + (f" ({mark})" if mark else "")
            assert re.search(re.escape(shown) + r"(  |$)", line), (shown, line)
            given[card["seat"]] += cost["tricks"]
    if any(given.values()):
        sides = (contract["side"], [s for s in SEAT_LETTERS if s not in contract["side"]])
        assert (f"{contract['seat']} {contract['contract']}: tricks given up by " + ", by ".join(
            f"{'+'.join(side)} {sum(given[s] for s in side)} (" + ", ".join(f"{s} {given[s]}" for s in side) + ")"
            for side in sides) + ".") in text.replace("\n  ", " ")
    assert max(len(line) for line in text.splitlines() if not re.match(r"\s+\d+\. [NESW] leads:", line)) <= 80
    plain, bare = _replay(capsys, index, "--no-judge")
    assert "cost" not in bare["tricks"][0]["cards"][0] and "judge_budget" not in bare["source"]
    assert "judged" not in plain and "(-" not in plain


def test_cost_marks_write_bounds_as_tables_do():
    """A judged card's cost: ``(-1)`` exact, ``(-[0, 2])`` bounds, ``!`` the contract, nothing for no cost."""
    from analyzer.cli.rikken_replay import cost_mark

    def cost(low, high, contract=False, declarer="N"):
        return {"tricks": low, "tricks_high": high, "contract": contract, "declarer": declarer}

    assert cost_mark([cost(1, 1)]) == " (-1)"
    assert cost_mark([cost(0, 2)]) == " (-[0, 2])"
    assert cost_mark([cost(0, 2, True)]) == " (-[0, 2]!)"
    assert cost_mark([cost(0, 0)]) == ""
    assert cost_mark([cost(1, 1), cost(0, 0, declarer="E")], several=True) == " (N-1)"


def test_a_board_of_a_pbn_file_replays_as_its_deal_typed_in(tmp_path, capsys):
    """A .pbn file's board, dealt by its Dealer tag, is the round of the same deal typed in with that dealer;
    --dealer overrides the tag; a board of an ending (not 13 cards a hand) is refused in one line."""
    path = tmp_path / "boards.pbn"
    path.write_text('[Board "1"]\n[Dealer "N"]\n[Deal "N:AK... .AK.. 43... .43.."]\n\n'
                    f'[Board "2"]\n[Dealer "E"]\n[Deal "{FULL}"]\n', encoding="utf-8")
    typed = _strict_json(_run(capsys, "replay", FULL, "--dealer", "E", "--no-judge", "--json"))
    from_file = _strict_json(_run(capsys, "replay", str(path), "--board", "2", "--no-judge", "--json"))
    assert from_file == typed and typed["dealer"] == "E"
    west = _strict_json(_run(capsys, "replay", str(path), "--board", "2", "--dealer", "W", "--no-judge", "--json"))
    assert west["dealer"] == "W"
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "replay", str(path), "--board", "1"])
    assert stop.value.code == 2 and capsys.readouterr().err.startswith("error: bad deal: every hand needs 13 cards")
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "replay", str(path)])
    assert stop.value.code == 2 and "holds 2 boards: pick one with --board" in capsys.readouterr().err


def test_a_deal_typed_in_is_dealt_by_west_in_replay_as_in_solve(capsys):
    """One default dealer for every command taking a deal: W deals, so N (his left, by the rules) bids first
    and leads, in `replay` as in `solve` and the PBN files `deal` writes."""
    from analyzer.cli.rikken import _deal_and_leader

    plain = _strict_json(_run(capsys, "replay", FULL, "--no-judge", "--json"))
    assert (plain["dealer"], plain["leader"]) == ("W", "N")
    assert plain == _strict_json(_run(capsys, "replay", FULL, "--dealer", "W", "--no-judge", "--json"))
    assert SEAT_LETTERS[_deal_and_leader(FULL, None, None, None)[1]] == "N"


def test_play_takes_the_world_count_that_replay_takes(monkeypatch, capsys):
    """`rikken play --worlds N` records N in the run's params (the plan handed to the runner, not run here),
    so `replay --seed S --index I --worlds N` replays a round of a run that can exist; without a sampling
    bot the count is refused by both in the same line."""
    import analyzer.cli.rikken as rikken_cli

    plans = []
    monkeypatch.setattr(rikken_cli, "run_and_print", lambda experiment, plan, **kw: plans.append(plan))
    main_args = ["rikken", "play", "-n", "4", "--declarer-policy", "sampled-dd", "--defender-policy", "heuristic"]
    with pytest.raises(SystemExit) as stop:
        main([*main_args, "--worlds", "3"])
    assert stop.value.code == 0 and plans[-1].params["worlds"] == 3
    for command in (["rikken", "play", "-n", "4"], ["rikken", "replay", "--seed", "1", "--index", "0"]):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--worlds", "3"])
        assert stop.value.code == 2
        assert capsys.readouterr().err.strip() == "error: a world count is for sampled-dd, which plays no seat here"
