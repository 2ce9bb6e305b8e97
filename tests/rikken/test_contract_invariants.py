"""Contract test of the play-out kernel over many random legal games, every contract family included.

``random_setups`` also serves ``test_kernels.py``: it builds legal round setups the way the rules
prescribe (calls from ``calling.choose_call``, Troela hands forced to three aces plus a partner ace,
one to three Misery / 1 Alone declarers at the same level).
"""

import numpy as np
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken.calling import choose_call
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.round_layout import FACE_DOWN_OFFSET
from analyzer.games.rikken.kernels import playout_one
from analyzer.games.rikken.rules import NO_TRUMP, Contract

ACES = [s * 13 + 12 for s in range(4)]
TRICK_CONTRACTS = [Contract.RIK, Contract.RIK_BETER, Contract.ALONE_8, Contract.ALONE_9, Contract.ALONE_10,
                   Contract.ALONE_11, Contract.ALONE_12, Contract.ALONE_13, Contract.OPEN_ALONE_13]
FAMILIES = ("trick", "troela", "misery", "blind", "trick", "misery", "king", "nocall")
SAME_LEVEL = [(Contract.MISERY, Contract.ONE_ALONE), (Contract.OPEN_MISERY, Contract.OPEN_ONE_ALONE),
              (Contract.OPEN_MISERY_ALL, Contract.OPEN_ONE_ALONE_ALL)]


def _owner(hands: list[int], card: int) -> int:
    return next(s for s in range(4) if hands[s] >> card & 1)


def _swap(hands: list[int], a: int, b: int) -> None:
    """Exchange the owners of cards ``a`` and ``b``."""
    sa, sb = _owner(hands, a), _owner(hands, b)
    hands[sa] ^= (1 << a) | (1 << b)
    hands[sb] ^= (1 << a) | (1 << b)


def _give(hands: list[int], seat: int, cards: list[int]) -> None:
    """Move ``cards`` into ``seat``'s hand, paying with cards of his not in ``cards`` (hand sizes kept)."""
    for card in cards:
        if not hands[seat] >> card & 1:
            _swap(hands, card, next(c for c in cards_of(hands[seat]) if c not in cards))


def _void(hands: list[int], seat: int, suit: int, keep: list[int]) -> None:
    """Swap ``seat``'s cards of ``suit`` away for other seats' cards of other suits not in ``keep``."""
    for card in cards_of(hands[seat] & (0x1FFF << 13 * suit)):
        _swap(hands, card, next(c for c in range(52) if c // 13 != suit and c not in keep
                                and not hands[seat] >> c & 1))


def _call_setup(hands: list[int], bidder: int, trump: int, family: str, rng) -> None:
    """Rearrange a deal so that ``bidder``'s call is blind, a king, or impossible."""
    side = [s for s in range(4) if s != trump]
    if family == "blind":
        void_suit = side[int(rng.integers(3))]
        aces = [ACES[s] for s in side if s != void_suit]
        _give(hands, bidder, aces)
        _void(hands, bidder, void_suit, aces)
    elif family == "king":
        _give(hands, bidder, ACES)
    else:
        _give(hands, bidder, ACES + [s * 13 + 11 for s in side])


