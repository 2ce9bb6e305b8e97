"""``lead_inference`` and ``hybrid_infer``: the position before a lead against the kernel's own lead, the
inferred worlds against the posterior counted hand by hand in plain Python, ``hybrid_infer`` equal to
``hybrid`` where there is no lead to infer from, legal and repeatable play."""

import itertools
import random

import numpy as np
import pytest
from scipy.stats import chisquare
from test_schnapsen_hybrid_bot import per_world_means
from test_schnapsen_rollout_bot import open_stock_position

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.experiments import paired_deals, parse_bot
from analyzer.games.schnapsen.hybrid_bot import hybrid_values
from analyzer.games.schnapsen.kernels import apply_action, legal_actions
from analyzer.games.schnapsen.lead_inference import (
    MISMATCH_WEIGHT,
    before_lead,
    inferred_world,
    plain_lead,
)
from analyzer.games.schnapsen.play import HYBRID_INFER, choose_action
from analyzer.games.schnapsen.search import hidden_pool, list_actions, new_workspace
from analyzer.games.schnapsen.state import SchnapsenState

MODEL = HeuristicParams().to_array()


def plainly_led(rnd: random.Random, stock: int, predictable: bool = False) -> tuple[SchnapsenState, int]:
    """A random open-stock trick start and a card its leader leads without announcing: the heuristic's
    lead when ``predictable`` (and that is a plain card), else a random plain card."""
    while True:
        st = open_stock_position(rnd, stock)
        buf = np.zeros(16, dtype=np.int64)
        if predictable:
            lead = int(heuristic_action(st.to_array(), MODEL, buf))
            if lead < R.N_CARDS:
                return st, lead
        else:
            return st, rnd.choice([a for a in st.legal_actions() if a < R.N_CARDS])


def test_plain_lead_by_hand():
    """The follower sees a plain lead; not a marriage's card led announcing it, not at a trick's start, not
    for the leader."""
    st = SchnapsenState(hands=[R.mask_of(R.parse_cards("SA SK SQ HJ DT")), R.mask_of(R.parse_cards("CA CK HA HT DJ"))],
                        stock=R.parse_cards("CJ CQ CT DQ DK HQ HK SJ ST DA"), trump=1)
    s = st.to_array()
    assert plain_lead(s, 1) == -1
    marriage = s.copy()
    apply_action(marriage, R.parse_card("SK") + R.MARRIAGE_OFFSET)
    assert plain_lead(marriage, 1) == -1
    plain = s.copy()
    apply_action(plain, R.parse_card("SK"))
    assert plain_lead(plain, 1) == R.parse_card("SK")
    assert plain_lead(plain, 0) == -1


def test_before_lead_undoes_the_kernel_lead():
    """From random open-stock trick starts, a plain card led by the kernel and taken back by
    ``before_lead`` gives the position before it again (the cards shown lose the led card if it was
    shown: nothing reads that)."""
    rnd = random.Random(3)
    out = np.zeros(R.STATE_SIZE, dtype=np.int64)
    for stock in (8, 6, 4, 2) * 10:
        st, lead = plainly_led(rnd, stock)
        before = st.to_array()
        after = before.copy()
        apply_action(after, lead)
        assert plain_lead(after, 1 - st.leader) in (lead, -1)
        before_lead(after, lead, out)
        before[R.SHOWN0 + st.leader] &= ~(1 << lead)
        assert np.array_equal(out, before)


def posterior_position(rnd: random.Random) -> tuple[np.ndarray, int, dict]:
    """A position after a plain lead with 4 stock cards left in which the heuristic's lead tells hands
    apart, and the posterior of the leader's hidden hand there, hand by hand: each hand the follower
    cannot rule out weighs 1 when the heuristic leads that card from it (the position rebuilt in plain
    Python from the state before the lead), else ``MISMATCH_WEIGHT``."""
    buf = np.zeros(16, dtype=np.int64)
    while True:
        st, lead = plainly_led(rnd, 4, predictable=True)
        after = st.to_array()
        apply_action(after, lead)
        follower = 1 - st.leader
        hidden = [c for c in range(R.N_CARDS) if int(hidden_pool(after, follower)) >> c & 1]
        known = int(after[R.SHOWN0 + st.leader] & after[R.HAND0 + st.leader])
        unknown = int(after[R.HAND0 + st.leader]).bit_count() - known.bit_count()
        weights = {}
        for cards in itertools.combinations(hidden, unknown):
            hand = R.mask_of(list(cards)) | known
            pre = st.copy()
            pre.hands[st.leader] = hand | (1 << lead)
            pre.stock = [c for c in hidden if c not in cards] + pre.stock[-1:]
            led = int(heuristic_action(pre.to_array(), MODEL, buf))
            weights[hand] = 1.0 if led == lead else MISMATCH_WEIGHT
        if len(set(weights.values())) > 1:
            total = sum(weights.values())
            return after, follower, {h: w / total for h, w in weights.items()}


