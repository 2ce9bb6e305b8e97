"""Screen: the misère reach ``c - A - min(D, B) - t >= 1`` on the stuck Misery trees' open trick starts.

Plays random ducking lines of a Misery question of ``rikken bids --policy dd --seed S`` (the declarer
follows with his highest card below the trick's best card when he has one, ``--duck`` of the time; the
defenders play at random) and keeps the trick starts with a defender on lead and ``--sizes`` cards a hand
that ``misery_bounds._lone_ducks`` leaves open.  Each is answered by a plain misère minimax (up to
``--exact`` cards a hand) or by the solver (``--limit`` completed tricks), and checked by the candidate
cover (:func:`reach_covered`, plain Python).  Prints per card count: open starts, their answers, the
candidate's claims and the claims the answer refutes (must be 0).

Usage: python scripts/dd_misery_reach.py --seed 961411519 --question 380:W --lines 300 --line-seed L
"""

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from functools import lru_cache

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from dd_misery_check import solve_within
from profile_bids_dd import experiment_deals

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.cards.tricks import NO_TRUMP
from analyzer.solvers.dd.misery_bounds import _lone_ducks

SUIT = 8191


def _held(hands, seat, suit):
    return (hands[seat] >> (13 * suit)) & SUIT


def _count(mask):
    return bin(mask).count("1")


def _lowest(mask):
    return mask & -mask


def _drop_highest(mask):
    return mask ^ (1 << (mask.bit_length() - 1))


def _below_in_order(mine, others, spare=0):
    """The ``j``-th rule in one suit, for ``j`` up to ``others``' count less ``spare``."""
    rounds = _count(others) - spare
    while mine and rounds > 0:
        if _lowest(mine) > _lowest(others):
            return False
        mine &= mine - 1
        others &= others - 1
        rounds -= 1
    return True


def failing_suits(hands, declarer):
    """The suits the declarer holds where the ``j``-th rule fails."""
    out = []
    for suit in range(4):
        mine = _held(hands, declarer, suit)
        others = sum(_held(hands, seat, suit) for seat in range(4) if seat != declarer)
        if mine and not _below_in_order(mine, others):
            out.append(suit)
    return out


def _terms(hands, declarer, suit, g):
    """(c, A, B) of defender ``g`` in ``suit``: his count, the tricks he may be void in while the declarer
    follows (``sum max(0, min(d_u, l_u) - g_u)``) and those both may be void in (``sum max(0, l_u - max(d_u,
    g_u))``), over the other suits ``u``."""
    a = b = 0
    for u in range(4):
        if u == suit:
            continue
        d = _count(_held(hands, declarer, u))
        longest = max(_count(_held(hands, x, u)) for x in range(4) if x != declarer)
        mine = _count(_held(hands, g, u))
        a += max(0, min(d, longest) - mine)
        b += max(0, longest - max(d, mine))
    return _count(_held(hands, g, suit)), a, b


def _suit_covered(hands, declarer, suit, earlier, variant):
    """Whether the declarer ducks every trick of ``suit``: the holders counting at a trick of it with ``t``
    tricks of it and ``D`` of his discards played are those with ``c - A - min(D, B) - t >= 1``; his
    discards go to ``suit`` once ``earlier`` (his cards of the suits before it) are gone, the defenders
    choosing the order of tricks and discards.

    ``variant``: (reach, counted).  ``reach`` "min" is the candidate above; "D" and "B" the bounds of
    today's cover (``c - A - D - t``, credited, for one failing suit; ``c - A - B - t`` for several).
    ``counted``: after ``t`` tricks of ``suit`` a defender holding ``c`` holds at most ``max(0, c - t)`` (each
    trick takes one card from every holder), so the ``j``-th rule is checked only for ``j`` up to that many
    of the defenders' cards (without it: up to all of them, and tricks of ``suit`` up to the longest count).
    """
    reach, counted = variant
    mine = _held(hands, declarer, suit)
    others = 0
    holders = []
    for g in range(4):
        held = _held(hands, g, suit)
        if g != declarer and held:
            others |= held
            holders.append((_lowest(held),) + _terms(hands, declarer, suit, g))
    longest = max((_count(_held(hands, g, suit)) for g in range(4) if g != declarer), default=0)

    def spare(t):
        return sum(min(c, t) for _, c, _, _ in holders) if counted else 0

    def loss(discards, b):
        return {"min": min(discards, b), "D": discards, "B": b}[reach]

    @lru_cache(maxsize=None)
    def ok(held, t, discards, other):
        if t == longest or _below_in_order(held, others, spare(t)):
            return True
        floor = max((low for low, c, a, b in holders if c - a - loss(discards, b) - t >= 1), default=0)
        under = held & (floor - 1) if floor else 0
        if not under or not ok(held ^ (1 << (under.bit_length() - 1)), t + 1, discards, other):
            return False
        if not ok(_drop_highest(held), t, discards + 1, other):
            return False
        return other >= earlier or ok(held, t, discards + 1, other + 1)

    return ok(mine, 0, 0, 0)


