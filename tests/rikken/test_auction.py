"""The auction: joining at levels 4/9/11, outbidding, pass-out, the Troela obligation; and the round setup."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.cards.deck import parse_card
from analyzer.cards.pbn import parse_deal
from analyzer.errors import InputError
from analyzer.games.rikken.auction import auction_batch, run_auction, setup_round
from analyzer.games.rikken.bidding import PASS
from analyzer.games.rikken.rules import JOINABLE_LEVELS, LEVEL, NO_TRUMP
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.state import RoundState

N, E, S, W = 0, 1, 2, 3
C, D, H, SP = 0, 1, 2, 3
NONE = -1
# No seat holds three aces (N: SA HA, E: DA, S: CA), so scripts are free of the Troela obligation.
PLAIN = parse_deal("N:A432.A32.32.5432 KQ5.KQ54.AK54.76 876.76.QJ76.AKQ8 JT9.JT98.T98.JT9")
# N holds three aces (SA HA CA); the DA is with S.
TROELA_DEAL = parse_deal("N:A432.A32.32.A432 KQ5.KQ54.K54.765 876.76.AQJ76.KQ8 JT9.JT98.T98.JT9")


def script(*bids_per_seat):
    """A policy that plays each seat's listed bids in order; records (seat, standing, first_turn)."""
    queues = [list(b) for b in bids_per_seat]
    asked = []

    def policy(seat, hand, standing, first_turn):
        asked.append((seat, standing, first_turn))
        return queues[seat].pop(0)
    policy.asked = asked
    return policy


def test_all_pass_is_a_passed_out_deal():
    result = run_auction(PLAIN, W, policy=script([PASS], [PASS], [PASS], [PASS]))
    assert result.passed_out and result.level == 0
    assert list(result.contract_of) == [NONE] * 4
    # W dealt, so N bids first and the order is N E S W.
    assert result.bids == [(N, PASS), (E, PASS), (S, PASS), (W, PASS)]


def test_outbidding_and_pass_is_final():
    # Dealer W. N Rik, E 8 Alone, S pass, W pass, N (outbid) 9 Alone, E pass: N plays 9 Alone.
    policy = script([K.RIK, K.ALONE_9], [K.ALONE_8, PASS], [PASS], [PASS])
    result = run_auction(PLAIN, W, policy=policy)
    assert list(result.contract_of) == [K.ALONE_9, NONE, NONE, NONE]
    assert result.level == LEVEL[K.ALONE_9] and not result.passed_out
    assert result.bids == [(N, K.RIK), (E, K.ALONE_8), (S, PASS), (W, PASS), (N, K.ALONE_9), (E, PASS)]
    # S and W passed once and were never asked again; N was not asked while he held the bid.
    assert [seat for seat, _standing, _first in policy.asked] == [N, E, S, W, N, E]
    assert policy.asked[4] == (N, LEVEL[K.ALONE_8], False)


def test_first_bidder_depends_on_dealer():
    result = run_auction(PLAIN, N, policy=script([PASS], [K.RIK], [PASS], [PASS]))
    # Dealer N: E bids first, then S, W, N; E holds Rik when everyone else has passed.
    assert result.bids == [(E, K.RIK), (S, PASS), (W, PASS), (N, PASS)]
    assert result.declarers == [E]


@pytest.mark.parametrize(("first", "joiner"), [
    (K.MISERY, K.ONE_ALONE), (K.OPEN_MISERY, K.OPEN_MISERY), (K.OPEN_MISERY_ALL, K.OPEN_ONE_ALONE_ALL),
])
def test_joining_at_joinable_levels(first, joiner):
    # N bids, E joins (either contract of the level), S joins with the first one, W passes.
    result = run_auction(PLAIN, W, policy=script([first], [joiner], [first], [PASS]))
    assert list(result.contract_of) == [first, joiner, first, NONE]
    assert result.level == LEVEL[first] and result.level in JOINABLE_LEVELS
    assert result.declarers == [N, E, S]


