"""Defence strength of the Rikken bots on the same deals: heuristic, expert, sampled-dd and perfect (dd).

For each contract, ``--deals`` random deals; on deal ``d`` the hand of seat ``d mod 4`` is set up for the
contract as ``rikken bids`` sets it up (trump and call of the bidding policy), the seat left of the
dealer leading. Each pair of a bot of ``--declarers`` (default heuristic) for the declaring side and a bot
of ``--defenders`` for the others plays the same setups, each pair with the play stream of the run's
seed. Per pair: the make rate (95% Wilson interval), the declarer's money per deal (95% interval), the
paired difference of both against the first pair on the same deals, and the CPU seconds per deal.
``--worlds`` sets sampled-dd's worlds per decision, ``--sdd-trick-weight`` what keeping the side's double-dummy
trick count adds to a card's value in a world (``sampled_dd.TRICK_WEIGHT``; 0: the contracts only, no trick count
asked, the expert's card on their ties). ``dd`` seats see every card and assume perfect play (an
oracle: the bound the honest bots aim at); each of their turns' solver questions searches at most
``--dd-budget`` completed tricks (0: no limit). A round with a turn the budget left undecided
(``dd.playout_one_dd``) is not a perfect-play result: it counts as unknown, so its pair's rates, money and
differences are printed as bounds (``low..high``: every undecided round lost, then every one made; the
interval runs from the low end's lower limit to the high end's upper one) with the count of undecided
rounds; the difference of made rates is also printed on the rounds both pairs decided, with their count
(the rounds left out are the ones the solver found hardest: a subset, not every deal). ``--both-dd`` adds a
row with dd on both sides. Random hands rarely make Misery or an Alone
contract, so ``--screen K`` keeps, among ``K * --deals`` deals, those whose contract heuristic declarers
make against heuristic defenders: the contracts ordinary defence lets through (the first row is then
100% by construction, and the others say how many of them a stronger defence beats).

Long runs resume: with ``--out DIR`` each pair's rounds are played in chunks of ``--chunk`` deals, each
chunk with its own play stream (seed, contract, chunk) and saved to ``DIR`` as it ends; the same command
again reuses the saved chunks (an interrupted run loses at most the chunk in progress) and plays the rest.
A chunk's results do not depend on the others, so the table is the same however often the run stopped.
The chunks are played chunk by chunk across contracts and pairs (``--stride K --offset J``: the chunks
J, J + K, ..., so K processes can fill one ``DIR``); ``--saved-only`` prints the table of the chunks saved
so far for every pair of a contract, playing nothing. Which chunks are done depends on time only, never
on a round's result, so a table of some of them is a fair sample.
``DIR`` keeps the run's settings and the code digest; a different setting or code there is refused.

``--hand N=7532.6432.752.42 --leader N`` fixes the declarer's hand and the leader (the targeted case of
issue 39: Open Misery All with N leading).

Usage: ``python scripts/rikken_play_strength.py [--deals N] [--seed S] [--contracts misery,open-misery]
[--defenders heuristic,expert,sampled-dd,dd] [--declarers heuristic,expert] [--hand N=...] [--leader N]
[--both-dd] [--screen K] [--worlds W] [--sdd-trick-weight T] [--dd-budget B] [--out DIR] [--chunk C]
[--stride K --offset J] [--saved-only]``.
A fresh seed is drawn (and printed) unless ``--seed`` is given; times are CPU seconds of this process.
"""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.constraints import build_constraints
from analyzer.cards.dealing import deal_constrained, deal_random
from analyzer.cards.pbn import parse_seat
from analyzer.cards.rng import state_from_seed
from analyzer.experiments.code_digest import code_digest
from analyzer.games.rikken import bots, dd, rules, sampled_dd
from analyzer.games.rikken.experiments import build_setups, declaring_seats, result_columns
from analyzer.games.rikken.heuristic import default_params
from analyzer.reports.stats import mean_interval, paired_difference, wilson_interval

_KEYS = ("hands", "leader", "contract_of", "partner", "trump", "called_card", "blind")
# The module's own value, before --sdd-trick-weight sets it: the weight of runs saved before the option existed.
DEFAULT_TRICK_WEIGHT = sampled_dd.TRICK_WEIGHT


