"""Benchmark: Sloppy Seconds random and heuristic deals per CPU-second, against the bare random-legal loop.

Run ``python scripts/bench_seconds.py [--deals N] [--seed S]``. The anchor is
``analyzer.games.trick.bare_random_playout`` (4 players, 13 cards, follow suit, no scoring) on 4-player
deals; Sloppy Seconds deals are played whole (trump emergence, points, scoring) for 3, 4 and 6 players
by ``play_deals_kernel``, and once more for 4 players through ``simulate_deals`` (input checks and
allocation included, the path the experiments take). Every kernel is compiled on a small warm-up batch
first; timings use ``time.process_time`` (CPU seconds of this process). Target: heuristic >= 0.3x the
bare loop.
"""

import argparse
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.dealing import deal_random
from analyzer.cards.rng import state_from_seed
from analyzer.games.seconds.play import play_deals_kernel, simulate_deals
from analyzer.games.seconds.policies import POLICY_HEURISTIC, POLICY_RANDOM, params_array
from analyzer.games.seconds.rules import CARD_VALUES, SecondsRules
from analyzer.games.trick import bare_random_playout

TARGET_RATIO = 0.3


def rate(n: int, run) -> float:
    """Items per CPU-second of ``run()``."""
    start = time.process_time()
    run()
    return n / (time.process_time() - start)


def seconds_runner(deals: np.ndarray, policy: int, seed: int):
    """A closure playing all ``deals`` with ``policy`` at every seat (outputs preallocated and touched)."""
    n_deals, n = deals.shape
    rules = SecondsRules(n_players=n)
    leaders = np.arange(n_deals, dtype=np.int64) % n
    policies = np.full(n, policy, np.int64)
    params = params_array(n)
    # Filled, not just allocated: the first write to a fresh page faults, and on this machine those faults
    # took as long as a random play-out of the deal (about 1 us per deal, 0.3x -> 0.5x with them gone).
    scores = np.full((n_deals, n), -1, np.int64)
    taken = np.full((n_deals, n, 4), -1, np.int64)
    trump = np.full((n_deals, 2), -1, np.int64)
    history = np.full((n_deals, n * rules.hand_size), -1, np.int64)
    return lambda: play_deals_kernel(deals, leaders, policies, rules.trump_id, rules.minimum_id, CARD_VALUES,
                                     params, state_from_seed(seed), scores, taken, trump, history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.deals

    anchor_deals = deal_random(n, args.seed)
    leaders = np.arange(n, dtype=np.int64) % 4
    out = np.full((n, 4), -1, np.int64)
    bare_random_playout(anchor_deals[:64], leaders[:64], state_from_seed(0), out[:64])
    bare = rate(n, lambda: bare_random_playout(anchor_deals, leaders, state_from_seed(args.seed), out))

    rows = []
    for players in (3, 4, 6):
        deals = deal_random(n, args.seed, players, SecondsRules(n_players=players).deck)
        for name, policy in (("random", POLICY_RANDOM), ("heuristic", POLICY_HEURISTIC)):
            seconds_runner(deals[:64], policy, 0)()
            rows.append((f"seconds {players}p {name}", rate(n, seconds_runner(deals, policy, args.seed)),
                         policy == POLICY_HEURISTIC))
        if players == 4:
            rules = SecondsRules(n_players=4)
            wrapped = rate(n, lambda: simulate_deals(deals, leaders, [POLICY_HEURISTIC] * 4, rules, args.seed))
            rows.append(("simulate_deals 4p heuristic", wrapped, False))

    print(f"{n:,} deals, seed {args.seed}; deals per CPU-second (time.process_time)")
    print(f"{'measure':<26}{'per CPU-s':>14}{'x bare loop':>13}{'target':>9}  ok")
    print(f"{'bare random-legal loop':<26}{bare:>14,.0f}{1.0:>12.2f}x")
    for name, value, has_target in rows:
        ratio = value / bare
        target = f"{TARGET_RATIO}x" if has_target else ""
        ok = ("yes" if ratio >= TARGET_RATIO else "NO") if has_target else ""
        print(f"{name:<26}{value:>14,.0f}{ratio:>12.2f}x{target:>9}  {ok}")


if __name__ == "__main__":
    main()
