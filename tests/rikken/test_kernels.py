"""Play-out kernel against the engine's plain-Python ``RoundState`` on seeded random legal setups.

Random policy: a Python twin (uniform index into ``RoundState.legal_actions`` drawn with the same
``bounded`` PRNG) must reproduce the kernel's every move. Heuristic policy: the njit policy drives
``RoundState`` one move at a time while the kernel state follows; legal sets, hands and trick winners
must agree at every step and the final tricks must equal the batch kernel's.
"""

import numpy as np
import pytest

from analyzer.cards.deck import parse_card, parse_card_list
from analyzer.cards.masks import cards_of
from analyzer.cards.pbn import parse_deal
from analyzer.cards.rng import bounded, state_from_seed
from analyzer.errors import InputError
from analyzer.games.rikken import heuristic as H
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.kernels import (
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    apply_action,
    choose_action,
    choose_card_heuristic,
    legal_actions,
    new_round,
    playout_batch,
    playout_one,
)
from analyzer.games.rikken.rules import NO_TRUMP, Contract
from analyzer.games.rikken.state import RoundSetup, RoundState
from analyzer.reports.stats import paired_difference

from .test_contract_invariants import as_arrays, random_setups

FD = L.FACE_DOWN_OFFSET


def _round_state(setup: dict) -> RoundState:
    return RoundState(RoundSetup(tuple(setup["hands"]), setup["leader"], tuple(setup["contract_of"]),
                                 setup["partner"], setup["trump"], setup["called_card"], bool(setup["blind"])))


def _as_pair(action: int) -> tuple[int, bool]:
    return (action - FD, True) if action >= FD else (action, False)


def _python_random_round(setup: dict, rng_state) -> tuple[list[int], list[tuple[int, bool]]]:
    """Random play on the reference engine: index drawn with ``bounded`` over its legal-action list."""
    state = _round_state(setup)
    moves = []
    while not state.is_over:
        actions = state.legal_actions()
        move = actions[bounded(rng_state, len(actions))]
        moves.append(move)
        state.play(*move)
    return state.tricks, moves


def test_random_policy_matches_the_reference_move_for_move():
    setups = random_setups(160, 31)
    kernel_rng, python_rng = state_from_seed(99), state_from_seed(99)
    face_down_leads = 0
    for setup in setups:
        tricks, trace = playout_one(**setup, policy_of_seat=np.zeros(4, np.int64), params=H.default_params(),
                                    rng_state=kernel_rng)
        ref_tricks, ref_moves = _python_random_round(setup, python_rng)
        assert [_as_pair(a) for a in trace[:, 1]] == ref_moves
        assert list(tricks) == ref_tricks
        face_down_leads += sum(1 for a in trace[:, 1] if a >= FD)
    # The blind face-down lead was exercised, not just allowed.
    assert face_down_leads > 0


def test_random_batch_matches_the_reference_deal_by_deal():
    setups = random_setups(80, 5)
    arrays = as_arrays(setups)
    out = np.empty((len(setups), 4), dtype=np.int64)
    playout_batch(**arrays, policy_of_seat=np.full(4, POLICY_RANDOM, np.int64), params=H.default_params(),
                  rng_state=state_from_seed(3), tricks_out=out)
    python_rng = state_from_seed(3)
    for i, setup in enumerate(setups):
        assert list(out[i]) == _python_random_round(setup, python_rng)[0]


def _drive_heuristic(setup: dict, policies) -> list[int]:
    """Play the reference engine with the njit policies, checking the kernel state at every move."""
    state = _round_state(setup)
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    params = H.default_params()
    rng_state = state_from_seed(1)
    while not state.is_over:
        seat = state.turn
        assert st[L.TURN] == seat
        assert list(st[L.HAND:L.HAND + 4]) == state.hands
        up, fd = legal_actions(st, seat)
        assert [(c, False) for c in cards_of(up)] + [(c, True) for c in cards_of(fd)] == state.legal_actions()
        action = choose_action(st, seat, up, fd, policies[seat], params, rng_state)
        state.play(*_as_pair(action))
        # The kernel names the winner when the fourth card falls (-1 before), the same seat as the reference.
        assert apply_action(st, seat, action) == (state.history[-1][1] if not state.trick else -1)
    assert list(st[L.TRICKS:L.TRICKS + 4]) == state.tricks
    return state.tricks