# (name, variant): today's bounds, with the count of the defenders' cards, the min(D, B) reach, both.
VARIANTS = (("today", ("today", False)), ("count", ("today", True)), ("min", ("min", False)),
            ("min+count", ("min", True)))


def reach_covered(hands, declarer, variant=("min", True)):
    """The candidate cover: some order of the failing suits (his discards go to the first he still holds)
    under which every failing suit is covered.  ``variant``: see :func:`_suit_covered`; ("today", counted)
    uses today's bounds, credited with one failing suit and without credit (any order) with several."""
    failing = failing_suits(hands, declarer)
    if not failing:
        return True
    if variant[0] == "today":
        if len(failing) == 1:
            return _suit_covered(hands, declarer, failing[0], 0, ("D", variant[1]))
        return all(_suit_covered(hands, declarer, suit, 0, ("B", variant[1])) for suit in failing)
    for order in itertools.permutations(failing):
        earlier = 0
        for suit in order:
            if not _suit_covered(hands, declarer, suit, earlier, variant):
                break
            earlier += _count(_held(hands, declarer, suit))
        else:
            return True
    return False


def _cards(mask):
    return [c for c in range(52) if mask >> c & 1]


def misere_ducks(hands, leader, declarer):
    """Plain misère minimax: can a lone no-trump ``declarer`` take no trick from this trick start?"""

    @lru_cache(maxsize=None)
    def start(hands, leader):
        if not any(hands):
            return True
        return trick(hands, leader, 0, -1, -1, -1, 0)

    def choices(hand, led, live):
        follow = hand & (SUIT << (13 * led)) if led >= 0 else 0
        pool = follow or hand
        out = []
        for c in _cards(pool):
            # a card next to one kept of the same hand (no card left between them) plays the same
            if out and out[-1] // 13 == c // 13 and not any(live >> k & 1 for k in range(out[-1] + 1, c)):
                continue
            out.append(c)
        return out

    def trick(hands, leader, pos, led, win_seat, win_card, played):
        if pos == 4:
            if win_seat == declarer:
                return False
            return start(hands, win_seat)
        seat = (leader + pos) % 4
        live = hands[0] | hands[1] | hands[2] | hands[3] | played
        for c in choices(hands[seat], led, live):
            nh = list(hands)
            nh[seat] ^= 1 << c
            nled = c // 13 if pos == 0 else led
            if c // 13 == nled and c > win_card:
                ws, wc = seat, c
            else:
                ws, wc = win_seat, win_card
            r = trick(tuple(nh), leader, pos + 1, nled, ws, wc, played | (1 << c))
            if seat == declarer and r:
                return True
            if seat != declarer and not r:
                return False
        return seat != declarer

    return start(tuple(hands), leader)


