"""Check: Misery and 1 Alone answers of this solver against another build of it (the misère bounds' oracle).

DDS has no misère question, so the oracle is our solver without the bounds under test: run this
script once with this tree and once with ``PYTHONPATH`` pointing at a checkout of the older
solver (for example ``git archive BASE analyzer | tar -x -C /tmp/base``), each writing ``--out``,
then ``--compare A B``.  Positions: deals from ``--seed`` (``bench_dd.random_deals``), a random
number of random legal tricks played (0 to 9), a lone declarer (half the time the seat with the
lowest cards, else any), and at no trump "can he take no trick from here?" (``le 0``) and "exactly
one?" (``eq 1``), each within ``--limit`` completed tricks (a question that runs out is recorded
as unknown).

Usage: python scripts/dd_misery_check.py --seed S --positions N --out FILE [--limit 200000]
       python scripts/dd_misery_check.py --compare A B
"""

import argparse
import json
import sys
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from bench_dd import random_deals

from analyzer.cards.tricks import NO_TRUMP
from analyzer.solvers.dd import api
from analyzer.solvers.dd import layout as kernels
from analyzer.solvers.dd import restart


def _play_random_tricks(hands, leader, tricks, rng):
    """Hands and leader after ``tricks`` random legal no-trump tricks."""
    hands = [int(h) for h in hands]
    for _ in range(tricks):
        led = -1
        best = (-1, -1)
        for step in range(4):
            seat = (leader + step) % 4
            cards = [c for c in range(52) if hands[seat] >> c & 1]
            follow = [c for c in cards if c // 13 == led]
            card = int(rng.choice(follow or cards))
            hands[seat] ^= 1 << card
            if step == 0:
                led = card // 13
            if card // 13 == led and card > best[1]:
                best = (seat, card)
        leader = best[0]
    return np.array(hands, dtype=np.int64), leader


def solve_within(limit, *args, salt=0, **kwargs):
    """``api.solve(*args, **kwargs)`` stopped after ``limit`` completed tricks (0: no limit), its moves
    ordered with ``salt`` (0: the plain ordering; see ``moves._salt_term``).

    Returns the answer (None when the limit ran out) and the completed tricks.  The one place the
    misère scripts cap a question: ``api.solve`` has no limit parameter, so the kernels' context
    setter is wrapped for the call.
    """
    set_context = api._k.set_context
    mem = api._work()

    def limited(mem, *context):
        # set_context starts the completed-trick count; the limit sits that far above it.
        set_context(mem, *context)
        mem[kernels.M_CTX + kernels.C_SALT] = salt
        if limit:
            mem[kernels.M_CTX + kernels.C_LIMIT] = mem[kernels.M_CTX + kernels.C_TRICKS] + limit

    api._k.set_context = limited
    try:
        answer = api.solve(*args, **kwargs)
    finally:
        api._k.set_context = set_context
    stopped = bool(mem[kernels.M_CTX + kernels.C_ABORTED])
    mem[kernels.M_CTX + kernels.C_LIMIT] = 0
    mem[kernels.M_CTX + kernels.C_ABORTED] = 0
    return (None if stopped else answer), api.last_tricks()


def solve_restarting(limit, hands, trump, leader, team, goal, k, unit=restart.UNIT, units=restart.RESTART_UNITS):
    """The question ``api.solve(hands, trump, leader, team, goal, k)`` (goal ``le`` or ``eq``) asked as
    ``api.solve_questions`` asks it (``api.solve_question``: by restarts, capped at ``units``) in a fresh table,
    within ``limit`` completed tricks of all runs (0: no limit).  Returns the answer (None when the limit ran out)
    and the completed tricks."""
    answer = api.solve_question(hands, trump, leader, team, goal, k, unit=unit, units=units, budget=limit)
    return answer, api.last_tricks()


def _ask(hands, leader, team, goal, limit):
    """The answer (None when the limit ran out) and the completed tricks."""
    answer, tricks = solve_within(limit, hands, NO_TRUMP, leader, team, goal, 0 if goal == "le" else 1)
    return (None if answer is None else bool(answer)), tricks


def run(seed, positions, limit, out):
    rng = np.random.default_rng(seed)
    deals = random_deals(np.random.default_rng(seed + 1), positions)
    begin = time.process_time()
    with open(out, "w") as f:
        for i, deal in enumerate(deals):
            hands, leader = _play_random_tricks(deal, int(rng.integers(4)), int(rng.integers(10)), rng)
            # Half the time the seat with the lowest cards declares: misère hands, where the answer is often yes.
            ranks = [sum(c % 13 for c in range(52) if int(hands[s]) >> c & 1) for s in range(4)]
            declarer = int(np.argmin(ranks)) if rng.integers(2) else int(rng.integers(4))
            for goal in ("le", "eq"):
                answer, tricks = _ask(hands, leader, 1 << declarer, goal, limit)
                f.write(json.dumps({"position": i, "declarer": declarer, "leader": leader, "goal": goal,
                                    "answer": answer, "tricks": tricks}) + "\n")
    print(f"{positions} positions, {time.process_time() - begin:.1f} CPU-s")


def compare(old, new):
    rows = [[json.loads(line) for line in open(path)] for path in (old, new)]
    agree = differ = unknown = 0
    tricks = [0, 0]
    for a, b in zip(*rows):
        assert (a["position"], a["goal"]) == (b["position"], b["goal"]), "the files hold different positions"
        if a["answer"] is None or b["answer"] is None:
            unknown += 1
            continue
        tricks[0] += a["tricks"]
        tricks[1] += b["tricks"]
        if a["answer"] == b["answer"]:
            agree += 1
        else:
            differ += 1
            print("differ:", a, b)
    print(f"{agree} agree, {differ} differ, {unknown} unknown in either; completed tricks on the questions both "
          f"answered {tricks[0]} -> {tricks[1]} ({tricks[1] / max(tricks[0], 1):.3f}x)")
    return differ == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--limit", type=int, default=200_000, help="completed tricks per question")
    parser.add_argument("--out")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        sys.exit(0 if compare(*args.compare) else 1)
    if args.seed is None or not args.out:
        parser.error("--seed and --out are needed (or --compare OLD NEW)")
    run(args.seed, args.positions, args.limit, args.out)


if __name__ == "__main__":
    main()