def test_heuristic_policy_drives_the_reference_engine_like_the_batch_kernel():
    setups = random_setups(200, 17)
    arrays = as_arrays(setups)
    out = np.empty((len(setups), 4), dtype=np.int64)
    policies = np.full(4, POLICY_HEURISTIC, np.int64)
    playout_batch(**arrays, policy_of_seat=policies, params=H.default_params(), rng_state=state_from_seed(0),
                  tricks_out=out)
    for i, setup in enumerate(setups):
        assert list(out[i]) == _drive_heuristic(setup, policies)


def test_mixed_policies_keep_kernel_and_reference_in_step():
    for setup in random_setups(60, 23):
        _drive_heuristic(setup, [POLICY_HEURISTIC, POLICY_RANDOM, POLICY_HEURISTIC, POLICY_RANDOM])


def _decisions(setup: dict, tamper) -> list[int]:
    """Heuristic actions along a heuristic game, each also asked of a tampered copy of the state.

    Returns the positions where the tampered copy decided differently.
    """
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    params = H.default_params()
    differ = []
    for move in range(52):
        seat = int(st[L.TURN])
        up, fd = legal_actions(st, seat)
        action = choose_card_heuristic(st, seat, up, fd, params)
        other = st.copy()
        if tamper(other, seat) and choose_card_heuristic(other, seat, up, fd, params) != action:
            differ.append(move)
        apply_action(st, seat, action)
    return differ


def test_partner_seat_is_not_read_before_the_called_card_shows():
    moved = []

    def move_partner(st, seat):
        # Only for seats that may not know the partner yet: the bidder and the defenders.
        if st[L.PARTNER_PUBLIC] or st[L.PARTNER] == seat:
            return False
        st[L.PARTNER] = next(s for s in range(4) if s not in (seat, st[L.PARTNER], st[L.BIDDER]))
        moved.append(seat)
        return True

    setups = [s for s in random_setups(400, 41, families=("trick", "blind")) if s["called_card"] >= 0]
    assert len(setups) > 100
    for setup in setups:
        moved.clear()
        assert _decisions(setup, move_partner) == []
        # An opening leader who does not hold the called card does not know the partner yet.
        assert moved or setup["leader"] == setup["partner"]


def test_hidden_hands_are_not_read():
    swapped = []

    def reshuffle_hidden(st, seat):
        # Swap one card between two hands the player cannot see (same sizes, same public history).
        hidden = [s for s in range(4) if L.visible_hand(st, seat, s) < 0 and st[L.HAND + s] != 0]
        if len(hidden) < 2:
            return False
        a, b = hidden[0], hidden[1]
        ca = cards_of(st[L.HAND + a])[-1]
        cb = cards_of(st[L.HAND + b])[0]
        if st[L.CALLED_OUT] and st[L.CALLED] in (ca, cb):
            return False
        st[L.HAND + a] ^= (1 << ca) | (1 << cb)
        st[L.HAND + b] ^= (1 << ca) | (1 << cb)
        swapped.append(seat)
        return True

    for setup in random_setups(200, 43):
        swapped.clear()
        assert _decisions(setup, reshuffle_hidden) == []
        # No hand is shown during trick 1: each seat there has three hidden hands to swap between.
        assert swapped


def test_open_misery_defenders_use_the_exposed_hand():
    # Contrast to the test above: once the Open Misery hand is shown, defenders' leads may depend on it,
    # so tampering with the exposed hand must change some decision over many deals.
    def reshuffle_exposed(st, seat):
        declarer = next(s for s in range(4) if st[L.KIND + s] >= 0)
        if seat == declarer or L.visible_hand(st, seat, declarer) < 0 or st[L.N_IN_TRICK] != 0:
            return False
        other = next(s for s in range(4) if s not in (seat, declarer) and st[L.HAND + s])
        mine = cards_of(st[L.HAND + declarer])
        theirs = cards_of(st[L.HAND + other])
        if not mine or not theirs:
            return False
        st[L.HAND + declarer] ^= (1 << mine[0]) | (1 << theirs[-1])
        st[L.HAND + other] ^= (1 << mine[0]) | (1 << theirs[-1])
        return True

    setups = []
    for s in random_setups(120, 47, families=("misery",)):
        s["contract_of"] = [-1] * 4
        s["contract_of"][s["leader"]] = int(Contract.OPEN_MISERY)
        setups.append(s)
    assert sum(len(_decisions(s, reshuffle_exposed)) for s in setups) > 0


