"""Hand evaluation and the bidding policy of the Rikken auction; every threshold lives in ``BiddingParams``.

Trick contracts are judged by *estimated playing tricks* with a chosen trump: in each suit the top
``min(length, 3)`` places count a loser for every missing ace, king, queen (the losing-trick count)
and a winner otherwise; cards beyond the third are winners in the trump suit and worth
``side_length_value`` in a side suit. Misery-type contracts are judged by *liabilities*: the i-th
lowest card of a suit (i = 0, 1, ...) is a liability when its rank is above ``safe_rank + step * i``,
since low cards let the bidder duck and length lets him keep ducking.
"""

from dataclasses import dataclass

import numpy as np

from analyzer.cards.deck import N_RANKS, N_SUITS, SUIT_MASKS, card_id
from analyzer.cards.masks import popcounts
from analyzer.errors import InputError
from analyzer.games.rikken.calling import ACE, KING, MILTON, choose_call, suit_points_batch
from analyzer.games.rikken.rules import BASE_POINTS, JOINABLE_LEVELS, LEVEL, NO_TRUMP, TARGET, TROELA_LEVEL
from analyzer.games.rikken.rules import Contract as K

PASS = -1
N_TRICKS = 13
HEARTS = 2
ALONE_TRICK_CONTRACTS = (K.ALONE_8, K.ALONE_9, K.ALONE_10, K.ALONE_11, K.ALONE_12, K.ALONE_13, K.OPEN_ALONE_13)
NO_TRUMP_CONTRACTS = (K.MISERY, K.ONE_ALONE, K.OPEN_MISERY, K.OPEN_ONE_ALONE, K.OPEN_MISERY_ALL, K.OPEN_ONE_ALONE_ALL)


@dataclass(frozen=True)
class BiddingParams:
    """Every threshold of the bidding policy.

    Attributes
    ----------
    rik_min_tricks : float
        Estimated playing tricks to bid Rik / Rik Beter (the called partner supplies the rest of 8).
    rik_min_trumps : int
        Trumps needed for Rik (with the chosen trump) and Rik Beter (hearts).
    alone_margin : float
        Estimated tricks needed above a k-Alone target to bid it (capped at 13).
    side_length_value : float
        Winners credited for each side-suit card beyond the third.
    open_13_min_trumps : int
        Trumps needed (besides a 13-trick estimate) to show the hand with Open 13 Alone.
    misery_safe_rank, open_misery_safe_rank, open_all_misery_safe_rank : int
        Highest safe rank (0 = 2 .. 12 = ace) of a suit's lowest card for Misery, Open, Open All.
    misery_step : int
        How much higher each further card of a suit may be and stay safe.
    misery_max_liabilities : int
        Liabilities tolerated for (closed) Misery; the open contracts tolerate none.
    one_alone_max_ace_suit : int
        Longest suit the single ace of a 1 Alone hand may sit in.
    call_longest : bool
        Call the ace of the longest (True) or shortest (False) suit held.
    """

    rik_min_tricks: float = 5.0
    rik_min_trumps: int = 4
    # Calibrated with heuristic play-outs: at an estimate equal to the target, 8 Alone made only 40%
    # of the time; one trick above it, over 80%.
    alone_margin: float = 1.0
    side_length_value: float = 0.5
    open_13_min_trumps: int = 7
    misery_safe_rank: int = 4
    open_misery_safe_rank: int = 3
    open_all_misery_safe_rank: int = 2
    misery_step: int = 2
    misery_max_liabilities: int = 0
    # Heuristic play-outs made 1 Alone 52-58% of the time with the ace singleton or doubleton,
    # 44-47% with three or four cards in its suit.
    one_alone_max_ace_suit: int = 2
    call_longest: bool = True


DEFAULT_PARAMS = BiddingParams()


# The ranks of every 13-bit suit field, looked up instead of recomputed: the auction evaluates hands often.
_RANKS_OF_FIELD = tuple(tuple(r for r in range(N_RANKS) if field >> r & 1) for field in range(1 << N_RANKS))
_FIELD = (1 << N_RANKS) - 1


def suit_ranks(hand: int, suit: int) -> tuple[int, ...]:
    """Ranks (0 = 2 .. 12 = ace) of ``hand`` in ``suit``, lowest first."""
    return _RANKS_OF_FIELD[int(hand) >> (suit * N_RANKS) & _FIELD]


def count_rank(hand: int, rank: int) -> int:
    """Number of cards of ``rank`` (e.g. aces) in ``hand``."""
    return sum(int(hand) >> card_id(s, rank) & 1 for s in range(N_SUITS))


