"""Benchmark: our double-dummy solver against DDS (through endplay), single-threaded, same deals.

For each seeded random deal, one strain and one leader (cycled over the deals), both solvers
answer (a) "how many tricks for the side on lead" and (b) "does the side on lead make k", with k
the true count for half the deals (answer yes) and one more for the other half (answer no).
Prints mean and median CPU milliseconds per solve and the our/DDS ratio for each question.

With ``--bids N`` it also times the double-dummy outcomes of every contract setup the Rikken
bids experiment builds for N deals (``play_setups_dd``, the work behind ``rikken bids --policy dd``).

Usage: python scripts/bench_dd.py [--deals 100] [--seed 1] [--bids 0]
"""

import argparse
import ctypes
import statistics
import time

import numpy as np

from analyzer.cards.pbn import format_deal
from analyzer.solvers.dd import solve

NS = 0b0101
EW = 0b1010


def _single_thread_dds():
    """endplay sets DDS to all cores on import; pin it to one thread for a fair comparison."""
    import endplay._dds as dds_ext

    lib = dds_ext._dll
    lib.SetThreading(ctypes.c_int(0))
    lib.SetMaxThreads(ctypes.c_int(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bids", type=int, default=0, help="also time DD outcomes of the bids setups of N deals")
    args = parser.parse_args()

    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    _single_thread_dds()
    denoms = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt]

    def _deal(hands, trump, leader):
        deal = Deal.from_pbn(format_deal(hands))
        deal.first = Player(leader)
        deal.trump = denoms[trump]
        return deal
    rng = np.random.default_rng(args.seed)
    deals = []
    for i in range(args.deals):
        cards = rng.permutation(52)
        hands = np.zeros(4, dtype=np.int64)
        for seat in range(4):
            for card in cards[13 * seat:13 * seat + 13]:
                hands[seat] |= np.int64(1) << int(card)
        deals.append((hands, i % 5, (i // 5) % 4))

    # Warm-up: compile (or load) the kernels of both questions before timing.
    solve(deals[0][0], deals[0][1], deals[0][2], NS if deals[0][2] % 2 == 0 else EW)
    solve(deals[0][0], deals[0][1], deals[0][2], NS if deals[0][2] % 2 == 0 else EW, goal="ge", k=7)

    # Two passes, so DDS never answers the yes/no question straight after solving the same deal
    # (it would reuse its cache from that solve).
    times = {"tricks": ([], []), "makes k": ([], [])}
    counts = []
    for i, (hands, trump, leader) in enumerate(deals):
        side = NS if leader % 2 == 0 else EW
        deal = _deal(hands, trump, leader)
        start = time.process_time()
        ours = solve(hands, trump, leader, side)
        times["tricks"][0].append(time.process_time() - start)
        start = time.process_time()
        theirs = max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
        times["tricks"][1].append(time.process_time() - start)
        if ours != theirs:
            raise SystemExit(f"disagreement on deal {i}: ours {ours}, DDS {theirs}")
        counts.append(theirs)
    for i, (hands, trump, leader) in enumerate(deals):
        side = NS if leader % 2 == 0 else EW
        deal = _deal(hands, trump, leader)
        # Yes-answers on even deals (k = the true count), no-answers on odd ones (k = one more).
        target = counts[i] if (i % 2 == 0 and counts[i] >= 1) or counts[i] == 13 else counts[i] + 1
        start = time.process_time()
        ours_makes = solve(hands, trump, leader, side, goal="ge", k=target)
        times["makes k"][0].append(time.process_time() - start)
        start = time.process_time()
        solved = solve_board(deal, SolveMode.TargetOne, target=target)
        times["makes k"][1].append(time.process_time() - start)
        theirs_makes = max((score for _, score in solved), default=-1) >= target
        if ours_makes != theirs_makes:
            raise SystemExit(f"disagreement on deal {i}, k={target}: ours {ours_makes}, DDS {theirs_makes}")

    print(f"{args.deals} deals, seed {args.seed}, single thread, CPU ms per solve")
    print(f"{'question':10} {'ours mean':>10} {'DDS mean':>10} {'ratio':>7} {'ours med':>10} {'DDS med':>10} {'ratio':>7}")
    for name, (ours_t, dds_t) in times.items():
        om, dm = 1000 * statistics.mean(ours_t), 1000 * statistics.mean(dds_t)
        omed, dmed = 1000 * statistics.median(ours_t), 1000 * statistics.median(dds_t)
        print(f"{name:10} {om:10.2f} {dm:10.2f} {om / dm:7.2f} {omed:10.2f} {dmed:10.2f} {omed / dmed:7.2f}")


    if args.bids:
        _bench_bids(args.bids, args.seed)


def _bench_bids(n_deals: int, seed: int) -> None:
    """CPU time of the DD outcomes of every setup the bids experiment plays on ``n_deals`` deals."""
    from analyzer.games.rikken.dd import play_setups_dd
    from analyzer.games.rikken.experiments import build_setups

    rng = np.random.default_rng(seed + 1)
    deals = np.zeros((n_deals, 4), dtype=np.int64)
    for i in range(n_deals):
        cards = rng.permutation(52)
        for seat in range(4):
            for card in cards[13 * seat:13 * seat + 13]:
                deals[i, seat] |= np.int64(1) << int(card)
    setups = build_setups(deals, np.zeros(n_deals, dtype=np.int64))
    per_deal = []
    for i in range(n_deals):
        rows = np.flatnonzero(setups["hand"] // 4 == i)
        start = time.process_time()
        play_setups_dd({key: value[rows] for key, value in setups.items()})
        per_deal.append(time.process_time() - start)
    print(f"bids --policy dd work: {n_deals} deals, {setups['hand'].size} contract setups, "
          f"mean {statistics.mean(per_deal):.2f} s, median {statistics.median(per_deal):.2f} s, "
          f"max {max(per_deal):.2f} s CPU per deal (one core)")


if __name__ == "__main__":
    main()
