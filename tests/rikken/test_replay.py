"""``rikken replay``'s game logic (games/rikken/replay.py) against real ``rikken play`` runs.

The expectations are the rows a real run stored in ``rounds/`` and the rules of play as the plain-Python
reference engine (``state.RoundState``) applies them: every replayed card must be legal there, its trick
winners and trick counts must be the replay's and the run's, and under packet dealing the next stored
deal must be the replayed cards gathered trick by trick, cut and dealt 6 + 7 (docs/rules.md, "Deal").
"""

import numpy as np
import pandas as pd
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.cards.deck import card_name, parse_card
from analyzer.cards.pbn import SEAT_LETTERS, format_deal, parse_deal, parse_hand
from analyzer.cli.app import main
from analyzer.errors import InputError
from analyzer.experiments.runner import plan_chunks
from analyzer.games.rikken import dd, rules
from analyzer.games.rikken.experiments import Policies, play_chunk
from analyzer.games.rikken.replay import (
    check_index,
    needs,
    replay_deal,
    replay_payload,
    replay_run_round,
)
from analyzer.games.rikken.rules import ScoringMode
from analyzer.games.rikken.state import RoundSetup, RoundState

SEEDS = {"dd": 5}
DEAL_COLUMNS = ("cards_n", "cards_e", "cards_s", "cards_w")
SETUP_COLUMNS = ["dealer", "passed_out", "partner", "trump", "called_card", "blind_call", *DEAL_COLUMNS,
                 *(f"{name}_{s}" for name in ("contract", "made", "tricks", "points", "money") for s in range(4))]

# name: (rikken play options, rounds, indices to replay: in the first chunk, later ones, the short last one).
# Every run has seed SEEDS.get(name, 17); the dd run's seed avoids a Misery round the solver takes minutes over.
RUNS = {
    "random": (["--policy", "random", "--chunk-size", "8"], 30, [0, 5, 13, 29]),
    "constrained": (["--policy", "heuristic", "--chunk-size", "5", "--aces", "N=2", "--length", "N:S=5-13"], 12,
                    [1, 7, 11]),
    "packets": (["--policy", "random", "--dealing", "packets", "--chunk-size", "6"], 12, [2, 3, 9, 10]),
    "sides": (["--declarer-policy", "heuristic", "--defender-policy", "random", "--chunk-size", "4"], 10, [6, 9]),
    "seats": (["--seat-policies", "random,heuristic,random,dd"], 5, [1, 4]),
    "dd": (["--policy", "dd"], 4, [0, 3]),
}


def _options(args: list[str]) -> dict:
    """``replay_run_round`` keywords for the play options ``args`` (parsed here, not by the CLI)."""
    opts = dict(zip(args[::2], args[1::2]))
    constraints = {key: [opts[f"--{key}"]] for key in ("hand", "cards", "hcp", "aces", "length") if f"--{key}" in opts}
    if "--seat-policies" in opts:
        policies = Policies(None, None, tuple(opts["--seat-policies"].split(",")))
    else:
        base = opts.get("--policy", "heuristic")
        policies = Policies(opts.get("--declarer-policy", base), opts.get("--defender-policy", base))
    return {"policies": policies, "dealing": opts.get("--dealing", "random"),
            "chunk_size": int(opts["--chunk-size"]) if "--chunk-size" in opts else None,
            "constraints": constraints or None}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each run of ``RUNS``, played by the real command: its stored rounds by round number."""
    stored = {}
    for name, (args, rounds, _indices) in RUNS.items():
        out = tmp_path_factory.mktemp(name) / "run"
        with pytest.raises(SystemExit) as stop:
            main(["rikken", "play", "--rounds", str(rounds), "--seed", str(SEEDS.get(name, 17)), "--workers", "1",
                  "--out", str(out), "--json", *args])
        assert stop.value.code == 0
        stored[name] = pd.read_parquet(out / "rounds").set_index("round").sort_index()
    return stored


def _reference(row: pd.Series, payload: dict) -> RoundState:
    """The replayed cards played through the reference engine, checking each trick's winner on the way."""
    hands = tuple(int(row[c]) for c in DEAL_COLUMNS)
    setup = RoundSetup(hands, (int(row["dealer"]) + 1) % 4, tuple(int(row[f"contract_{s}"]) for s in range(4)),
                       int(row["partner"]), int(row["trump"]), int(row["called_card"]), bool(row["blind_call"]))
    state = RoundState(setup)
    for trick in payload["tricks"]:
        assert SEAT_LETTERS[state.turn] == trick["leader"]
        for play in trick["cards"]:
            assert SEAT_LETTERS[state.turn] == play["seat"]
            state.play(parse_card(play["card"]), play["face_down"])  # raises unless legal
        assert SEAT_LETTERS[state.history[-1][1]] == trick["winner"]
    assert state.is_over
    return state