def random_setups(n: int, seed: int, families=FAMILIES) -> list[dict]:
    """Legal round setups on seeded random deals, cycling through the contract families."""
    rng = np.random.default_rng(seed)
    deals = deal_random(n, seed)
    setups = []
    for i in range(n):
        hands = [int(h) for h in deals[i]]
        family = families[i % len(families)]
        contract_of = [-1] * 4
        partner, trump, called, blind = -1, NO_TRUMP, -1, 0
        bidder = int(rng.integers(4))
        if family in ("trick", "blind", "king", "nocall"):
            if family == "trick":
                contract = TRICK_CONTRACTS[int(rng.integers(len(TRICK_CONTRACTS)))]
            else:
                contract = (Contract.RIK, Contract.RIK_BETER)[int(rng.integers(2))]
            contract_of[bidder] = int(contract)
            trump = 2 if contract == Contract.RIK_BETER else int(rng.integers(4))
            if family != "trick":
                _call_setup(hands, bidder, trump, family, rng)
            if contract in (Contract.RIK, Contract.RIK_BETER):
                called, is_blind = choose_call(hands[bidder], trump)
                blind = int(is_blind)
                if called >= 0:
                    partner = next(s for s in range(4) if hands[s] >> called & 1)
        elif family == "troela":
            partner = (bidder + 1 + int(rng.integers(3))) & 3
            partner_ace = ACES[int(rng.integers(4))]
            _give(hands, bidder, [a for a in ACES if a != partner_ace])
            _give(hands, partner, [partner_ace])
            contract_of[bidder] = int(Contract.TROELA)
            trump = int(rng.choice([s for s in range(4) if s != partner_ace // 13]))
        else:
            pair = SAME_LEVEL[int(rng.integers(len(SAME_LEVEL)))]
            n_declarers = 1 + int(rng.integers(3))
            for seat in rng.permutation(4)[:n_declarers]:
                contract_of[int(seat)] = int(pair[int(rng.integers(2))])
        setups.append({"hands": hands, "leader": int(rng.integers(4)), "contract_of": contract_of,
                       "partner": partner, "trump": trump, "called_card": called, "blind": blind})
    return setups


def cut_to_ending(setup: dict, size: int, rng) -> dict:
    """``setup`` with every hand cut to ``size`` random cards of its own (the called card stays)."""
    called = setup["called_card"]
    hands = []
    for hand in setup["hands"]:
        cards = [c for c in cards_of(hand) if c != called]
        keep = [called] if called >= 0 and hand >> called & 1 else []
        keep += [int(c) for c in rng.choice(cards, size - len(keep), replace=False)]
        hands.append(sum(1 << c for c in keep))
    return {**setup, "hands": hands}

def as_arrays(setups: list[dict]) -> dict:
    """Stack setups into the batch arrays ``playout_batch`` takes."""
    keys = ("hands", "leader", "contract_of", "partner", "trump", "called_card", "blind")
    return {key: np.array([s[key] for s in setups], dtype=np.int64) for key in keys}


def test_random_setups_cover_the_call_kinds():
    setups = random_setups(300, 11)
    # Ace, blind ace, king and no call all occur; so do Troela and several Misery declarers at once.
    calls = {(s["called_card"] % 13 if s["called_card"] >= 0 else -1, s["blind"])
             for s in setups if max(s["contract_of"]) in (Contract.RIK, Contract.RIK_BETER)}
    assert calls == {(12, 0), (12, 1), (11, 0), (-1, 0)}
    assert any(Contract.TROELA in s["contract_of"] for s in setups)
    assert any(sum(c >= 0 for c in s["contract_of"]) >= 2 for s in setups)


@pytest.mark.parametrize("policies", [(0, 0, 0, 0), (1, 1, 1, 1), (1, 0, 1, 0)])
def test_every_game_keeps_the_invariants(policies):
    params = default_params()
    rng_state = state_from_seed(2024)
    for setup in random_setups(240, 7 + sum(policies)):
        tricks, trace = playout_one(**setup, policy_of_seat=np.array(policies), params=params, rng_state=rng_state)
        hands = list(setup["hands"])
        seen = 0
        for t in range(13):
            rows = trace[4 * t:4 * t + 4]
            seats = [int(r[0]) for r in rows]
            # One card per seat per trick, clockwise from the leader.
            assert sorted(seats) == [0, 1, 2, 3]
            assert all(seats[i + 1] == (seats[i] + 1) % 4 for i in range(3))
            for seat, action, up, fd in rows:
                card = action - FACE_DOWN_OFFSET if action >= FACE_DOWN_OFFSET else action
                # The legal set is non-empty and inside the hand, and the action is taken from it.
                assert up != 0 and up & ~hands[seat] == 0 and fd & ~hands[seat] == 0
                assert (fd >> card & 1) if action >= FACE_DOWN_OFFSET else (up >> card & 1)
                assert not seen >> card & 1
                seen |= 1 << card
                hands[seat] &= ~(1 << card)
        # Cards conserved: all 52 played once, hands emptied; 13 tricks shared out.
        assert seen == (1 << 52) - 1 and hands == [0, 0, 0, 0]
        assert int(tricks.sum()) == 13 and tricks.min() >= 0
