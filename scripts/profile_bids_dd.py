"""Profile of the ``rikken bids --policy dd`` work question by question (issue 17).

The deals, leaders and setup rows are those of ``rikken bids --policy dd --deals N --seed S``
(``experiment_deals``: the experiment's chunks and seeds), and each deal's questions are the ones its
``contract_bounds`` call asks (``dd.setup_contracts``, ``count_order``, ``lone_questions``;
``tests/rikken/test_bids_dd_profile.py`` checks both against a recorded chunk of the experiment).  They
are asked in ``contract_bounds``' order, sharing its table generations, each trick count as its made /
not made probes and then its refining probes within ``--dd-budget`` completed tricks, each Misery and 1 Alone
question by the restart driver as ``solve_questions`` asks it (before session 14: by the plain search), timed in CPU
seconds of the worker process (``time.process_time``) with their completed tricks.  A worker that spends
more than ``--limit`` CPU seconds on one question is killed; the question is recorded as skipped and the
deal goes on in a fresh worker (so the questions after it start with an empty table).

Each question kind is reported (2 v 2 and 1 v 3 per trump: made probes and counts, Misery, 1 Alone)
with its total CPU seconds and share, completed tricks and counts left bounded, then the setup rows
(``experiments.build_setups``) the bounded counts leave bounded (the issue's measure: at most 1%), then the
slowest questions.  With ``--final-probes`` each exact lone count ``c`` (1 v 3) is asked again as its two
final probes, "makes c?" (yes) and "makes c + 1?" (no), each alone in a fresh table, outside the
question's CPU seconds (but not outside ``--limit``): their completed tricks say which proof the count's
cost is made of.  ``--out`` writes one JSON line per question (with its answer); ``--compare OLD NEW``
checks that two such files agree on every answer both hold (made / not made equal, counts equal or
overlapping intervals) and prints the CPU of each kind side by side.

Usage: python scripts/profile_bids_dd.py --seed S --deals N [--first 0] [--limit 120] [--dd-budget B] [--out FILE]
       [--final-probes]
       python scripts/profile_bids_dd.py --compare OLD NEW
"""

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

STRAINS = "CDHSN"
SEATS = "NESW"
KINDS = (*(f"{kind} {step}" for kind in ("2v2", "1v3 C", "1v3 D", "1v3 H", "1v3 S") for step in ("made", "count")),
         "misery", "1 alone")


def deal_questions(setups, rows):
    """The solver questions ``contract_bounds`` asks for one deal's setup rows, in its order, each with its kind
    and the number of those rows its answer settles.

    Trick contracts come in ``count_order``: each asks "makes t?" for the targets of ``made_targets`` its
    proved bounds leave open (kind ``... made``, lowest first, up to the first no), then refines its count
    within the budget (kind ``... count``); Misery and 1 Alone are one question each (``lone_questions``).
    """
    from analyzer.games.rikken.dd import count_order, lone_questions
    from analyzer.solvers.dd.api import Question

    leader, contracts = deal_contracts(setups, rows)
    unique = list(dict.fromkeys(contracts))
    asked = [(Question(c[0], leader, c[1], "ge", 0, c[3], c[4]), c, contracts.count(c)) for c in count_order(unique)]
    asked += [(q, None, sum(c[:3] == key for c in contracts)) for key, q in lone_questions(unique, leader)]
    return [(q, contract, _kind_of(q), settled) for q, contract, settled in asked]


def deal_contracts(setups, rows):
    """What ``play_setups_dd`` hands ``contract_bounds`` for one deal's setup rows ``rows``.

    Parameters
    ----------
    setups : dict
        Setup rows (``experiments.build_setups``), as :func:`experiment_deals` gives them.
    rows : numpy.ndarray
        The rows of one deal (one leader).

    Returns
    -------
    leader : int
        The seat on lead.
    contracts : list of tuple
        ``dd.setup_contracts`` of the rows, in row order.
    """
    from analyzer.games.rikken.dd import setup_contracts

    return int(setups["leader"][rows[0]]), setup_contracts(setups, rows)


