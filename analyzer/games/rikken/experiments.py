"""Rikken experiments, as chunk tasks for the runner: full rounds (``rikken play``) and bid success
(``rikken bids``).

Full rounds: deal, auction, trump and call, play, scoring. With ``packets`` dealing the next deal is
made from the cards of the round just played, gathered in the order the tricks were won (each trick in
the order its cards were played), cut at a uniformly random place and dealt 6 then 7 from the dealer's
left. A passed-out deal is gathered hand by hand (seats N, E, S, W, each hand sorted as a player holds
it). Each chunk starts its chain from one uniformly shuffled pack.

Bid success: for each deal, each seat's hand is set up for every contract it could declare (trump
contracts with the trump the bidding policy would name and the card it would call; Troela only with
three aces) and the round is played out by the chosen policy. Contracts whose play cannot differ are
played once: 8 to 13 Alone share trump, side and exposure, and the heuristic, random and dd policies do
not read the trick target, so one play-out of "alone with this trump" settles all six (their rows are
therefore paired by construction). The expert plays for the contract's target, so with an expert seat
every contract is played out on its own (``shared_play``).

Card-play policies (``Policies``) are chosen per side or per seat: a seat on the declaring side (each
declarer, and the partner of Rik, Rik Beter or Troela) plays the declarer policy, the others the
defender policy; or each seat N E S W plays its own. The choice only selects which policy moves for a
seat; what that policy reads stays limited to what the seat may know.
"""

from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import pandas as pd

from analyzer import catalog
from analyzer.cards.constraints import build_constraints
from analyzer.cards.dealing import (
    ACE_MASK,
    deal_constrained,
    deal_constrained_kernel,
    deal_packets_kernel,
    deal_random,
    deal_random_kernel,
)
from analyzer.cards.masks import cards_of, popcounts
from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.experiments.compile_notice import compile_notice
from analyzer.experiments.experiment import (
    Experiment,
    Plan,
    Summary,
    game_rules,
    kernel_cached,
    records,
)
from analyzer.experiments.parallel_compile import solver_cached
from analyzer.experiments.progress import report_items
from analyzer.games.rikken import rules
from analyzer.games.rikken.auction import auction_batch
from analyzer.games.rikken.bidding import HEARTS, choose_trump_batch, troela_batch
from analyzer.games.rikken.calling import choose_call_batch
from analyzer.games.rikken import bots
from analyzer.games.rikken.features import hand_feature_frame, suit_lengths
from analyzer.games.rikken.findings import BIDS_REPORT, PLAY_REPORT
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import POLICY_IDS, kernels_for
from analyzer.games.rikken.queries import BIDS_QUERY, PLAY_QUERY
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.rules import ScoringMode
from analyzer.games.rikken.scoring import score_rounds
from analyzer.games.rikken.strategy import bidders_from_params, bidding_label
from analyzer.games.rikken.summary import (
    NOT_PLAYABLE,
    best_contracts,
    bids_moments,
    contract_summary,
    game_chunk_size,
    game_summary,
    merge_bids_moments,
    merge_rounds_moments,
    rounds_moments,
    seat_summary,
    summarize_bids,
    undecided_rounds,
)

# Each row carries its whole deal, one card mask per seat (N E S W), so a result traces back to its cards.
DEAL_COLUMNS = ("cards_n", "cards_e", "cards_s", "cards_w")


def _gathered_pack(hands, trace) -> np.ndarray:
    """The pack after a round: the played cards in trick order, or the hands one after another."""
    if trace is None:
        return np.array([c for seat in range(4) for c in cards_of(hands[seat])], dtype=np.int64)
    return trace[:, 1] % FACE_DOWN_OFFSET


def declaring_seats(contract_of: np.ndarray, partner: np.ndarray) -> np.ndarray:
    """Seats on the declaring side of each round: every declarer, and the partner of a contract played
    with one (Rik, Rik Beter, Troela).

    Parameters
    ----------
    contract_of : int64[n, 4]
        Contract id per seat, -1 for non-declarers.
    partner : int64[n]
        Called-card holder or Troela partner, -1 if none.

    Returns
    -------
    numpy.ndarray
        ``bool[n, 4]``.
    """
    seats = contract_of >= 0
    # A round with a partner has one declarer, so the row's largest id is his contract.
    contract = np.maximum(contract_of.max(axis=1), 0)
    paired = np.flatnonzero((partner >= 0) & (rules.SIDE[contract] != rules.Side.ALONE))
    seats[paired, partner[paired]] = True
    return seats


