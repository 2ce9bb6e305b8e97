"""Defence in the open contracts: what defenders may read, how they use it, and what it changes.

Open Misery / Open 1 Alone / Open 13 Alone show the declarer's hand after trick 1; the "All" contracts
show every hand and the defenders play as one mind. Decisions are checked on hand-built endings
(reasoning in the comments), the information rules by tampering with hands a seat may not see, and
the effect by paired make rates on the same deals.
"""

import numpy as np
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.cards.deck import parse_card, parse_card_list
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import heuristic as H
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.kernels import (
    POLICY_HEURISTIC,
    apply_action,
    choose_card_heuristic,
    legal_actions,
    new_round,
    playout_batch,
)
from analyzer.games.rikken.rules import NO_TRUMP, Contract
from analyzer.reports.stats import paired_difference

from .test_contract_invariants import _give, random_setups
from .test_kernels import decide, ending

N, E, S, W = 0, 1, 2, 3
SPADES = 3


def _declared(contract: Contract, seat: int) -> list[int]:
    contract_of = [-1] * 4
    contract_of[seat] = int(contract)
    return contract_of


# ---------------------------------------------------------------- hand-built decisions
# West declares; North (a defender) is on lead with three cards left each.
FORCE_DEAL = "N:.2.9.2 .3.T.A .4.KQ. .59..5"


def test_all_defender_leads_the_suit_where_everyone_can_stay_under_the_declarer():
    # West holds C5 H5 H9. In clubs North's C2 is under the C5, but East's only club is the CA: East
    # must play over the C5 and West ducks. In hearts North (H2), East (H3) and South (H4) are all under
    # West's lowest heart H5, so West has to win: seeing every hand, North leads a heart (his only one).
    st = ending(FORCE_DEAL, N, _declared(Contract.OPEN_MISERY_ALL, W), trick_no=1)
    assert decide(st) == parse_card("H2")


@pytest.mark.parametrize(("contract", "trick_no"), [(Contract.OPEN_MISERY, 1), (Contract.OPEN_MISERY_ALL, 0)])
def test_without_every_hand_shown_the_defender_leads_under_the_declarer_only(contract, trick_no):
    # Open Misery after trick 1 (North sees West only), or the All contract before trick 1 (North sees
    # nothing): North cannot know East's clubs and leads the first suit under West's lowest card, or
    # his lowest card (C2 and H2 tie on rank; clubs come first).
    st = ending(FORCE_DEAL, N, _declared(contract, W), trick_no=trick_no)
    assert decide(st) == parse_card("C2")


def test_all_defender_follows_under_the_declarers_lowest_card():
    # North leads H2 against West's Misery; East holds H3 H4 H8 and West's lowest heart is H5. East plays
    # H4, the highest heart still under the H5 (South is void, so West must win), and keeps the H3 for a
    # later forcing lead. Seeing only West, in Open Misery East just plays his lowest heart, H3.
    deal = "N:.2.J.A3 .843.3. ..QT9.2 .95..54"
    st = ending(deal, N, _declared(Contract.OPEN_MISERY_ALL, W), plays="H2", trick_no=1)
    assert decide(st) == parse_card("H4")
    st = ending(deal, N, _declared(Contract.OPEN_MISERY, W), plays="H2", trick_no=1)
    assert decide(st) == parse_card("H3")


def test_all_defender_hands_the_lead_to_a_partner_who_can_force():
    # West holds S3 H5 C5. North has no forcing lead: his CK and S9 are over West's C5 and S3, he has no
    # heart, and West is void in diamonds. East has one: H3, under West's H5 with South's H2 under it
    # too. North leads his low club CK: East's CA beats every other club, West ducks, and East leads
    # the forcing heart.
    deal = "N:9..2.K .3.Q.A .2.K.Q 3.5..5"
    assert decide(ending(deal, N, _declared(Contract.OPEN_MISERY_ALL, W), trick_no=1)) == parse_card("CK")
    # In Open Misery North sees only West: no card of his is under West's, and a diamond would let West
    # throw a dangerous card, so he leads his lowest card of the other suits, S9.
    assert decide(ending(deal, N, _declared(Contract.OPEN_MISERY, W), trick_no=1)) == parse_card("S9")