@pytest.mark.parametrize("name", RUNS)
def test_replay_reproduces_the_stored_rounds(name, runs):
    args, _rounds, indices = RUNS[name]
    for index in indices:
        row = runs[name].loc[index]
        payload = replay_payload(replay_run_round(SEEDS.get(name, 17), index, **_options(args)))
        assert payload["dealer"] == SEAT_LETTERS[index % 4] == SEAT_LETTERS[int(row["dealer"])]
        assert [parse_hand(payload["deal"][seat]) for seat in SEAT_LETTERS] == [int(row[c]) for c in DEAL_COLUMNS]
        assert payload["passed_out"] == bool(row["passed_out"])
        declarers = [(SEAT_LETTERS[s], rules.CONTRACT_NAMES[int(row[f"contract_{s}"])]) for s in range(4)
                     if row[f"contract_{s}"] >= 0]
        assert [(c["seat"], c["contract"]) for c in payload["contracts"]] == declarers
        assert [c["made"] for c in payload["contracts"]] == [bool(row[f"made_{s}"]) for s in range(4)
                                                             if row[f"contract_{s}"] >= 0]
        for s, seat in enumerate(SEAT_LETTERS):
            assert payload["scores"][seat] == {"tricks": row[f"tricks_{s}"], "points": row[f"points_{s}"],
                                               "money": row[f"money_{s}"]}
        if row["passed_out"]:
            assert payload["tricks"] == [] and payload["call"] is None
            continue
        state = _reference(row, payload)
        assert state.tricks == [int(row[f"tricks_{s}"]) for s in range(4)]
        assert state.scores(ScoringMode.POINTS) == [int(row[f"points_{s}"]) for s in range(4)]
        assert state.scores(ScoringMode.MONEY) == [int(row[f"money_{s}"]) for s in range(4)]
        assert len(payload["tricks"]) == 13


def _packet_deals(pack: list[int], first_seat: int) -> list[list[int]]:
    """Every deal the rules make of ``pack``: cut anywhere (top cards to the bottom), 6 then 7 from ``first_seat``."""
    deals = []
    for cut in range(1, 52):
        cards = pack[cut:] + pack[:cut]
        hands = [0] * 4
        position = 0
        for packet in (6, 7):
            for offset in range(4):
                for card in cards[position:position + packet]:
                    hands[(first_seat + offset) % 4] |= 1 << card
                position += packet
        deals.append(hands)
    return deals


def test_packet_deals_follow_from_the_replayed_cards(runs):
    """Round k's cards in the replayed order, gathered trick by trick, make round k + 1's stored deal."""
    args, _rounds, indices = RUNS["packets"]
    stored = runs["packets"]
    checked = 0
    for index in indices:
        nxt = index + 1
        if index // 6 != nxt // 6 or stored.loc[index, "passed_out"]:
            continue  # each chunk starts its chain from a shuffled pack; a passed-out deal is gathered by hands
        payload = replay_payload(replay_run_round(17, index, **_options(args)))
        pack = [parse_card(c["card"]) for trick in payload["tricks"] for c in trick["cards"]]
        following = [int(stored.loc[nxt, c]) for c in DEAL_COLUMNS]
        assert following in _packet_deals(pack, (nxt % 4 + 1) % 4)
        checked += 1
    assert checked >= 2