@dataclass(frozen=True)
class Policies:
    """Card-play bot names (``bots.BOTS``): by role in the contract, or by seat when ``seats``
    (N E S W) is given; ``worlds``: per decision of a sampling bot (``bots.check_worlds``); ``turn_budget``:
    completed tricks each turn of a budgeted bot (dd) may search, 0: no limit (:meth:`with_turn_budget`)."""

    declarer: str | None
    defender: str | None
    seats: tuple[str, ...] | None = None
    worlds: int = bots.DEFAULT_WORLDS
    turn_budget: int = 0

    @classmethod
    def everywhere(cls, policy: str) -> "Policies":
        """``policy`` at every seat."""
        return cls(policy, policy)

    @classmethod
    def from_params(cls, params: dict) -> "Policies":
        """The policies of an experiment's parameters; runs recorded with only ``policy`` use it everywhere.

        Raises
        ------
        InputError
            If the parameters name a policy this analyzer does not have (a doctored or foreign run).
        """
        seats = params.get("seat_policies")
        worlds = params.get("worlds", bots.DEFAULT_WORLDS)
        # Runs of before the budget played dd turns without one.
        budget = params.get("dd_turn_budget", 0)
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
            raise InputError(f"the run's dd turn budget is not a whole number of completed tricks: {budget!r}")
        if seats:
            if not isinstance(seats, list) or not all(isinstance(name, str) for name in seats):
                raise InputError(f"the run's seat policies are not a list of names: {seats!r}")
            policies = cls(None, None, tuple(seats), worlds, budget)
        else:
            policies = cls(params.get("declarer_policy", params.get("policy")),
                           params.get("defender_policy", params.get("policy")), worlds=worlds, turn_budget=budget)
        unknown = sorted(str(name) for name in policies.names() if not isinstance(name, str) or name not in bots.BOTS)
        if unknown:
            raise InputError(f"the run names policies this analyzer does not have: {', '.join(unknown)}")
        return policies

    def with_worlds(self, worlds: int | None) -> "Policies":
        """These policies with the sampling bots' ``worlds`` per decision (None: the default); checked by
        ``bots.check_worlds`` (a count with no sampling bot at the table is an error)."""
        return replace(self, worlds=bots.check_worlds(self.names(), worlds))

    def with_turn_budget(self, budget: int | None = None) -> "Policies":
        """These policies with each turn of a budgeted bot (dd) searching at most ``budget`` completed tricks
        (None: ``catalog.RIKKEN_DD_TURN_BUDGET``; 0: no limit), as ``rikken play`` and ``replay`` play them: a
        turn the budget stops is counted in the round's ``undecided`` column (``dd.playout_one_dd``)."""
        if not bots.takes_budget(self.names()):
            return replace(self, turn_budget=0)
        return replace(self, turn_budget=catalog.RIKKEN_DD_TURN_BUDGET if budget is None else budget)

    def budget(self) -> int:
        """The completed tricks a budgeted bot's turn may search here: ``turn_budget`` when one plays, else 0."""
        return self.turn_budget if bots.takes_budget(self.names()) else 0

    def params(self) -> dict:
        """Parameters for a manifest, read back by ``from_params``; ``policy`` is ``mixed`` unless one
        policy plays everywhere; ``worlds`` only when a sampling bot plays, ``dd_turn_budget`` only when a
        budgeted bot plays with a budget."""
        names = self.names()
        out = {"policy": next(iter(names)) if len(names) == 1 else "mixed"}
        if self.seats:
            out["seat_policies"] = list(self.seats)
        else:
            out.update(declarer_policy=self.declarer, defender_policy=self.defender)
        if bots.takes_worlds(names):
            out["worlds"] = self.worlds
        if self.budget():
            out["dd_turn_budget"] = self.budget()
        return out

    def label(self) -> str:
        """``policy P``, ``declarers P, defenders Q`` or ``N P, E Q, S P, W Q``, with the worlds and the dd
        turn budget when they apply."""
        names = self.names()
        notes = [f"{self.worlds} worlds"] if bots.takes_worlds(names) else []
        if self.budget():
            notes.append(f"dd turns within {self.budget():,} completed tricks")
        notes = f" ({'; '.join(notes)})" if notes else ""
        if len(names) == 1:
            return f"policy {next(iter(names))}{notes}"
        if self.seats:
            return ", ".join(f"{SEAT_LETTERS[seat]} {name}" for seat, name in enumerate(self.seats)) + notes
        return f"declarers {self.declarer}, defenders {self.defender}{notes}"

    def standing_in(self, kernel_bot: str) -> "Policies":
        """These policies with ``kernel_bot`` in every seat a Python bot plays (``bots.Bot.driver``)."""
        def swap(name):
            return kernel_bot if bots.BOTS[name].driver is not None else name

        if self.seats:
            return replace(self, seats=tuple(map(swap, self.seats)))
        return replace(self, declarer=swap(self.declarer), defender=swap(self.defender))

    def names(self) -> set[str]:
        """Every policy that plays a card."""
        return set(self.seats) if self.seats else {self.declarer, self.defender}

    def ids(self, contract_of: np.ndarray, partner: np.ndarray) -> np.ndarray:
        """Policy id per round and seat (``int64[n, 4]``) for the rounds' contracts and partners."""
        if self.seats:
            row = np.array([bots.policy_id(name) for name in self.seats], dtype=np.int64)
            return np.tile(row, (contract_of.shape[0], 1))
        return np.where(declaring_seats(contract_of, partner), bots.policy_id(self.declarer),
                        bots.policy_id(self.defender)).astype(np.int64)