def _make_rates(setups, declarer_policy: int, defender_policy: int) -> np.ndarray:
    """Per-deal 1.0 / 0.0 'contract made' for the single declarer (with his partner) of each setup."""
    made = np.empty(len(setups))
    rng_state = state_from_seed(9)
    for i, setup in enumerate(setups):
        declarer = int(np.argmax(setup["contract_of"]))
        partner = setup["partner"]
        policies = np.full(4, defender_policy, np.int64)
        policies[declarer] = declarer_policy
        if partner >= 0:
            policies[partner] = declarer_policy
        tricks, _trace = playout_one(**setup, policy_of_seat=policies, params=H.default_params(),
                                     rng_state=rng_state)
        taken = tricks[declarer] + (tricks[partner] if partner >= 0 else 0)
        made[i] = taken == 0 if setup["contract_of"][declarer] == Contract.MISERY else taken >= 8
    return made


def _strength_setups(contract: Contract) -> list[dict]:
    """Seeded random deals declared as ``contract`` by the bidder of each random trick setup."""
    setups = []
    for s in random_setups(3000, 53, families=("trick",)):
        d = int(np.argmax(s["contract_of"]))
        if contract == Contract.MISERY:
            s.update(contract_of=[-1] * 4, partner=-1, trump=NO_TRUMP, called_card=-1, blind=0)
            s["contract_of"][d] = int(Contract.MISERY)
        elif contract == Contract.ALONE_8:
            s.update(partner=-1, called_card=-1, blind=0)
            s["contract_of"][d] = int(Contract.ALONE_8)
        elif s["contract_of"][d] != Contract.RIK:
            continue
        setups.append(s)
    return setups


STRENGTH_CONTRACTS = [Contract.RIK, Contract.ALONE_8, Contract.MISERY]


@pytest.mark.parametrize("contract", STRENGTH_CONTRACTS)
def test_heuristic_declarers_make_more_than_random_ones(contract):
    setups = _strength_setups(contract)
    heuristic = _make_rates(setups, POLICY_HEURISTIC, POLICY_HEURISTIC)
    random = _make_rates(setups, POLICY_RANDOM, POLICY_HEURISTIC)
    mean, lo, hi = paired_difference(heuristic, random)
    # Same deals, same defenders: the heuristic declaring side must make clearly more contracts.
    assert lo > 0, (mean, lo, hi)


@pytest.mark.parametrize("contract", STRENGTH_CONTRACTS)
def test_heuristic_defenders_beat_more_contracts_than_random_ones(contract):
    setups = _strength_setups(contract)
    against_heuristic = _make_rates(setups, POLICY_HEURISTIC, POLICY_HEURISTIC)
    against_random = _make_rates(setups, POLICY_HEURISTIC, POLICY_RANDOM)
    mean, lo, hi = paired_difference(against_random, against_heuristic)
    # Same deals, same declarers: heuristic defenders must let clearly fewer contracts through.
    assert lo > 0, (mean, lo, hi)


def test_playout_batch_rejects_bad_input():
    arrays = as_arrays(random_setups(4, 1))
    out = np.empty((4, 4), dtype=np.int64)
    policies = np.zeros(4, np.int64)
    bad_hands = arrays["hands"].copy()
    bad_hands[0, 0] = bad_hands[0, 1]
    with pytest.raises(InputError, match="share out the 52 cards"):
        playout_batch(**{**arrays, "hands": bad_hands}, policy_of_seat=policies, params=H.default_params(),
                      rng_state=state_from_seed(0), tricks_out=out)
    with pytest.raises(InputError, match="policy ids"):
        playout_batch(**arrays, policy_of_seat=np.array([0, 1, 7, 0]), params=H.default_params(),
                      rng_state=state_from_seed(0), tricks_out=out)
    with pytest.raises(InputError, match="leader must be an int64 array"):
        playout_batch(**{**arrays, "leader": arrays["leader"][:2]}, policy_of_seat=policies,
                      params=H.default_params(), rng_state=state_from_seed(0), tricks_out=out)


