"""Replay one Rikken round card by card: a round of ``rikken play`` by its seed and index, or a given deal.

Round ``I`` of ``rikken play --seed S`` lies in chunk ``I // C`` of the runner's plan (``C`` the chunk
size, ``plan_chunks``) and depends only on that chunk's seed and on the rounds before it in the chunk:
deals, cuts and card-play draws come from streams consumed in round order. So the replay computes the
chunk's first ``I % C + 1`` rounds again with ``experiments.play_chunk`` itself, which gives the row
the run stored for round ``I`` (deal, contracts, tricks, scores), and then plays those rounds again one
at a time with the traced one-round play-out of the bot registry (``experiments.play_one``, which calls
``bots.play_one``: any bot, sampled-dd and dd included) from the same play stream. It draws exactly as the
batch play-outs do (the batch kernel repeats ``play_round``'s loop, each Python driver's batch plays its
one-round play-out round after round), so the last trace is the card sequence the run played; its tricks
per seat are checked against the stored row.

A given deal (PBN) is bid, set up and played the same way with a play stream seeded by ``seed``.
"""

import importlib
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from analyzer.cards.deck import card_name
from analyzer.cards.pbn import SEAT_LETTERS, format_deal, format_hand
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.experiments.runner import MAX_CHUNKS, plan_chunks
from analyzer.games.rikken import rules
from analyzer.games.rikken.auction import auction_batch, run_seat_auction
from analyzer.games.rikken.bidding import PASS
from analyzer.games.rikken.calling import KING
from analyzer.games.rikken.experiments import (
    DEAL_COLUMNS,
    Policies,
    declaring_seats,
    default_chunk_size,
    play_chunk,
    play_one,
    round_table,
)
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, new_round
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET, TRICKS
from analyzer.games.rikken.strategy import bidders_from_params, bidding_label

# ``rikken play --rounds`` is at most this, so no run holds a round at or beyond it.
MAX_ROUNDS = 10**9
STRAIN_NAMES = ("clubs", "diamonds", "hearts", "spades", "no trump")


@dataclass(frozen=True)
class Trick:
    """One trick of a replayed round.

    Attributes
    ----------
    number : int
        1..13.
    leader : int
        Seat that led.
    plays : tuple of (seat, card, face_down)
        The four cards in play order; ``face_down`` marks the blind lead.
    winner : int
        Seat that won it.
    side_tricks : dict
        Declarer seat -> tricks his side (he and his partner, if the contract has one) holds after it.
    """

    number: int
    leader: int
    plays: tuple
    winner: int
    side_tricks: dict


@dataclass(frozen=True)
class RoundReplay:
    """A replayed round: the stored row of ``rikken play`` (``experiments.round_table``), the auction
    bid by bid, the card-play policy of each seat, the tricks card by card (empty when passed out) and,
    when judged, each card's double-dummy cost (``replay_judge.card_costs``, in play order; else None)."""

    row: pd.Series
    bids: list
    seat_policies: tuple
    tricks: list
    source: dict
    costs: list | None = None


def check_index(index: int, chunk_size: int) -> None:
    """Refuse an index no ``rikken play`` run can hold (more rounds or chunks than it accepts).

    Raises
    ------
    InputError
        If ``index`` is negative, at least ``MAX_ROUNDS``, or in a chunk beyond ``MAX_CHUNKS``.
    """
    limit = min(MAX_ROUNDS, MAX_CHUNKS * chunk_size)
    if not 0 <= index < limit:
        raise InputError(f"--index {index:,} is out of range: a rikken play run with chunks of {chunk_size:,} "
                         f"holds rounds 0 .. {limit - 1:,}")