@pytest.mark.parametrize("seed", [5, 6])
def test_inferred_worlds_follow_the_posterior(seed):
    """20,000 worlds drawn after a plain lead: the leader's hands come in the posterior's proportions
    (chi-square), and worlds whose hand the model would have led from come more often than uniformly."""
    after, follower, posterior = posterior_position(random.Random(seed))
    rng = state_from_seed(seed)
    pool = np.zeros(R.N_CARDS, dtype=np.int64)
    world = np.zeros(R.STATE_SIZE, dtype=np.int64)
    leader = 1 - follower
    counts = dict.fromkeys(posterior, 0)
    draws = 20_000
    for _ in range(draws):
        inferred_world(after, follower, rng, pool, world)
        assert world[R.HAND0 + follower] == after[R.HAND0 + follower]
        counts[int(world[R.HAND0 + leader])] += 1
    hands = sorted(posterior)
    observed = np.array([counts[h] for h in hands])
    expected = np.array([posterior[h] * draws for h in hands])
    assert chisquare(observed, expected).pvalue > 1e-3
    likely = [h for h in hands if posterior[h] == max(posterior.values())]
    assert sum(counts[h] for h in likely) / draws > 1.2 * len(likely) / len(hands)


def test_hybrid_infer_is_hybrid_without_a_plain_lead_and_differs_after_one():
    """At trick starts the judgements are ``hybrid``'s, world for world; following to a plain lead at
    least one of a few positions is judged differently."""
    rnd = random.Random(9)
    ws = new_workspace(tt_bits=12)
    differs = 0
    for deal, stock in enumerate((8, 6, 4, 8, 6, 4)):
        st, lead = plainly_led(rnd, stock, predictable=True)
        s = st.to_array()
        plain = per_world_means(hybrid_values, s, 2, state_from_seed(deal), ws)
        assert per_world_means(lambda *a: hybrid_values(*a, True), s, 2, state_from_seed(deal), ws) == plain
        apply_action(s, lead)
        plain = per_world_means(hybrid_values, s, 2, state_from_seed(deal), ws)
        differs += per_world_means(lambda *a: hybrid_values(*a, True), s, 2, state_from_seed(deal), ws) != plain
    assert differs > 0


def test_hybrid_infer_follows_legally_and_repeats():
    """Following to plain leads it picks a legal action, the same with the same seed; whole deals against
    the heuristic repeat exactly with a seed."""
    rnd = random.Random(11)
    ws = new_workspace(tt_bits=12)
    legal = np.zeros(16, dtype=np.int64)
    for stock in (8, 6, 4, 2):
        st, lead = plainly_led(rnd, stock)
        s = st.to_array()
        apply_action(s, lead)
        n = legal_actions(s, legal)
        picks = {int(choose_action(s, HYBRID_INFER, 2, MODEL, state_from_seed(stock), ws)) for _ in range(2)}
        assert len(picks) == 1 and picks <= set(legal[:n].tolist())
        assert list_actions(s, ws) == n
    a, b = parse_bot("hybrid_infer:2"), parse_bot("heuristic")
    assert paired_deals(a, b, 6, seed=13).equals(paired_deals(a, b, 6, seed=13))


def test_a_bot_that_never_infers_compiles_no_inference():
    """``draw_world``'s body by the type of ``infer``: the constant False (as ``hybrid`` passes it) draws with
    ``search.world_into`` alone, so ``inferred_world`` (and the heuristic it runs) is not compiled into it;
    a run-time flag or True keeps the inference."""
    from numba import types

    from analyzer.games.schnapsen.lead_inference import _draw_by_type

    def body(infer):
        return _draw_by_type(*([types.int64] * 4), infer, *([types.int64] * 3)).__code__.co_names

    assert "inferred_world" not in body(types.literal(False)) and "world_into" in body(types.literal(False))
    assert "inferred_world" in body(types.boolean) and "inferred_world" in body(types.literal(True))