def test_dd_replay_plays_the_cards_the_run_played(monkeypatch):
    """Card for card against the traces ``rikken play``'s own dd play-out produced (recorded as it played)."""
    recorded = []
    original = dd.playout_one_dd

    def spy(*args, **kwargs):
        tricks, trace = original(*args, **kwargs)
        recorded.append(trace.copy())
        return tricks, trace

    policies = Policies.everywhere("dd")
    chunk = plan_chunks(4, 2, 23)[1]
    with monkeypatch.context() as patch:
        patch.setattr(dd, "playout_one_dd", spy)
        rows = play_chunk({**policies.params(), "dealing": "random"}, chunk.start, 2, chunk.seed_seq)
    played = list(np.flatnonzero(~rows["passed_out"].to_numpy()))
    assert len(recorded) == len(played) >= 1
    for trace, offset in zip(recorded, played):
        payload = replay_payload(replay_run_round(23, chunk.start + int(offset), policies))
        cards = [(c["seat"], parse_card(c["card"]) + (52 if c["face_down"] else 0))
                 for trick in payload["tricks"] for c in trick["cards"]]
        assert cards == [(SEAT_LETTERS[int(seat)], int(action)) for seat, action in trace[:, :2]]


@pytest.fixture(scope="module")
def long_run(tmp_path_factory):
    """A run long enough to hold the rare rounds: passed out, blind calls (stored rows by round number)."""
    out = tmp_path_factory.mktemp("long") / "run"
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "play", "--rounds", "1500", "--seed", "4", "--workers", "1", "--chunk-size", "500",
              "--out", str(out), "--json"])
    assert stop.value.code == 0
    return pd.read_parquet(out / "rounds").set_index("round").sort_index()


def _long_replay(index) -> dict:
    return replay_payload(replay_run_round(4, int(index), Policies.everywhere("heuristic"), chunk_size=500))


def test_a_passed_out_round_is_replayed_as_passed_out(long_run):
    passed = list(long_run.index[long_run["passed_out"]])
    assert passed, "no passed-out round in 1500: pick a longer run"
    for index in passed[:2]:
        payload = _long_replay(index)
        assert payload["passed_out"] and payload["tricks"] == [] and payload["contracts"] == []
        assert [b["bid"] for b in payload["auction"]] == ["pass"] * 4
        assert [b["seat"] for b in payload["auction"]] == [SEAT_LETTERS[(index + k) % 4] for k in range(1, 5)]
        assert all(s == {"tricks": 0, "points": 0, "money": 0} for s in payload["scores"].values())


def test_blind_calls_and_face_down_leads_replay_legally(long_run):
    blind = list(long_run.index[long_run["blind_call"]])
    assert blind, "no blind call in 1500 rounds: pick a longer run"
    face_down = 0
    for index in blind[:3]:
        row = long_run.loc[index]
        payload = _long_replay(index)
        call = payload["call"]
        assert call["blind"] and parse_card(call["card"]) == row["called_card"]
        bidder = next(s for s in range(4) if row[f"contract_{s}"] >= 0)
        # Blind: the bidder holds no card of the called suit (docs/rules.md, "Before the first trick").
        suit = parse_card(call["card"]) // 13
        assert not int(row[DEAL_COLUMNS[bidder]]) >> (13 * suit) & 0x1FFF
        state = _reference(row, payload)
        assert state.tricks == [int(row[f"tricks_{s}"]) for s in range(4)]
        face_down += sum(c["face_down"] for t in payload["tricks"] for c in t["cards"])
    assert face_down >= 1, "the heuristic bidder leads face down after a blind call"