def replay_run_round(seed: int, index: int, policies: Policies, dealing: str = "random", chunk_size: int | None = None,
                     constraints: dict | None = None, bidding: dict | None = None,
                     judge_budget: int | None = None) -> RoundReplay:
    """Round ``index`` (0-based) of ``rikken play --seed seed`` with these options, card for card.

    Parameters
    ----------
    seed : int
        The run's ``--seed``.
    index : int
        The round, as numbered in the run's ``rounds/`` rows.
    policies : Policies
        The run's card-play policies.
    dealing : str
        ``random`` or ``packets``.
    chunk_size : int, optional
        The run's ``--chunk-size``; default as ``rikken play`` (``default_chunk_size``).
    constraints : dict, optional
        The run's deal constraints, option name -> texts (``random_deals``).
    bidding : dict, optional
        The run's auction policies (``strategy.bidding_params``); default the hand-written one at
        every seat.
    judge_budget : int, optional
        Judge every card double dummy (``replay_judge.card_costs``), each trick count within this many
        completed tricks (0: no limit); None: no judging.

    Returns
    -------
    RoundReplay

    Raises
    ------
    InputError
        On an index out of range or bad constraints.
    """
    chunk_size = chunk_size or default_chunk_size(policies)
    check_index(index, chunk_size)
    if judge_budget is not None:
        _compile_judged(partial(replay_run_round, seed, index, policies, dealing, chunk_size, constraints, bidding))
    chunk = plan_chunks((index // chunk_size + 1) * chunk_size, chunk_size, seed)[-1]
    params = {**policies.params(), "dealing": dealing, **({"constraints": constraints} if constraints else {}),
              **(bidding or {})}
    rows = play_chunk(params, chunk.start, index - chunk.start + 1, chunk.seed_seq)
    rng_state = _play_stream(chunk.seed_seq)
    trace = None
    # Every earlier round of the chunk is played again too: its draws come before this round's.
    for i in range(len(rows)):
        trace = _replay_row(rows.iloc[i], policies, rng_state)
    row = rows.iloc[-1]
    source = {"seed": seed, "index": index, "chunk": chunk.index, "chunk_size": chunk_size, "dealing": dealing,
              "policies": policies.label(), "bidding": bidding_label(params),
              **({"constraints": constraints} if constraints else {})}
    return _assemble(row, policies, trace, source, bidders_from_params(params), judge_budget)


def replay_deal(hands, dealer: int, seed: int = 0, policies: Policies | None = None,
                bidding: dict | None = None, judge_budget: int | None = None) -> RoundReplay:
    """Bid, set up and play one given deal as ``rikken play`` plays a round.

    Parameters
    ----------
    hands : array_like of 4 int
        Card masks of N E S W (``pbn.parse_deal``).
    dealer : int
        Dealer seat (the commands' default is ``cli.rikken.DEFAULT_DEALER``); the seat on his left bids first
        and leads.
    seed : int
        Seed of the play stream (random policy, dd's choice among equally good cards).
    policies : Policies, optional
        Card-play policies; default heuristic everywhere.
    bidding : dict, optional
        Auction policies (``strategy.bidding_params``); default the hand-written one at every seat.
    judge_budget : int, optional
        As in :func:`replay_run_round`.

    Returns
    -------
    RoundReplay
    """
    policies = policies or Policies.everywhere("heuristic")
    bidding = bidding or {}
    if judge_budget is not None:
        _compile_judged(partial(replay_deal, hands, dealer, seed, policies, bidding))
    bidders = bidders_from_params(bidding)
    deals = np.asarray(hands, dtype=np.int64).reshape(1, 4)
    arrays = auction_batch(deals, np.array([dealer], dtype=np.int64), bidders=bidders)
    arrays["tricks"] = np.zeros((1, 4), dtype=np.int64)
    arrays["undecided"] = np.zeros(1, dtype=np.int64)
    trace = None
    if not arrays["passed_out"][0]:
        setup = {key: value[0] for key, value in arrays.items()}
        setup["hands"] = deals[0]
        arrays["tricks"][0], trace = play_one(setup, policies, state_from_seed(seed), arrays["undecided"])
    # round_table numbers the dealer as start % 4: starting at the dealer gives this deal's dealer.
    row = round_table(dealer, deals, arrays).iloc[0]
    return _assemble(row, policies, trace, {"deal": format_deal(deals[0]), "seed": seed,
                                            "policies": policies.label(), "bidding": bidding_label(bidding)},
                     bidders, judge_budget)


def _compile_judged(unjudged) -> None:
    """On a cold cache of the solver, compile its helpers (two groups, ``solvers.dd.compile_split``) and the
    round's play (``unjudged``, the same replay without judging) in one process per core, this one included
    (``parallel_compile``): on two cores this process compiles the larger helper group while another compiles
    the other, then the play; here the solver's search follows as soon as the helpers are done, while the play
    still compiles. They share no kernel, and this process then loads the rest. A process per group would
    only share the two cores (the search then starts later) and pay its own start. The solver's own cache
    decides: a warm run starts no process."""
    from analyzer.experiments.parallel_compile import compile_in_parallel, solver_groups

    helpers = solver_groups()
    if helpers:
        compile_in_parallel([*helpers[:-1], unjudged], then=_import_solver, after=len(helpers) - 1,
                            here=helpers[-1])


def _import_solver() -> None:
    """Import the solver: its search compiles on import (an explicit signature)."""
    importlib.import_module("analyzer.solvers.dd.api")


def _fresh(seed_seq: np.random.SeedSequence) -> np.random.SeedSequence:
    """A copy of ``seed_seq`` that has spawned nothing: ``spawn`` is stateful, and play_chunk has used it."""
    return np.random.SeedSequence(seed_seq.entropy, spawn_key=seed_seq.spawn_key, pool_size=seed_seq.pool_size)


def _play_stream(seed_seq: np.random.SeedSequence) -> np.ndarray:
    """The xoshiro state a chunk's cards are played from: ``simulate_rounds`` spawns (deal, play, cut)."""
    _deal_seed, play_seed, _cut_seed = _fresh(seed_seq).spawn(3)
    return state_from_seed(play_seed)


def _setup_of(row: pd.Series) -> dict:
    """The play-out arguments of a stored round (``experiments.round_table`` row)."""
    return {"hands": np.array([row[column] for column in DEAL_COLUMNS], dtype=np.int64),
            "leader": (int(row["dealer"]) + 1) % 4,
            "contract_of": np.array([row[f"contract_{s}"] for s in range(4)], dtype=np.int64),
            "partner": int(row["partner"]), "trump": int(row["trump"]), "called_card": int(row["called_card"]),
            "blind": int(bool(row["blind_call"]))}


def _replay_row(row: pd.Series, policies: Policies, rng_state: np.ndarray):
    """Play a stored round again; return its trace (None if passed out) after checking its tricks."""
    if row["passed_out"]:
        return None
    undecided = np.zeros(1, dtype=np.int64)
    tricks, trace = play_one(_setup_of(row), policies, rng_state, undecided)
    stored = [int(row[f"tricks_{s}"]) for s in range(4)]
    if list(tricks) != stored or undecided[0] != row["undecided"]:
        raise RuntimeError(f"replay of round {row['round']} took tricks {list(tricks)} ({undecided[0]} undecided dd "
                           f"turns), the run stored {stored} ({row['undecided']}): rikken play no longer plays a "
                           "chunk as this replay assumes")
    return trace


def _tricks_of(setup: dict, trace: np.ndarray) -> list[Trick]:
    """The trace cut into tricks, each won as the kernels' rules of play decide."""
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    declarers = [s for s in range(4) if setup["contract_of"][s] >= 0]
    out, plays = [], []
    for seat, action, _up, _fd in trace:
        face_down = bool(action >= FACE_DOWN_OFFSET)
        plays.append((int(seat), int(action - FACE_DOWN_OFFSET if face_down else action), face_down))
        winner = int(apply_action(st, seat, action))
        if winner >= 0:
            taken = st[TRICKS:TRICKS + 4]
            sides = {d: _side_count(taken, d, int(setup["contract_of"][d]), setup["partner"]) for d in declarers}
            out.append(Trick(len(out) + 1, plays[0][0], tuple(plays), winner, sides))
            plays = []
    return out


def _side_count(tricks, declarer: int, contract: int, partner: int) -> int:
    """Tricks of ``declarer``'s side: his own, plus his partner's in Rik, Rik Beter and Troela."""
    paired = partner >= 0 and rules.SIDE[contract] != rules.Side.ALONE
    return int(tricks[declarer]) + (int(tricks[partner]) if paired else 0)


def _assemble(row: pd.Series, policies: Policies, trace, source: dict, bidders,
              judge_budget: int | None = None) -> RoundReplay:
    """The replay of ``row``: its auction bid by bid (each seat's ``bidders`` policy) and, when played,
    its tricks from ``trace``, each card judged when ``judge_budget`` is given."""
    setup = _setup_of(row)
    auction = run_seat_auction(setup["hands"], int(row["dealer"]), bidders)
    # The auction is deterministic; a different outcome would mean the row was bid otherwise.
    if list(auction.contract_of) != list(setup["contract_of"]):
        raise RuntimeError(f"the auction gives contracts {list(auction.contract_of)}, the round stored "
                           f"{list(setup['contract_of'])}")
    tricks = [] if trace is None else _tricks_of(setup, trace)
    if policies.seats:
        seats = tuple(policies.seats)
    else:
        declaring = declaring_seats(setup["contract_of"].reshape(1, 4), np.array([setup["partner"]]))[0]
        seats = tuple(policies.declarer if on else policies.defender for on in declaring)
    costs = None
    if trace is not None and judge_budget is not None:
        from analyzer.games.rikken.replay_judge import card_costs  # the solver, only when judging (``bots`` notes)

        costs = card_costs(setup, trace[:, :2], judge_budget)
        source = {**source, "judge_budget": judge_budget}
    return RoundReplay(row, auction.bids, seats, tricks, source, costs)


def needs(contract: int) -> str:
    """What ``contract`` needs, in words: ``8+ tricks``, ``all 13 tricks``, ``no trick``, ``exactly 1 trick``."""
    kind, target = rules.KIND[contract], int(rules.TARGET[contract])
    if kind == rules.Kind.MISERY:
        return "no trick"
    if kind == rules.Kind.ONE:
        return "exactly 1 trick"
    return "all 13 tricks" if target == 13 else f"{target}+ tricks"


def replay_payload(replay: RoundReplay) -> dict:
    """The replay as plain data (the ``--json`` object; the text output prints the same).

    Returns
    -------
    dict
        ``source`` (with ``judge_budget`` when judged), ``dealer``, ``leader``, ``deal`` (seat -> hand, and
        ``pbn``), ``policies`` (seat -> card-play policy), ``auction`` (bids in order), ``passed_out``,
        ``contracts`` (one per declarer: seat, contract, side, what it needs, tricks taken, made),
        ``trump``, ``call`` (card, holder, blind, king) or None, ``tricks`` (leader, the four cards, each
        with its double-dummy ``cost`` when judged (:func:`_cost_entry`), winner, side tricks so far),
        ``scores`` (per seat: tricks, points, money) and ``undecided`` (dd turns the turn budget stopped: the
        round is then not a perfect-play result).
    """
    row = replay.row
    setup = _setup_of(row)
    passed = bool(row["passed_out"])
    contracts = [] if passed else [_contract_entry(row, setup, s) for s in range(4) if setup["contract_of"][s] >= 0]
    return {
        "source": replay.source,
        "dealer": SEAT_LETTERS[int(row["dealer"])],
        "leader": SEAT_LETTERS[setup["leader"]],
        "deal": {**{SEAT_LETTERS[s]: format_hand(setup["hands"][s]) for s in range(4)},
                 "pbn": format_deal(setup["hands"])},
        "policies": {SEAT_LETTERS[s]: name for s, name in enumerate(replay.seat_policies)},
        "auction": [{"seat": SEAT_LETTERS[seat], "bid": "pass" if bid == PASS else rules.CONTRACT_NAMES[bid]}
                    for seat, bid in replay.bids],
        "passed_out": passed,
        "contracts": contracts,
        "trump": None if passed else STRAIN_NAMES[setup["trump"]],
        "call": None if passed else _call_entry(setup),
        "tricks": [{"number": t.number, "leader": SEAT_LETTERS[t.leader],
                    "cards": [{"seat": SEAT_LETTERS[seat], "card": card_name(card), "face_down": down,
                               **_cost_entry(replay.costs, 4 * (t.number - 1) + i)}
                              for i, (seat, card, down) in enumerate(t.plays)],
                    "winner": SEAT_LETTERS[t.winner],
                    "side_tricks": {SEAT_LETTERS[d]: n for d, n in t.side_tricks.items()}} for t in replay.tricks],
        "scores": {SEAT_LETTERS[s]: {"tricks": int(row[f"tricks_{s}"]), "points": int(row[f"points_{s}"]),
                                     "money": int(row[f"money_{s}"])} for s in range(4)},
        "undecided": int(row["undecided"]),
    }


def _cost_entry(costs: list | None, index: int) -> dict:
    """``{"cost": [...]}`` of the card played ``index``-th, one entry per contract (none when not judged):
    the declarer, the tricks given up (``tricks``, and ``tricks_high`` above it when the budget left the
    count bounded; None in Misery and 1 Alone) and whether the card gave up the contract."""
    if costs is None:
        return {}
    return {"cost": [{"declarer": SEAT_LETTERS[c.declarer], "tricks": c.tricks_low, "tricks_high": c.tricks_high,
                      "contract": c.contract} for c in costs[index]]}


def _contract_entry(row: pd.Series, setup: dict, seat: int) -> dict:
    contract = int(setup["contract_of"][seat])
    side = [seat] + ([setup["partner"]] if setup["partner"] >= 0 and rules.SIDE[contract] != rules.Side.ALONE else [])
    taken = [int(row[f"tricks_{s}"]) for s in range(4)]
    return {"seat": SEAT_LETTERS[seat], "contract": rules.CONTRACT_NAMES[contract],
            "side": [SEAT_LETTERS[s] for s in side], "needs": needs(contract),
            "side_tricks": _side_count(taken, seat, contract, setup["partner"]), "made": bool(row[f"made_{seat}"])}


def _call_entry(setup: dict) -> dict | None:
    """The called card of Rik / Rik Beter (None without a call: other contracts, or no card to call)."""
    card = setup["called_card"]
    if card < 0:
        return None
    return {"card": card_name(card), "holder": SEAT_LETTERS[setup["partner"]], "blind": bool(setup["blind"]),
            "king": card % 13 == KING}
