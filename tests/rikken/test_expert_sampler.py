"""The expert's worlds against a plain-Python reference of what a seat knows.

The reference (:func:`consistent_worlds`) knows nothing of the sampler: on a small ending it lists
every way to share the unseen cards among the hidden seats and the unseen face-down pile, rebuilds
each hidden seat's starting hand (its cards now plus the cards it was seen to play), replays the
moves on the plain-Python engine ``RoundState`` (which refuses any illegal card: not following
suit, not playing the called card when its suit is led, ...) and checks the public facts of the
setup (the bidder does not hold the called card; a king call means the bidder held the four aces;
a blind caller was void in the called suit; Troela's aces in play lie with the bidder and partner,
the trump ace with the bidder, at most one with the partner and exactly one when all four are in
play). The numba sampler must draw only such worlds, reach every one, and, with its importance
weights, draw them uniformly.
"""

import itertools
from collections import Counter

import numpy as np
import pytest

from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.expert import (
    PILE,
    deal_order,
    draw_into,
    draw_world,
    information_set,
    prepare_worlds,
    visible_seats,
)
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, choose_card_heuristic, legal_actions, new_round
from analyzer.games.rikken import rules
from analyzer.games.rikken.rules import Contract
from analyzer.games.rikken.state import RoundSetup, RoundState

from .test_contract_invariants import cut_to_ending, random_setups

FULL = (1 << 52) - 1
ACES = [13 * s + 12 for s in range(4)]
FD = L.FACE_DOWN_OFFSET


def ending_state(setup: dict):
    """Kernel state of an ending: the cards outside the hands count as played before it."""
    st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                   setup["called_card"], setup["blind"])
    st[L.PLAYED] = FULL & ~sum(setup["hands"])
    return st


def play_moves(setup: dict, st, moves: int, rng) -> list[tuple[int, int]]:
    """Play ``moves`` moves (a random mix of heuristic and random legal actions); return them."""
    history = []
    for _ in range(moves):
        seat = int(st[L.TURN])
        up, fd = legal_actions(st, seat)
        actions = cards_of(int(up)) + [FD + c for c in cards_of(int(fd))]
        if rng.random() < 0.5:
            action = int(choose_card_heuristic(st, seat, up, fd, default_params()))
        else:
            action = actions[int(rng.integers(len(actions)))]
        apply_action(st, seat, action)
        history.append((seat, action))
    return history