def test_a_higher_bid_outbids_all_joined_players():
    # N and E play Misery together until S bids 9 Alone; both are asked again and pass.
    result = run_auction(PLAIN, W, policy=script([K.MISERY, PASS], [K.MISERY, PASS], [K.ALONE_9], [PASS]))
    assert list(result.contract_of) == [NONE, NONE, K.ALONE_9, NONE]


@pytest.mark.parametrize(("standing_bid", "equal_bid"), [(K.RIK, K.RIK), (K.ALONE_8, K.ALONE_8),
                                                         (K.ALONE_9, K.ALONE_9), (K.ALONE_13, K.ALONE_13)])
def test_joining_other_levels_is_illegal(standing_bid, equal_bid):
    with pytest.raises(InputError):
        run_auction(PLAIN, W, policy=script([standing_bid], [equal_bid], [PASS], [PASS]))


def test_lower_bid_is_illegal():
    with pytest.raises(InputError):
        run_auction(PLAIN, W, policy=script([K.ALONE_8], [K.RIK], [PASS], [PASS]))


def test_troela_obligation_enforced_at_first_turn():
    # N holds three aces and bids first: passing is not allowed.
    with pytest.raises(InputError):
        run_auction(TROELA_DEAL, W, policy=script([PASS], [PASS], [PASS], [PASS]))
    # Nor is anything but Troela, even a higher bid below level 11.
    with pytest.raises(InputError):
        run_auction(TROELA_DEAL, W, policy=script([K.ALONE_12], [PASS], [PASS], [PASS]))


def test_troela_obligation_holds_over_a_standing_open_misery():
    # Dealer N: E bids Open Misery (level 9) before N's first turn. Level 9 is not above 10, so N with
    # three aces must still bid Troela (level 10 outbids it); passing is refused.
    with pytest.raises(InputError, match="must bid Troela"):
        run_auction(TROELA_DEAL, N, policy=script([PASS], [K.OPEN_MISERY], [PASS], [PASS]))
    result = run_auction(TROELA_DEAL, N, policy=script([K.TROELA], [K.OPEN_MISERY, PASS], [PASS], [PASS]))
    assert list(result.contract_of) == [K.TROELA, NONE, NONE, NONE]


def test_four_aces_carry_no_troela_obligation():
    # Only exactly three aces oblige: N holds all four and may pass at his first turn.
    four_aces = parse_deal("N:A432.A32.A32.A32 KQJ.KQJ.KQJ.KQJT T98.T987.T98.987 765.654.7654.654")
    assert run_auction(four_aces, W, policy=script([PASS], [PASS], [PASS], [PASS])).passed_out


def test_troela_obligation_lapses_above_level_ten():
    # Dealer N: E bids Open Misery All (level 11) before N's first turn; N may then pass.
    result = run_auction(TROELA_DEAL, N, policy=script([PASS], [K.OPEN_MISERY_ALL], [PASS], [PASS]))
    assert list(result.contract_of) == [NONE, K.OPEN_MISERY_ALL, NONE, NONE]


def test_troela_without_three_aces_is_illegal():
    with pytest.raises(InputError):
        run_auction(PLAIN, W, policy=script([K.TROELA], [PASS], [PASS], [PASS]))


def test_default_policy_bids_troela_with_three_aces():
    result = run_auction(TROELA_DEAL, W)
    assert result.bids[0] == (N, K.TROELA)


# ---------------------------------------------------------------- round setup


def test_setup_rik_calls_an_ace_and_finds_its_holder():
    # N declares Rik: trump = his best suit. N holds spades A432 (4 pts) and clubs 5432 (0): spades.
    # Open aces: DA (held by E, N has 2 diamonds); CA (held by S, N has 4 clubs). Longest: clubs -> CA, S.
    setup = setup_round(PLAIN, W, [K.RIK, NONE, NONE, NONE])
    assert (setup.trump, setup.called_card, setup.blind, setup.partner) == (SP, parse_card("CA"), False, S)
    assert setup.leader == N


def test_setup_rik_beter_is_hearts():
    setup = setup_round(PLAIN, W, [K.RIK_BETER, NONE, NONE, NONE])
    assert setup.trump == H and setup.partner == S