def test_all_defender_without_a_forcing_lead_leads_where_fewest_cards_block():
    # West holds C5 C6 H5; North's C2 and H2 are under them, but East must go over in both suits: with
    # CA CK in clubs and H7 in hearts, and nobody has a forcing lead to be given the lead for. Hearts,
    # with one blocking card against two, is where the blockers wear down soonest: North leads H2.
    deal = "N:A.2..2 .7..AK ..432. .5..65"
    assert decide(ending(deal, N, _declared(Contract.OPEN_MISERY_ALL, W), trick_no=1)) == parse_card("H2")
    # In Open Misery North cannot see East's clubs and leads under West in the first suit, clubs.
    assert decide(ending(deal, N, _declared(Contract.OPEN_MISERY, W), trick_no=1)) == parse_card("C2")


@pytest.mark.parametrize("contract", [Contract.OPEN_ONE_ALONE, Contract.OPEN_ONE_ALONE_ALL])
def test_defender_leads_where_the_shown_one_alone_declarer_is_void(contract):
    # West (no trick yet) holds SA H5 H9 and no club: a club lead cannot give him his trick.
    deal = "N:2.2..3 3.3..K 4.4..Q A.95.."
    assert decide(ending(deal, N, _declared(contract, W), trick_no=1)) == parse_card("C3")
    # Before trick 1 his hand is not shown: North leads his lowest card (H2 and S2 tie; hearts first).
    assert decide(ending(deal, N, _declared(contract, W), trick_no=0)) == parse_card("H2")


def test_all_defender_leads_where_a_partner_beats_the_one_alone_declarer():
    # West (no trick yet) holds SQ HK C9 and North S2 H4 C3: no suit West is void in, no card over his.
    # South's HA beats West's HK, so North leads the H4 and South wins the trick if West plays the HK.
    deal = "N:2.4..3 3.3..4 .A.32. Q.K..9"
    assert decide(ending(deal, N, _declared(Contract.OPEN_ONE_ALONE_ALL, W), trick_no=1)) == parse_card("H4")
    # In Open 1 Alone North does not know where the HA is and leads his lowest card, S2.
    assert decide(ending(deal, N, _declared(Contract.OPEN_ONE_ALONE, W), trick_no=1)) == parse_card("S2")


# North leads DA in 13 Alone (spades trump); East has no diamond and no trump.
GUARD_DEAL = "N:.A3.A.AK .K2..987 ..65432. ..JT987."


def test_open_13_alone_defender_keeps_the_guard_against_the_exposed_hand():
    # North shows HA H3: East's HK wins the second heart if East keeps H2 to follow to the HA. His clubs
    # are all under North's CA CK and can never win, so he throws the lowest, C7.
    st = ending(GUARD_DEAL, N, _declared(Contract.OPEN_ALONE_13, N), plays="DA", trick_no=1, trump=SPADES)
    assert decide(st) == parse_card("C7")
    # In (closed) 13 Alone East does not see the HA H3 and throws his lowest card, H2.
    st = ending(GUARD_DEAL, N, _declared(Contract.ALONE_13, N), plays="DA", trick_no=1, trump=SPADES)
    assert decide(st) == parse_card("H2")
    # So does he in Open 13 Alone with the keep_guard parameter off.
    params = H.default_params()
    params[H.P_KEEP_GUARD] = 0
    st = ending(GUARD_DEAL, N, _declared(Contract.OPEN_ALONE_13, N), plays="DA", trick_no=1, trump=SPADES)
    up, fd = legal_actions(st, E)
    assert choose_card_heuristic(st, E, up, fd, params) == parse_card("H2")


def test_open_13_alone_second_hand_beats_the_bidder_at_once():
    # North leads HQ; East holds HK H2 and the HA is outstanding. Not seeing North's hand, East plays
    # second hand low; seeing it, he takes the trick with the HK, which beats 13 Alone.
    deal = "N:2.Q.A.AK .K2..987 .A.6543. ..JT987."
    st = ending(deal, N, _declared(Contract.OPEN_ALONE_13, N), plays="HQ", trick_no=1, trump=SPADES)
    assert decide(st) == parse_card("HK")
    st = ending(deal, N, _declared(Contract.ALONE_13, N), plays="HQ", trick_no=1, trump=SPADES)
    assert decide(st) == parse_card("H2")