def test_playout_batch_rejects_a_partner_without_the_called_card():
    # N bids Rik with spade trumps and calls the DA, which E holds: partner S is refused, partner E plays.
    deal = parse_deal("N:A432.A32.32.5432 KQ5.KQ54.AK54.76 876.76.QJ76.AKQ8 JT9.JT98.T98.JT9")
    rows = {"hands": [deal], "leader": [E], "contract_of": [[int(Contract.RIK), -1, -1, -1]], "partner": [S],
            "trump": [SPADES], "called_card": [parse_card("DA")], "blind": [0]}
    one = {key: np.array(value, dtype=np.int64) for key, value in rows.items()}
    out = np.full((1, 4), -1, dtype=np.int64)
    kwargs = {"policy_of_seat": np.zeros(4, np.int64), "params": H.default_params(), "tricks_out": out}
    with pytest.raises(InputError, match="must hold the called card"):
        playout_batch(**one, rng_state=state_from_seed(0), **kwargs)
    playout_batch(**{**one, "partner": np.array([E], dtype=np.int64)}, rng_state=state_from_seed(0), **kwargs)
    assert out.sum() == 13


# ---------------------------------------------------------------- hand-built heuristic decisions
N, E, S, W = 0, 1, 2, 3
CLUBS, SPADES = 0, 3


def ending(deal: str, leader: int, contract_of, plays: str = "", trick_no: int = 9, **setup) -> np.ndarray:
    """Kernel state of an ending: cards missing from ``deal`` count as played in earlier tricks."""
    hands = parse_deal(deal, hand_size=None)
    st = new_round(hands, leader, contract_of, setup.get("partner", -1), setup.get("trump", NO_TRUMP),
                   setup.get("called", -1), setup.get("blind", 0))
    st[L.PLAYED] = ((1 << 52) - 1) & ~int(np.bitwise_or.reduce(hands))
    st[L.TRICK_NO] = trick_no
    for card in parse_card_list(plays):
        apply_action(st, int(st[L.TURN]), card)
    return st


def decide(st: np.ndarray) -> int:
    seat = int(st[L.TURN])
    up, fd = legal_actions(st, seat)
    return int(choose_card_heuristic(st, seat, up, fd, H.default_params()))


MIS = [int(Contract.MISERY), -1, -1, -1]


def test_misery_declarer_plays_the_highest_card_under_the_winner():
    # W leads H9; North (Misery) holds HQ H8 H2: H8 is the highest heart that still loses to the 9.
    st = ending("N:.Q82.. ..AK7. ..QJ9. .J96..", W, MIS, plays="H9")
    assert decide(st) == parse_card("H8")


def test_misery_declarer_discards_his_most_dangerous_card():
    # North is void in the club led: the SA would win any spade trick later, so it goes now.
    st = ending("N:A..32. ...QJT ...864 ...975", W, MIS, plays="C5")
    assert decide(st) == parse_card("SA")


def test_misery_declarer_forced_to_win_last_sheds_his_highest():
    # H5 H6 H7 are played; North must follow with HJ or HK and wins either way: he keeps the lower one.
    st = ending("N:.KJ..2 .54..3 .6..54 .7..76", E, MIS, plays="H5 H6 H7")
    assert decide(st) == parse_card("HK")


def test_misery_declarer_leads_a_card_nothing_outstanding_can_duck_under():
    # All three outstanding clubs are above C2, so C2 loses unless all three opponents are void in clubs;
    # D4 wins whenever the diamonds of the others are D3 and voids, so the club is the safer lead.
    st = ending("N:..K4.2 ..A3.3 ..Q5.4 ..J6.5", N, MIS)
    assert decide(st) == parse_card("C2")


def test_one_alone_takes_a_sure_trick_then_plays_misery():
    st = ending("N:A2.2.. KQ.3.. J3.4.. T4.5..", N, [int(Contract.ONE_ALONE), -1, -1, -1])
    # No trick yet: the SA is a sure winner (no trumps in 1 Alone), so it is led at once.
    assert decide(st) == parse_card("SA")
    # With its one trick taken, North must lose the rest: S2 and H2 have nothing outstanding below them,
    # and six higher spades are out against three higher hearts, so S2 is the safer low lead.
    st[L.TRICKS + N] = 1
    assert decide(st) == parse_card("S2")


