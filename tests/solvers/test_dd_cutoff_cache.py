"""The cut-off card cache of the double-dummy search (``analyzer.solvers.dd.moves``) against a dict twin.

- ``_cutoff_slot`` keys a node by what its cut-off card is remembered by: the seat, the place in the
  trick, the table generation and, for a lead, the leader's hand; following suit, the led suit's
  cards at the trick's start and the card winning so far; void in the led suit, the hand and the
  winning card (at no trump the winning seat).  The twin keys a dict by exactly those facts.
- ``_remember_cutoff`` / ``_cutoff_card``: a look-up returns the card last remembered under an
  equal key, or -1 where a later key took the slot; never another key's card.
- The generation number does not place entries: the same remembers and look-ups under another
  generation, or over a cache full of an older generation's words, give the same answers (so a
  count searched within a budget does not depend on what was solved before it).
- ``_gen_moves`` tries the remembered card first, ahead of the table's move.
"""

import numpy as np

from analyzer.solvers.dd.layout import C_GEN, M_CTX, M_MOVES, new_mem, set_context
from analyzer.solvers.dd.moves import (
    NO_CUTOFF_KEY, _cutoff_card, _cutoff_slot, _gen_moves, _more_moves, _next_move, _remember_cutoff,
)
from analyzer.solvers.dd.tables import MODE_MAX

NO_TRUMP = 4
SUIT = (1 << 13) - 1


def _twin_key(gen, hands, seat, pos, led_suit, present, win_seat, win_card, trump):
    """Plain twin of the cut-off key: the facts the remembered card depends on, as a tuple."""
    hand = hands[seat]
    if pos == 0:
        return gen, seat, pos, "lead", hand
    if hand >> (13 * led_suit) & SUIT:
        return gen, seat, pos, "follow", led_suit, present >> (13 * led_suit) & SUIT, win_card
    return gen, seat, pos, "void", hand, win_seat if trump == NO_TRUMP else win_card


def _random_node(rng):
    """A random position inside a trick: hands, seat to play, place in the trick, led suit, winner."""
    deck = [int(c) for c in rng.permutation(52)]
    size = int(rng.integers(1, 4))  # small hands, so equal keys recur
    hands = [sum(1 << c for c in deck[size * s:size * (s + 1)]) for s in range(4)]
    present = hands[0] | hands[1] | hands[2] | hands[3]
    seat = int(rng.integers(4))
    pos = int(rng.integers(4))
    led_suit = int(rng.integers(4)) if pos else -1
    win_seat = int(rng.integers(4)) if pos else -1
    win_card = int(rng.integers(52)) if pos else -1
    return hands, seat, pos, led_suit, present, win_seat, win_card


def _node_pool(rng):
    """Nodes whose keys recur: random ones, each with variants that change one fact (a fact of the key
    or not), so a key that drops a fact or adds one disagrees with the twin."""
    pool = []
    for _ in range(60):
        node = [int(rng.integers(1, 3)), int(rng.integers(5)), *_random_node(rng)]
        pool.append(tuple(node))
        for field in range(6):
            variant = list(node)
            if field == 0:
                variant[0] = 3 - node[0]  # generation
            elif field == 1:
                variant[1] = (node[1] + 1 + int(rng.integers(4))) % 5  # trump
            elif field == 2:
                variant[3] = (node[3] + 1) % 4  # seat
            elif field == 3:
                variant[7] = (node[7] + 1) % 4  # winning seat
            elif field == 4:
                variant[8] = (node[8] + 1 + int(rng.integers(51))) % 52  # winning card
            else:
                # A card of the seat's hand in a suit other than the led one moved to another seat.
                hands = list(node[2])
                seat, led = node[3], node[5]
                others = hands[seat] & ~(SUIT << (13 * led)) if led >= 0 else hands[seat]
                if others:
                    card = others & -others
                    hands[seat] ^= card
                    hands[(seat + 1) % 4] ^= card
                    variant[2] = hands
            pool.append(tuple(variant))
    return pool


