"""The Rikken auction and the round setup that follows it (docs/rules.md section 1, "Auction", "Before play").

The auction starts left of the dealer and goes clockwise among players who have not passed; a pass is
final. A bid must beat the standing level, except that at levels 4, 9 and 11 a player may join it.
Holders of the standing level are not asked again until someone outbids them; the auction ends when
every other player has passed.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from analyzer.errors import InputError
from analyzer.games.rikken.bidding import (
    DEFAULT_PARAMS,
    HEARTS,
    PASS,
    BiddingParams,
    bid_for,
    choose_trump,
    count_rank,
    fourth_ace_holder,
    is_legal_bid,
    troela_obliged,
    troela_trump,
)
from analyzer.games.rikken.calling import ACE, choose_call
from analyzer.games.rikken.rules import CONTRACT_NAMES, LEVEL, NO_TRUMP, SIDE, TRUMP_RULE, Side, TrumpRule
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.state import RoundSetup

N_SEATS = 4
# policy(seat, hand, standing_level, first_turn) -> contract id or PASS
BidPolicy = Callable[[int, int, int, bool], int]


class SeatBidder(Protocol):
    """A seat's auction policy for many deals (e.g. ``strategy.LearnedBidder``): ``prepare`` evaluates the
    seat's hands once, ``bid`` chooses at each turn from a hand's row of that evaluation."""

    def prepare(self, hands: np.ndarray, position: np.ndarray) -> np.ndarray:
        """Per-hand values for ``bid``; ``position`` is the seat relative to the dealer (0 = on his left)."""

    def bid(self, values: np.ndarray, hand: int, standing: int, first_turn: bool) -> int:
        """A contract id or ``PASS``."""


@dataclass
class AuctionResult:
    """Outcome of an auction.

    Attributes
    ----------
    contract_of : int64[4]
        Contract of each seat holding the final level, -1 elsewhere.
    level : int
        The final level, 0 when passed out.
    passed_out : bool
        All four passed.
    bids : list of (seat, bid)
        Every turn in order; ``bid`` is a contract id or ``PASS`` (-1).
    """

    contract_of: np.ndarray
    level: int
    passed_out: bool
    bids: list[tuple[int, int]] = field(default_factory=list)

    @property
    def declarers(self) -> list[int]:
        """Seats that declared the final contract(s)."""
        return [s for s in range(N_SEATS) if self.contract_of[s] >= 0]


def policy_from_params(params: BiddingParams) -> BidPolicy:
    """The bidding policy of ``bidding.bid_for`` as an auction policy."""
    return lambda seat, hand, standing, first_turn: bid_for(hand, standing, first_turn, params)


def _check_bid(seat: int, hand: int, bid: int, standing: int, first_turn: bool) -> None:
    """Raise InputError if ``bid`` breaks the auction rules."""
    if troela_obliged(hand, standing, first_turn) and bid != K.TROELA:
        raise InputError(f"seat {seat} holds three aces and must bid Troela at the first turn")
    if bid == PASS:
        return
    if not 0 <= bid < len(LEVEL):
        raise InputError(f"seat {seat} made an unknown bid {bid}")
    if not is_legal_bid(bid, standing):
        raise InputError(f"seat {seat} bid {CONTRACT_NAMES[bid]} (level {LEVEL[bid]}) over level {standing}")
    if bid == K.TROELA and count_rank(hand, ACE) != 3:
        raise InputError(f"seat {seat} bid Troela without exactly three aces")


def _check_table(hands, dealer: int) -> None:
    """Raise InputError unless there are four hands and the dealer is a seat."""
    if len(hands) != N_SEATS or not 0 <= dealer < N_SEATS:
        raise InputError("a Rikken deal has four hands and a dealer seat 0..3")


def run_auction(hands, dealer: int, params: BiddingParams = DEFAULT_PARAMS,
                policy: BidPolicy | None = None) -> AuctionResult:
    """Run the auction for one deal.

    Parameters
    ----------
    hands : sequence of int, length 4
        Card masks per seat.
    dealer : int
        Dealer seat; the seat to his left bids first.
    params : BiddingParams
        Thresholds of the default policy.
    policy : callable, optional
        ``policy(seat, hand, standing_level, first_turn) -> bid`` replacing the default policy
        (scripted auctions in tests, other strategies).

    Returns
    -------
    AuctionResult

    Raises
    ------
    InputError
        If the policy makes an illegal bid or ignores the Troela obligation.
    """
    _check_table(hands, dealer)
    policy = policy or policy_from_params(params)
    passed, first_turn = [False] * N_SEATS, [True] * N_SEATS
    holders: dict[int, int] = {}
    standing, bids, seat = 0, [], (dealer + 1) % N_SEATS
    while any(not passed[s] and s not in holders for s in range(N_SEATS)):
        while passed[seat] or seat in holders:
            seat = (seat + 1) % N_SEATS
        hand = int(hands[seat])
        bid = int(policy(seat, hand, standing, first_turn[seat]))
        _check_bid(seat, hand, bid, standing, first_turn[seat])
        first_turn[seat] = False
        bids.append((seat, bid))
        if bid == PASS:
            passed[seat] = True
        elif LEVEL[bid] > standing:
            holders, standing = {seat: bid}, int(LEVEL[bid])
        else:
            holders[seat] = bid
        seat = (seat + 1) % N_SEATS
    contract_of = np.full(N_SEATS, -1, dtype=np.int64)
    for holder, contract in holders.items():
        contract_of[holder] = contract
    return AuctionResult(contract_of, standing, not holders, bids)


def _trump_for(contract: int, hands, bidder: int) -> int:
    """Trump of a contract by its rule: the bidder's choice, hearts, the Troela partner's choice, or none."""
    rule = TRUMP_RULE[contract]
    if rule == TrumpRule.BIDDER:
        return choose_trump(int(hands[bidder]))
    if rule == TrumpRule.HEARTS:
        return HEARTS
    if rule == TrumpRule.PARTNER:
        return troela_trump(int(hands[fourth_ace_holder(hands, bidder)]))
    return NO_TRUMP


def setup_round(hands, dealer: int, contract_of, params: BiddingParams = DEFAULT_PARAMS) -> RoundSetup:
    """Name trumps, make the call and find the partner for the declared contract(s).

    Parameters
    ----------
    hands : sequence of int, length 4
    dealer : int
    contract_of : sequence of int, length 4
        Declared contract per seat (``AuctionResult.contract_of``); at least one seat must declare.
    params : BiddingParams

    Returns
    -------
    RoundSetup
        With leader left of the dealer; several declarers (joined levels) play without trump or partner.
    """
    _check_table(hands, dealer)
    if len(contract_of) != N_SEATS:
        raise InputError("contract_of needs one entry per seat")
    declarers = [s for s in range(N_SEATS) if contract_of[s] >= 0]
    if not declarers:
        raise InputError("nobody declared a contract: the deal was passed out")
    hands = tuple(int(h) for h in hands)
    bidder = declarers[0]
    contract = int(contract_of[bidder])
    trump = _trump_for(contract, hands, bidder)
    partner, called, blind = -1, -1, False
    if SIDE[contract] == Side.CALLED:
        called, blind = choose_call(hands[bidder], trump, params.call_longest)
        partner = next((s for s in range(N_SEATS) if called >= 0 and hands[s] >> called & 1), -1)
    elif SIDE[contract] == Side.TROELA:
        partner = fourth_ace_holder(hands, bidder)
    return RoundSetup(hands, (dealer + 1) % N_SEATS, tuple(int(c) for c in contract_of), partner, trump, called, blind)


def _mixed_policy(bidders: Sequence[SeatBidder | None], values: list, row: int, params: BiddingParams) -> BidPolicy:
    """The auction policy of deal ``row``: each seat's bidder on its prepared values, ``bid_for`` where None."""
    def policy(seat: int, hand: int, standing: int, first_turn: bool) -> int:
        if bidders[seat] is None:
            return bid_for(hand, standing, first_turn, params)
        return bidders[seat].bid(values[seat][row], hand, standing, first_turn)
    return policy


