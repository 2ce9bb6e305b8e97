"""Profile of the ``rikken bids --policy dd`` work question by question (issue 17).

The deals and setups are those of ``scripts/bench_dd.py --bids N --seed S`` (deals drawn from seed
``S + 1``).  Each deal's questions are asked in the order ``contract_counts`` asks them, sharing its
table generations, one ``solve_questions`` call per question, timed in CPU seconds of the worker
process (``time.process_time``).  A worker that spends more than ``--limit`` CPU seconds on one
question is killed; the question is recorded as skipped and the deal goes on in a fresh worker (so
the questions after it start with an empty table).

Each question kind is reported (2 v 2 trick counts, 1 v 3 trick counts per trump, Misery, 1 Alone)
with its total CPU seconds and share, then the slowest questions.  ``--out`` writes one JSON line
per question (with its answer); ``--compare OLD NEW`` checks that two such files agree on every
answer both hold and prints the CPU of each kind side by side.

Usage: python scripts/profile_bids_dd.py --seed S --deals N [--first 0] [--limit 120] [--out FILE]
       python scripts/profile_bids_dd.py --compare OLD NEW
"""

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

import numpy as np

from bench_dd import random_deals

STRAINS = "CDHSN"
SEATS = "NESW"
KINDS = ("2v2", "1v3 C", "1v3 D", "1v3 H", "1v3 S", "misery", "1 alone")


def deal_questions(setups, rows):
    """The solver questions ``contract_counts`` asks for one deal's setup rows, in its order, each with its kind."""
    from analyzer.games.rikken import rules
    from analyzer.games.rikken.dd import setup_declarer
    from analyzer.solvers.dd.api import _GOAL_MODE, Question

    leader = int(setups["leader"][rows[0]])
    contracts = []
    for i in rows:
        _, contract, team = setup_declarer(setups, i)
        contracts.append((int(setups["trump"][i]), team, int(rules.KIND[contract]), int(setups["called_card"][i]),
                          bool(setups["blind"][i])))
    unique = list(dict.fromkeys(contracts))
    tricks = [Question(c[0], leader, c[1], called_card=c[3], blind_call=c[4]) for c in unique
              if c[2] == rules.Kind.TRICKS]
    # solve_questions answers a call's questions group by group (trump, team, kind of goal).
    groups = {}
    for q in tricks:
        groups.setdefault((q.trump, q.team, _GOAL_MODE[q.goal]), []).append(q)
    asked = [q for members in groups.values() for q in members]
    for kind, goal, k in ((rules.Kind.MISERY, "le", 0), (rules.Kind.ONE, "eq", 1)):
        keys = dict.fromkeys((c[0], c[1]) for c in unique if c[2] == kind)
        asked += [Question(trump, leader, team, goal, k) for trump, team in keys]
    return [(q, _kind_of(q)) for q in asked]


def _kind_of(q):
    if q.goal == "le":
        return "misery"
    if q.goal == "eq":
        return "1 alone"
    if bin(q.team).count("1") == 2:
        return "2v2"
    return f"1v3 {STRAINS[q.trump]}"


