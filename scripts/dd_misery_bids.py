"""Check and cost: every Misery and 1 Alone question of ``rikken bids --policy dd`` on a run of its deals.

Deals, leaders and questions are those of ``rikken bids --policy dd --seed S`` (``profile_bids_dd.experiment_deals``
and ``dd.lone_questions``), each question asked alone in a fresh table within ``--limit`` completed tricks (one
that runs out is recorded as unknown).  Run once with this tree and once with ``PYTHONPATH`` at an older
solver, each writing ``--out``, then ``--compare OLD NEW``: every answer both know must agree; completed tricks
and CPU seconds per kind are printed side by side.  ``--question D:SEAT:KIND`` asks one question alone
(``KIND`` misery or one), for timing the stuck ones; with ``--salts N`` once per ordering salt 0 .. N-1, each in a
fresh table or (``--keep``) all in one.  ``--restarts`` asks by ``api.solve_question`` (the restart driver, as
``rikken bids`` does), ``--limit`` then bounding all its runs together; ``--units U`` caps its restarts at ``U``
units instead of ``restart.RESTART_UNITS`` (0: the plain search, one run).

Usage: python scripts/dd_misery_bids.py --seed S --deals N [--first 0] [--limit 3000000] [--restarts [--units U]]
           --out FILE
       python scripts/dd_misery_bids.py --seed S --question 380:W:misery [--limit 0] [--salts 16 [--keep] |
           --restarts [--units U]]
       python scripts/dd_misery_bids.py --compare OLD NEW
"""

import argparse
import json
import sys
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)

from dd_misery_check import solve_restarting, solve_within
from profile_bids_dd import deal_contracts, experiment_deals, load_records

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.games.rikken import dd
from analyzer.solvers.dd.restart import RESTART_UNITS

KINDS = {("le", 0): "misery", ("eq", 1): "one"}


def _ask(hands, question, limit, salt=0, generations=None, restarts=False, units=RESTART_UNITS):
    """(answer or None when the limit ran out, completed tricks, CPU seconds); ``salt`` orders the moves,
    ``generations`` keeps the table between calls (see ``api.solve``); with ``restarts``, the restart driver
    (``api.solve_question``, as ``rikken bids`` asks it; ``units`` its cap) within ``limit`` over all its runs."""
    begin = time.process_time()
    if restarts:
        answer, tricks = solve_restarting(limit, hands, question.trump, question.leader, question.team, question.goal,
                                          question.k, units=units)
    else:
        answer, tricks = solve_within(limit, hands, question.trump, question.leader, question.team, question.goal,
                                      question.k, salt=salt, generations=generations)
    return (None if answer is None else bool(answer)), int(tricks), time.process_time() - begin


def run(seed, first, deals, limit, out, restarts=False, units=RESTART_UNITS):
    begin = time.process_time()
    with open(out, "w") as f:
        for d, (hands, setups, rows) in enumerate(experiment_deals(seed, first + deals)[first:], start=first):
            leader, contracts = deal_contracts(setups, rows)
            for _, question in dd.lone_questions(contracts, leader):
                answer, tricks, cpu = _ask(hands, question, limit, restarts=restarts, units=units)
                f.write(json.dumps({"deal": d, "team": int(question.team), "trump": int(question.trump),
                                    "kind": KINDS[(question.goal, question.k)], "answer": answer,
                                    "tricks": tricks, "cpu": round(cpu, 3)}) + "\n")
    print(f"{deals} deals, {time.process_time() - begin:.1f} CPU-s")