# ---------------------------------------------------------------- information rules
def _decision_changes(setup: dict, tamper) -> int:
    """Heuristic decisions along a heuristic game that change when ``tamper`` edits a copy of the state."""
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    params = H.default_params()
    changes = 0
    for _ in range(52):
        seat = int(st[L.TURN])
        up, fd = legal_actions(st, seat)
        action = choose_card_heuristic(st, seat, up, fd, params)
        other = st.copy()
        if tamper(other, seat) and choose_card_heuristic(other, seat, up, fd, params) != action:
            changes += 1
        apply_action(st, seat, action)
    return changes


def _swap_other_defenders(st, seat):
    """Swap a card between the two defenders other than ``seat`` (hands only the All contracts show)."""
    if st[L.KIND + seat] >= 0:
        return False
    others = [s for s in range(4) if s != seat and st[L.KIND + s] < 0 and st[L.HAND + s]]
    if len(others) < 2:
        return False
    a, b = others[0], others[1]
    ca, cb = cards_of(st[L.HAND + a])[0], cards_of(st[L.HAND + b])[-1]
    st[L.HAND + a] ^= (1 << ca) | (1 << cb)
    st[L.HAND + b] ^= (1 << ca) | (1 << cb)
    return True


def _before_trick(n: int, tamper):
    return lambda st, seat: st[L.TRICK_NO] < n and tamper(st, seat)


def _one_declarer_setups(contract: Contract, n: int = 150) -> list[dict]:
    setups = []
    for s in random_setups(n, 61, families=("misery",)):
        s["contract_of"] = _declared(contract, (s["leader"] + 3) & 3)
        setups.append(s)
    return setups


@pytest.mark.parametrize("contract", [Contract.OPEN_MISERY_ALL, Contract.OPEN_ONE_ALONE_ALL])
def test_all_defenders_read_each_others_hands_only_after_trick_1(contract):
    setups = _one_declarer_setups(contract)
    # After trick 1 a defender's decision depends on the other defenders' hands in some games ...
    assert sum(_decision_changes(s, _swap_other_defenders) for s in setups) > 0
    # ... but never during trick 1, when only his own hand is known.
    assert sum(_decision_changes(s, _before_trick(1, _swap_other_defenders)) for s in setups) == 0


@pytest.mark.parametrize("contract", [Contract.OPEN_MISERY, Contract.OPEN_ONE_ALONE, Contract.MISERY,
                                      Contract.OPEN_ALONE_13])
def test_other_defenders_hands_stay_private_outside_the_all_contracts(contract):
    setups = _one_declarer_setups(contract)
    if contract == Contract.OPEN_ALONE_13:
        for s in setups:
            s["trump"] = SPADES
    assert sum(_decision_changes(s, _swap_other_defenders) for s in setups) == 0


def _swap_declarer(st, seat):
    """Swap a card between the lone declarer and another seat (not ``seat``): his hand changes."""
    declarer = next(s for s in range(4) if st[L.KIND + s] >= 0)
    other = next((s for s in range(4) if s not in (seat, declarer) and st[L.HAND + s]), -1)
    if seat == declarer or other < 0 or not st[L.HAND + declarer]:
        return False
    cd, co = cards_of(st[L.HAND + declarer])[-1], cards_of(st[L.HAND + other])[0]
    st[L.HAND + declarer] ^= (1 << cd) | (1 << co)
    st[L.HAND + other] ^= (1 << cd) | (1 << co)
    return True