def _worker(seed, n_deals, first, start_deal, start_question, out):
    """Answer the questions from (start_deal, start_question) on, sending ("start", ...) and ("done", ...) messages.

    ``out`` is a pipe's sending end: a queue's feeder thread would wait for the GIL, which the kernels hold,
    so the parent would not hear of a question's start before it ended.
    """
    from analyzer.games.rikken.experiments import build_setups
    from analyzer.solvers.dd.api import solve_questions

    deals = random_deals(np.random.default_rng(seed + 1), first + n_deals)
    setups = build_setups(deals, np.zeros(len(deals), dtype=np.int64))
    # Compile or load the kernels before timing (a first window question cost about 1 s of loading).
    solve_questions(deals[0], [(0, 0, 1), (4, 0, 1, "le", 0), (4, 0, 1, "eq", 1), (0, 0, 1, "ge", 1)])
    for d in range(start_deal, first + n_deals):
        rows = np.flatnonzero(setups["hand"] // 4 == d)
        generations = {}
        questions = deal_questions(setups, rows)
        for j, (q, kind) in enumerate(questions):
            if d == start_deal and j < start_question:
                continue
            out.send(("start", d, j, len(questions)))
            begin = time.process_time()
            answer = solve_questions(deals[d], [q], generations)[0]
            out.send(("done", d, j, {"deal": d, "index": j, "kind": kind, "team": q.team, "trump": q.trump,
                                    "goal": q.goal, "k": q.k, "called": q.called_card, "answer": answer,
                                    "cpu": time.process_time() - begin}))
    out.send(("end",))


def _cpu_seconds(pid):
    """User + system CPU seconds of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def profile(seed, n_deals, first, limit, out_path):
    ctx = mp.get_context("spawn")
    records = []
    deal, question = first, 0
    sink = open(out_path, "w") if out_path else None
    while True:
        receiver, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(seed, n_deals, first, deal, question, sender))
        proc.start()
        current = None
        started_cpu = 0.0
        finished = False
        while True:
            if not receiver.poll(1.0):
                if not proc.is_alive():
                    raise SystemExit("worker died")
                if current is not None and _cpu_seconds(proc.pid) - started_cpu > limit:
                    proc.kill()
                    proc.join()
                    d, j, n = current
                    print(f"deal {d} question {j}: skipped after {limit} CPU-s", flush=True)
                    record = {"deal": d, "index": j, "skipped": True, "cpu": float(limit)}
                    records.append(record)
                    if sink:
                        sink.write(json.dumps(record) + "\n")
                    deal, question = (d, j + 1) if j + 1 < n else (d + 1, 0)
                    break
                continue
            msg = receiver.recv()
            if msg[0] == "start":
                current = msg[1:]
                started_cpu = _cpu_seconds(proc.pid)
            elif msg[0] == "done":
                record = msg[3]
                records.append(record)
                if sink:
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                current = None
            else:
                proc.join()
                finished = True
                break
        if finished or deal >= first + n_deals:
            break
    if sink:
        sink.close()
    return records


def summarize(records, label=""):
    per_deal = {}
    for r in records:
        per_deal[r["deal"]] = per_deal.get(r["deal"], 0.0) + r["cpu"]
    total = sum(per_deal.values())
    times = sorted(per_deal.values())
    print(f"\n{label}{len(per_deal)} deals, {len(records)} questions, {total:.1f} CPU-s: per deal mean "
          f"{total / max(1, len(per_deal)):.2f}, median {statistics.median(times):.2f}, max {max(times):.2f}")
    print(f"{'kind':8} {'n':>5} {'CPU-s':>9} {'share':>6} {'mean':>8} {'max':>8}")
    for kind in KINDS:
        rows = [r["cpu"] for r in records if r.get("kind") == kind]
        if rows:
            print(f"{kind:8} {len(rows):5} {sum(rows):9.2f} {sum(rows) / total:6.1%} {statistics.mean(rows):8.3f} "
                  f"{max(rows):8.2f}")
    skipped = [r for r in records if r.get("skipped")]
    if skipped:
        print(f"skipped {len(skipped)} questions (counted at the limit): "
              + ", ".join(f"deal {r['deal']} #{r['index']}" for r in skipped))
    print("slowest questions:")
    for r in sorted(records, key=lambda r: -r["cpu"])[:8]:
        if r.get("skipped"):
            print(f"  {r['cpu']:8.2f} s deal {r['deal']} question {r['index']} (skipped)")
            continue
        seats = "".join(SEATS[s] for s in range(4) if r["team"] >> s & 1)
        print(f"  {r['cpu']:8.2f} s deal {r['deal']} {r['kind']} team {seats} trump {STRAINS[r['trump']]} "
              f"goal {r['goal']} {r['k']} -> {r['answer']}")


def _load(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def compare(old_path, new_path):
    old, new = _load(old_path), _load(new_path)
    keyed = {(r["deal"], r["index"]): r for r in old if not r.get("skipped")}
    both = [(keyed[(r["deal"], r["index"])], r) for r in new if not r.get("skipped") and (r["deal"], r["index"]) in keyed]
    for a, b in both:
        if (a["kind"], a["team"], a["trump"], a["goal"], a["k"]) != (b["kind"], b["team"], b["trump"], b["goal"], b["k"]):
            raise SystemExit(f"different questions at deal {a['deal']} #{a['index']}")
        if a["answer"] != b["answer"]:
            raise SystemExit(f"ANSWERS DIFFER at deal {a['deal']} #{a['index']}: {a} vs {b}")
    print(f"{len(both)} questions answered in both runs, all answers equal")
    print(f"{'kind':8} {'n':>5} {'old CPU-s':>10} {'new CPU-s':>10} {'ratio':>6}")
    for kind in KINDS + ("all",):
        pairs = [(a["cpu"], b["cpu"]) for a, b in both if kind in ("all", a["kind"])]
        if pairs:
            o, n = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
            print(f"{kind:8} {len(pairs):5} {o:10.2f} {n:10.2f} {n / o if o else float('nan'):6.2f}")
    print("largest changes:")
    for a, b in sorted(both, key=lambda p: -abs(p[0]["cpu"] - p[1]["cpu"]))[:8]:
        print(f"  deal {a['deal']} #{a['index']} {a['kind']} goal {a['goal']} {a['k']}: {a['cpu']:.2f} -> {b['cpu']:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--deals", type=int, default=15)
    parser.add_argument("--first", type=int, default=0, help="first deal index (earlier deals are drawn, not asked)")
    parser.add_argument("--limit", type=float, default=120.0, help="CPU seconds before a question is skipped")
    parser.add_argument("--out", default=None)
    parser.add_argument("--summary", default=None, help="summarize an --out file")
    parser.add_argument("--compare", nargs=2, default=None)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.summary:
        summarize(_load(args.summary))
    elif args.seed is None:
        sys.exit("--seed is required")
    else:
        print(f"seed {args.seed}, deals {args.first}..{args.first + args.deals - 1}", flush=True)
        summarize(profile(args.seed, args.deals, args.first, args.limit, args.out), f"seed {args.seed}: ")


if __name__ == "__main__":
    main()
