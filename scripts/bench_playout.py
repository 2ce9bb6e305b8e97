"""Benchmark: dealing and Rikken play-outs per CPU-second, side by side with the bare random-legal loop.

Run ``python scripts/bench_playout.py [--deals N] [--bids-deals M] [--seed S]``; a fresh seed is drawn
(and printed) unless ``--seed`` is given. Every kernel is warmed up (compiled) first; timings use
``time.process_time`` (CPU seconds of this process). All play-outs run over the same deals, so the
ratios compare like with like. The Rikken mix cycles through Rik (called ace or blind / king / no
call as the hand dictates), 8 Alone, 9 Alone and Misery, with the bidder at a rotating seat and
trumps his longest suit.

The last rows time one chunk of ``rikken bids`` with all contracts (``experiments.bids_chunk``, every
seat's hand set up for every contract it could declare) under ``--policy heuristic`` and ``--policy
expert`` on the same ``--bids-deals`` deals, heuristic and expert alternating twice, in deals per
CPU-minute; the expert's target is 5,000.
"""

import argparse
import time

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.dealing import deal_random
from analyzer.cards.deck import SUIT_MASKS
from analyzer.cards.masks import popcounts
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken.calling import choose_call
from analyzer.games.rikken.experiments import bids_chunk
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import POLICY_HEURISTIC, POLICY_RANDOM, playout_batch
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, NO_TRUMP, Contract
from analyzer.games.trick import bare_random_playout

TARGET_DEALS_PER_S = 5_000_000
TARGET_HEURISTIC_PER_S = 300_000
TARGET_RATIO = 0.3
TARGET_EXPERT_BIDS_PER_MIN = 5_000
MIX = (Contract.RIK, Contract.ALONE_8, Contract.ALONE_9, Contract.MISERY)


def rikken_setups(hands: np.ndarray) -> dict:
    """Round setups for the benchmark mix (see the module docstring)."""
    n = hands.shape[0]
    bidder = np.arange(n, dtype=np.int64) % 4
    contract = np.array([int(MIX[i % len(MIX)]) for i in range(n)], dtype=np.int64)
    own = hands[np.arange(n), bidder]
    trump = popcounts(own[:, None] & SUIT_MASKS[None, :]).argmax(axis=1).astype(np.int64)
    trump[contract == Contract.MISERY] = NO_TRUMP
    contract_of = np.full((n, 4), -1, dtype=np.int64)
    contract_of[np.arange(n), bidder] = contract
    partner = np.full(n, -1, dtype=np.int64)
    called = np.full(n, -1, dtype=np.int64)
    blind = np.zeros(n, dtype=np.int64)
    for i in np.flatnonzero(contract == Contract.RIK):
        card, is_blind = choose_call(int(own[i]), int(trump[i]))
        if card >= 0:
            called[i] = card
            blind[i] = int(is_blind)
            partner[i] = int(np.flatnonzero((hands[i] >> card) & 1)[0])
    return {"hands": hands, "leader": (bidder + 1) % 4, "contract_of": contract_of, "partner": partner,
            "trump": trump, "called_card": called, "blind": blind}


def rate(n: int, run, *args, **kwargs) -> float:
    """Items per CPU-second of ``run(*args, **kwargs)``."""
    start = time.process_time()
    run(*args, **kwargs)
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--bids-deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if args.seed is None:
        args.seed = int(np.random.SeedSequence().entropy % 10**6)
    n = args.deals

    warm = deal_random(64, 0)
    warm_setup = rikken_setups(warm)
    for policy in (POLICY_RANDOM, POLICY_HEURISTIC):
        playout_batch(**warm_setup, policy_of_seat=np.full(4, policy, np.int64), params=default_params(),
                      rng_state=state_from_seed(0), tricks_out=np.empty((64, 4), np.int64))
    bare_random_playout(warm, warm_setup["leader"], state_from_seed(0), np.empty((64, 4), np.int64))

    deals_rate = rate(n, deal_random, n, args.seed)
    hands = deal_random(n, args.seed)
    setup = rikken_setups(hands)
    out = np.empty((n, 4), dtype=np.int64)
    bare_rate = rate(n, bare_random_playout, hands, setup["leader"], state_from_seed(args.seed), out)
    rows = [("dealing (deal_random)", deals_rate, TARGET_DEALS_PER_S),
            ("bare random-legal loop", bare_rate, None)]
    for name, policy in (("rikken random play-out", POLICY_RANDOM), ("rikken heuristic play-out", POLICY_HEURISTIC)):
        value = rate(n, playout_batch, **setup, policy_of_seat=np.full(4, policy, np.int64), params=default_params(),
                     rng_state=state_from_seed(args.seed), tricks_out=out)
        rows.append((name, value, TARGET_HEURISTIC_PER_S if policy == POLICY_HEURISTIC else None))
    print(f"{n:,} deals, seed {args.seed}; rates per CPU-second (time.process_time)")
    print(f"{'measure':<28}{'per CPU-s':>14}{'x bare loop':>13}{'target':>22}  ok")
    for name, value, target in rows:
        ratio = value / bare_rate
        target_text = f"{target:,}" if target else ""
        ok = "" if target is None else ("yes" if value >= target else "NO")
        if name == "rikken heuristic play-out":
            target_text += f" & {TARGET_RATIO}x"
            ok = "yes" if value >= target and ratio >= TARGET_RATIO else "NO"
        print(f"{name:<28}{value:>14,.0f}{ratio:>12.2f}x{target_text:>22}  {ok}")
    bids_rows(args.bids_deals, args.seed)


def bids_rows(deals: int, seed: int) -> None:
    """Deals per CPU-minute of ``rikken bids`` with all contracts, heuristic and expert alternating twice."""
    contracts = list(range(len(CONTRACT_CLI_NAMES)))
    params = {policy: {"policy": policy, "dealing": "random", "contracts": contracts}
              for policy in ("heuristic", "expert")}
    for policy in params:  # warm-up: compile
        bids_chunk(params[policy], 0, 4, np.random.SeedSequence(0))
    seconds = {"heuristic": 0.0, "expert": 0.0}
    for _ in range(2):
        for policy in params:
            start = time.process_time()
            bids_chunk(params[policy], 0, deals, np.random.SeedSequence(seed))
            seconds[policy] += time.process_time() - start
    heuristic, expert = (2 * deals * 60 / seconds[p] for p in ("heuristic", "expert"))
    print(f"\nrikken bids, all contracts, {deals:,} deals x 2 each; deals per CPU-minute")
    print(f"{'measure':<28}{'per CPU-min':>14}{'x heuristic':>13}{'target':>22}  ok")
    print(f"{'bids --policy heuristic':<28}{heuristic:>14,.0f}{1:>12.2f}x{'':>22}")
    ok = "yes" if expert >= TARGET_EXPERT_BIDS_PER_MIN else "NO"
    print(f"{'bids --policy expert':<28}{expert:>14,.0f}{expert / heuristic:>12.4f}x"
          f"{TARGET_EXPERT_BIDS_PER_MIN:>22,}  {ok}")


if __name__ == "__main__":
    main()