def test_setup_troela_partner_names_trump():
    # The DA holder S names trumps outside diamonds: clubs KQ8 beats spades 876 on points.
    setup = setup_round(TROELA_DEAL, W, [K.TROELA, NONE, NONE, NONE])
    assert (setup.partner, setup.trump, setup.called_card) == (S, C, NONE)


def test_setup_several_misery_bidders_play_without_trump():
    setup = setup_round(PLAIN, E, [K.MISERY, NONE, K.ONE_ALONE, NONE])
    assert (setup.trump, setup.partner, setup.called_card, setup.leader) == (NO_TRUMP, NONE, NONE, S)


def test_setup_needs_a_declarer():
    with pytest.raises(InputError):
        setup_round(PLAIN, W, [NONE] * 4)


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 3))
def test_default_auction_and_setup_are_consistent(perm, dealer):
    deal = np.array([sum(1 << c for c in perm[13 * s:13 * s + 13]) for s in range(4)], dtype=np.int64)
    result = run_auction(deal, dealer)
    declarers = result.declarers
    assert result.passed_out == (not declarers)
    assert all(LEVEL[result.contract_of[s]] == result.level for s in declarers)
    assert len(declarers) <= 1 or result.level in JOINABLE_LEVELS
    # Every seat that is not a declarer ended with a pass.
    last = {seat: bid for seat, bid in result.bids}
    assert all(last[s] == PASS for s in range(4) if s not in declarers)
    if declarers:
        state = RoundState(setup_round(deal, dealer, result.contract_of))
        assert state.turn == (dealer + 1) % 4


def test_setup_king_call_with_four_aces():
    # N holds all four aces; Rik with his best suit spades (AKQ2). Open kings: HK (E, N has A32 -> 3 cards),
    # DK (E, N has A2), CK (S, N has A432 -> 4 cards): the longest suit, clubs -> CK held by S.
    deal = parse_deal("N:AKQ2.A32.A2.A432 543.KQ54.K54.765 876.76.QJ763.KQ8 JT9.JT98.T98.JT9")
    setup = setup_round(deal, W, [K.RIK, NONE, NONE, NONE])
    assert (setup.trump, setup.called_card, setup.blind, setup.partner) == (SP, parse_card("CK"), False, S)


def test_setup_without_callable_card_plays_alone():
    # Rik Beter (hearts) with all aces and kings: no king can be called, N plays alone (partner -1).
    deal = parse_deal("N:AK2.AK32.AK2.AK2 543.Q54.Q54.7654 876.876.J876.QJ8 QJT9.JT9.T93.T93")
    setup = setup_round(deal, W, [K.RIK_BETER, NONE, NONE, NONE])
    assert (setup.trump, setup.called_card, setup.blind, setup.partner) == (H, NONE, False, NONE)


def test_bad_tables_raise_input_error():
    with pytest.raises(InputError):
        run_auction(PLAIN[:3], W)
    with pytest.raises(InputError):
        run_auction(PLAIN, 4)
    with pytest.raises(InputError):
        setup_round(PLAIN, W, [K.RIK, NONE, NONE])


def test_auction_batch_equals_one_by_one():
    deals = np.stack([PLAIN, TROELA_DEAL, parse_deal(
        "N:AK2.AK32.AK2.AK2 543.Q54.Q54.7654 876.876.J876.QJ8 QJT9.JT9.T93.T93")])
    dealers = np.array([W, N, E])
    batch = auction_batch(deals, dealers)
    for i, deal in enumerate(deals):
        result = run_auction(deal, int(dealers[i]))
        assert list(batch["contract_of"][i]) == list(result.contract_of)
        assert (batch["level"][i], batch["passed_out"][i]) == (result.level, result.passed_out)
        setup = setup_round(deal, int(dealers[i]), result.contract_of)
        got = tuple(int(batch[k][i]) for k in ("leader", "partner", "trump", "called_card", "blind"))
        assert got == (setup.leader, setup.partner, setup.trump, setup.called_card, int(setup.blind))
    # The second deal is opened by N with his obligatory Troela.
    assert batch["contract_of"][1][N] == K.TROELA
