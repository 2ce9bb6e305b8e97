"""Full Rikken rounds: deal, auction, trump and call, play, scoring; and the traditional packet deal chain.

With ``packets`` dealing the next deal is made from the cards of the round just played, gathered in
the order the tricks were won (each trick in the order its cards were played), cut at a uniformly
random place and dealt 6 then 7 from the dealer's left. A passed-out deal is gathered hand by hand
(seats N, E, S, W, each hand sorted as a player holds it). Each chunk starts its chain from one
uniformly shuffled pack.
"""

from functools import partial

import numpy as np
import pandas as pd

from analyzer.cards.dealing import deal_packets_kernel, deal_random
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import rules
from analyzer.games.rikken.auction import auction_batch
from analyzer.games.rikken.heuristic import FACE_DOWN_OFFSET, default_params
from analyzer.games.rikken.kernels import POLICY_IDS, playout_batch, playout_one
from analyzer.games.rikken.rules import ScoringMode
from analyzer.games.rikken.scoring import score_rounds
from analyzer.solvers.dd.policy import playout_batch_dd, playout_one_dd


def _gathered_pack(hands, trace) -> np.ndarray:
    """The pack after a round: the played cards in trick order, or the hands one after another."""
    if trace is None:
        return np.array([c for seat in range(4) for c in cards_of(hands[seat])], dtype=np.int64)
    return trace[:, 1] % FACE_DOWN_OFFSET


def _players(policy: str):
    """``(play_batch, play_one)`` for ``policy``: the kernels for heuristic / random, the solver for ``dd``.

    Both take the round arrays and ``rng_state`` (the xoshiro state); ``play_batch`` fills
    ``tricks_out``, ``play_one`` returns ``(tricks, trace)``.
    """
    if policy == "dd":
        return playout_batch_dd, playout_one_dd
    fixed = {"policy_of_seat": np.full(4, POLICY_IDS[policy], dtype=np.int64), "params": default_params()}
    return partial(playout_batch, **fixed), partial(playout_one, **fixed)


def simulate_rounds(count: int, first_round: int, seed_seq, policy: str, dealing: str):
    """Play ``count`` full rounds; the dealer of round ``r`` is seat ``r % 4``.

    ``policy`` is ``heuristic`` or ``random`` (the kernels, all four seats) or ``dd`` (double dummy,
    ``analyzer.solvers.dd.policy``).

    Returns
    -------
    (numpy.ndarray, dict)
        Deals ``int64[count, 4]`` and per-round arrays (setup, ``tricks``, ``passed_out``).
    """
    deal_seed, play_seed, cut_seed = seed_seq.spawn(3)
    rng_state = state_from_seed(play_seed)
    play_batch, play_one = _players(policy)
    dealers = (first_round + np.arange(count)) % 4
    if dealing == "random":
        deals = deal_random(count, deal_seed)
        arrays = auction_batch(deals, dealers)
        arrays["tricks"] = np.zeros((count, 4), dtype=np.int64)
        rows = np.flatnonzero(~arrays["passed_out"])
        tricks = np.zeros((rows.size, 4), dtype=np.int64)
        play_batch(deals[rows], arrays["leader"][rows], arrays["contract_of"][rows], arrays["partner"][rows],
                   arrays["trump"][rows], arrays["called_card"][rows], arrays["blind"][rows], rng_state=rng_state,
                   tricks_out=tricks)
        arrays["tricks"][rows] = tricks
        return deals, arrays
    cuts = np.random.default_rng(cut_seed)
    pack = np.random.default_rng(deal_seed).permutation(52).astype(np.int64)
    deals = np.zeros((count, 4), dtype=np.int64)
    rounds = []
    for i in range(count):
        deal_packets_kernel(pack, int(cuts.integers(1, 52)), int((dealers[i] + 1) % 4), deals[i])
        setup = auction_batch(deals[i:i + 1], dealers[i:i + 1])
        setup["tricks"] = np.zeros((1, 4), dtype=np.int64)
        trace = None
        if not setup["passed_out"][0]:
            tricks, trace = play_one(deals[i], setup["leader"][0], setup["contract_of"][0], setup["partner"][0],
                                     setup["trump"][0], setup["called_card"][0], setup["blind"][0],
                                     rng_state=rng_state)
            setup["tricks"][0] = tricks
        rounds.append(setup)
        pack = _gathered_pack(deals[i], trace)
    return deals, {key: np.concatenate([r[key] for r in rounds]) for key in rounds[0]}


def packet_deals(count: int, seed_seq, policy: str, first_round: int) -> np.ndarray:
    """Deals of a traditional packet-dealing chain played by ``policy`` (see the module notes)."""
    deals, _ = simulate_rounds(count, first_round, seed_seq, policy, "packets")
    return deals


def round_table(start: int, deals: np.ndarray, arrays: dict) -> pd.DataFrame:
    """One row per round: setup, tricks, whether each declarer made, and scores in both modes."""
    count = deals.shape[0]
    frame = pd.DataFrame({"round": start + np.arange(count), "dealer": ((start + np.arange(count)) % 4).astype(np.int8),
                          "passed_out": arrays["passed_out"], "partner": arrays["partner"].astype(np.int8),
                          "trump": arrays["trump"].astype(np.int8), "called_card": arrays["called_card"].astype(np.int8),
                          "blind_call": arrays["blind"].astype(bool)})
    points = score_rounds(arrays["contract_of"], arrays["partner"], arrays["tricks"], ScoringMode.POINTS)
    money = score_rounds(arrays["contract_of"], arrays["partner"], arrays["tricks"], ScoringMode.MONEY)
    rows = np.arange(count)
    for seat in range(4):
        contract = arrays["contract_of"][:, seat]
        paired = (arrays["partner"] >= 0) & (rules.SIDE[np.maximum(contract, 0)] != rules.Side.ALONE)
        side = arrays["tricks"][:, seat] + np.where(paired, arrays["tricks"][rows, np.maximum(arrays["partner"], 0)], 0)
        made = np.array([c >= 0 and rules.contract_value(int(c), int(t))[0] for c, t in zip(contract, side)])
        frame[f"contract_{seat}"] = contract.astype(np.int8)
        frame[f"made_{seat}"] = made
        frame[f"tricks_{seat}"] = arrays["tricks"][:, seat].astype(np.int8)
        frame[f"points_{seat}"] = points[:, seat]
        frame[f"money_{seat}"] = money[:, seat]
    return frame


def play_chunk(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """One chunk of full rounds (``analyzer rikken play``)."""
    deals, arrays = simulate_rounds(count, start, seed_seq, params["policy"], params["dealing"])
    return round_table(start, deals, arrays)
