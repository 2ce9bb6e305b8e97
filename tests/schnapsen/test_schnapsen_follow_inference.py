"""The follow half of ``lead_inference``: which follows count as evidence (by hand), the position before the
follow against the real one from random play, and the inferred worlds against the posterior counted hand by
hand in plain Python from that real position."""

import itertools
import random

import numpy as np
import pytest
from scipy.stats import chisquare
from test_schnapsen_rollout_bot import open_stock_position

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.kernels import apply_action
from analyzer.games.schnapsen.lead_inference import MISMATCH_WEIGHT, before_follow, free_follow, inferred_world
from analyzer.games.schnapsen.search import hidden_pool
from analyzer.games.schnapsen.state import SchnapsenState

MODEL = HeuristicParams().to_array()


def test_free_follow_by_hand():
    """The leader who won the trick sees the follow at his next lead; not when the follower took it, not the
    follower himself, not mid-trick, not once the stock is closed, not at a deal's first trick."""
    st = SchnapsenState(hands=[R.mask_of(R.parse_cards("SA SK SQ HJ DT")), R.mask_of(R.parse_cards("CA CK HA HT DJ"))],
                        stock=R.parse_cards("CJ CQ CT DQ DK HQ HK SJ ST DA"), trump=1)
    s = st.to_array()
    assert free_follow(s, 0) == -1
    lost = s.copy()
    apply_action(lost, R.parse_card("SA"))
    assert free_follow(lost, 0) == -1
    apply_action(lost, R.parse_card("CK"))
    assert free_follow(lost, 0) == R.parse_card("CK")
    assert free_follow(lost, 1) == -1
    closed = lost.copy()
    apply_action(closed, R.CLOSE)
    assert free_follow(closed, 0) == -1
    trumped = s.copy()
    apply_action(trumped, R.parse_card("SA"))
    apply_action(trumped, R.parse_card("DJ"))
    assert trumped[R.LEADER] == 1
    assert free_follow(trumped, 1) == -1 and free_follow(trumped, 0) == -1
    under = s.copy()
    apply_action(under, R.parse_card("HJ"))
    apply_action(under, R.parse_card("HA"))
    assert free_follow(under, 1) == -1


def won_trick(rnd: random.Random, stock: int) -> tuple[SchnapsenState, int, int, SchnapsenState]:
    """From random play: a trick start with ``stock`` cards left, its leader's plain lead, the heuristic's
    follow to it that does not take the trick, and the position after the trick (the leader to lead again).
    The leader has a trick before it, so no marriage's points wait for it."""
    buf = np.zeros(16, dtype=np.int64)
    while True:
        st = open_stock_position(rnd, stock)
        if st.tricks[st.leader] == 0:
            continue
        lead = rnd.choice([a for a in st.legal_actions() if a < R.N_CARDS])
        mid = st.copy()
        mid.apply(lead)
        follow = int(heuristic_action(mid.to_array(), MODEL, buf))
        after = mid.copy()
        after.apply(follow)
        if after.leader == st.leader and not after.is_over:
            return mid, lead, follow, after


def test_before_follow_is_the_real_position_for_the_model():
    """With the card the follower really drew, ``before_follow`` gives the real position before his follow in
    every field his rules read (hands but the leader's, cards played, points, tricks, the trick, the stock's
    size and face-up card), and the heuristic follows there as it did."""
    rnd = random.Random(4)
    out = np.zeros(R.STATE_SIZE, dtype=np.int64)
    buf = np.zeros(16, dtype=np.int64)
    fields = [R.PLAYED, R.TRICKS0, R.TRICKS0 + 1, R.POINTS0, R.POINTS0 + 1, R.PENDING0, R.PENDING0 + 1,
              R.LEADER, R.TO_MOVE, R.LEAD_CARD, R.DRAWN, R.STOCK + 9, R.TRUMP]
    for stock in (8, 6, 4) * 10:
        mid, lead, follow, after = won_trick(rnd, stock)
        opp = 1 - mid.leader
        drew = (after.hands[opp] & ~mid.hands[opp]).bit_length() - 1
        s = after.to_array()
        assert free_follow(s, mid.leader) == follow
        before_follow(s, drew, out)
        real = mid.to_array()
        assert out[R.HAND0 + opp] == real[R.HAND0 + opp]
        assert out[fields].tolist() == real[fields].tolist()
        assert heuristic_action(out, MODEL, buf) == follow


def follow_posterior(rnd: random.Random) -> tuple[np.ndarray, int, dict]:
    """A position after a trick its leader won with 4 stock cards left, in which the heuristic's follow tells
    the follower's hands apart, and the posterior of his hand there: each hand the leader cannot rule out
    weighs the mean, over the cards of it not shown that he may have drawn since, of 1 when the heuristic
    follows as he did from the real position before the follow with that hand, else ``MISMATCH_WEIGHT``."""
    buf = np.zeros(16, dtype=np.int64)
    while True:
        mid, lead, follow, after = won_trick(rnd, 6)
        leader, opp = mid.leader, 1 - mid.leader
        s = after.to_array()
        hidden = [c for c in range(R.N_CARDS) if int(hidden_pool(s, leader)) >> c & 1]
        known = after.shown[opp] & after.hands[opp]
        unknown = after.hands[opp].bit_count() - known.bit_count()
        leader_drew = after.hands[leader] & ~mid.hands[leader]
        weights = {}
        for cards in itertools.combinations(hidden, unknown):
            hand = R.mask_of(list(cards)) | known
            rest = [c for c in hidden if c not in cards]
            matches = []
            for drew in R.cards_of(hand & ~after.shown[opp]):
                pre = mid.copy()
                pre.hands[opp] = (hand & ~(1 << drew)) | (1 << follow)
                pre.stock = [leader_drew.bit_length() - 1, drew] + rest + mid.stock[-1:]
                matches.append(1.0 if heuristic_action(pre.to_array(), MODEL, buf) == follow else MISMATCH_WEIGHT)
            weights[hand] = sum(matches) / len(matches)
        if len(set(weights.values())) > 2:
            total = sum(weights.values())
            return s, leader, {h: w / total for h, w in weights.items()}


@pytest.mark.parametrize("seed", [5, 6])
def test_inferred_worlds_follow_the_follow_posterior(seed):
    """20,000 worlds drawn at the leader's next lead: the follower's hands come in the posterior's proportions
    (chi-square), and the hands the model fits best come more often than uniformly."""
    s, leader, posterior = follow_posterior(random.Random(seed))
    rng = state_from_seed(seed)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    counts = dict.fromkeys(posterior, 0)
    draws = 20_000
    for _ in range(draws):
        inferred_world(s, leader, rng, pool, world)
        assert world[R.HAND0 + leader] == s[R.HAND0 + leader]
        counts[int(world[R.HAND0 + 1 - leader])] += 1
    hands = sorted(posterior)
    observed = np.array([counts[h] for h in hands])
    expected = np.array([posterior[h] * draws for h in hands])
    assert chisquare(observed, expected).pvalue > 1e-3
    likely = [h for h in hands if posterior[h] == max(posterior.values())]
    assert sum(counts[h] for h in likely) / draws > 1.2 * len(likely) / len(hands)