def high_card_points(hand: int) -> int:
    """Milton points: A 4, K 3, Q 2, J 1."""
    return sum(MILTON.get(r, 0) for s in range(N_SUITS) for r in suit_ranks(hand, s))


def choose_trump(hand: int, excluded: int = -1) -> int:
    """Trump the policy names: the longest suit, then the most high-card points in it, then the higher suit.

    Parameters
    ----------
    hand : int
        Card mask.
    excluded : int
        A suit that may not be named (Troela: the partner's ace suit), -1 for none.
    """
    def key(suit):
        ranks = suit_ranks(hand, suit)
        return len(ranks), sum(MILTON.get(r, 0) for r in ranks), suit
    return max((s for s in range(N_SUITS) if s != excluded), key=key)


def choose_trump_batch(hands: np.ndarray, excluded: np.ndarray | None = None) -> np.ndarray:
    """Vectorised ``choose_trump``: ``int64[n]`` trump of each of ``int64[n]`` hands.

    Parameters
    ----------
    hands : int64[n]
    excluded : int64[n], optional
        Suit each hand may not name (-1 for none), as in ``choose_trump``.
    """
    hands = np.asarray(hands, dtype=np.int64)
    suits = np.arange(N_SUITS)[None, :]
    lengths = popcounts(hands[:, None] & SUIT_MASKS[None, :])
    # Length, then points (< 100), then the higher suit, packed into one key.
    key = lengths * 1_000 + suit_points_batch(hands) * 10 + suits
    if excluded is not None:
        key = np.where(suits == np.asarray(excluded, dtype=np.int64)[:, None], -1, key)
    return np.argmax(key, axis=1).astype(np.int64)