def test_cache_answers_as_a_dict_keyed_by_the_twin_key():
    rng = np.random.default_rng(36)
    mem = new_mem(10)
    pool = _node_pool(rng)
    twin = {}
    hits = misses = 0
    for i in range(20000):
        gen, trump, hands, seat, pos, led_suit, present, win_seat, win_card = pool[int(rng.integers(len(pool)))]
        mem[M_CTX + C_GEN] = gen
        args = (np.array(hands, dtype=np.int64), seat, pos, led_suit, np.int64(present), win_seat, win_card, trump)
        key = int(_cutoff_slot(mem, *args))
        facts = _twin_key(gen, hands, seat, pos, led_suit, present, win_seat, win_card, trump)
        got = int(_cutoff_card(mem, np.int64(key)))
        if got >= 0:
            assert twin.get(facts) == got, (i, facts)
            hits += 1
        elif facts in twin:
            misses += 1
        card = int(rng.integers(52))
        _remember_cutoff(mem, np.int64(key), card)
        twin[facts] = card
        assert int(_cutoff_card(mem, np.int64(key))) == card
    # Keys recur often enough for the check to bite.  Misses come from the generation variants: the
    # slot ignores the generation, so the two generations of one node displace each other.
    assert hits >= 12000 and misses <= hits // 2, (hits, misses)


def _replay(mem, gen, nodes, cards):
    """Remember ``cards`` at ``nodes`` under ``gen``, looking each node up first; the look-ups."""
    mem[M_CTX + C_GEN] = gen
    seen = []
    for (trump, hands, seat, pos, led_suit, present, win_seat, win_card), card in zip(nodes, cards):
        key = _cutoff_slot(mem, np.array(hands, dtype=np.int64), seat, pos, led_suit, np.int64(present), win_seat,
                           win_card, trump)
        seen.append(int(_cutoff_card(mem, key)))
        _remember_cutoff(mem, key, card)
    return seen


def test_generation_number_does_not_place_entries():
    rng = np.random.default_rng(38)
    # More keys than slots, each met about twice, so entries displace each other.
    distinct = [(int(rng.integers(5)), *_random_node(rng)) for _ in range(40000)]
    nodes = [distinct[int(i)] for i in rng.integers(len(distinct), size=80000)]
    cards = [int(c) for c in rng.integers(52, size=len(nodes))]
    fresh = new_mem(10)
    first = _replay(fresh, 5, nodes, cards)
    assert sum(c >= 0 for c in first) >= 10000
    assert _replay(new_mem(10), 6, nodes, cards) == first
    older = new_mem(10)
    _replay(older, 4, nodes[::-1], cards)
    assert _replay(older, 5, nodes, cards) == first


def test_facts_left_out_of_the_key_do_not_change_it():
    """Following suit, the hand's other suits do not count; at no trump a discard ignores the winning card."""
    mem = new_mem(10)
    mem[M_CTX + C_GEN] = 1
    spades = 3 * 13
    hands = np.array([1 << (spades + 2) | 1 << 5, 1 << (spades + 7), 1 << 20, 1 << 30], dtype=np.int64)
    present = np.int64(hands[0] | hands[1] | hands[2] | hands[3])
    other = hands.copy()
    other[0] = 1 << (spades + 2) | 1 << 6
    follow = [_cutoff_slot(mem, h, 0, 2, 3, present, 1, spades + 7, 0) for h in (hands, other)]
    assert follow[0] == follow[1]
    discard = [_cutoff_slot(mem, hands, 2, 2, 3, present, 1, card, NO_TRUMP) for card in (spades + 7, spades + 9)]
    assert discard[0] == discard[1]
    ruff = [_cutoff_slot(mem, hands, 2, 2, 3, present, 1, card, 1) for card in (spades + 7, spades + 9)]
    assert ruff[0] != ruff[1]


