"""Benchmark: our double-dummy solver against DDS (through endplay), single-threaded, same deals.

Every run draws a fresh seed unless ``--seed`` is given, and prints it.  On each random deal (one
strain and one leader per deal, cycled over the deals) both solvers answer
- max tricks: the tricks of the side on lead;
- makes k, yes: "does the side on lead make k" with k its true count (when k >= 1);
- makes k, no: the same with k one more (when k <= 12);
- table (the first ``--table-deals``, 100 by default): all 20 results of the deal (5 strains x 4
  declarers), ours by ``solve_table`` (cache kept across the leaders of a strain), against DDS's
  table call (``CalcDDtable``); with ``--singles N`` also by 20 single solves on N of them.  The
  table's tree ratio compares the completed tricks of ``solve_table`` with those of 20 untimed DDS
  single-board solves of the deal, strain by strain, leaders N E S W, the later leaders in DDS's
  mode 2 (its table kept from the leader before): that is what its table call does (it reports no
  count), except that the call starts the later leaders' searches from the first leader's answer.
Each question kind runs as its own pass over the deals, so DDS never meets the same deal twice in a
row (it would reuse its cache).  Within a pass the solver that goes first alternates deal by deal.
Times are CPU seconds of this process (``time.process_time``), DDS pinned to one thread.

For each kind and strain it prints mean, median, p90, p99 and max CPU milliseconds of ours and of
DDS, the ratio of the mean times, the median of the per-deal ratios ours / DDS and, for the single
solves, the ratio of the completed tricks searched (fourth-hand card plays: DDS's ``nodes`` field
counts exactly these, its ``trickNodes``; ours from ``last_tricks``), which separates the size of the
tree from the cost per trick.
Any disagreement with DDS stops the run.

With ``--bids N`` it also times the double-dummy outcomes of every contract setup the Rikken bids
experiment builds for N deals (``play_setups_dd`` of one deal's setups, the work behind
``rikken bids --policy dd``) with each trick count within ``--dd-budget`` completed tricks: mean,
median, p90, p99 and max CPU seconds per deal, the share of result rows left bounded, and how many
refining searches smaller budgets would stop.

At the defaults (500 deals, 100 tables) a run takes about 5 CPU-minutes on this machine.

Usage: python scripts/bench_dd.py [--deals 500] [--seed S] [--table-deals 100] [--singles 0] [--bids 0] [--dd-budget B]
"""

import argparse
import ctypes
import secrets
import statistics
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.pbn import format_deal
from analyzer.solvers.dd import solve, solve_table
from analyzer.solvers.dd.api import last_tricks

NS = 0b0101
EW = 0b1010
STRAINS = "CDHSN"


def _single_thread_dds():
    """endplay sets DDS to all cores on import; pin it to one thread for a fair comparison."""
    import endplay._dds as dds_ext

    lib = dds_ext._dll
    lib.SetThreading(ctypes.c_int(0))
    lib.SetMaxThreads(ctypes.c_int(1))


def random_deals(rng, n):
    """``n`` random deals as four card masks each (the deals every run of this bench and its siblings draw)."""
    deals = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        cards = rng.permutation(52)
        for seat in range(4):
            for card in cards[13 * seat:13 * seat + 13]:
                deals[i, seat] |= np.int64(1) << int(card)
    return deals


def _quantile(values, q):
    return float(np.quantile(np.asarray(values), q))


def _timed(first_ours, ours, theirs):
    """Run both calls, ours first when ``first_ours``; return (our answer, DDS's answer, our s, DDS s)."""
    calls = [ours, theirs] if first_ours else [theirs, ours]
    results = []
    for call in calls:
        start = time.process_time()
        answer = call()
        results.append((answer, time.process_time() - start))
    (a, ta), (b, tb) = results if first_ours else results[::-1]
    return a, b, ta, tb