# N holds every spade, E every heart, S every diamond, W every club.
FULL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_a_given_deal_is_bid_and_played_out():
    """S, on lead with thirteen diamonds, bids the top contract and takes every trick with his trumps."""
    payload = replay_payload(replay_deal(parse_deal(FULL), dealer=1))
    assert payload["dealer"] == "E" and payload["leader"] == "S"
    assert payload["auction"][0] == {"seat": "S", "bid": "Open 13 Alone"}
    assert [b["bid"] for b in payload["auction"][1:]] == ["pass"] * 3
    assert payload["trump"] == "diamonds"
    assert [t["winner"] for t in payload["tricks"]] == ["S"] * 13
    assert [t["side_tricks"] for t in payload["tricks"]] == [{"S": k} for k in range(1, 14)]
    # Open 13 Alone made: P = 20; points to the bidder only, money 3 x 20 from the three defenders.
    assert payload["contracts"][0]["made"] and payload["contracts"][0]["needs"] == "all 13 tricks"
    assert payload["scores"]["S"] == {"tricks": 13, "points": 20, "money": 60}
    assert all(payload["scores"][seat] == {"tricks": 0, "points": 0, "money": -20} for seat in "NEW")


def test_given_deal_replays_under_every_policy():
    deal = deal_random(1, 99)[0]
    for policies in (Policies.everywhere("random"), Policies.everywhere("dd"), Policies("dd", "heuristic")):
        first = replay_payload(replay_deal(deal, dealer=2, seed=5, policies=policies))
        again = replay_payload(replay_deal(deal, dealer=2, seed=5, policies=policies))
        assert first == again and first["source"]["deal"] == format_deal(deal)
        if not first["passed_out"]:
            cards = [c["card"] for t in first["tricks"] for c in t["cards"]]
            assert sorted(cards) == sorted(card_name(c) for c in range(52))


def test_what_each_contract_needs():
    assert [needs(c) for c in (rules.Contract.RIK, rules.Contract.ALONE_10, rules.Contract.MISERY,
                               rules.Contract.OPEN_ONE_ALONE, rules.Contract.ALONE_13)] == [
        "8+ tricks", "10+ tricks", "no trick", "exactly 1 trick", "all 13 tricks"]


def test_index_bounds():
    check_index(0, 2)
    check_index(199_999, 2)  # the last round of 100,000 chunks of 2
    for index, chunk_size in ((-1, 2), (200_000, 2), (10**9, 20_000)):
        with pytest.raises(InputError, match="out of range"):
            check_index(index, chunk_size)


def test_a_sampled_dd_round_replays_with_the_run_s_world_count():
    """Through the bot registry, at the run's own --worlds: a replay that ignored the recorded count would play
    other cards and take other tricks than the stored row (``_replay_row`` raises then)."""
    policies = Policies("heuristic", "sampled-dd").with_worlds(2)
    params = {**policies.params(), "dealing": "random"}
    assert params["worlds"] == 2 and Policies.from_params(params) == policies
    chunk = plan_chunks(4, 2, 31)[1]
    rows = play_chunk(params, chunk.start, 2, chunk.seed_seq)
    offset = int(np.flatnonzero(~rows["passed_out"].to_numpy())[0])
    payload = replay_payload(replay_run_round(31, chunk.start + offset, policies, chunk_size=2))
    assert [payload["scores"][s]["tricks"] for s in SEAT_LETTERS] == \
        [int(rows.iloc[offset][f"tricks_{s}"]) for s in range(4)]
    assert "(2 worlds)" in payload["source"]["policies"]


def test_replay_refuses_a_world_count_without_a_sampling_bot(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["rikken", "replay", FULL, "--no-judge", "--worlds", "4"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip() == "error: a world count is for sampled-dd, which plays no seat here"