def test_defender_last_to_play_ducks_under_a_partner_and_beats_the_bidder():
    alone = [int(Contract.ALONE_8), -1, -1, -1]
    # E (defender, West's partner in 8 Alone) wins with HK: West keeps his HA and plays H4.
    st = ending("N:.5.A2. .K.KQ. .3.J3. .A4.4.", N, alone, plays="H5 HK H3", trump=CLUBS)
    assert decide(st) == parse_card("H4")
    # The bidder's H5 is winning instead: West takes the trick with his only beater, HA.
    st = ending("N:.5.A2. .2.KQ. .3.J3. .A4.4.", N, alone, plays="H5 H2 H3", trump=CLUBS)
    assert decide(st) == parse_card("HA")


def test_declarer_draws_trumps_with_his_cheapest_sure_winner():
    # Spades trump, SQ J T 4 3 2 outstanding: SK and SA both draw a round; the SK is the cheaper.
    st = ending("N:AK5.2.. Q4.3..2 J3.4..3 T2.5..4", N, [int(Contract.ALONE_8), -1, -1, -1], trump=SPADES)
    assert decide(st) == parse_card("SK")


def test_parameters_switch_the_rules_they_name():
    params = H.default_params()
    params[H.P_DRAW_TRUMPS_MIN] = 14  # never enough trumps to draw: lead low from the side suit instead
    st = ending("N:AK5.2.. Q4.3..2 J3.4..3 T2.5..4", N, [int(Contract.ALONE_8), -1, -1, -1], trump=SPADES)
    up, fd = legal_actions(st, N)
    assert choose_card_heuristic(st, N, up, fd, params) == parse_card("H2")
    params[H.P_BLIND_LEAD] = 0  # no face-down lead: the blind bidder leads face up
    st = ending("N:K.7..3 ..A2.2 2.2..4 3.3..5", N, [int(Contract.RIK), -1, -1, -1], trump=SPADES,
                called=parse_card("DA"), partner=E, blind=1)
    up, fd = legal_actions(st, N)
    assert fd != 0 and choose_card_heuristic(st, N, up, fd, params) < FD


def test_void_declarer_ruffs_low_and_overruffs_a_ruff():
    alone = [int(Contract.ALONE_8), -1, -1, -1]
    # E leads HA, S follows, W discards a club: North ruffs with his lowest trump.
    st = ending("N:52..A. .AK..2 .32..3 3...54", E, alone, plays="HA H3 C4", trump=SPADES)
    assert decide(st) == parse_card("S2")
    # W ruffed with S3: S2 would lose, so North overruffs with S5.
    st = ending("N:52..A. .AK..2 .32..3 3...54", E, alone, plays="HA H3 S3", trump=SPADES)
    assert decide(st) == parse_card("S5")


def test_blind_bidder_leads_his_lowest_side_card_face_down_and_the_holder_must_drop_the_ace():
    # North called the DA blind (void in diamonds); E holds it. North puts C3 (his lowest non-trump) face down.
    st = ending("N:K.7..3 ..A2.2 2.2..4 3.3..5", N, [int(Contract.RIK), -1, -1, -1], trump=SPADES,
                called=parse_card("DA"), partner=E, blind=1)
    action = decide(st)
    assert action == FD + parse_card("C3")
    apply_action(st, N, action)
    assert legal_actions(st, E) == (1 << parse_card("DA"), 0)


def test_open_misery_defender_leads_under_the_exposed_hand():
    contract = [-1, -1, -1, int(Contract.OPEN_MISERY)]
    deal = "N:..64.3 A.A..2 Q.K..7 K..95."
    # After trick 1 the West hand is shown: D4 is under his lowest diamond D5, so he must win the trick.
    assert decide(ending(deal, N, contract, trick_no=1)) == parse_card("D4")
    # Before it is shown North only knows his own hand and leads his lowest card, C3.
    assert decide(ending(deal, N, contract, trick_no=0)) == parse_card("C3")


@pytest.mark.slow
def test_many_more_deals_match_the_reference():
    # The fast tests above at a larger sample: random play move for move, heuristic trick counts.
    setups = random_setups(3000, 12345)
    kernel_rng, python_rng = state_from_seed(7), state_from_seed(7)
    for setup in setups:
        tricks, trace = playout_one(**setup, policy_of_seat=np.zeros(4, np.int64), params=H.default_params(),
                                    rng_state=kernel_rng)
        assert ([_as_pair(a) for a in trace[:, 1]], list(tricks)) == _python_random_round(setup, python_rng)[::-1]
    for setup in setups[:1000]:
        _drive_heuristic(setup, [POLICY_HEURISTIC] * 4)