def _dds_solve(deal, target, mode=1):
    """DDS's single-board solve (one optimal card; ``target`` -1 for the most tricks): (scores, completed tricks searched).

    ``mode`` 2 keeps DDS's table from the solve before, meant for the same deal with another leader
    (mode 1 clears it after a new deal or trump, or after a search of more than 700,000 nodes).
    """
    import endplay._dds as dds_ext
    from endplay.dds.solve import SolvedBoard

    result = dds_ext.futureTricks()
    dds_ext.SolveBoard(deal._data, target, 1, mode, result, 0)
    return [score for _, score in SolvedBoard(result)], result.nodes


class _Samples:
    """Per-deal times (and completed tricks searched, when known) of ours and DDS for one question kind, with the deal's strain."""

    def __init__(self):
        self.rows = []

    def add(self, strain, ours, dds, nodes=(0, 0)):
        self.rows.append((strain, ours, dds) + tuple(nodes))

    def print(self, name, by_strain=True):
        groups = [("all", self.rows)]
        if by_strain:
            groups += [(STRAINS[s], [r for r in self.rows if r[0] == s]) for s in range(5)]
        print(f"\n{name} (CPU ms)")
        print(f"{'':4} {'n':>4} | {'ours mean':>9} {'med':>7} {'p90':>7} {'p99':>7} {'max':>8} | "
              f"{'DDS mean':>9} {'med':>7} {'p90':>7} {'p99':>7} {'max':>8} | {'mean ratio':>10} {'med ratio':>9} "
              f"{'tree ratio':>10}")
        for label, rows in groups:
            if not rows:
                continue
            ours = [1000 * r[1] for r in rows]
            dds = [1000 * r[2] for r in rows]
            ratios = [o / d for o, d in zip(ours, dds) if d > 0]
            cells = []
            for times in (ours, dds):
                cells.append(f"{statistics.mean(times):9.2f} {statistics.median(times):7.2f} "
                             f"{_quantile(times, 0.9):7.2f} {_quantile(times, 0.99):7.2f} {max(times):8.1f}")
            dds_nodes = sum(r[4] for r in rows)
            node_ratio = f"{sum(r[3] for r in rows) / dds_nodes:10.2f}" if dds_nodes else f"{'-':>10}"
            print(f"{label:4} {len(rows):4} | {cells[0]} | {cells[1]} | "
                  f"{statistics.mean(ours) / statistics.mean(dds):10.2f} {statistics.median(ratios):9.2f} {node_ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh seed, printed")
    parser.add_argument("--table-deals", type=int, default=100,
                        help="deals of the table pass, the first of the deals (the slowest pass)")
    parser.add_argument("--singles", type=int, default=0,
                        help="also time 20 single solves on the first N deals of the table pass")
    parser.add_argument("--bids", type=int, default=0, help="also time DD outcomes of the bids setups of N deals")
    parser.add_argument("--dd-budget", type=int, default=None,
                        help="completed tricks per trick count for --bids (default: the rikken commands' default)")
    args = parser.parse_args()
    seed = secrets.randbits(31) if args.seed is None else args.seed
    if args.deals == 0:
        print(f"seed {seed}, bids only (--deals 0)")
        _run_bids(args, seed)
        return

    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player

    _single_thread_dds()
    denoms = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt]

    def _deal(hands, trump, leader):
        deal = Deal.from_pbn(format_deal(hands))
        deal.first = Player(leader)
        deal.trump = denoms[trump]
        return deal

    def _fail(what):
        raise SystemExit(f"disagreement with DDS (seed {seed}): {what}")

    deals = random_deals(np.random.default_rng(seed), args.deals)
    strain_of = [i % 5 for i in range(args.deals)]
    leader_of = [(i // 5) % 4 for i in range(args.deals)]
    print(f"{args.deals} deals, seed {seed}, single thread, CPU time")

    # Warm-up: compile (or load) the kernels before timing.
    solve(deals[0], 0, 0, NS)
    solve(deals[0], 0, 0, NS, goal="ge", k=7)
    solve_table(deals[0])
    _dds_solve(_deal(deals[-1], 0, 0), -1)

    samples = {name: _Samples() for name in ("max", "yes", "no", "table", "singles")}
    counts = []
    for i, hands in enumerate(deals):
        trump, leader = strain_of[i], leader_of[i]
        side = NS if leader % 2 == 0 else EW
        deal = _deal(hands, trump, leader)
        ours, (scores, dds_nodes), to, td = _timed(i % 2 == 0, lambda: solve(hands, trump, leader, side),
                                                   lambda: _dds_solve(deal, -1))
        if ours != max(scores):
            _fail(f"deal {i} max tricks: ours {ours}, DDS {max(scores)}")
        samples["max"].add(trump, to, td, (last_tricks(), dds_nodes))
        counts.append(ours)
    for kind, extra in (("yes", 0), ("no", 1)):
        for i, hands in enumerate(deals):
            trump, leader = strain_of[i], leader_of[i]
            target = counts[i] + extra
            if not 1 <= target <= 13:
                continue
            side = NS if leader % 2 == 0 else EW
            deal = _deal(hands, trump, leader)
            ours, (scores, dds_nodes), to, td = _timed(
                i % 2 == 1, lambda: solve(hands, trump, leader, side, goal="ge", k=target),
                lambda: _dds_solve(deal, target))
            theirs = max(scores, default=-1) >= target
            if ours != theirs or ours != (extra == 0):
                _fail(f"deal {i} makes {target}: ours {ours}, DDS {theirs}")
            samples[kind].add(trump, to, td, (last_tricks(), dds_nodes))
    n_table = min(args.table_deals, args.deals)
    for i, hands in enumerate(deals[:n_table]):
        deal = _deal(hands, 0, 0)
        ours, theirs, to, td = _timed(i % 2 == 0, lambda: solve_table(hands), lambda: calc_dd_table(deal))
        expected = np.array([[theirs[denoms[s], Player(d)] for d in range(4)] for s in range(5)])
        if not (ours == expected).all():
            _fail(f"deal {i} table: ours {ours.tolist()}, DDS {expected.tolist()}")
        searched = last_tricks()
        dds_tree = sum(_dds_solve(_deal(hands, s, leader), -1, 2 if leader else 1)[1] for s in range(5)
                       for leader in range(4))
        samples["table"].add(-1, to, td, (searched, dds_tree))
        if i >= args.singles:
            continue
        start = time.process_time()
        singles = np.array([[solve(hands, s, (d + 1) % 4, NS if d % 2 == 0 else EW) for d in range(4)]
                            for s in range(5)])
        samples["singles"].add(-1, time.process_time() - start, td)
        if not (singles == expected).all():
            _fail(f"deal {i} 20 single solves: ours {singles.tolist()}, DDS {expected.tolist()}")

    samples["max"].print("max tricks, one strain and leader (DDS SolveBoard)")
    samples["yes"].print("makes k, answer yes (DDS SolveBoard with a target)")
    samples["no"].print("makes k, answer no (DDS SolveBoard with a target)")
    samples["table"].print(f"table of 20 results, solve_table vs DDS CalcDDtable ({n_table} deals)", by_strain=False)
    if args.singles:
        samples["singles"].print("table of 20 results, 20 single solves vs DDS CalcDDtable", by_strain=False)

    _run_bids(args, seed)


def _run_bids(args, seed: int) -> None:
    if args.bids:
        from analyzer.games.rikken.dd import DEFAULT_BUDGET

        _bench_bids(args.bids, seed, DEFAULT_BUDGET if args.dd_budget is None else args.dd_budget)


def _bench_bids(n_deals: int, seed: int, budget: int) -> None:
    """CPU time of the DD outcomes of every setup the bids experiment plays on ``n_deals`` deals, each trick
    count within ``budget`` completed tricks, with the share of result rows left bounded.

    Every refining search (``solve_bounds``) is recorded with its completed tricks, so the run also
    tells, for each smaller budget, how many rows it would leave bounded: below the abort the search
    is the same whatever the budget.
    """
    from analyzer.games.rikken import dd
    from analyzer.games.rikken.experiments import build_setups, result_columns
    from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES
    from analyzer.games.rikken.summary import NOT_PLAYABLE
    from analyzer.solvers.dd.api import last_tricks

    searches = []
    solve_bounds = dd.solve_bounds

    def recorded(*args, **kwargs):
        bounds = solve_bounds(*args, **kwargs)
        searches.append((last_tricks(), bounds[0] < bounds[1]))
        return bounds

    dd.solve_bounds = recorded
    deals = random_deals(np.random.default_rng(seed + 1), n_deals)
    setups = build_setups(deals, np.zeros(n_deals, dtype=np.int64))
    # Compile (or load) the kernels before timing.
    dd.play_setups_dd({key: value[:1] for key, value in setups.items()}, 10)
    searches.clear()
    per_deal = []
    cells = bounded_cells = bounded_rows = 0
    for i in range(n_deals):
        rows = np.flatnonzero(setups["hand"] // 4 == i)
        deal_setups = {key: value[rows] for key, value in setups.items()}
        start = time.process_time()
        low, high = dd.play_setups_dd(deal_setups, budget)
        per_deal.append(time.process_time() - start)
        deal_setups["hand"] = deal_setups["hand"] % 4
        columns = result_columns(deal_setups, low, 4, high_tricks=high)
        for name in CONTRACT_CLI_NAMES:
            playable = columns[f"tricks_{name}"] != NOT_PLAYABLE
            cells += int(playable.sum())
            bounded_cells += int((playable & ~columns[f"exact_{name}"]).sum())
        bounded_rows += int((low != high).any(axis=1).sum())
        if (i + 1) % 10 == 0:
            print(f"bids: {i + 1} deals, mean {statistics.mean(per_deal):.2f}, max {max(per_deal):.2f} CPU s per deal, "
                  f"{bounded_rows} setups bounded", flush=True)
    dd.solve_bounds = solve_bounds
    print(f"\nbids --policy dd work, budget {budget:,} completed tricks per count: {n_deals} deals, "
          f"{setups['hand'].size} contract setups, CPU s per deal (one core): mean {statistics.mean(per_deal):.2f}, "
          f"median {statistics.median(per_deal):.2f}, p90 {_quantile(per_deal, 0.9):.2f}, "
          f"p99 {_quantile(per_deal, 0.99):.2f}, max {max(per_deal):.2f}")
    print(f"bounded: {bounded_rows} of {setups['hand'].size} setups, {bounded_cells} of {cells} result rows "
          f"(hand x contract) = {bounded_cells / max(cells, 1):.2%}; refining searches: {len(searches)}, "
          f"{sum(t for t, _ in searches):,} completed tricks")
    print("refining searches stopped at smaller budgets (same searches up to the abort):")
    for smaller in sorted({budget // 100, budget // 30, budget // 10, budget // 3, budget} - {0}):
        stopped = sum(1 for t, b in searches if b or t >= smaller)
        print(f"  budget {smaller:>13,}: {stopped} of {len(searches)} searches bounded, "
              f"{sum(min(t, smaller) for t, _ in searches):,} completed tricks")
    _print_slowest_setups(setups, int(np.argmax(per_deal)))


def _print_slowest_setups(setups: dict, deal: int) -> None:
    """Solve the slowest deal's setups once more one by one (no table shared) and print the three slowest."""
    from analyzer.games.rikken import rules
    from analyzer.games.rikken.dd import declarer_count, setup_declarer

    timed = []
    for i in np.flatnonzero(setups["hand"] // 4 == deal):
        bidder, contract, team = setup_declarer(setups, i)
        start = time.process_time()
        declarer_count(setups["hands"][i], int(setups["leader"][i]), int(setups["trump"][i]), team,
                       int(rules.KIND[contract]), int(setups["called_card"][i]), bool(setups["blind"][i]))
        timed.append((time.process_time() - start, rules.CONTRACT_NAMES[contract], "NESW"[bidder],
                      STRAINS[int(setups["trump"][i])]))
    slowest = ", ".join(f"{name} by {seat} ({strain}) {cpu:.2f} s" for cpu, name, seat, strain in sorted(timed)[::-1][:3])
    print(f"slowest deal ({deal}), its slowest setups solved alone: {slowest}")


if __name__ == "__main__":
    main()