def _random_deal(rng, mem):
    """A random deal, its trump set in ``mem``'s context: (deck, hands, trump, cards present, seat to play)."""
    deck = [int(c) for c in rng.permutation(52)]
    hands = [sum(1 << c for c in deck[13 * s:13 * (s + 1)]) for s in range(4)]
    trump = int(rng.integers(5))
    set_context(mem, trump, 0b0101, MODE_MAX, -1, -1, 1)
    return deck, hands, trump, np.int64(hands[0] | hands[1] | hands[2] | hands[3]), int(rng.integers(4))


def test_remembered_card_is_tried_first():
    rng = np.random.default_rng(37)
    mem = new_mem(10)
    for i in range(300):
        deck, hands, trump, present, seat = _random_deal(rng, mem)
        masks = np.array(hands, dtype=np.int64)
        slot = _cutoff_slot(mem, masks, seat, 0, -1, present, -1, -1, trump)
        n, _, key, _ = _gen_moves(mem, masks, seat, 0, -1, present, -1, -1, -1, 0, trump, 0b0101, MODE_MAX, -1, -1,
                                  False, slot, False)
        candidates = [int(_next_move(mem, M_MOVES, j, n)) for j in range(n)]
        if n == 1:
            assert key == NO_CUTOFF_KEY
            continue
        assert key == slot
        cutoff = candidates[int(rng.integers(n))]
        _remember_cutoff(mem, key, cutoff)
        hint = candidates[int(rng.integers(n))]
        n, _, _, _ = _gen_moves(mem, masks, seat, 0, -1, present, -1, -1, hint, 0, trump, 0b0101, MODE_MAX, -1, -1,
                                False, slot, False)
        assert int(_next_move(mem, M_MOVES, 0, n)) == cutoff, i


def test_lazy_generation_tries_the_moves_in_the_full_order():
    rng = np.random.default_rng(53)
    mem = new_mem(10)
    lazy_nodes = 0
    for i in range(400):
        deck, hands, trump, present, seat = _random_deal(rng, mem)
        pos = int(rng.integers(2))
        led_suit, win_seat, win_card = -1, -1, -1
        if pos == 1:
            # The previous seat led one of its cards: it leaves that hand but stays among the cards out.
            win_seat = (seat + 3) & 3
            win_card = deck[13 * win_seat + int(rng.integers(13))]
            hands[win_seat] ^= 1 << win_card
            led_suit = win_card // 13
        masks = np.array(hands, dtype=np.int64)
        key = _cutoff_slot(mem, masks, seat, pos, led_suit, present, win_seat, win_card, trump)
        args = (mem, masks, seat, pos, led_suit, present, win_seat, win_card)
        n, _, _, _ = _gen_moves(*args, -1, 0, trump, 0b0101, MODE_MAX, -1, -1, False, key, False)
        candidates = [int(_next_move(mem, M_MOVES, j, n)) for j in range(n)]
        if n == 1:
            continue
        _remember_cutoff(mem, key, candidates[int(rng.integers(n))])
        hint = candidates[int(rng.integers(n))]
        n, _, _, lazy = _gen_moves(*args, hint, 0, trump, 0b0101, MODE_MAX, -1, -1, False, key, False)
        full = [int(_next_move(mem, M_MOVES, j, n)) for j in range(n)]
        assert not lazy
        first_n, _, _, lazy = _gen_moves(*args, hint, 0, trump, 0b0101, MODE_MAX, -1, -1, False, key, True)
        assert lazy and first_n == 1, i
        first = int(_next_move(mem, M_MOVES, 0, 1))
        # The search under the first card may remember another card under the same key.
        _remember_cutoff(mem, key, full[-1])
        n = _more_moves(*args, hint, 0, trump, 0b0101, MODE_MAX, -1, -1, False, first)
        assert [first] + [int(_next_move(mem, M_MOVES, j, n)) for j in range(1, n)] == full, i
        lazy_nodes += 1
    assert lazy_nodes > 200