def troela_batch(deals: np.ndarray, bidders: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised Troela setup: (partner seat, trump he names) for each row of ``deals`` (``int64[n, 4]``).

    Each ``bidders[i]`` must hold exactly three aces; the partner holds the fourth and names his best
    suit other than that ace's suit (``troela_trump``).
    """
    deals = np.asarray(deals, dtype=np.int64)
    rows = np.arange(len(deals))
    bidder_hands = deals[rows, np.asarray(bidders, dtype=np.int64)]
    aces = np.stack([bidder_hands >> card_id(s, ACE) & 1 for s in range(N_SUITS)], axis=1)
    if np.any(aces.sum(axis=1) != 3):
        raise InputError("every Troela bidder must hold exactly three aces")
    ace_suit = np.argmin(aces, axis=1)
    partner = np.argmax(deals >> (ace_suit * N_RANKS + ACE)[:, None] & 1, axis=1)
    return partner.astype(np.int64), choose_trump_batch(deals[rows, partner], excluded=ace_suit)


def estimated_tricks(hand: int, trump: int, params: BiddingParams = DEFAULT_PARAMS) -> float:
    """Estimated playing tricks of ``hand`` declaring alone with ``trump`` (see the module docstring)."""
    total = 0.0
    for suit in range(N_SUITS):
        ranks = suit_ranks(hand, suit)
        top = min(len(ranks), 3)
        losers = sum(1 for rank in (12, 11, 10)[:top] if rank not in ranks)
        extra = max(len(ranks) - 3, 0) * (1.0 if suit == trump else params.side_length_value)
        total += top - losers + extra
    return total


def liabilities(hand: int, safe_rank: int, step: int) -> int:
    """Cards that may be forced to win a trick at no trump: the i-th lowest of a suit above ``safe_rank + step*i``."""
    return sum(rank > safe_rank + step * i for s in range(N_SUITS) for i, rank in enumerate(suit_ranks(hand, s)))


_FIELDS = np.arange(1 << N_RANKS, dtype=np.int64)
_FIELD_LENGTH = popcounts(_FIELDS)
# Winners among the top min(length, 3) places (ace, king, queen held there) and cards beyond the third.
_FIELD_TOP_WINNERS = sum((_FIELDS >> rank & 1) * (_FIELD_LENGTH > place) for place, rank in enumerate((12, 11, 10)))
_FIELD_EXTRA = np.maximum(_FIELD_LENGTH - 3, 0)


def _suit_fields(hands: np.ndarray) -> np.ndarray:
    """``int64[n, 4]`` 13-bit suit fields of ``int64[n]`` hands."""
    return np.asarray(hands, dtype=np.int64)[:, None] >> (N_RANKS * np.arange(N_SUITS))[None, :] & _FIELD


def estimated_tricks_batch(hands: np.ndarray, trumps: np.ndarray, params: BiddingParams = DEFAULT_PARAMS) -> np.ndarray:
    """Vectorised ``estimated_tricks``: ``float64[n]`` for ``int64[n]`` hands and trumps (4 = none)."""
    fields = _suit_fields(hands)
    is_trump = np.arange(N_SUITS)[None, :] == np.asarray(trumps, dtype=np.int64)[:, None]
    extra_value = np.where(is_trump, 1.0, params.side_length_value)
    return (_FIELD_TOP_WINNERS[fields] + _FIELD_EXTRA[fields] * extra_value).sum(axis=1)


def liabilities_batch(hands: np.ndarray, safe_rank: int, step: int) -> np.ndarray:
    """Vectorised ``liabilities``: ``int64[n]`` Misery liabilities of ``int64[n]`` hands."""
    ranks = np.arange(N_RANKS)[None, :]
    held = _FIELDS[:, None] >> ranks & 1
    # A held card's place in its suit is the number of lower cards held.
    place = popcounts(_FIELDS[:, None] & ((1 << ranks) - 1))
    per_field = (held * (ranks > safe_rank + step * place)).sum(axis=1)
    return per_field[_suit_fields(hands)].sum(axis=1)


def hand_features(hand: int, trump: int, params: BiddingParams = DEFAULT_PARAMS) -> dict:
    """Hand features for the bids table and the bidding policy.

    Returns
    -------
    dict
        ``hcp``, ``aces``, ``kings``, ``len_1`` .. ``len_4`` (suit lengths, longest first), ``longest``,
        ``trumps`` (cards of ``trump``; 0 at no trump), ``voids``, ``singletons``, ``est_tricks``
        (with ``trump``) and ``liabilities`` (the Misery low-card measure).
    """
    lengths = sorted((len(suit_ranks(hand, s)) for s in range(N_SUITS)), reverse=True)
    features = {"hcp": high_card_points(hand), "aces": count_rank(hand, ACE), "kings": count_rank(hand, KING)}
    features.update({f"len_{i + 1}": n for i, n in enumerate(lengths)})
    features.update(
        longest=lengths[0],
        trumps=len(suit_ranks(hand, trump)) if trump < NO_TRUMP else 0,
        voids=lengths.count(0),
        singletons=lengths.count(1),
        est_tricks=estimated_tricks(hand, trump, params),
        liabilities=liabilities(hand, params.misery_safe_rank, params.misery_step),
    )
    return features


def _misery_family(hand: int, params: BiddingParams) -> list[int]:
    """No-trump contracts the hand qualifies for: Misery with few liabilities, 1 Alone with one ace and none."""
    qualifying = []
    tiers = ((K.MISERY, K.ONE_ALONE, params.misery_safe_rank, params.misery_max_liabilities),
             (K.OPEN_MISERY, K.OPEN_ONE_ALONE, params.open_misery_safe_rank, 0),
             (K.OPEN_MISERY_ALL, K.OPEN_ONE_ALONE_ALL, params.open_all_misery_safe_rank, 0))
    no_aces = int(hand) & ~sum(1 << card_id(s, ACE) for s in range(N_SUITS))
    for misery, one_alone, safe, allowed in tiers:
        if liabilities(hand, safe, params.misery_step) <= allowed:
            qualifying.append(misery)
        elif _one_sure_trick(hand, params) and liabilities(no_aces, safe, params.misery_step) == 0:
            qualifying.append(one_alone)
    return qualifying


def _one_sure_trick(hand: int, params: BiddingParams) -> bool:
    """Exactly one ace, in a short suit: the ace of a long suit too often never takes its trick."""
    ace_suits = [s for s in range(N_SUITS) if int(hand) >> card_id(s, ACE) & 1]
    return len(ace_suits) == 1 and len(suit_ranks(hand, ace_suits[0])) <= params.one_alone_max_ace_suit


def qualifying_contracts(hand: int, params: BiddingParams = DEFAULT_PARAMS) -> list[int]:
    """Every contract the policy thinks ``hand`` can make (Troela: exactly three aces)."""
    trump = choose_trump(hand)
    est = estimated_tricks(hand, trump, params)
    qualifying = []
    for contract, rik_trump in ((K.RIK, trump), (K.RIK_BETER, HEARTS)):
        if (len(suit_ranks(hand, rik_trump)) >= params.rik_min_trumps
                and estimated_tricks(hand, rik_trump, params) >= params.rik_min_tricks):
            qualifying.append(contract)
    for contract in ALONE_TRICK_CONTRACTS:
        # The margin cannot ask for more than all 13 tricks: a loser-free hand may bid 12 and 13 Alone.
        if est >= min(TARGET[contract] + params.alone_margin, N_TRICKS):
            qualifying.append(contract)
    if K.OPEN_ALONE_13 in qualifying and len(suit_ranks(hand, trump)) < params.open_13_min_trumps:
        qualifying.remove(K.OPEN_ALONE_13)
    if count_rank(hand, ACE) == 3:
        qualifying.append(K.TROELA)
    return sorted(qualifying + _misery_family(hand, params))


def is_legal_bid(contract: int, standing_level: int) -> bool:
    """A bid must beat the standing level, or join it at a joinable level (4, 9, 11)."""
    level = int(LEVEL[contract])
    return level > standing_level or (level == standing_level and level in JOINABLE_LEVELS)


def troela_obliged(hand: int, standing_level: int, first_turn: bool) -> bool:
    """Three aces oblige a Troela bid at the first turn unless the standing bid is above level 10.

    A standing level of exactly 10 would be another Troela, impossible with the three aces here;
    requiring a level below 10 keeps the obliged bid legal even for such made-up inputs.
    """
    return first_turn and count_rank(hand, ACE) == 3 and standing_level < TROELA_LEVEL


def bid_for(hand: int, standing_level: int, first_turn: bool, params: BiddingParams = DEFAULT_PARAMS) -> int:
    """The policy's bid: a contract id, or ``PASS``.

    Among the qualifying contracts that are legal now it takes the best paying one (highest base
    points P), and among equals the lowest level (overtricks pay, so a lower target is worth more),
    then the lower contract id (Misery before 1 Alone).

    Parameters
    ----------
    hand : int
        Card mask of the seat to bid.
    standing_level : int
        Level of the standing bid, 0 if nobody has bid.
    first_turn : bool
        Whether this is the seat's first turn (the Troela obligation).
    params : BiddingParams
    """
    if troela_obliged(hand, standing_level, first_turn):
        return K.TROELA
    options = [c for c in qualifying_contracts(hand, params) if is_legal_bid(c, standing_level)]
    if not options:
        return PASS
    return max(options, key=lambda c: (BASE_POINTS[c], -LEVEL[c], -c))


def troela_trump(partner_hand: int) -> int:
    """Trump the Troela partner names: his best suit other than that of his own ace."""
    ace_suits = [s for s in range(N_SUITS) if int(partner_hand) >> card_id(s, ACE) & 1]
    if len(ace_suits) != 1:
        raise InputError("the Troela partner must hold exactly one ace")
    return choose_trump(partner_hand, excluded=ace_suits[0])


def fourth_ace_holder(deal, seat: int) -> int:
    """Seat holding the one ace ``seat`` lacks (the Troela partner)."""
    missing = [s for s in range(N_SUITS) if not int(deal[seat]) >> card_id(s, ACE) & 1]
    if len(missing) != 1:
        raise InputError(f"seat {seat} does not hold exactly three aces")
    card = card_id(missing[0], ACE)
    return next(s for s in range(len(deal)) if int(deal[s]) >> card & 1)


def playable_contracts(hand: int, params: BiddingParams = DEFAULT_PARAMS,
                       deal=None) -> list[tuple[int, int, int, bool]]:
    """Every contract ``hand`` could declare, set up as the policy would: ``(contract, trump, called_card, blind)``.

    Trump contracts use ``choose_trump``; Rik Beter hearts; the no-trump contracts trump 4. Troela is
    listed only with exactly three aces, with the trump the partner would name, so it needs ``deal``
    (the four hands) to find the partner.

    Raises
    ------
    InputError
        If the hand holds three aces and ``deal`` is not given.
    """
    trump = choose_trump(hand)
    rows = [(K.RIK, trump, *choose_call(hand, trump, params.call_longest)),
            (K.RIK_BETER, HEARTS, *choose_call(hand, HEARTS, params.call_longest))]
    rows += [(c, trump, -1, False) for c in ALONE_TRICK_CONTRACTS]
    rows += [(c, NO_TRUMP, -1, False) for c in NO_TRUMP_CONTRACTS]
    if count_rank(hand, ACE) == 3:
        if deal is None:
            raise InputError("Troela needs the whole deal to find the partner")
        seat = next(s for s in range(len(deal)) if int(deal[s]) == int(hand))
        rows.append((K.TROELA, troela_trump(deal[fourth_ace_holder(deal, seat)]), -1, False))
    return sorted(rows)