def test_open_13_alone_defenders_read_the_exposed_hand_and_13_alone_ones_do_not():
    setups = _one_declarer_setups(Contract.OPEN_ALONE_13)
    for s in setups:
        s["trump"] = SPADES
    assert sum(_decision_changes(s, _swap_declarer) for s in setups) > 0
    assert sum(_decision_changes(s, _before_trick(1, _swap_declarer)) for s in setups) == 0
    for s in setups:
        s["contract_of"] = _declared(Contract.ALONE_13, int(np.argmax(s["contract_of"])))
    assert sum(_decision_changes(s, _swap_declarer) for s in setups) == 0


# ---------------------------------------------------------------- effect on the same deals
def _declarer_tricks(hands: np.ndarray, contract: Contract, params: np.ndarray) -> np.ndarray:
    """Tricks of North declaring ``contract`` (no trump) on every deal, East leading, all heuristic."""
    n = hands.shape[0]
    contract_of = np.full((n, 4), -1, dtype=np.int64)
    contract_of[:, N] = int(contract)
    out = np.empty((n, 4), dtype=np.int64)
    playout_batch(hands, np.full(n, E, np.int64), contract_of, np.full(n, -1, np.int64),
                  np.full(n, NO_TRUMP, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.int64),
                  np.full(4, POLICY_HEURISTIC, np.int64), params, state_from_seed(0), out)
    return out[:, N]


@pytest.mark.parametrize(("all_contract", "open_contract", "target", "n_deals"), [
    (Contract.OPEN_MISERY_ALL, Contract.OPEN_MISERY, 0, 20000),
    (Contract.OPEN_ONE_ALONE_ALL, Contract.OPEN_ONE_ALONE, 1, 3000),
])
def test_defenders_who_see_every_hand_beat_more_contracts(all_contract, open_contract, target, n_deals):
    hands = deal_random(n_deals, 71)
    made_all = _declarer_tricks(hands, all_contract, H.default_params()) == target
    made_open = _declarer_tricks(hands, open_contract, H.default_params()) == target
    mean, lo, hi = paired_difference(made_open, made_all)
    # Same deals, same declarer play: coordinating defenders must let clearly fewer contracts through.
    assert lo > 0, (mean, lo, hi)


def test_without_one_mind_the_all_contracts_play_like_the_open_ones():
    # With the coordination switched off, defenders of an All contract use only the declarer's shown
    # hand, exactly as in Open Misery / Open 1 Alone: the trick counts agree deal for deal.
    hands = deal_random(2000, 73)
    params = H.default_params()
    params[H.P_ONE_MIND] = 0
    for all_contract, open_contract in ((Contract.OPEN_MISERY_ALL, Contract.OPEN_MISERY),
                                        (Contract.OPEN_ONE_ALONE_ALL, Contract.OPEN_ONE_ALONE)):
        assert np.array_equal(_declarer_tricks(hands, all_contract, params),
                              _declarer_tricks(hands, open_contract, params))


def test_defenders_who_see_the_13_alone_hand_beat_more_contracts():
    # North holds SA-ST, HA HK HQ, DA DK, CA and two random cards, leads, and plays with spades trump:
    # his danger is mostly a defender keeping a card over one of his small ones to the end. Seeing his
    # hand, defenders know which cards those are and keep them, so on the same deals Open 13 Alone
    # must be made less often than 13 Alone.
    core = parse_card_list("SA SK SQ SJ ST HA HK HQ DA DK CA")
    hands = deal_random(5000, 79)
    for row in hands:
        seats = [int(h) for h in row]
        _give(seats, N, core)
        row[:] = seats
    n = hands.shape[0]
    made = {}
    for contract in (Contract.OPEN_ALONE_13, Contract.ALONE_13):
        contract_of = np.full((n, 4), -1, dtype=np.int64)
        contract_of[:, N] = int(contract)
        out = np.empty((n, 4), dtype=np.int64)
        playout_batch(hands, np.full(n, N, np.int64), contract_of, np.full(n, -1, np.int64),
                      np.full(n, SPADES, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.int64),
                      np.full(4, POLICY_HEURISTIC, np.int64), H.default_params(), state_from_seed(0), out)
        made[contract] = out[:, N] == 13
    mean, lo, hi = paired_difference(made[Contract.ALONE_13], made[Contract.OPEN_ALONE_13])
    assert lo > 0, (mean, lo, hi)