def _prepared_values(bidders, deals: np.ndarray, dealers: np.ndarray) -> list:
    """Each seat's ``SeatBidder.prepare`` values for every deal (None for a hand-written seat)."""
    return [None if bidder is None else bidder.prepare(deals[:, seat], (seat - dealers - 1) % N_SEATS)
            for seat, bidder in enumerate(bidders or [None] * N_SEATS)]


def run_seat_auction(hands, dealer: int, bidders: Sequence[SeatBidder | None] | None,
                     params: BiddingParams = DEFAULT_PARAMS) -> AuctionResult:
    """The auction of one deal with each seat's own policy, as ``auction_batch`` bids it.

    Parameters
    ----------
    hands : sequence of int, length 4
        Card masks per seat.
    dealer : int
        Dealer seat.
    bidders : sequence of 4 SeatBidder or None, optional
        Auction policy of each seat N E S W; None is the hand-written policy.
    params : BiddingParams

    Returns
    -------
    AuctionResult
    """
    if bidders is None:
        return run_auction(hands, dealer, params)
    deals = np.asarray(hands, dtype=np.int64).reshape(1, N_SEATS)
    values = _prepared_values(bidders, deals, np.array([dealer], dtype=np.int64))
    return run_auction(hands, dealer, params, _mixed_policy(bidders, values, 0, params))


