"""Seats in sparring runs against the outside engine, from the deals ``schnapsen_sparring.py --deals`` wrote.

Each Bummerl's winner follows from its deals (the engine's count: first to 7 game points). Prints, over one or
more CSV files (each a run of Bummerl pairs on the same deals with the seats swapped):

* our Bummerls won as the engine's player ONE (who deals first: TWO leads the first deal) and as TWO, each with
  a 95% Wilson interval, the difference with a 95% interval over the pairs, and the seat test
  (``seat_sign_test``: pairs won once, split by the seat that won both, exact binomial);
* the forehand's (who leads the deal's first trick) share of deals won and net game points a deal, over every
  deal, over the first deals of the Bummerls and over the later ones;
* our own deals won and net game points a deal as the forehand and as the dealer.

Usage: python scripts/schnapsen_seat_deals.py RUN.csv [RUN.csv ...]
"""

import argparse
import sys

import numpy as np
import pandas as pd

from analyzer.games.schnapsen import rules as R
from analyzer.reports.stats import mean_interval
from schnapsen_sparring import DEAL_COLUMNS, interval
from schnapsen_strength import seat_sign_test


def bummerls(deals: pd.DataFrame) -> pd.DataFrame:
    """One row per Bummerl (``run, pair, our_seat``) with ``won``: whether our bot won it, the seat that first
    reached 7 game points (a Bummerl cut short counts for nobody and is left out)."""
    rows = []
    for (run, pair, seat), g in deals.groupby(["run", "pair", "our_seat"], sort=True):
        totals = [int(g.loc[g["winner"] == s, "game_points"].sum()) for s in (0, 1)]
        if max(totals) >= R.MATCH_POINTS:
            rows.append({"run": run, "pair": pair, "our_seat": seat, "won": totals[seat] >= R.MATCH_POINTS})
    return pd.DataFrame(rows, columns=["run", "pair", "our_seat", "won"])


def net(points) -> str:
    """The mean of ``points`` with its 95% interval, signed."""
    mean, lo, hi = mean_interval(np.asarray(points, dtype=float))
    return f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def report(deals: pd.DataFrame) -> list[str]:
    """The lines the script prints for ``deals`` (the CSV rows with a ``run`` column)."""
    lines = []
    b = bummerls(deals).pivot_table(index=["run", "pair"], columns="our_seat", values="won").dropna().astype(bool)
    if len(b):
        one, two = b[0].to_numpy(), b[1].to_numpy()
        seat0, seat1, p = seat_sign_test(one, two)
        diff = net(one.astype(int) - two.astype(int))
        lines += [f"Bummerls won as ONE {interval(int(one.sum()), len(one))}, "
                  f"as TWO {interval(int(two.sum()), len(two))} "
                  f"({len(b)} whole pairs)",
                  f"ONE minus TWO {diff} of a Bummerl a pair; pairs won both times by ONE {seat0}, by TWO {seat1} "
                  f"(exact two-sided p {p:.3f})"]
    forehand_won = deals["winner"] == deals["leader"]
    forehand_points = np.where(forehand_won, deals["game_points"], -deals["game_points"])
    for label, mask in (("every deal", np.ones(len(deals), bool)), ("first deals", deals["deal"] == 0),
                        ("later deals", deals["deal"] > 0)):
        lines.append(f"forehand, {label}: won {interval(int(forehand_won[mask].sum()), int(mask.sum()))}, net game "
                     f"points a deal {net(forehand_points[mask])}")
    ours_won = deals["winner"] == deals["our_seat"]
    our_points = np.where(ours_won, deals["game_points"], -deals["game_points"])
    ours_lead = deals["leader"] == deals["our_seat"]
    for label, mask in (("forehand", ours_lead), ("dealer", ~ours_lead)):
        lines.append(f"our deals as {label}: won {interval(int(ours_won[mask].sum()), int(mask.sum()))}, "
                     f"net game points a deal {net(our_points[mask])}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="CSV files of schnapsen_sparring.py --deals")
    args = parser.parse_args()
    frames = []
    for k, path in enumerate(args.runs):
        try:
            frame = pd.read_csv(path)
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            print(f"error: cannot read {path}: {exc}", file=sys.stderr)
            sys.exit(2)
        if tuple(frame.columns) != DEAL_COLUMNS:
            print(f"error: {path} is not a --deals file of schnapsen_sparring.py (columns {', '.join(DEAL_COLUMNS)})",
                  file=sys.stderr)
            sys.exit(2)
        frames.append(frame.assign(run=k))
    print("\n".join(report(pd.concat(frames, ignore_index=True))))


if __name__ == "__main__":
    main()
