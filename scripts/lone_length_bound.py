"""How much of a lone declarer's count a void-aware lower bound would find: the length abstraction,
measured on random endings against the solver and the trick-start bounds it has (issue 36).

The length abstraction of a position with a lone declarer ``L`` (per seat the trumps held with their
ranks and the length of each side suit), its rules and the proof that ``L``'s guaranteed abstract tricks
are at most his double-dummy count are in the module notes of ``analyzer.solvers.dd.lone_length``, the
solver's numba search of it; this script is its plain-Python twin (memoised minimax, no table).

What the abstraction gives up: ``L``'s side-suit winners (the defenders may always award a trumpless
trick to themselves) and the ranks among the defenders' side cards. What it keeps, and the trick-start
bounds lack: the voids, so it knows when a defender can overruff and when a trump lead makes every
defender holding trumps follow with one.

For each random deal the script picks a lone seat and its longest suit as trump, plays random legal
cards down to ``--cards`` cards a hand, and compares at that trick start: the solver's exact count,
the best trick-start bound the solver has (sure trumps; a lone declarer's winners; quick tricks when
he is on lead) and the abstraction's value (a memoised plain-Python minimax, fine for six cards a
hand, too slow at the root of a deal). It fails loudly if the abstraction ever exceeds the count.

Usage: python scripts/lone_length_bound.py --seed S [--deals 300] [--cards 6]
"""

import argparse
import sys
from functools import lru_cache

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from bench_dd import random_deals

SIDE = 0
TRUMP = 1
TRUMP_LED = -1  # what ``led`` says of a trump lead (side suits are led as their index 0..2)


def abstract_count(hands, trump, lone, leader):
    """``lone``'s guaranteed tricks in the length abstraction (see the module notes) from a trick start.

    ``hands``: four lists of card ids (``suit * 13 + rank``), all of one length.
    """
    sides = [s for s in range(4) if s != trump]
    trumps = tuple(frozenset(c % 13 for c in h if c // 13 == trump) for h in hands)
    lengths = tuple(tuple(sum(1 for c in h if c // 13 == s) for s in sides) for h in hands)

    def moves(held, lens, led):
        """Abstract moves ``(TRUMP, rank)`` / ``(SIDE, side suit index)``; ``led``: None, TRUMP_LED or a side index."""
        trump_moves = [(TRUMP, r) for r in held]
        side_moves = [(SIDE, i) for i in range(3) if lens[i]]
        if led is None:
            return trump_moves + side_moves
        if led == TRUMP_LED:
            return trump_moves or side_moves
        if lens[led]:
            return [(SIDE, led)]
        return trump_moves + side_moves

    @lru_cache(maxsize=None)
    def from_start(trumps, lengths, leader):
        if not trumps[leader] and not any(lengths[leader]):
            return 0
        return in_trick(trumps, lengths, leader, ())

    def in_trick(trumps, lengths, seat, played):
        led = None
        if played:
            first = played[0][1]
            led = TRUMP_LED if first[0] == TRUMP else first[1]
        best = None
        for move in moves(trumps[seat], lengths[seat], led):
            next_trumps = list(trumps)
            next_lengths = list(lengths)
            if move[0] == TRUMP:
                next_trumps[seat] = trumps[seat] - {move[1]}
            else:
                next_lengths[seat] = tuple(n - (i == move[1]) for i, n in enumerate(lengths[seat]))
            next_trumps = tuple(next_trumps)
            next_lengths = tuple(next_lengths)
            trick = played + ((seat, move),)
            if len(trick) == 4:
                ruffs = [(m[1], s) for s, m in trick if m[0] == TRUMP]
                winners = [max(ruffs)[1]] if ruffs else [s for s, m in trick if m == (SIDE, led)]
                value = min((w == lone) + from_start(next_trumps, next_lengths, w) for w in winners)
            else:
                value = in_trick(next_trumps, next_lengths, (seat + 1) % 4, trick)
            if best is None or (value > best if seat == lone else value < best):
                best = value
        return best

    return from_start(trumps, lengths, leader)


def random_ending(rng, deal, trump, cards):
    """Random legal play from ``deal`` (North leads) down to ``cards`` cards a hand: (hands, leader)."""
    hands = [sorted(c for c in range(52) if int(deal[s]) >> c & 1) for s in range(4)]
    leader = 0
    while len(hands[0]) > cards:
        trick = []
        for k in range(4):
            seat = (leader + k) % 4
            legal = [c for c in hands[seat] if trick and c // 13 == trick[0][1] // 13] or hands[seat]
            card = legal[rng.integers(len(legal))]
            hands[seat].remove(card)
            trick.append((seat, card))
        ruffs = [(c % 13, s) for s, c in trick if c // 13 == trump]
        led = trick[0][1] // 13
        leader = max(ruffs or [(c % 13, s) for s, c in trick if c // 13 == led])[1]
    return hands, leader


def trick_start_bound(masks, trump, lone, leader):
    """The best lower bound on ``lone``'s count the solver's trick-start rules give."""
    from analyzer.solvers.dd.quick_tricks import _lone_winners, _quick_tricks, _sure_trumps

    team = 1 << lone
    present = np.int64(masks[0] | masks[1] | masks[2] | masks[3])
    best = int(_sure_trumps(masks, trump, team, -1, True)[0])
    best = max(best, int(_lone_winners(masks, lone, leader == lone, trump, present)[0]))
    if leader == lone:
        best = max(best, int(_quick_tricks(masks, leader, trump, team, -1)[0]))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--cards", type=int, default=6)
    args = parser.parse_args()
    from analyzer.solvers.dd import api

    rng = np.random.default_rng(args.seed)
    counts = {"endings": 0, "count above the trick-start bounds": 0, "abstraction above them": 0,
              "abstraction = count": 0, "trick-start bounds = count": 0, "defender on lead, gap": 0,
              "defender on lead, gap closed": 0}
    for deal in random_deals(rng, args.deals):
        lone = int(rng.integers(4))
        trump = max(range(4), key=lambda s: (int(deal[lone]) >> (13 * s) & 8191).bit_count())
        hands, leader = random_ending(rng, deal, trump, args.cards)
        masks = np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)
        exact = api.solve(masks, trump, leader, 1 << lone)
        bound = trick_start_bound(masks, trump, lone, leader)
        abstract = abstract_count(hands, trump, lone, leader)
        if abstract > exact or bound > exact:
            sys.exit(f"UNSOUND: hands {hands} trump {trump} lone {lone} leader {leader}: count {exact}, "
                     f"abstraction {abstract}, trick-start bound {bound}")
        counts["endings"] += 1
        counts["count above the trick-start bounds"] += exact > bound
        counts["abstraction above them"] += abstract > bound
        counts["abstraction = count"] += abstract == exact
        counts["trick-start bounds = count"] += bound == exact
        counts["defender on lead, gap"] += exact > bound and leader != lone
        counts["defender on lead, gap closed"] += exact > bound and leader != lone and abstract == exact
    print(f"seed {args.seed}, {args.cards}-card endings (a random lone seat, his longest suit trump)")
    for name, value in counts.items():
        print(f"  {name}: {value}")


if __name__ == "__main__":
    main()
