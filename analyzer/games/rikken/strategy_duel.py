"""Learned bidding at one seat against the hand-written policy, paired with the all-rules baseline.

Five ``rikken play`` runs share the seed, chunk size and round count, hence the deals: the baseline
(every seat bids by the rules) and one run per seat N, E, S, W bidding with the learned strategy. The
learned seat's money in a round is compared with the same seat's money in the baseline round of the
same deal; the four rotations' differences of a deal are averaged before the interval is taken, so
the interval counts each deal once.
"""

import numpy as np
import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES
from analyzer.reports.stats import mean_interval


def _columns(rounds: pd.DataFrame, seat: int) -> tuple[np.ndarray, np.ndarray]:
    ordered = rounds.sort_values("round")
    return ordered[f"money_{seat}"].to_numpy(np.float64), ordered[f"contract_{seat}"].to_numpy(np.int64)


def money_table(baseline: pd.DataFrame, learned: dict[int, pd.DataFrame]) -> pd.DataFrame:
    """Money per round of each learned seat against the same seat in the baseline, paired by round.

    Parameters
    ----------
    baseline : pandas.DataFrame
        ``rounds/`` of the all-rules run.
    learned : dict
        Seat (0..3) -> ``rounds/`` of the run where that seat bids with the learned strategy.

    Returns
    -------
    pandas.DataFrame
        One row per seat and a ``pooled`` row (the mean over seats of each deal's difference): ``rounds``,
        ``learned`` and ``baseline`` mean money, ``diff`` with ``diff_lo`` / ``diff_hi`` (95%).
    """
    rows, diffs = [], []
    for seat, rounds in sorted(learned.items()):
        ours, base = _columns(rounds, seat)[0], _columns(baseline, seat)[0]
        if ours.size != base.size:
            raise ValueError("the learned and baseline runs must hold the same rounds")
        diff, lo, hi = mean_interval(ours - base)
        rows.append({"seat": SEAT_LETTERS[seat], "rounds": ours.size, "learned": ours.mean(), "baseline": base.mean(),
                     "diff": diff, "diff_lo": lo, "diff_hi": hi})
        diffs.append(ours - base)
    pooled = np.mean(diffs, axis=0)
    diff, lo, hi = mean_interval(pooled)
    rows.append({"seat": "pooled", "rounds": pooled.size, "learned": np.mean([r["learned"] for r in rows]),
                 "baseline": np.mean([r["baseline"] for r in rows]), "diff": diff, "diff_lo": lo, "diff_hi": hi})
    return pd.DataFrame(rows)


def contract_mix(baseline: pd.DataFrame, learned: dict[int, pd.DataFrame]) -> pd.DataFrame:
    """What the learned seat declares, per round, against the same seat in the baseline (all rotations
    together), and how often each table is passed out.

    Returns
    -------
    pandas.DataFrame
        ``contract`` (and ``passed-out``, ``declares anything``), ``learned`` and ``baseline`` shares of
        rounds, ``diff`` with a 95% interval of the paired per-round difference (averaged over seats).
    """
    rows = []
    codes = {"declares anything": None, **{name: code for code, name in enumerate(CONTRACT_CLI_NAMES)}}
    for name, code in codes.items():
        ours, base = [], []
        for seat, rounds in sorted(learned.items()):
            contract_ours, contract_base = _columns(rounds, seat)[1], _columns(baseline, seat)[1]
            ours.append(contract_ours >= 0 if code is None else contract_ours == code)
            base.append(contract_base >= 0 if code is None else contract_base == code)
        ours, base = np.mean(ours, axis=0), np.mean(base, axis=0)
        if ours.any() or base.any():
            diff, lo, hi = mean_interval(ours - base)
            rows.append({"contract": name, "learned": ours.mean(), "baseline": base.mean(), "diff": diff,
                         "diff_lo": lo, "diff_hi": hi})
    ours = np.mean([r.sort_values("round")["passed_out"].to_numpy(np.float64) for _, r in sorted(learned.items())],
                   axis=0)
    base = baseline.sort_values("round")["passed_out"].to_numpy(np.float64)
    diff, lo, hi = mean_interval(ours - base)
    rows.append({"contract": "passed-out", "learned": ours.mean(), "baseline": base.mean(), "diff": diff,
                 "diff_lo": lo, "diff_hi": hi})
    return pd.DataFrame(rows)