# Rounds or deals per chunk by default, per speed class (``bots.Bot.speed``). A double-dummy round or
# deal takes seconds, not microseconds: small chunks keep every worker busy and checkpoint often. The
# chunk size decides each item's seed. An expert deal takes about a hundredth of a second.
CHUNK_SIZE = {"heuristic": 20_000, "expert": 500, "dd": 2}


def speed_class(policies: Policies) -> str:
    """The slowest speed class of the bots that play a card: ``dd``, ``expert`` or ``heuristic``."""
    return bots.speed_class(policies.names())


def default_chunk_size(policies: Policies) -> int:
    """The chunk size of ``rikken bids`` and ``rikken play`` without ``--chunk-size``: 2 with a bot of the dd
    speed class at any seat, 500 with an expert seat."""
    return CHUNK_SIZE[speed_class(policies)]


_SETUP_KEYS = ("leader", "contract_of", "partner", "trump", "called_card", "blind")


def _play_batch(hands: np.ndarray, setup: dict, policies: Policies, rng_state: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Tricks per seat (``int64[n, 4]``) of rounds ``hands`` set up by ``setup`` (the other
    ``playout_batch`` arrays), card by card by ``policies`` (``bots.play_batch``), and each round's dd turns
    the policies' turn budget left undecided (``int64[n]``)."""
    tricks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    undecided = np.zeros(hands.shape[0], dtype=np.int64)
    policy_of_seat = policies.ids(setup["contract_of"], setup["partner"])
    bots.play_batch(hands, *(setup[key] for key in _SETUP_KEYS), policy_of_seat, default_params(), rng_state, tricks,
                    policies.worlds, policies.budget(), undecided)
    return tricks, undecided


def play_one(setup: dict, policies: Policies, rng_state: np.ndarray, undecided_out: np.ndarray | None = None):
    """``(tricks, trace)`` of one round, as ``_play_batch`` plays it: ``setup`` maps ``hands`` (``int64[4]``),
    ``contract_of`` (``int64[4]``) and the other ``playout_one`` arguments (scalars); ``undecided_out``
    (``int64[1]``) receives the round's undecided dd turns (required when a dd seat plays with a turn budget)."""
    contract_of = np.asarray(setup["contract_of"], dtype=np.int64)
    policy_of_seat = policies.ids(contract_of.reshape(1, 4), np.array([setup["partner"]], dtype=np.int64))[0]
    return bots.play_one(setup["hands"], *(setup[key] for key in _SETUP_KEYS), policy_of_seat, default_params(),
                         rng_state, policies.worlds, policies.budget(), undecided_out)


def simulate_rounds(count: int, first_round: int, seed_seq, policies: Policies, dealing: str,
                    constraints: dict | None = None, bidders=None):
    """Play ``count`` full rounds; the dealer of round ``r`` is seat ``r % 4``.

    ``policies`` says which card-play policy plays each seat: heuristic and random are the kernels',
    dd the solver's (``analyzer.games.rikken.dd``). ``constraints`` (``random`` dealing only) constrains
    every round's deal, seats absolute (``random_deals``). ``bidders`` (``auction.auction_batch``) sets
    each seat's auction policy, the hand-written one by default.

    Returns
    -------
    (numpy.ndarray, dict)
        Deals ``int64[count, 4]`` and per-round arrays (setup, ``tricks``, ``passed_out``, ``undecided``: the
        dd turns the policies' turn budget stopped, 0 without a dd seat).
    """
    deal_seed, play_seed, cut_seed = seed_seq.spawn(3)
    rng_state = state_from_seed(play_seed)
    dealers = (first_round + np.arange(count)) % 4
    if dealing == "random":
        deals = random_deals(count, deal_seed, constraints)
        arrays = auction_batch(deals, dealers, bidders=bidders)
        arrays["tricks"] = np.zeros((count, 4), dtype=np.int64)
        arrays["undecided"] = np.zeros(count, dtype=np.int64)
        rows = np.flatnonzero(~arrays["passed_out"])
        played = {key: value[rows] for key, value in arrays.items()}
        arrays["tricks"][rows], arrays["undecided"][rows] = _play_batch(deals[rows], played, policies, rng_state)
        return deals, arrays
    cuts = np.random.default_rng(cut_seed)
    pack = np.random.default_rng(deal_seed).permutation(52).astype(np.int64)
    deals = np.zeros((count, 4), dtype=np.int64)
    rounds = []
    for i in range(count):
        deal_packets_kernel(pack, int(cuts.integers(1, 52)), int((dealers[i] + 1) % 4), deals[i])
        setup = auction_batch(deals[i:i + 1], dealers[i:i + 1], bidders=bidders)
        setup["tricks"] = np.zeros((1, 4), dtype=np.int64)
        setup["undecided"] = np.zeros(1, dtype=np.int64)
        trace = None
        if not setup["passed_out"][0]:
            one = {"hands": deals[i], **{key: setup[key][0] for key in _SETUP_KEYS}}
            tricks, trace = play_one(one, policies, rng_state, setup["undecided"])
            setup["tricks"][0] = tricks
        rounds.append(setup)
        pack = _gathered_pack(deals[i], trace)
        report_items()
    return deals, {key: np.concatenate([r[key] for r in rounds]) for key in rounds[0]}


def packet_deals(count: int, seed_seq, policies: Policies, first_round: int) -> np.ndarray:
    """Deals of a traditional packet-dealing chain played by ``policies`` (see the module notes)."""
    deals, _ = simulate_rounds(count, first_round, seed_seq, policies, "packets")
    return deals


def round_table(start: int, deals: np.ndarray, arrays: dict) -> pd.DataFrame:
    """One row per round: the deal, setup, tricks, whether each declarer made, scores in both modes, and the
    dd turns the turn budget left undecided (``undecided``; a round with one is not a perfect-play result)."""
    count = deals.shape[0]
    frame = pd.DataFrame({"round": start + np.arange(count), "dealer": ((start + np.arange(count)) % 4).astype(np.int8),
                          "passed_out": arrays["passed_out"], "partner": arrays["partner"].astype(np.int8),
                          "trump": arrays["trump"].astype(np.int8), "called_card": arrays["called_card"].astype(np.int8),
                          "blind_call": arrays["blind"].astype(bool),
                          "undecided": arrays["undecided"].astype(np.int16)})
    for seat, column in enumerate(DEAL_COLUMNS):
        frame[column] = deals[:, seat]
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
    """One chunk of full rounds (``analyzer rikken play``); ``params["bidding"]`` (seat specs N E S W, see
    ``strategy.bidders_from_params``) sets learned auction policies."""
    deals, arrays = simulate_rounds(count, start, seed_seq, Policies.from_params(params), params["dealing"],
                                    params.get("constraints"), bidders_from_params(params))
    return round_table(start, deals, arrays)


# Contracts played out once per hand; each other contract copies the play of its representative.
SHARED_PLAY = {K.ALONE_9: K.ALONE_8, K.ALONE_10: K.ALONE_8, K.ALONE_11: K.ALONE_8, K.ALONE_12: K.ALONE_8,
               K.ALONE_13: K.ALONE_8}


def shared_play(policies: Policies) -> dict:
    """``SHARED_PLAY``, or no sharing when a bot that plays for each contract's own target plays a card
    (``bots.Bot.plays_for_target``: expert, sampled-dd)."""
    return {} if bots.plays_for_target(policies.names()) else SHARED_PLAY


def played_for(contracts, shared=SHARED_PLAY) -> list[int]:
    """The contracts that must be played out to settle ``contracts`` (``shared``: see ``shared_play``)."""
    return sorted({int(shared.get(c, c)) for c in contracts})


def _holder_of(deals: np.ndarray, rows: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Seat holding ``card[i]`` in deal ``rows[i]`` (-1 where ``card`` is -1)."""
    holds = (deals[rows] >> np.maximum(card, 0)[:, None]) & 1
    return np.where(card >= 0, np.argmax(holds, axis=1), -1)


def build_setups(deals: np.ndarray, leader: np.ndarray, contracts=tuple(K), seats=range(4),
                 trump: int | None = None, shared=SHARED_PLAY) -> dict[str, np.ndarray]:
    """Round setups for every (hand of one of ``seats``, contract played out to settle ``contracts``), as
    flat arrays for ``playout_batch``.

    Trump contracts whose bidder names the trump (Rik, the Alone contracts) use the suit the bidding
    policy would name, or the suit ``trump`` for every hand when it is given (a hand's alternatives).

    Returns a dict with ``hand`` (index into the flattened ``deals`` hands: ``deal * 4 + seat``),
    ``contract`` and the ``playout_batch`` arguments.
    """
    n = deals.shape[0]
    hand_index = (4 * np.arange(n)[:, None] + np.asarray(seats, dtype=np.int64)[None, :]).reshape(-1)
    deal_of, seat_of = hand_index // 4, hand_index % 4
    hands = deals.reshape(-1)[hand_index]
    trump = choose_trump_batch(hands) if trump is None else np.full(hands.size, trump, dtype=np.int64)
    parts = []
    for contract in played_for(contracts, shared):
        rows, bidder = deal_of, seat_of
        if contract == K.TROELA:
            has_three = popcounts(hands & ACE_MASK) == 3
            rows, bidder = deal_of[has_three], seat_of[has_three]
            partner, contract_trump = troela_batch(deals[rows], bidder)
            called = np.full(rows.size, -1, dtype=np.int64)
            blind = np.zeros(rows.size, dtype=np.int64)
        elif rules.SIDE[contract] == rules.Side.CALLED:
            contract_trump = trump if contract == K.RIK else np.full(hands.size, HEARTS, dtype=np.int64)
            called, is_blind = choose_call_batch(hands, contract_trump)
            blind = is_blind.astype(np.int64)
            partner = _holder_of(deals, rows, called)
        else:
            contract_trump = trump if rules.TRUMP_RULE[contract] == rules.TrumpRule.BIDDER else \
                np.full(hands.size, rules.NO_TRUMP, dtype=np.int64)
            partner = np.full(hands.size, -1, dtype=np.int64)
            called = np.full(hands.size, -1, dtype=np.int64)
            blind = np.zeros(hands.size, dtype=np.int64)
        contract_of = np.full((rows.size, 4), -1, dtype=np.int64)
        contract_of[np.arange(rows.size), bidder] = contract
        parts.append({"hand": rows * 4 + bidder, "contract": np.full(rows.size, int(contract), dtype=np.int64),
                      "hands": deals[rows], "leader": leader[rows], "contract_of": contract_of,
                      "partner": partner.astype(np.int64), "trump": contract_trump.astype(np.int64),
                      "called_card": called.astype(np.int64), "blind": blind})
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def play_setups(setups: dict, policies: Policies, rng_state: np.ndarray, dd_budget: int = 0):
    """Tricks per seat (``int64[m, 4]``) for each setup row, played by ``policies``, and the same at the
    high bound of each count (None when every count is exact by construction).

    dd at every seat solves each setup outright (``dd.play_setups_dd``, no draws, each trick count
    within ``dd_budget`` completed tricks, 0: no limit): the first array then holds the low bound of
    each count. Any other mix is played card by card.
    """
    if policies.names() == {"dd"}:
        from analyzer.games.rikken.dd import play_setups_dd  # the solver, only for a dd run (``bots`` notes)

        return play_setups_dd(setups, dd_budget)
    if policies.budget():
        raise InputError("a dd turn budget needs a round table's undecided column: bids and advise rows have none")
    return _play_batch(setups["hands"], setups, policies, rng_state)[0], None


def _side_and_money(setups: dict, tricks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per setup row: the declaring side's tricks and the declarer's money settlement."""
    rows = np.arange(setups["hand"].size)
    bidder = setups["hand"] % 4
    partner = setups["partner"]
    paired = (partner >= 0) & (rules.SIDE[setups["contract"]] != rules.Side.ALONE)
    side = tricks[rows, bidder] + np.where(paired, tricks[rows, np.maximum(partner, 0)], 0)
    money = score_rounds(setups["contract_of"], partner, tricks, ScoringMode.MONEY)[rows, bidder]
    return side, money


def _contract_results(setups: dict, side: np.ndarray, money: np.ndarray, n_hands: int, contract: int, shared: dict):
    """Per hand: the declaring side's tricks, made, the declarer's money and points for one contract."""
    played = shared.get(contract, contract)
    mask = setups["contract"] == played
    hand = setups["hand"][mask]
    side_tricks = np.full(n_hands, NOT_PLAYABLE, dtype=np.int64)
    side_tricks[hand] = side[mask]
    if played == contract:
        declarer_money = np.zeros(n_hands, dtype=np.int64)
        declarer_money[hand] = money[mask]
    else:
        declarer_money = money_from_tricks(contract, side_tricks)
    made, value = made_and_value(contract, side_tricks)
    playable = side_tricks != NOT_PLAYABLE
    return (side_tricks.astype(np.int8), made & playable, np.where(playable, declarer_money, 0).astype(np.int16),
            np.where(made & playable, value, 0).astype(np.int16))


def result_columns(setups: dict, tricks: np.ndarray, n_hands: int, contracts=tuple(K),
                   shared=SHARED_PLAY, high_tricks: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Per-hand columns ``tricks_<c>``, ``made_<c>``, ``money_<c>``, ``points_<c>`` for every contract.

    ``tricks`` counts the declaring side (bidder plus partner); -1 marks a contract the hand cannot
    declare (Troela without three aces). ``money`` is the declarer's zero-sum settlement, ``points``
    his points-mode score.

    With ``high_tricks`` (the tricks per seat at the high bound of each count, ``tricks`` then holding
    the low bound; see ``play_setups``) the columns above are the low ends, and each contract also gets
    ``exact_<c>`` (the count is exact), ``tricks_high_<c>``, ``money_high_<c>`` and ``points_high_<c>``
    (the high ends). Made or not made is the same at both ends; money and points grow with the count
    once that is fixed, so each score lies between its two ends.
    """
    low_side, low_money = _side_and_money(setups, tricks)
    if high_tricks is not None:
        high_side, high_money = _side_and_money(setups, high_tricks)
    columns = {}
    for contract in contracts:
        name = rules.CONTRACT_CLI_NAMES[contract]
        low = _contract_results(setups, low_side, low_money, n_hands, contract, shared)
        for key, column in zip(("tricks", "made", "money", "points"), low):
            columns[f"{key}_{name}"] = column
        if high_tricks is not None:
            high = _contract_results(setups, high_side, high_money, n_hands, contract, shared)
            columns[f"exact_{name}"] = high[0] == low[0]
            for key, column in zip(("tricks", "money", "points"), high[:1] + high[2:]):
                columns[f"{key}_high_{name}"] = column
    return columns


def made_and_value(contract: int, side_tricks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised ``rules.contract_value``."""
    values = [rules.contract_value(contract, t) for t in range(14)]
    lookup_made = np.array([m for m, _ in values])
    lookup_value = np.array([v for _, v in values], dtype=np.int64)
    clipped = np.clip(side_tricks, 0, 13)
    return lookup_made[clipped], lookup_value[clipped]


def money_from_tricks(contract: int, side_tricks: np.ndarray) -> np.ndarray:
    """A lone declarer's money result: +3V made, -3V failed (one against three)."""
    made, value = made_and_value(contract, side_tricks)
    return np.where(made, 3 * value, -3 * value)


# The deal-constraint options of ``rikken deal``, ``bids`` and ``play``, in ``build_constraints`` order.
CONSTRAINT_OPTIONS = catalog.RIKKEN_CONSTRAINT_OPTIONS


def random_deals(count: int, seed_seq, constraints: dict | None = None) -> np.ndarray:
    """Uniform random deals; with ``constraints`` (option name -> list of option texts, e.g.
    ``{"aces": ["N=2"], "length": ["N:S=6-13"]}``), uniform among the deals meeting them."""
    if not constraints:
        return deal_random(count, seed_seq)
    seats = build_constraints(*(constraints.get(key, []) for key in CONSTRAINT_OPTIONS))
    return deal_constrained(count, seed_seq, seats)


def deals_for_chunk(params: dict, start: int, count: int, seed_seq) -> np.ndarray:
    """The chunk's deals under the chosen dealing model (packets: a chain of rounds played by the policy;
    random: constrained by ``params["constraints"]`` when given)."""
    if params["dealing"] == "packets":
        return packet_deals(count, seed_seq, Policies.from_params(params), start)
    return random_deals(count, seed_seq, params.get("constraints"))


@dataclass(frozen=True)
class BidsSetup:
    """One :func:`bids_chunk`'s setup (:func:`bids_setups`): its deals, leaders, setup rows
    (:func:`build_setups`) and the run's contracts, seat numbers, policies and shared play (:func:`shared_play`) they came from."""

    deals: np.ndarray
    leader: np.ndarray
    setups: dict
    contracts: list
    seats: list
    policies: Policies
    shared: dict


def bids_setups(params: dict, start: int, count: int, deal_seed) -> BidsSetup:
    """The setup of one :func:`bids_chunk`, whose deals are drawn from ``deal_seed`` (the first of the chunk's
    two spawned seeds): deal ``d`` is dealt by seat ``d mod 4`` and led by the next seat.
    ``scripts/profile_bids_dd.py`` asks the solver these rows' questions."""
    deals = deals_for_chunk(params, start, count, deal_seed)
    leader = (start + np.arange(count) + 1) % 4
    contracts = [K(c) for c in params["contracts"]]
    seats = [SEAT_LETTERS.index(letter) for letter in params.get("seats", SEAT_LETTERS)]
    policies = Policies.from_params(params)
    shared = shared_play(policies)
    setups = build_setups(deals, leader, contracts, seats, shared=shared)
    return BidsSetup(deals, leader, setups, contracts, seats, policies, shared)


def bids_chunk(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """One chunk of the bid-success experiment: a per-hand table with the deal (``DEAL_COLUMNS``: each
    seat's cards as a mask), the hand's features and every contract's result; only the hands of
    ``params["seats"]`` (seat letters) when given."""
    deal_seed, play_seed = seed_seq.spawn(2)
    setup = bids_setups(params, start, count, deal_seed)
    deals, leader, setups = setup.deals, setup.leader, setup.setups
    deal_number = start + np.arange(count)
    tricks, high_tricks = play_setups(setups, setup.policies, state_from_seed(play_seed), params.get("dd_budget", 0))
    hands = deals.reshape(-1)
    policy_trump = choose_trump_batch(hands)
    frame = hand_feature_frame(hands, policy_trump)
    lengths = suit_lengths(hands)
    frame.insert(0, "deal", np.repeat(deal_number, 4))
    frame.insert(1, "seat", np.tile(np.arange(4), count).astype(np.int8))
    frame.insert(2, "position", ((frame["seat"].to_numpy() - np.repeat(leader, 4)) % 4).astype(np.int8))
    for seat, column in enumerate(DEAL_COLUMNS):
        frame[column] = np.repeat(deals[:, seat], 4)
    frame["policy_trump"] = policy_trump.astype(np.int8)
    frame["hearts"] = lengths[:, HEARTS]
    troela_rows = setups["contract"] == K.TROELA
    troela_trumps = np.zeros(hands.size, dtype=np.int64)
    troela_trumps[setups["hand"][troela_rows]] = lengths[setups["hand"][troela_rows], setups["trump"][troela_rows]]
    frame["troela_trumps"] = troela_trumps
    blind = np.zeros(hands.size, dtype=bool)
    no_call = np.zeros(hands.size, dtype=bool)
    rik = setups["contract"] == K.RIK
    blind[setups["hand"][rik]] = setups["blind"][rik] == 1
    no_call[setups["hand"][rik]] = setups["called_card"][rik] < 0
    frame["rik_blind_call"] = blind
    frame["rik_no_call"] = no_call
    # One concat, not a column at a time: a dd run's bound columns made pandas warn of a fragmented frame.
    results = result_columns(setups, tricks, hands.size, setup.contracts, setup.shared, high_tricks)
    frame = pd.concat([frame, pd.DataFrame(results, index=frame.index)], axis=1)
    if len(setup.seats) < 4:
        frame = frame[frame["seat"].isin(setup.seats).to_numpy()].reset_index(drop=True)
    return frame


# ---------------------------------------------------------------------------------------- declarations
DEALINGS = catalog.RIKKEN_DEALINGS


def rules_entry(dealing: str) -> dict:
    """The manifest's ``rules`` of a Rikken run."""
    return game_rules("rikken", dealing=dealing, scoring=["points", "money"])


def constraint_params(dealing: str, seed: int, *texts: list[str] | None) -> dict:
    """``{"constraints": option name -> texts as given}`` for a run's params (``{}`` without any).

    The constraints are checked here, before a run folder is written: a bad, impossible or
    near-impossible one is an error now rather than in every chunk.
    """
    given = {key: list(values) for key, values in zip(CONSTRAINT_OPTIONS, texts) if values}
    if not given:
        return {}
    if dealing == "packets":
        raise InputError("deal constraints need --dealing random: a packet deal is made from the previous "
                         "round's tricks")
    # The check compiles the constrained dealing on a first run (seconds, before the run's own compile step):
    # it says so, as that step does.
    with compile_notice("Rikken"):
        deal_constrained(0, seed, build_constraints(*(values or [] for values in texts)))
    return {"constraints": given}


def chosen_contracts(text: str) -> list:
    """The contracts of a ``--contracts`` list (``all``: every one)."""
    return list(K) if text.strip() == "all" else [rules.parse_contract(c) for c in text.split(",")]


def dd_budget_params(policies: Policies, budget: int | None) -> dict:
    """``{"dd_budget": ...}`` for the run's parameters when dd plays every seat (the solver counts the tricks),
    else nothing; ``--dd-budget`` with any other policy is an error (card-by-card play has no budget)."""
    if policies.names() == {"dd"}:
        return {"dd_budget": catalog.DD_DEFAULT_BUDGET if budget is None else budget}
    if budget is not None:
        raise InputError("--dd-budget needs --policy dd at every seat: only the solver's trick counts have a budget")
    return {}


def bids_plan(policies: Policies, dealing: str, contracts: str, constraints: dict, seats: list[str] | None,
              deals: int, seed: int, chunk_size: int | None, dd_budget: int | None = None) -> Plan:
    """The checked plan of ``rikken bids``: ``constraints`` from :func:`constraint_params`, ``seats`` the
    seats whose hands are evaluated (N E S W letters; None: all), ``dd_budget`` the ``--dd-budget`` option."""
    if "dd" in policies.names() and dealing == "packets":
        raise InputError("--dealing packets gathers the cards of played tricks: use heuristic or random policies")
    params = {**policies.params(), "dealing": dealing,
              "contracts": sorted({int(c) for c in chosen_contracts(contracts)}), **constraints,
              **dd_budget_params(policies, dd_budget)}
    if seats:
        params["seats"] = seats
    return Plan(params, deals, seed, chunk_size or default_chunk_size(policies),
                manifest={"params": params, "rules": rules_entry(dealing)})


def _bids_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.rikken import charts  # the parent draws; workers need not load matplotlib

    moments = merge_bids_moments(chunks)
    summary = summarize_bids(moments)
    best = best_contracts(moments)
    params = plan.params
    n_hands = len(params.get("seats", SEAT_LETTERS)) * plan.n_items
    overall = summary[summary["feature"] == "all"].drop(columns=["feature", "bin"])
    # Value, lo, hi triplets: the console prints a rate as "59.2% [59.0, 59.3]" and money with its interval.
    shown = pd.DataFrame({
        "contract": overall["contract"], "hands": overall["n"],
        "made rate": overall["rate"], "made lo": overall["rate_lo"], "made hi": overall["rate_hi"],
        "money/hand": overall["mean_score"], "money/hand lo": overall["score_lo"],
        "money/hand hi": overall["score_hi"], "points/hand": overall["mean_points"]})
    if overall["bounded"].any():
        # Counts the search left as intervals: the money interval spans them, the mean is their low end.
        shown["bounded"] = overall["bounded"]
    hands_of = f" (seats {', '.join(params['seats'])})" if "seats" in params else ""
    title = (f"Rikken bids: {plan.n_items:,} deals, {n_hands:,} hands{hands_of}, {Policies.from_params(params).label()}, "
             f"dealing {params['dealing']} (rates with 95% Wilson intervals)")
    return Summary(
        tables={"summary": summary, "bidding_chart": best},
        # A chart is None when no contract it draws was evaluated.
        figures={"success_by_trumps_hcp": lambda: charts.success_by_trumps_and_hcp(moments),
                 "misery_one_alone_by_low_cards": lambda: charts.low_contract_success(moments),
                 "bidding_chart": lambda: charts.bidding_chart(best)},
        manifest={"hands": n_hands}, shown=[(title, shown)], payload={"contracts": records(overall)})


def play_plan(policies: Policies, dealing: str, constraints: dict, bidding: dict, rounds_per_game: int | None,
              rounds: int, seed: int, chunk_size: int | None) -> Plan:
    """The checked plan of ``rikken play``: ``bidding`` from ``strategy.bidding_params``; with
    ``rounds_per_game`` every chunk holds whole games."""
    if rounds_per_game is not None:  # whole games in every chunk: each chunk counts its own games
        chunk_size = game_chunk_size(rounds, rounds_per_game, chunk_size, default_chunk_size(policies))
    params = {**policies.params(), "dealing": dealing, **constraints, **bidding}
    if rounds_per_game is not None:  # chunks of a game-scored run also hold game counts
        params["rounds_per_game"] = rounds_per_game
    return Plan(params, rounds, seed, chunk_size or default_chunk_size(policies),
                manifest={"params": params, "rules": rules_entry(dealing)},
                aggregate=partial(rounds_moments, rounds_per_game=rounds_per_game))


def _play_summary(plan: Plan, chunks: list) -> Summary:
    from analyzer.games.rikken import charts

    moments = merge_rounds_moments(chunks)
    contracts, seats = contract_summary(moments), seat_summary(moments)
    games = game_summary(moments)  # empty without rounds_per_game
    params = plan.params
    undecided = undecided_rounds(moments)
    title = (f"Rikken rounds: {plan.n_items:,}, {Policies.from_params(params).label()}, {bidding_label(params)}, "
             f"dealing {params['dealing']}"
             + (f"; {undecided:,} round{'s' * (undecided != 1)} with a dd turn the budget left undecided"
                if undecided else ""))
    # The undecided column only when a dd turn stopped: other runs show the table as before.
    shown = [(title, contracts if undecided else contracts.drop(columns="undecided")),
             ("Mean score per round by seat (95% intervals)", seats)]
    if not games.empty:
        games_title = (f"Games of {params['rounds_per_game']} rounds, points mode: win probability per seat (a tie "
                       "for the top shares the game; 95% Wilson intervals)")
        shown.append((games_title, games.drop(columns=["outright_prob", "outright_lo", "outright_hi"])))
    return Summary(
        tables={"summary": contracts, "seats": seats, **({"games": games} if not games.empty else {})},
        figures={"contracts_and_scores": lambda: charts.play_chart(contracts, seats)},
        manifest={"rounds": plan.n_items, **({"undecided_rounds": undecided} if "dd_turn_budget" in params else {})},
        shown=shown,
        payload={"contracts": records(contracts), "seats": records(seats),
                 **({"games": records(games)} if len(games) else {})})


def warm_up(task, params: dict) -> None:
    """What a cold cache's first item of a Rikken run compiles (``Experiment.warm_up``), without its cost: the
    Python bots' modules load (the solver compiles its search) and ``task``'s item 0 of seed 0 plays with a
    kernel bot of the table in their seats (the kernels compile); no item when only Python bots play. Item 0
    played by the solver took minutes."""
    policies = Policies.from_params(params)
    bots.load(policies.names())
    stand_in = bots.kernel_stand_in(policies.names())
    if stand_in is not None:
        task({**params, **policies.standing_in(stand_in).params()}, 0, 1, np.random.SeedSequence(0))


def compiled(params: dict) -> bool:
    """Whether numba's cache holds what a Rikken run of ``params`` compiles (``Experiment.compiled`` of
    :data:`BIDS`, :data:`PLAY` and ``advice_experiment.ADVISE``): the kernel that deals its deals (packets,
    constrained or random), the playout kernels of its kernel bots' set (``kernels_for``; the
    per-round ``play_round`` too when packets are dealt) and, with a Python bot at the table, the solver.
    Another command's kernels (``rikken play``'s before a first ``rikken advise``) do not count."""
    policies = Policies.from_params(params)
    names = policies.names()
    packets = params.get("dealing") == "packets"
    dealing = (deal_packets_kernel if packets else deal_constrained_kernel if params.get("constraints")
               else deal_random_kernel)
    needed = [dealing]
    ids = {POLICY_IDS[name] for name in names if bots.BOTS[name].driver is None}
    if ids:
        kernels = kernels_for(ids)
        needed += [kernels._playout_kernel, *([kernels.play_round] if packets else [])]
    if len(ids) < len(names) and not solver_cached():
        return False
    return all(kernel_cached(kernel) for kernel in needed)


BIDS = Experiment("rikken-bids", bids_chunk, bids_moments, rows="hands", description="rikken bids",
                  summarize=_bids_summary, report=BIDS_REPORT, query=BIDS_QUERY,
                  kernels="Rikken", warm_up=partial(warm_up, bids_chunk), compiled=compiled)
PLAY = Experiment("rikken-play", play_chunk, rounds_moments, rows="rounds", description="rikken rounds",
                  summarize=_play_summary, report=PLAY_REPORT, query=PLAY_QUERY,
                  kernels="Rikken", warm_up=partial(warm_up, play_chunk), compiled=compiled)
#: the Rikken experiments declared here (``advice_experiment.ADVISE`` is declared beside its task)
EXPERIMENTS = (BIDS, PLAY)