def one(seed, spec, limit, salts=1, keep=False, restarts=False, units=RESTART_UNITS):
    """Ask one question with salts 0 .. ``salts`` - 1 in turn, each in a fresh table or (``keep``) in one kept
    table; with ``restarts``, once by the restart driver."""
    deal, seat, kind = spec.split(":")
    hands, setups, rows = experiment_deals(seed, int(deal) + 1)[int(deal)]
    leader, _ = deal_contracts(setups, rows)
    goal, k = next(key for key, name in KINDS.items() if name == kind)
    question = dd.Question(4, leader, 1 << SEAT_LETTERS.index(seat), goal, k)
    _ask(hands, question, 1)  # compiles the kernels outside the timed call
    generations = {} if keep else None
    for salt in range(salts):
        answer, tricks, cpu = _ask(hands, question, limit, salt, generations, restarts, units)
        how = "restarts" if restarts else f"salt {salt}{' kept' if keep else ''}"
        print(f"deal {deal} {kind} of {seat} ({SEAT_LETTERS[leader]} leads) {how}: "
              f"{'unknown (limit reached)' if answer is None else answer}; {tricks} completed tricks, {cpu:.2f} CPU-s",
              flush=True)


def compare(old_path, new_path):
    def load(path):
        return {(r["deal"], r["team"], r["trump"], r["kind"]): r for r in load_records(path)}

    old, new = load(old_path), load(new_path)
    both = sorted(old.keys() & new.keys())
    differ = [key for key in both if None not in (old[key]["answer"], new[key]["answer"])
              and old[key]["answer"] != new[key]["answer"]]
    unknown = sum(old[key]["answer"] is None or new[key]["answer"] is None for key in both)
    print(f"{len(both)} questions on {len({key[0] for key in both})} deals: {len(both) - len(differ) - unknown} agree, "
          f"{len(differ)} differ, {unknown} unknown in either")
    for kind in sorted({key[3] for key in both}):
        keys = [key for key in both if key[3] == kind]
        t_old, t_new = (sum(side[key]["tricks"] for key in keys) for side in (old, new))
        c_old, c_new = (sum(side[key]["cpu"] for key in keys) for side in (old, new))
        print(f"  {kind}: {len(keys)} questions, completed tricks {t_old} -> {t_new} ({t_new / max(t_old, 1):.3f}x), "
              f"CPU {c_old:.1f} -> {c_new:.1f} s")
    for key in differ[:5]:
        print("  differ:", key, old[key]["answer"], new[key]["answer"])
    return 1 if differ else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--limit", type=int, default=3_000_000, help="completed tricks a question (0: none)")
    parser.add_argument("--out")
    parser.add_argument("--question", help="DEAL:SEAT:KIND, e.g. 380:W:misery")
    parser.add_argument("--salts", type=int, default=1, help="with --question: ask it with salts 0 .. N-1")
    parser.add_argument("--keep", action="store_true", help="with --salts: keep the table between the salts")
    parser.add_argument("--restarts", action="store_true",
                        help="ask by the restart driver (--limit: completed tricks of all its runs)")
    parser.add_argument("--units", type=int, default=RESTART_UNITS,
                        help="with --restarts: the driver's cap in units (0: the plain search)")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        try:
            sys.exit(compare(*args.compare))
        except (OSError, ValueError, KeyError) as error:
            parser.error(f"--compare: {error}")
    if args.units < 0 or (args.units != RESTART_UNITS and not args.restarts):
        parser.error(f"--units {args.units}: want a whole number >= 0, with --restarts")
    if args.seed is None or not (args.out or args.question):
        parser.error("--seed with --out or --question is required")
    if args.question:
        parts = args.question.split(":")
        seat_ok = len(parts) == 3 and len(parts[1]) == 1 and parts[1] in SEAT_LETTERS
        if not seat_ok or not parts[0].isdigit() or parts[2] not in KINDS.values():
            parser.error(f"--question {args.question!r}: want DEAL:SEAT:KIND, e.g. 380:W:misery")
        if args.salts < 1:
            parser.error(f"--salts {args.salts}: want at least 1")
        if args.restarts and (args.salts != 1 or args.keep):
            parser.error("--restarts asks once, by the restart driver: drop --salts and --keep")
        one(args.seed, args.question, args.limit, args.salts, args.keep, args.restarts, args.units)
    else:
        run(args.seed, args.first, args.deals, args.limit, args.out, args.restarts, args.units)


if __name__ == "__main__":
    main()