def _setup_facts_hold(setup: dict, start: list[int]) -> bool:
    """The public facts of the setup (module notes) on the ending's starting hands ``start``."""
    contract_of, called, partner = setup["contract_of"], setup["called_card"], setup["partner"]
    bidder = next((s for s in range(4) if contract_of[s] >= 0 and rules.KIND[contract_of[s]] == rules.Kind.TRICKS), -1)
    if bidder < 0:
        return True
    in_play = sum(start)
    if called >= 0:
        if start[bidder] >> called & 1:
            return False
        if called % 13 == 11 and any(in_play >> a & 1 and not start[bidder] >> a & 1 for a in ACES):
            return False
        if setup["blind"] and start[bidder] & (0x1FFF << 13 * (called // 13)):
            return False
    if contract_of[bidder] == Contract.TROELA:
        aces = [a for a in ACES if in_play >> a & 1]
        if any(not (start[bidder] | start[partner]) >> a & 1 for a in aces):
            return False
        trump_ace = 13 * setup["trump"] + 12
        if in_play >> trump_ace & 1 and not start[bidder] >> trump_ace & 1:
            return False
        with_partner = sum(start[partner] >> a & 1 for a in aces)
        if with_partner > 1 or (len(aces) == 4 and with_partner != 1):
            return False
    return True


def _replays(setup: dict, start: list[int], history, pile_order) -> bool:
    """True if ``history`` is legal from ``start``, the face-down leads being ``pile_order`` in turn."""
    called = setup["called_card"]
    # The world decides who holds the called card, so who the partner is.
    partner = next(s for s in range(4) if start[s] >> called & 1) if called >= 0 else setup["partner"]
    state = RoundState(RoundSetup(tuple(start), setup["leader"], tuple(setup["contract_of"]), partner,
                                  setup["trump"], called, bool(setup["blind"])))
    pile = iter(pile_order)
    for _seat, action in history:
        card, face_down = (next(pile), True) if action >= FD else (action, False)
        if (card, face_down) not in state.legal_actions():
            return False
        state.play(card, face_down)
    return True


def _shares(cards: list[int], counts: list[int]):
    """Every way to deal ``cards`` into slots of sizes ``counts`` (lists of masks)."""
    if not counts:
        yield []
        return
    for chosen in itertools.combinations(cards, counts[0]):
        rest = [c for c in cards if c not in chosen]
        for tail in _shares(rest, counts[1:]):
            yield [sum(1 << c for c in chosen)] + tail


def consistent_worlds(setup: dict, st, history, viewer: int) -> set[tuple[int, ...]]:
    """Every world (cards of seats 0..3 now, 0 for seats the viewer sees; then the unseen face-down pile)
    consistent with what ``viewer`` saw, by brute force (module notes)."""
    exposed = int(st[L.EXPOSED]) if st[L.TRICK_NO] >= 1 else 0
    visible = [s == viewer or exposed >> s & 1 for s in range(4)]
    bidder = int(st[L.BIDDER])
    face_down = [(s, a - FD) for s, a in history if a >= FD]
    seen_down = [c for s, c in face_down if s == viewer]
    played_up = {s: [a for t, a in history if t == s and a < FD] for s in range(4)}
    known = set(c for s in range(4) if visible[s] for c in cards_of(int(st[L.HAND + s])))
    known |= set(a for _s, a in history if a < FD) | set(seen_down)
    known |= set(c for c in range(52) if not sum(setup["hands"]) >> c & 1)
    unseen = sorted(set(range(52)) - known)
    size = len(cards_of(int(st[L.HAND + viewer]))) + (1 if st[L.TRICK + viewer] >= 0 else 0)
    counts = [0 if visible[s] else size - (1 if st[L.TRICK + s] >= 0 else 0) for s in range(4)]
    counts.append(len(unseen) - sum(counts))
    worlds = set()
    for world in _shares(unseen, counts):
        start = [int(st[L.HAND + s]) if visible[s] else world[s] for s in range(4)]
        for s in range(4):
            start[s] |= sum(1 << c for c in played_up[s])
        pile = cards_of(world[PILE]) if viewer != bidder else [c for _s, c in face_down]
        start[bidder] |= sum(1 << c for c in pile) if viewer != bidder else 0
        if viewer == bidder:
            start[bidder] |= sum(1 << c for c in seen_down)
        if not _setup_facts_hold(setup, start):
            continue
        if any(_replays(setup, start, history, order) for order in itertools.permutations(pile)):
            worlds.add(tuple(0 if visible[s] else world[s] for s in range(4)) + (world[PILE],))
    return worlds


def sample_worlds(st, viewer: int, draws: int, seed: int) -> list[tuple[tuple[int, ...], float]]:
    """``draws`` worlds from the numba sampler with their importance weights."""
    allowed, counts, order = np.empty(52, np.int64), np.empty(5, np.int64), np.empty(52, np.int64)
    pool, troela_partner, rule = information_set(st, viewer, allowed, counts)
    n = deal_order(pool, allowed, order)
    hidden = 15 & ~visible_seats(st, viewer)
    rng, out = state_from_seed(seed), np.empty(5, np.int64)
    worlds = []
    for _ in range(draws):
        weight = draw_world(allowed, counts, order, n, troela_partner, rule, rng, out)
        assert weight > 0
        worlds.append((tuple(int(out[s]) if hidden >> s & 1 else 0 for s in range(4)) + (int(out[PILE]),), weight))
    return worlds


def _cases(families, size: int, seed: int, count: int, moves_range=(1, 7)):
    rng = np.random.default_rng(seed)
    for setup in random_setups(count, seed, families):
        setup = cut_to_ending(setup, size, rng)
        st = ending_state(setup)
        history = play_moves(setup, st, int(rng.integers(*moves_range)), rng)
        yield setup, st, history, int(st[L.TURN])


@pytest.mark.parametrize("families", [("trick", "blind", "king"), ("troela", "misery", "nocall")])
def test_every_sample_is_consistent_and_every_world_is_reached_uniformly(families):
    checked = constrained = 0
    for setup, st, history, viewer in _cases(families, 3, 5 + len(families[0]), 24):
        reference = consistent_worlds(setup, st, history, viewer)
        assert reference, "the true world is always consistent"
        draws = sample_worlds(st, viewer, 60 * len(reference), seed=checked)
        drawn = Counter()
        for world, weight in draws:
            assert world in reference
            drawn[world] += weight
        assert set(drawn) == reference
        # Weighted frequencies are uniform: each within 5 binomial standard errors of 1 / |worlds|.
        total = sum(drawn.values())
        weights = np.array([w for _, w in draws])
        effective = weights.sum() ** 2 / (weights ** 2).sum()
        p = 1 / len(reference)
        tolerance = 5 * np.sqrt(p * (1 - p) / effective) + 1e-12
        assert all(abs(w / total - p) <= tolerance for w in drawn.values()), (len(reference), sorted(drawn.values()))
        # Unweighted, the proposal is not uniform whenever constraints bite: the weights matter.
        constrained += len(set(round(w, 9) for _, w in draws)) > 1
        checked += 1
    assert checked == 24 and constrained > 0


def test_the_face_down_pile_is_seen_only_by_the_bidder():
    # Blind endings where the bidder led face down: others see a pile, the bidder sees his own card.
    seen_pile = seen_own = 0
    for setup, st, history, _viewer in _cases(("blind",), 3, 17, 40, (4, 9)):
        if not any(a >= FD for _s, a in history):
            continue
        for who in range(4):
            draws = sample_worlds(st, who, 40, seed=who)
            reference = consistent_worlds(setup, st, history, who)
            assert all(world in reference for world, _ in draws)
            if who == int(st[L.BIDDER]):
                seen_own += 1
                assert all(world[PILE] == 0 for world, _ in draws)
            else:
                seen_pile += 1
                assert all(world[PILE] != 0 for world, _ in draws)
    assert seen_pile > 0 and seen_own > 0


def test_draw_into_writes_the_drawn_world_into_a_copy_of_the_position():
    # The setup and the draw of the expert's and sampled-dd's worlds (one home) against the sampler's parts.
    checked = partner_hidden = 0
    for setup, st, _history, viewer in _cases(("trick", "blind", "king", "troela", "misery"), 4, 17, 40):
        allowed, counts, order = np.empty(52, np.int64), np.empty(5, np.int64), np.empty(52, np.int64)
        n, troela_partner, rule, hidden = prepare_worlds(st, viewer, allowed, counts, order)
        rng, slots, world = state_from_seed(checked), np.empty(5, np.int64), np.empty_like(st)
        weight = draw_into(st, viewer, allowed, counts, order, n, troela_partner, rule, hidden, rng, slots, world)
        ref_allowed, ref_counts, ref_order = np.empty(52, np.int64), np.empty(5, np.int64), np.empty(52, np.int64)
        pool, ref_troela, ref_rule = information_set(st, viewer, ref_allowed, ref_counts)
        assert n == deal_order(pool, ref_allowed, ref_order) and hidden == 15 & ~visible_seats(st, viewer)
        ref_rng, out = state_from_seed(checked), np.empty(5, np.int64)
        assert weight == draw_world(ref_allowed, ref_counts, ref_order, n, ref_troela, ref_rule, ref_rng, out) > 0
        assert (rng == ref_rng).all()
        expected = st.copy()
        for s in range(4):
            if hidden >> s & 1:
                expected[L.HAND + s] = out[s]
        if viewer != st[L.BIDDER]:
            expected[L.FACE_DOWN_CARDS] = out[PILE]
        if st[L.PARTNER_PUBLIC] == 0:
            expected[L.PARTNER] = next(s for s in range(4) if int(expected[L.HAND + s]) >> int(st[L.CALLED]) & 1)
            partner_hidden += 1
        assert (world == expected).all()
        checked += 1
    assert checked == 40 and partner_hidden > 5
