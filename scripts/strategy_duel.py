"""Prove a learned bidding strategy in full rounds: learned bidding at one seat against the hand-written
policy at the other three, rotated through N, E, S, W, paired with the all-rules baseline on the same deals.

Runs ``analyzer rikken play`` five times with the same seed, chunk size and round count (the deals are
the same): the baseline and one run per learned seat. Prints and writes (``duel_money.csv``,
``duel_contracts.csv``, ``duel.json`` in ``--out``) the learned seat's money per round against the same
seat's in the baseline, with 95% intervals of the paired differences, per seat and pooled, and its
contract mix and the pass-out rate against the baseline (``analyzer.games.rikken.strategy_duel``).

Usage: ``python3 scripts/strategy_duel.py STRATEGY --rounds 20000 [--seed S] [--chunk-size C] [--margin M] [--out DIR]``
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import pandas as pd

from analyzer.games.rikken.strategy_duel import contract_mix, money_table


def play(out: Path, args: argparse.Namespace, bidding: list[str] | None) -> pd.DataFrame:
    """One ``rikken play`` run (reused if ``out`` holds a complete one); its ``rounds/`` table."""
    manifest = out / "manifest.json"
    if not manifest.is_file() or json.loads(manifest.read_text()).get("status") != "complete":
        command = [sys.executable, "-m", "analyzer", "rikken", "play", "--rounds", str(args.rounds), "--seed",
                   str(args.seed), "--chunk-size", str(args.chunk_size), "--workers", str(args.workers), "--out",
                   str(out), "--json"]
        if bidding:
            command += ["--seat-bidding", ",".join(bidding), "--bidding-margin", str(args.margin)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return pd.read_parquet(out / "rounds")


def main() -> None:
    """Run the duel and report it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategy", help="strategy file of `analyzer rikken strategy fit`")
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per rotation (and of the baseline)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--margin", type=float, default=0.0, help="--bidding-margin of the learned seat")
    parser.add_argument("--chunk-size", type=int, default=20_000, help="rounds per chunk (the deals depend on it)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="results/strategy-duel")
    args = parser.parse_args()
    out = Path(args.out)
    started = time.time()
    baseline = play(out / "baseline", args, None)
    learned = {}
    for seat, letter in enumerate("NESW"):
        bidding = ["rules"] * 4
        bidding[seat] = f"learned:{Path(args.strategy).resolve()}"
        learned[seat] = play(out / f"learned-{letter}", args, bidding)
    money, mix = money_table(baseline, learned), contract_mix(baseline, learned)
    money.to_csv(out / "duel_money.csv", index=False)
    mix.to_csv(out / "duel_contracts.csv", index=False)
    summary = {"strategy": str(Path(args.strategy).resolve()), "rounds_per_rotation": args.rounds, "seed": args.seed,
               "chunk_size": args.chunk_size, "margin": args.margin, "seconds": round(time.time() - started, 1),
               "money": money.to_dict(orient="records"), "contracts": mix.to_dict(orient="records")}
    (out / "duel.json").write_text(json.dumps(summary, indent=2))
    pd.set_option("display.width", 160)
    print(f"seed {args.seed}, {args.rounds:,} rounds per rotation, margin {args.margin:g}: money per round of the "
          "learned seat against the same seat bidding by the rules (paired, 95% intervals)")
    print(money.to_string(index=False, float_format=lambda v: f"{v:+.4f}"))
    print("\nthe seat's declarations per round (all rotations) and the pass-out rate, learned against baseline")
    print(mix.to_string(index=False, float_format=lambda v: f"{v:+.4f}"))


if __name__ == "__main__":
    main()