def experiment_deals(seed, n_deals):
    """Per deal ``(hands, setups, rows)`` of ``rikken bids --policy dd --deals N --seed S``: its plan, chunks,
    seeds and setup rows (``experiments.bids_setups``), so deal ``d`` is the experiment's deal ``d``."""
    from analyzer.experiments.runner import plan_chunks
    from analyzer.games.rikken.experiments import Policies, bids_plan, bids_setups

    plan = bids_plan(Policies.everywhere("dd"), "random", "all", {}, None, n_deals, seed, None)
    out = []
    for chunk in plan_chunks(n_deals, plan.chunk_size, seed):
        setup = bids_setups(plan.params, chunk.start, chunk.count, chunk.seed_seq.spawn(2)[0])
        deals, setups = setup.deals, setup.setups
        out += [(deals[i], setups, np.flatnonzero(setups["hand"] // 4 == i)) for i in range(chunk.count)]
    return out


def _kind_of(q):
    if q.goal == "le":
        return "misery"
    if q.goal == "eq":
        return "1 alone"
    if bin(q.team).count("1") == 2:
        return "2v2"
    return f"1v3 {STRAINS[q.trump]}"


def _final_probes(hands, q, count):
    """Completed tricks of "makes ``count``?" and "makes ``count`` + 1?" for one exact count, each asked alone
    in a fresh table (0 for a probe with nothing to prove: ``count`` 0, or every trick left)."""
    from analyzer.solvers.dd import api

    tricks = []
    for target in (count, count + 1):
        if 0 < target <= 13:
            api.solve(hands, q.trump, q.leader, q.team, "ge", target, called_card=q.called_card,
                      blind_call=q.blind_call)
            tricks.append(api.last_tricks())
        else:
            tricks.append(0)
    return tricks


def _answer(hands, q, contract, generations, known, budget):
    """Ask one question as ``contract_bounds`` does: the made probes its known bounds leave open, then the
    budgeted count; yields (kind suffix, answer, completed tricks, CPU seconds) per step."""
    from analyzer.games.rikken import dd
    from analyzer.games.rikken.count_bounds import Side
    from analyzer.solvers.dd import api

    if contract is None:
        # A Misery or 1 Alone question, asked by restarts as contract_bounds' solve_questions asks it.
        begin = time.process_time()
        answer = api.solve_question(hands, q.trump, q.leader, q.team, q.goal, q.k, generations=generations)
        yield "", answer, api.last_tricks(), time.process_time() - begin
        return
    side = Side(q.team, q.called_card, q.blind_call)
    begin = time.process_time()
    tricks = 0

    def counted(*args, **kwargs):
        nonlocal tricks
        answer = api.solve(*args, **kwargs)
        tricks += api.last_tricks()
        return answer

    # made_bounds' probes go through the module's ``solve``: count their completed tricks on the way.
    dd.solve = counted
    try:
        low, high = dd.made_bounds(hands, q.leader, contract, *known.bounds(q.trump, side), generations)
    finally:
        dd.solve = api.solve
    yield " made", [low, high], tricks, time.process_time() - begin
    begin = time.process_time()
    bounds = api.solve_bounds(hands, q.trump, q.leader, q.team, budget, low, high, called_card=q.called_card,
                              blind_call=q.blind_call, generations=generations)
    known.add(q.trump, side, *bounds)
    yield " count", list(bounds), api.last_tricks() if low < high else 0, time.process_time() - begin


def _worker(seed, n_deals, first, start_deal, start_question, budget, out, final_probes=False):
    """Answer the questions from (start_deal, start_question) on, sending ("start", ...) and ("done", ...) messages.

    ``out`` is a pipe's sending end: a queue's feeder thread would wait for the GIL, which the kernels hold,
    so the parent would not hear of a question's start before it ended.
    """
    from analyzer.games.rikken.count_bounds import KnownCounts
    from analyzer.solvers.dd.api import solve_questions

    deals = experiment_deals(seed, first + n_deals)
    # Compile or load the kernels before timing (a first window question cost about 1 s of loading).
    solve_questions(deals[0][0], [(0, 0, 1), (4, 0, 1, "le", 0), (4, 0, 1, "eq", 1), (0, 0, 1, "ge", 1)])
    for d in range(start_deal, first + n_deals):
        hands, setups, rows = deals[d]
        generations = {}
        known = KnownCounts(hands)
        questions = deal_questions(setups, rows)
        for j, (q, contract, kind, settled) in enumerate(questions):
            if d == start_deal and j < start_question:
                continue
            out.send(("start", d, j, len(questions), kind, settled))
            for suffix, answer, tricks, cpu in _answer(hands, q, contract, generations, known, budget):
                record = {"deal": d, "index": j, "kind": kind + suffix, "team": q.team, "trump": q.trump,
                          "goal": q.goal, "k": q.k, "called": q.called_card, "answer": answer, "tricks": tricks,
                          "cpu": cpu, "rows": settled}
                if final_probes and kind.startswith("1v3") and suffix == " count" and answer[0] == answer[1]:
                    # Fresh table generations: a budgeted count depends only on its own generation's
                    # entries, so the deal's later answers are the same with or without these probes.
                    record["final_probes"] = _final_probes(hands, q, answer[0])
                out.send(("done", d, j, record))
            out.send(("end question",))
    out.send(("end",))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used so far (Linux ``/proc``; ``bench_rikken_advise`` too)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def profile(seed, n_deals, first, limit, out_path, budget, final_probes=False):
    ctx = mp.get_context("spawn")
    records = []
    deal, question = first, 0
    sink = open(out_path, "w") if out_path else None
    while True:
        receiver, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(seed, n_deals, first, deal, question, budget, sender, final_probes))
        proc.start()
        current = None
        started_cpu = 0.0
        finished = False
        while True:
            if not receiver.poll(1.0):
                if not proc.is_alive():
                    raise SystemExit("worker died")
                if current is not None and cpu_seconds(proc.pid) - started_cpu > limit:
                    proc.kill()
                    proc.join()
                    d, j, n, kind, settled = current
                    print(f"deal {d} question {j} ({kind}): skipped after {limit} CPU-s", flush=True)
                    record = {"deal": d, "index": j, "kind": kind, "skipped": True, "cpu": float(limit),
                              "rows": settled}
                    records.append(record)
                    if sink:
                        sink.write(json.dumps(record) + "\n")
                    deal, question = (d, j + 1) if j + 1 < n else (d + 1, 0)
                    break
                continue
            msg = receiver.recv()
            if msg[0] == "start":
                current = msg[1:]
                started_cpu = cpu_seconds(proc.pid)
            elif msg[0] == "done":
                record = msg[3]
                records.append(record)
                if sink:
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
            elif msg[0] == "end question":
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
    print(f"{'kind':12} {'n':>5} {'CPU-s':>9} {'share':>6} {'mean':>8} {'max':>8} {'tricks':>13} {'bounded':>7}")
    for kind in KINDS:
        rows = [r for r in records if r.get("kind") == kind]
        if rows:
            cpu = [r["cpu"] for r in rows]
            bounded = sum(1 for r in rows if _bounded(r))
            print(f"{kind:12} {len(rows):5} {sum(cpu):9.2f} {sum(cpu) / total:6.1%} {statistics.mean(cpu):8.3f} "
                  f"{max(cpu):8.2f} {sum(r.get('tricks', 0) for r in rows):13,} {bounded:7}")
    settling = [r for r in records if not r["kind"].endswith("made")]
    if all("rows" in r for r in settling):
        # Each setup row is settled by one count, Misery or 1 Alone question (a made probe shares its count's rows).
        rows = sum(r["rows"] for r in settling)
        bounded = sum(r["rows"] for r in settling if _bounded(r))
        skipped = sum(r["rows"] for r in settling if r.get("skipped"))
        print(f"setup rows: {rows:,}, bounded {bounded} ({bounded / max(1, rows):.2%})"
              + (f", unanswered (skipped) {skipped}" if skipped else ""))
    finals = [r for r in records if "final_probes" in r]
    if finals:
        yes = sum(r["final_probes"][0] for r in finals)
        no = sum(r["final_probes"][1] for r in finals)
        counted = sum(r["tricks"] for r in finals)
        print(f"final probes of {len(finals)} exact lone counts ({counted:,} completed tricks in their refining "
              f"probes), each alone in a fresh table: makes c (yes) {yes:,}, makes c + 1 (no) {no:,}")
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


def _bounded(record):
    """A count whose probes ran out of budget: its answer is an interval."""
    answer = record.get("answer")
    return record["kind"].endswith("count") and isinstance(answer, list) and answer[0] < answer[1]


def load_records(path):
    """The records of a JSON-lines ``--out`` file, in order."""
    with open(path) as f:
        return [json.loads(line) for line in f]


def compare(old_path, new_path):
    old, new = load_records(old_path), load_records(new_path)
    # A question is known by what it asks, not by its place: the order of a deal's questions may change.
    def key(r):
        return r["deal"], r["kind"], r["team"], r["trump"], r["called"], r["goal"], r["k"]

    keyed = {key(r): r for r in old if not r.get("skipped")}
    both = [(keyed[key(r)], r) for r in new if not r.get("skipped") and key(r) in keyed]
    for a, b in both:
        if a["kind"].endswith("made") or a["kind"].endswith("count"):
            # Made / not made and exact counts must agree; a count may be bounded in one run only.
            lo, hi = max(a["answer"][0], b["answer"][0]), min(a["answer"][1], b["answer"][1])
            made = [t for t in (8, 9, 10, 11, 12, 13) if a["kind"].endswith("made")]
            if lo > hi or any((a["answer"][0] >= t) != (b["answer"][0] >= t) for t in made):
                raise SystemExit(f"ANSWERS DISAGREE at deal {a['deal']} ({a['kind']}): {a} vs {b}")
        elif a["answer"] != b["answer"]:
            raise SystemExit(f"ANSWERS DIFFER at deal {a['deal']} #{a['index']}: {a} vs {b}")
    print(f"{len(both)} questions answered in both runs, all answers agree")
    print(f"{'kind':8} {'n':>5} {'old CPU-s':>10} {'new CPU-s':>10} {'ratio':>6}")
    for kind in KINDS + ("all",):
        pairs = [(a["cpu"], b["cpu"]) for a, b in both if kind in ("all", a["kind"])]
        if pairs:
            o, n = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
            print(f"{kind:8} {len(pairs):5} {o:10.2f} {n:10.2f} {n / o if o else float('nan'):6.2f}")
    print("largest changes:")
    for a, b in sorted(both, key=lambda p: -abs(p[0]["cpu"] - p[1]["cpu"]))[:8]:
        print(f"  deal {a['deal']} #{a['index']} {a['kind']} goal {a['goal']} {a['k']}: "
              f"{a['cpu']:.2f} -> {b['cpu']:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--deals", type=int, default=15)
    parser.add_argument("--first", type=int, default=0, help="first deal index (earlier deals are drawn, not asked)")
    parser.add_argument("--limit", type=float, default=120.0, help="CPU seconds before a question is skipped")
    parser.add_argument("--out", default=None)
    parser.add_argument("--dd-budget", type=int, default=None,
                        help="completed tricks per count's refining probes (default: the rikken commands' default)")
    parser.add_argument("--final-probes", action="store_true",
                        help="ask each exact lone count's last yes and no probes again, alone (see the notes)")
    parser.add_argument("--summary", default=None, help="summarize an --out file")
    parser.add_argument("--compare", nargs=2, default=None)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.summary:
        summarize(load_records(args.summary))
    elif args.seed is None:
        sys.exit("--seed is required")
    else:
        print(f"seed {args.seed}, deals {args.first}..{args.first + args.deals - 1}", flush=True)
        from analyzer.games.rikken.dd import DEFAULT_BUDGET

        budget = DEFAULT_BUDGET if args.dd_budget is None else args.dd_budget
        print(f"budget {budget:,} completed tricks per count", flush=True)
        summarize(profile(args.seed, args.deals, args.first, args.limit, args.out, budget, args.final_probes),
                  f"seed {args.seed}: ")


if __name__ == "__main__":
    main()