def auction_batch(deals, dealers, params: BiddingParams = DEFAULT_PARAMS,
                  bidders: Sequence[SeatBidder | None] | None = None) -> dict[str, np.ndarray]:
    """Auction and round setup for many deals, as arrays shaped for ``kernels.playout_batch``.

    Parameters
    ----------
    deals : int64[n, 4]
        Hand masks per deal and seat.
    dealers : int64[n]
        Dealer seat of each deal.
    params : BiddingParams
    bidders : sequence of 4 SeatBidder or None, optional
        Auction policy of each seat N E S W; None (or no sequence) is the hand-written policy
        (``bidding.bid_for``). Every bid is checked against the rules either way (``run_auction``).

    Returns
    -------
    dict of numpy arrays
        ``contract_of`` int64[n, 4], ``level``, ``passed_out`` (bool), ``leader``, ``partner``, ``trump``,
        ``called_card``, ``blind`` (int64[n] each). Passed-out rows have no declarer, partner or call and
        trump 4; leave them out of play-outs.
    """
    deals = np.asarray(deals, dtype=np.int64)
    n = len(deals)
    out = {"contract_of": np.full((n, N_SEATS), -1, dtype=np.int64), "level": np.zeros(n, dtype=np.int64),
           "passed_out": np.zeros(n, dtype=bool), "leader": (np.asarray(dealers, dtype=np.int64) + 1) % N_SEATS,
           "partner": np.full(n, -1, dtype=np.int64), "trump": np.full(n, NO_TRUMP, dtype=np.int64),
           "called_card": np.full(n, -1, dtype=np.int64), "blind": np.zeros(n, dtype=np.int64)}
    dealers = np.asarray(dealers, dtype=np.int64)
    values = _prepared_values(bidders, deals, dealers)
    for i in range(n):
        policy = None if bidders is None else _mixed_policy(bidders, values, i, params)
        result = run_auction(deals[i], int(dealers[i]), params, policy)
        out["contract_of"][i] = result.contract_of
        out["level"][i], out["passed_out"][i] = result.level, result.passed_out
        if not result.passed_out:
            setup = setup_round(deals[i], int(dealers[i]), result.contract_of, params)
            out["partner"][i], out["trump"][i] = setup.partner, setup.trump
            out["called_card"][i], out["blind"][i] = setup.called_card, int(setup.blind)
    return out
