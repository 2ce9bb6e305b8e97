"""sampled-dd's defence of Open Misery (or ``--contract``) under its variants, on the same screened deals and
play streams: a second, larger budget for the worlds whose questions stopped (``sampled_dd.RETRY_BUDGET``,
``--retry``), the worlds per decision (``--worlds``; ``--open-misery-factor``: ``sampled_dd.OPEN_MISERY_WORLDS_FACTOR``,
1 for the bot before session 18) and the Open Misery play-out tie-break
(``sampled_dd.PLAYOUTS``, ``--playouts 0`` switches it off; ``--playout-worlds K``: ``sampled_dd.PLAYOUT_WORLDS``);
``--defence dd`` plays the same deals against perfect defence instead (``dd.playout_batch_dd``, ``--dd-budget``
completed tricks a question; a deal with a turn the budget left undecided is printed ``undecided 1`` and is not a
perfect-play result). ``--declarer dd``: a perfect misère declarer (``misery_declarer.misery_declarer_card``,
``--dd-budget`` a turn) against sampled-dd defenders, or with ``--defence dd`` perfect play on both sides.

The deals are those of ``rikken_play_strength.py --seed S --deals N --screen K --contracts open-misery``
(Open Misery hands the heuristic declarer makes against heuristic defenders); deal ``d`` is played with
the stream ``state_from_seed([S, d])``, heuristic declarer (``--declarer expert``: the expert), sampled-dd
defenders (``--worlds``, 8 by default, ``QUESTION_BUDGET`` a question), the variant's settings (the defaults:
the bot as it is). One line per deal as it ends (made or not, CPU seconds), then the deals made (95% Wilson
interval) and the CPU seconds per deal of this process. Run it once per variant, in parallel if you like, and
pair the per-deal lines (``--pair A B``: the two outputs' paired difference and discordant deals).
``--offset J --stride K``: only the deals J, J + K, ... (several processes on one variant; pair the
concatenated outputs).

Usage: ``python scripts/rikken_sdd_retry.py [--seed 88123] [--deals 25] [--screen 40] [--contract open-misery]
[--retry 8000000] [--worlds 8] [--playouts 0] [--playout-worlds K] [--declarer expert|dd] [--defence dd]
[--dd-budget B] [--offset J --stride K]`` or
``python scripts/rikken_sdd_retry.py --pair BASE.out OTHER.out``.
"""

import argparse
import sys
import time
from types import SimpleNamespace

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.rikken import bots, dd, rules, sampled_dd
from analyzer.games.rikken.misery_declarer import misery_declarer_card
from analyzer.games.rikken.experiments import declaring_seats
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.reports.stats import paired_difference, wilson_interval
from rikken_play_strength import _KEYS, outcome, setups_for


def round_against_perfect_declarer(setup: dict, d: int, rng_state: np.ndarray, worlds: int,
                                   budget: int) -> tuple[np.ndarray, int]:
    """Deal ``d`` of ``setups`` played out by sampled-dd defenders against ``misery_declarer_card``; the
    tricks per seat and the declarer's undecided turns."""
    contract_of = setup["contract_of"][d]
    st = new_round(setup["hands"][d], int(setup["leader"][d]), contract_of, int(setup["partner"][d]),
                   int(setup["trump"][d]), int(setup["called_card"][d]), int(setup["blind"][d]))
    params, ours, theirs, undecided = default_params(), {}, {}, 0
    while int(st[L.HAND + int(st[L.TURN])]) != 0:
        seat = int(st[L.TURN])
        up, fd = legal_actions(st, seat)
        if int(contract_of[seat]) >= 0:
            action, stopped = misery_declarer_card(st, seat, int(up), int(fd), theirs, budget, rng_state)
            undecided += stopped
        else:
            action = sampled_dd.choose_sampled(st, seat, int(up), int(fd), params, rng_state, ours, worlds)
        apply_action(st, seat, action)
    return st[L.TRICKS:L.TRICKS + 4].copy(), undecided


def play_deals(setups: dict, seed: int, contract: int, deals: range, worlds: int, defence: str = "sampled-dd",
               dd_budget: int = 0, declarer: str = "heuristic") -> None:
    """Play each deal and print ``deal D made M cpu S`` (``undecided U`` after it where a side is dd); then the
    total."""
    ids = np.where(declaring_seats(setups["contract_of"], setups["partner"]), bots.policy_id(declarer),
                   bots.policy_id(defence)).astype(np.int64)
    perfect = "dd" in (defence, declarer)
    made, total, unknown = [], 0.0, 0
    for d in deals:
        tricks, undecided = np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.int64)
        start = time.process_time()
        rows = (setups[key][d:d + 1] for key in _KEYS)
        if defence == "dd":
            dd.playout_batch_dd(*rows, state_from_seed([seed, d]), tricks, ids[d:d + 1], default_params(),
                                dd_budget, undecided)
        elif declarer == "dd":
            tricks[0], undecided[0] = round_against_perfect_declarer(setups, d, state_from_seed([seed, d]), worlds,
                                                                     dd_budget)
        else:
            bots.play_batch(*rows, ids[d:d + 1], default_params(), state_from_seed([seed, d]), tricks, worlds)
        seconds = time.process_time() - start
        total += seconds
        unknown += int(undecided[0] > 0)
        one = {key: value[d:d + 1] for key, value in setups.items()}
        made.append(bool(outcome(one, tricks, contract)[0][0]))
        print(f"deal {d} made {int(made[-1])} cpu {seconds:.2f}"
              + (f" undecided {int(undecided[0] > 0)}" if perfect else ""), flush=True)
    n = len(made)
    low, high = wilson_interval(sum(made), n)
    print(f"made {sum(made)} of {n} ({100 * sum(made) / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]); "
          f"{total / n:.2f} CPU-s a deal" + (f"; {unknown} undecided" if perfect else ""), flush=True)


