"""Sampled-dd defence with and without the bidding filter on its worlds (``sampled_dd.fits_the_bidding``).

Per contract, deals whose declarer's hand the bidding policy bids the contract with
(``bidding.qualifying_contracts``: the deals where the filter's premise holds), the seat ``d mod 4``
declaring with the heuristic and the seat left of the dealer leading, or with ``--hand`` the declarer's
hand fixed; sampled-dd defenders play each deal twice on the same play stream, with the filter
(``--tries`` draws a world, set as ``sampled_dd.BID_TRIES``) and without (the anchor). Prints both make
rates (95% Wilson intervals), their paired difference (95% interval), the declarer's money likewise and
the CPU seconds per deal.

Usage: ``python scripts/rikken_bid_filter.py [--deals N] [--seed S] [--contracts misery,...] [--hand N=...]
[--leader N] [--tries T]``; a fresh seed is drawn (and printed) unless ``--seed`` is given.
"""

import argparse
from types import SimpleNamespace

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.pbn import parse_seat
from analyzer.games.rikken import rules, sampled_dd
from analyzer.games.rikken.bidding import qualifying_contracts
from analyzer.reports.stats import paired_difference, wilson_interval
from rikken_play_strength import interval, outcome, play, setups_for

# Random hands per wanted deal: about 1 in 40 random hands is bid Misery, fewer the rarer contracts.
DRAWN_PER_DEAL = 80
FILTER_TRIES = 100


def bid_setups(args, contract: int) -> dict:
    """The first ``--deals`` setups whose declarer's hand qualifies for the contract (module notes)."""
    wanted = args.deals if args.hand else args.deals * DRAWN_PER_DEAL
    setups = setups_for(SimpleNamespace(seed=args.seed, deals=wanted, screen=0, hand=args.hand, leader=args.leader),
                        contract)
    rows = np.arange(setups["hand"].size)
    bidder = setups["hand"] % 4
    keep = [r for r in rows if contract in qualifying_contracts(int(setups["hands"][r, bidder[r]]))][:args.deals]
    return {key: value[keep] for key, value in setups.items()}


def played(setups: dict, seed: int, contract: int, tries: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Made, the declarer's money and the CPU seconds with ``sampled_dd.BID_TRIES`` set to ``tries``."""
    saved = sampled_dd.BID_TRIES
    sampled_dd.BID_TRIES = tries
    try:
        tricks, _, seconds = play(setups, "heuristic", "sampled-dd", seed)
    finally:
        sampled_dd.BID_TRIES = saved
    made, money = outcome(setups, tricks, contract)
    return made.astype(float), money, seconds


def main() -> None:
    """Parse the options and print one row per contract."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--contracts", default="misery")
    parser.add_argument("--hand", default=None)
    parser.add_argument("--leader", default=None, type=parse_seat)
    parser.add_argument("--tries", type=int, default=FILTER_TRIES, help="draws a world with the filter")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = int(np.random.SeedSequence().entropy % 10**6)
    print(f"seed {args.seed}; up to {args.deals} deals per contract, declarer's hand bid the contract; "
          f"heuristic declarer, sampled-dd defence; filter {args.tries} tries a world against none")
    print("| contract | deals | made %: no filter / filter [95%] | made, paired (pp) | money, paired | CPU s / deal |")
    print("|---|---|---|---|---|---|")
    for text in args.contracts.split(","):
        contract = int(rules.parse_contract(text))
        setups = bid_setups(args, contract)
        n = setups["hand"].size
        if n == 0:
            print(f"| {text} | 0 | no hand qualified |")
            continue
        base_made, base_money, base_cpu = played(setups, args.seed, contract, 0)
        made, money, cpu = played(setups, args.seed, contract, args.tries)
        rates = [interval(100 * m.mean(), *(100 * x for x in wilson_interval(int(m.sum()), n)), ".1f")
                 for m in (base_made, made)]
        print(f"| {text} | {n} | {rates[0]} / {rates[1]} "
              f"| {interval(*paired_difference(100 * made, 100 * base_made), '+.1f')} "
              f"| {interval(*paired_difference(money, base_money), '+.2f')} "
              f"| {base_cpu / n:.2f} / {cpu / n:.2f} |", flush=True)


if __name__ == "__main__":
    main()