def setups_for(args, contract: int) -> dict:
    """The contract's setups (module notes): one hand per deal; with ``--screen``, the first ``--deals`` of
    ``--screen`` times as many whose contract heuristic declarers make against heuristic defenders."""
    seq = np.random.SeedSequence([args.seed, contract])
    count = args.deals * (args.screen or 1)
    if args.hand:
        seat = parse_seat(args.hand.split("=")[0])
        deals = deal_constrained(count, seq, build_constraints([args.hand], [], [], [], []))
        seats = np.full(count, seat)
    else:
        deals = deal_random(count, seq)
        seats = np.arange(count) % 4
    leader = np.full(count, args.leader) if args.leader is not None else (np.arange(count) + 1) % 4
    rows = [build_setups(deals[d:d + 1], leader[d:d + 1], [contract], [int(seats[d])], shared={})
            for d in range(count)]
    setups = {key: np.concatenate([r[key] for r in rows]) for key in rows[0]}
    keep = np.arange(len(rows))
    if args.screen:
        made, _ = outcome(setups, play(setups, "heuristic", "heuristic", args.seed)[0], contract)
        keep = np.flatnonzero(made)
    return {key: value[keep[:args.deals]] for key, value in setups.items()}


def play(setups: dict, declarer: str, defender: str, seed, worlds: int = bots.DEFAULT_WORLDS,
         dd_budget: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """Tricks per seat of every setup row, each row's undecided dd turns (module notes) and the CPU seconds."""
    ids = np.where(declaring_seats(setups["contract_of"], setups["partner"]), bots.policy_id(declarer),
                   bots.policy_id(defender)).astype(np.int64)
    n = setups["hands"].shape[0]
    tricks, undecided = np.zeros((n, 4), dtype=np.int64), np.zeros(n, dtype=np.int64)
    start = time.process_time()
    if "dd" in (declarer, defender):
        dd.playout_batch_dd(*(setups[key] for key in _KEYS), state_from_seed(seed), tricks, ids, default_params(),
                            dd_budget, undecided)
    else:
        bots.play_batch(*(setups[key] for key in _KEYS), ids, default_params(), state_from_seed(seed), tricks, worlds)
    return tricks, undecided, time.process_time() - start


def chunk_seed(seed: int, contract: int, chunk: int) -> np.random.SeedSequence:
    """The play stream of one chunk of deals: the same for every pair, independent of the other chunks."""
    return np.random.SeedSequence([seed, contract, chunk])


def chunk_path(args, contract: int, declarer: str, defender: str, chunk: int) -> Path:
    """Where one pair's chunk of rounds is saved in ``--out``."""
    return Path(args.out, f"{rules.CONTRACT_CLI_NAMES[contract]}-{declarer}-{defender}-{chunk}.npz")


def play_chunk(args, setups: dict, contract: int, declarer: str, defender: str, chunk: int) -> tuple:
    """One chunk of ``--chunk`` setup rows played by the pair (module notes), or read back from ``--out``:
    tricks, undecided turns and the CPU seconds it took when it was played."""
    path = chunk_path(args, contract, declarer, defender, chunk) if args.out else None
    if path is not None and path.exists():
        saved = np.load(path)
        return saved["tricks"], saved["undecided"], float(saved["seconds"])
    size = args.chunk if args.out else setups["hand"].size
    part = {key: value[chunk * size:(chunk + 1) * size] for key, value in setups.items()}
    # Without --out the whole run is one chunk played from the seed itself, as before chunks existed, so the
    # seeded commands in the docs still give their tables.
    seed = chunk_seed(args.seed, contract, chunk) if args.out else args.seed
    result = play(part, declarer, defender, seed, args.worlds, args.dd_budget)
    if path is not None:
        temporary = path.with_suffix(".tmp.npz")
        np.savez(temporary, tricks=result[0], undecided=result[1], seconds=result[2])
        os.replace(temporary, path)
    return result


def chunks_ready(args, n: int, contract: int, pairs: list) -> list[int]:
    """The chunks in the table: all of them, or with ``--saved-only`` or ``--stride`` (a run that fills some
    chunks only) those saved for every pair."""
    chunks = range(-(-n // args.chunk) if args.out else 1)
    if not args.saved_only and args.stride == 1:
        return list(chunks)
    return [c for c in chunks if all(chunk_path(args, contract, *pair, c).exists() for pair in pairs)]


def check_out(args) -> None:
    """Create ``--out`` with the run's settings, or check a resumed run's settings are the same (exit 2 if not)."""
    if not args.out:
        return
    settings = {key: getattr(args, key) for key in ("seed", "deals", "screen", "worlds", "sdd_trick_weight",
                                                    "dd_budget", "hand", "leader", "chunk")}
    # chunks played by other code (a budget's meaning, a bot's rule) must not mix with this code's
    settings["code"] = code_digest()[:16]
    path = Path(args.out, "settings.json")
    if path.exists():
        saved = {"sdd_trick_weight": DEFAULT_TRICK_WEIGHT, **json.loads(path.read_text())}
        if saved != settings:
            differ = ", ".join(f"{k} {saved.get(k)} -> {v}" for k, v in settings.items() if saved.get(k) != v)
            print(f"error: {args.out} holds a run with other settings ({differ})", file=sys.stderr)
            sys.exit(2)
        return
    Path(args.out).mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))


def outcome(setups: dict, tricks: np.ndarray, contract: int) -> tuple[np.ndarray, np.ndarray]:
    """Made (bool) and the declarer's money per setup row, as ``rikken bids`` scores them."""
    # Rows renumbered as hands 4 * row + bidder seat, so repeated deals (a fixed hand) stay apart.
    hand = 4 * np.arange(setups["hand"].size) + setups["hand"] % 4
    columns = result_columns({**setups, "hand": hand}, tricks, 4 * hand.size, [contract], shared={})
    name = rules.CONTRACT_CLI_NAMES[contract]
    return columns[f"made_{name}"][hand], columns[f"money_{name}"][hand].astype(float)


def extremes(setups: dict, contract: int) -> tuple[np.ndarray, ...]:
    """Per setup row, the lowest and highest made (0/1) and declarer's money any trick count could give."""
    rows = np.arange(setups["hand"].size)
    bidder = setups["hand"] % 4
    defender = np.array([next(s for s in range(4) if not team >> s & 1) for team in
                         (1 << bidder) | np.where(setups["partner"] >= 0, 1 << np.maximum(setups["partner"], 0), 0)])
    total = np.array([int(h[0]).bit_count() for h in setups["hands"]])
    made, money = [], []
    for count in range(14):
        tricks = np.zeros((rows.size, 4), dtype=np.int64)
        tricks[rows, bidder] = np.minimum(count, total)
        tricks[rows, defender] = total - tricks[rows, bidder]
        m, v = outcome(setups, tricks, contract)
        made.append(m.astype(float))
        money.append(v)
    return np.min(made, 0), np.max(made, 0), np.min(money, 0), np.max(money, 0)


def interval(mean: float, low: float, high: float, spec: str) -> str:
    """``mean [low, high]`` formatted with ``spec``."""
    return f"{mean:{spec}} [{low:{spec}}, {high:{spec}}]"


def ends_text(low_end, high_end, spec: str) -> str:
    """One ``(mean, low, high)`` or, when the two ends differ, ``mean..mean [low, high]`` across both."""
    if low_end == high_end:
        return interval(*low_end, spec)
    return f"{low_end[0]:{spec}}..{high_end[0]:{spec}} [{low_end[1]:{spec}}, {high_end[2]:{spec}}]"


def decided_difference(made: np.ndarray, unknown: np.ndarray, base_made: np.ndarray,
                       base_unknown: np.ndarray) -> str:
    """Made rate minus the first pair's (pp, paired) on the rounds both pairs decided, with their count.

    Parameters
    ----------
    made, base_made : np.ndarray
        Made (0/1) per setup row of this pair and of the first pair.
    unknown, base_unknown : np.ndarray
        Whether a dd turn the budget left undecided is in that row's round, for each pair.

    Returns
    -------
    str
        ``mean [low, high] (n)``, or ``- (0)`` when no round was decided by both. The rounds left out
        are the ones the solver found hardest, so this figure is of a subset, not of every deal.
    """
    decided = ~(unknown | base_unknown)
    if not decided.any():
        return "- (0)"
    diff = paired_difference(100.0 * made[decided], 100.0 * base_made[decided])
    return f"{interval(*diff, '+.1f')} ({int(decided.sum())})"


def main() -> None:
    """Parse the options and print one table row per contract and bot pair."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--contracts", default="misery,open-misery,1-alone,9-alone")
    parser.add_argument("--defenders", default="heuristic,expert,sampled-dd,dd")
    parser.add_argument("--declarers", "--declarer", default="heuristic")
    parser.add_argument("--worlds", type=int, default=bots.DEFAULT_WORLDS)
    parser.add_argument("--sdd-trick-weight", type=float, default=DEFAULT_TRICK_WEIGHT,
                        help="sampled-dd's value of keeping the trick count in a world (0: the contracts only)")
    parser.add_argument("--hand", default=None)
    parser.add_argument("--leader", default=None, type=parse_seat)
    parser.add_argument("--both-dd", action="store_true")
    parser.add_argument("--dd-budget", type=int, default=dd.DECISION_BUDGET,
                        help="completed tricks per solver question of a dd turn (0: no limit)")
    parser.add_argument("--screen", type=int, default=0,
                        help="keep deals whose contract heuristic play makes, from this many times --deals")
    parser.add_argument("--out", default=None, help="folder of saved chunks: the same command resumes there")
    parser.add_argument("--chunk", type=int, default=10, help="deals per saved chunk (with --out)")
    parser.add_argument("--stride", type=int, default=1, help="play every stride-th chunk (parallel runs)")
    parser.add_argument("--offset", type=int, default=0, help="the first chunk this run plays (with --stride)")
    parser.add_argument("--saved-only", action="store_true",
                        help="play nothing: the table of the chunks --out holds for every pair")
    args = parser.parse_args()
    if min(args.chunk, args.deals, args.stride) < 1 or args.offset < 0:
        parser.error("--deals, --chunk and --stride must be at least 1, --offset at least 0")
    if (args.saved_only or args.stride > 1) and not args.out:
        parser.error("--saved-only and --stride need --out (the folder of saved chunks)")
    if not math.isfinite(args.sdd_trick_weight) or args.sdd_trick_weight < 0:
        print(f"error: --sdd-trick-weight must be a number of at least 0, not {args.sdd_trick_weight}", file=sys.stderr)
        sys.exit(2)
    sampled_dd.TRICK_WEIGHT = args.sdd_trick_weight
    if args.seed is None:
        if args.out and Path(args.out, "settings.json").exists():
            args.seed = json.loads(Path(args.out, "settings.json").read_text())["seed"]
        else:
            args.seed = int(np.random.SeedSequence().entropy % 10**6)
    check_out(args)
    defenders = args.defenders.split(",")
    declarers = args.declarers.split(",")
    print(f"seed {args.seed}; {args.deals} deals per contract"
          + (f" (screened: made by heuristic play, among {args.screen}x as many)" if args.screen else "")
          + f"; declarers {args.declarers}; {args.worlds} worlds (x{sampled_dd.OPEN_MISERY_WORLDS_FACTOR} by Open "
            f"Misery's defenders), sampled-dd trick weight {args.sdd_trick_weight:g}"
          + (f"; hand {args.hand}" if args.hand else "")
          + (f"; leader {args.leader}" if args.leader is not None else ""))
    pairs = [(a, d) for a in declarers for d in defenders] + ([("dd", "dd")] if args.both_dd else [])
    contracts = [int(rules.parse_contract(text)) for text in args.contracts.split(",")]
    setups_of = {contract: setups_for(args, contract) for contract in contracts}
    if args.out and not args.saved_only:
        # Chunk by chunk across contracts and pairs: a run stopped early holds as many deals of each.
        for chunk in range(args.offset, -(-args.deals // args.chunk), args.stride):
            for contract in contracts:
                if chunk * args.chunk < setups_of[contract]["hand"].size:
                    for pair in pairs:
                        play_chunk(args, setups_of[contract], contract, *pair, chunk)
    first = f"{declarers[0]} / {defenders[0]}"
    print("| contract | declarer / defenders | made % [95%] | declarer money / deal [95%] | "
          f"made - {first} (pp) | the same, rounds both decided (n) | money - {first} | CPU s / deal |")
    print("|---|---|---|---|---|---|---|---|")
    for text, contract in zip(args.contracts.split(","), contracts):
        setups = setups_of[contract]
        ready = chunks_ready(args, setups["hand"].size, contract, pairs)
        if args.out:
            rows = np.concatenate([np.arange(c * args.chunk, (c + 1) * args.chunk) for c in ready] or [[]])
            rows = rows[rows < setups["hand"].size].astype(np.int64)
            chunked, setups = setups, {key: value[rows] for key, value in setups.items()}
        n = setups["hand"].size
        if n == 0:
            print(f"| {text} | no deal passed the screen or no chunk saved for every pair |")
            continue
        bounds = extremes(setups, contract)
        base = None
        for declarer, defender in pairs:
            played = [play_chunk(args, chunked if args.out else setups, contract, declarer, defender, c)
                      for c in ready]
            tricks, undecided = (np.concatenate([p[i] for p in played]) for i in (0, 1))
            seconds = sum(p[2] for p in played)
            made, money = outcome(setups, tricks, contract)
            unknown = undecided > 0
            # Each end: every undecided round at its worst, then at its best, for the declarer.
            ends = [(np.where(unknown, bounds[0], made), np.where(unknown, bounds[2], money)),
                    (np.where(unknown, bounds[1], made), np.where(unknown, bounds[3], money))]
            rates = [(100 * m.mean(), *(100 * x for x in wilson_interval(int(m.sum()), n))) for m, _ in ends]
            row = [text, f"{declarer} / {defender}" + (f" ({int(unknown.sum())} undecided)" if unknown.any() else ""),
                   ends_text(*rates, ".1f"), ends_text(*(mean_interval(v) for _, v in ends), "+.2f")]
            if base is None:
                base, base_made, base_unknown = ends, made, unknown
                row += ["", "", ""]
            else:
                row += [ends_text(*(paired_difference(100.0 * m, 100.0 * b[0]) for (m, _), b in zip(ends, base[::-1])),
                                  "+.1f"),
                        decided_difference(made, unknown, base_made, base_unknown),
                        ends_text(*(paired_difference(v, b[1]) for (_, v), b in zip(ends, base[::-1])), "+.2f")]
            row.append(f"{seconds / n:.2f}")
            print("| " + " | ".join(row) + " |", flush=True)

if __name__ == "__main__":
    main()