def _play_line(hands, leader, declarer, rng, duck, sizes, seen):
    """One random ducking line; open trick starts of the wanted sizes go into ``seen``."""
    hands = list(hands)
    while any(hands):
        size = _count(hands[declarer])
        if leader != declarer and size in sizes:
            key = (tuple(hands), leader)
            if key not in seen and _lone_ducks(np.array(hands, dtype=np.int64), leader, declarer)[0] == -1:
                seen[key] = size
        led, win_seat, win_card = -1, -1, -1
        for pos in range(4):
            seat = (leader + pos) % 4
            cards = _cards(hands[seat])
            follow = [c for c in cards if c // 13 == led]
            pool = follow or cards
            card = rng.choice(pool)
            if seat == declarer and follow and rng.random() < duck:
                under = [c for c in follow if c < win_card]
                card = max(under) if under else card
            hands[seat] ^= 1 << card
            if pos == 0:
                led = card // 13
            if card // 13 == led and card > win_card:
                win_seat, win_card = seat, card
        if win_seat == declarer:
            return
        leader = win_seat


def add_line_options(parser, lines, sizes, limit):
    """The options naming a stuck Misery question and the random ducking lines through it (this script's and
    ``dd_proof_size.py``'s)."""
    parser.add_argument("--seed", type=int, required=True, help="the bids run's seed")
    parser.add_argument("--question", required=True, help="DEAL:SEAT, a Misery question, e.g. 380:W")
    parser.add_argument("--lines", type=int, default=lines)
    parser.add_argument("--line-seed", type=int, required=True)
    parser.add_argument("--duck", type=float, default=0.8)
    parser.add_argument("--sizes", type=int, nargs="+", default=sizes)
    parser.add_argument("--limit", type=int, default=limit, help="the solver's completed tricks a question")


def open_starts(parser, args):
    """The question's deal, leader and declarer and the trick starts its ducking lines reach
    (``{(position, leader): cards a hand}``), after checking the options (a bad one: one line, exit 2)."""
    parts = args.question.split(":")
    if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in SEAT_LETTERS:
        parser.error(f"--question {args.question!r}: want DEAL:SEAT, e.g. 380:W")
    for name in ("lines", "limit", "per_size"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: must be 0 or more")
    if not 0.0 <= args.duck <= 1.0 or any(not 1 <= size <= 13 for size in args.sizes):
        parser.error("--duck wants a share in [0, 1] and --sizes card counts in 1..13")
    deal, declarer = int(parts[0]), SEAT_LETTERS.index(parts[1])
    hands, setups, rows = experiment_deals(args.seed, deal + 1)[deal]
    leader = int(setups["leader"][rows[0]])
    rng = random.Random(args.line_seed)
    seen = {}
    for _ in range(args.lines):
        _play_line([int(h) for h in hands], leader, declarer, rng, args.duck, set(args.sizes), seen)
    return hands, leader, declarer, rng, seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_line_options(parser, 300, [5, 6, 7, 8], 2_000_000)
    parser.add_argument("--exact", type=int, default=6, help="most cards a hand for the plain minimax")
    parser.add_argument("--per-size", type=int, default=0, help="most open starts kept per card count (0: all)")
    args = parser.parse_args()
    hands, leader, declarer, rng, seen = open_starts(parser, args)
    if args.per_size:
        kept, per = {}, Counter()
        for key in rng.sample(sorted(seen), len(seen)):
            if per[seen[key]] < args.per_size:
                per[seen[key]] += 1
                kept[key] = seen[key]
        seen = kept
    rows_out = Counter()
    wrong = []
    begin = time.process_time()
    for (position, lead), size in sorted(seen.items(), key=lambda item: item[1]):
        if size <= args.exact:
            answer = misere_ducks(position, lead, declarer)
        else:
            answer, _ = solve_within(args.limit, np.array(position, dtype=np.int64), NO_TRUMP, lead,
                                     1 << declarer, "le", 0)
            answer = None if answer is None else bool(answer)
        several = len(failing_suits(position, declarer)) > 1
        rows_out[size, "open"] += 1
        rows_out[size, answer, several] += 1
        for name, variant in VARIANTS:
            if reach_covered(position, declarer, variant):
                rows_out[size, name, answer, several] += 1
                if answer is False:
                    wrong.append((name, position, lead))
    print(f"{args.question} seed {args.seed}, {args.lines} lines (line seed {args.line_seed}), "
          f"{len(seen)} open starts, {time.process_time() - begin:.1f} CPU-s")
    names = [name for name, _ in VARIANTS]
    print("cards | open | no | unknown | yes (one failing suit / several) | "
          + " | ".join(f"{name} settles yes (one / several)" for name in names) + " | wrong claims")
    for size in sorted(set(args.sizes)):
        yes = [rows_out[size, True, m] for m in (False, True)]
        cells = [f"{rows_out[size, name, True, False] + rows_out[size, name, True, True]} "
                 f"({rows_out[size, name, True, False]} / {rows_out[size, name, True, True]})" for name in names]
        bad = sum(rows_out[size, name, False, m] for name in names for m in (False, True))
        print(f"{size} | {rows_out[size, 'open']} | {rows_out[size, False, False] + rows_out[size, False, True]} | "
              f"{rows_out[size, None, False] + rows_out[size, None, True]} | {sum(yes)} ({yes[0]} / {yes[1]}) | "
              + " | ".join(cells) + f" | {bad}")
    for name, position, lead in wrong[:3]:
        print("wrong:", name, [hex(h) for h in position], "leader", lead)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