def read_deals(path: str) -> tuple[dict[int, bool], int]:
    """The ``deal D made M`` lines of one output, without the deals a dd defence left undecided (not
    perfect-play results), and how many those were."""
    rows = [line.split() for line in open(path) if line.startswith("deal ")]
    decided = [r for r in rows if "undecided" not in r or r[r.index("undecided") + 1] == "0"]
    return {int(r[1]): r[3] == "1" for r in decided}, len(rows) - len(decided)


def pair(base_path: str, other_path: str) -> None:
    """The paired difference of two outputs on the deals both finished (and a dd defence decided)."""
    (base, base_undecided), (other, other_undecided) = read_deals(base_path), read_deals(other_path)
    deals = sorted(set(base) & set(other))
    a = np.array([base[d] for d in deals], dtype=bool)
    b = np.array([other[d] for d in deals], dtype=bool)
    diff = paired_difference(100.0 * b, 100.0 * a)
    beaten = [d for d, x, y in zip(deals, a, b) if x and not y]
    let_through = [d for d, x, y in zip(deals, a, b) if y and not x]
    print(f"{len(deals)} deals: made {int(a.sum())} -> {int(b.sum())}; paired {diff[0]:+.1f} pp "
          f"[{diff[1]:+.1f}, {diff[2]:+.1f}]; beaten only by the second {beaten}, made only against it {let_through}; "
          f"left out as undecided: {base_undecided} and {other_undecided}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=88123)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--screen", type=int, default=40)
    parser.add_argument("--contract", default="open-misery")
    parser.add_argument("--retry", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=sampled_dd.WORLDS)
    parser.add_argument("--playouts", type=int, choices=(0, 1), default=1)
    parser.add_argument("--playout-worlds", type=int, default=sampled_dd.PLAYOUT_WORLDS)
    parser.add_argument("--open-misery-factor", type=int, default=sampled_dd.OPEN_MISERY_WORLDS_FACTOR,
                        help="an Open Misery's defenders solve this many times --worlds (1: --worlds)")
    parser.add_argument("--declarer", choices=("heuristic", "expert", "dd"), default="heuristic")
    parser.add_argument("--defence", choices=("sampled-dd", "dd"), default="sampled-dd")
    parser.add_argument("--dd-budget", type=int, default=dd.DECISION_BUDGET)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--pair", nargs=2, metavar=("BASE", "OTHER"), help="pair two outputs of this script")
    args = parser.parse_args()
    if args.pair:
        pair(*args.pair)
        return
    counts = (args.retry, args.offset, args.dd_budget, args.playout_worlds)
    if min(counts) < 0 or min(args.stride, args.worlds, args.open_misery_factor) < 1:
        print("error: --retry, --offset, --dd-budget and --playout-worlds must be at least 0, "
              "--stride, --worlds and --open-misery-factor at least 1", file=sys.stderr)
        sys.exit(2)
    try:
        contract = int(rules.parse_contract(args.contract))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    if args.declarer == "dd" and args.defence != "dd" and rules.KIND[contract] != rules.Kind.MISERY:
        print(f"error: --declarer dd against sampled-dd plays a misère only, not {args.contract}", file=sys.stderr)
        sys.exit(2)
    sampled_dd.RETRY_BUDGET = args.retry
    sampled_dd.PLAYOUTS = bool(args.playouts)
    sampled_dd.PLAYOUT_WORLDS = args.playout_worlds
    sampled_dd.OPEN_MISERY_WORLDS_FACTOR = args.open_misery_factor
    setups = setups_for(SimpleNamespace(seed=args.seed, deals=args.deals, screen=args.screen, hand=None, leader=None),
                        contract)
    if args.defence == "dd":
        print(f"seed {args.seed}: {setups['hand'].size} screened {args.contract} deals; dd defence, question budget "
              f"{args.dd_budget:,}, {args.declarer} declarer", flush=True)
    else:
        print(f"seed {args.seed}: {setups['hand'].size} screened {args.contract} deals; sampled-dd defence, question "
              f"budget {sampled_dd.QUESTION_BUDGET:,}, retry budget {args.retry:,}, "
              f"{args.worlds} worlds (x{args.open_misery_factor} against an Open Misery), play-outs {args.playouts} "
              f"(worlds +{args.playout_worlds}), {args.declarer} declarer", flush=True)
    play_deals(setups, args.seed, contract, range(args.offset, setups["hand"].size, args.stride), args.worlds,
               args.defence, args.dd_budget, args.declarer)


if __name__ == "__main__":
    main()
