"""Paired comparison of two Rikken runs on the same deals (``analyzer rikken compare RUN_A RUN_B``).

Two runs of ``rikken bids`` (or of ``rikken play``) with the same seed, chunk size, count and random
dealing hold the same deals whatever their card-play policies: the deals come from their own seed
streams. Each hand (bids) or round (play) is then one pair, and a difference B - A is the mean of the
per-pair differences, with the normal 95% interval of that mean. Pairing removes the deal-to-deal
spread that an unpaired comparison (``analyzer report RUN_A RUN_B``) carries in its intervals.

Bids: per contract, over the hands that can declare it in both runs, made rate, declarer's money and
the declaring side's tricks. Play: per contract, over its declarations (the auction does not depend on
the card play, so both runs declare the same contracts), made rate and the declarer's money; per seat,
the mean score per round in both modes.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.errors import InputError
from analyzer.games.rikken.experiments import DEAL_COLUMNS
from analyzer.games.rikken.pairing import ROWS, check_pairable
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES
from analyzer.games.rikken.summary import NOT_PLAYABLE
from analyzer.reports.integrity import verified_parts
from analyzer.reports.manifest import read_manifest
from analyzer.reports.stats import moments_interval

KEYS = {"rikken-bids": ["deal", "seat"], "rikken-play": ["round"]}


def _paired(a: np.ndarray, b: np.ndarray, name: str, a_high=None, b_high=None) -> dict:
    """``<name>_a``, ``<name>_b`` means and the mean of ``b - a`` with its interval (``<name>_diff/lo/hi``).

    ``a`` and ``b`` hold the low ends of bounded values (a dd run's stopped counts); ``a_high``, ``b_high``
    their high ends (None: exact). The interval then runs from the low end of ``b_low - a_high`` to the
    high end of ``b_high - a_low``, so it can never look more certain than the searches were."""
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    a_high = a if a_high is None else a_high.astype(np.float64)
    b_high = b if b_high is None else b_high.astype(np.float64)
    d, d_low, d_high = b - a, b - a_high, b_high - a
    diff = moments_interval(d.size, d.sum(), (d * d).sum())[0]
    low = moments_interval(d.size, d_low.sum(), (d_low * d_low).sum())[1]
    high = moments_interval(d.size, d_high.sum(), (d_high * d_high).sum())[2]
    return {f"{name}_a": a.mean() if a.size else np.nan, f"{name}_b": b.mean() if b.size else np.nan,
            f"{name}_diff": diff, f"{name}_lo": low, f"{name}_hi": high}


def _read(root: Path, experiment: str, columns: list[str], optional: tuple[str, ...] = ()) -> pd.DataFrame:
    """The run's rows with ``columns``, and those of ``optional`` its rows hold, in key order."""
    keys = KEYS[experiment]
    files = verified_parts(root, ROWS[experiment], read_manifest(root))
    try:
        present = set(pq.read_schema(files[0]).names) if files else set()
        wanted = keys + columns + [c for c in optional if c in present]
        frame = pd.concat([pd.read_parquet(f, columns=wanted) for f in files], ignore_index=True)
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"{root}: cannot read its {ROWS[experiment]}/ rows ({type(exc).__name__})") from None
    return frame.sort_values(keys, ignore_index=True)


def compare_runs(run_a, run_b) -> tuple[str, dict[str, pd.DataFrame]]:
    """Paired differences B - A of two Rikken runs on the same deals (see the module notes).

    Parameters
    ----------
    run_a, run_b : path-like
        Complete run directories of one experiment, ``rikken-bids`` or ``rikken-play``.

    Returns
    -------
    (str, dict of str to pandas.DataFrame)
        The experiment and its tables: ``contracts`` (bids and play) and ``seats`` (play). Each
        measure ``m`` has columns ``m_a``, ``m_b``, ``m_diff`` and the 95% interval ``m_lo``, ``m_hi``.

    Raises
    ------
    InputError
        If the runs are not of one Rikken experiment, not complete, or not on the same deals.
    """
    root_a, root_b = Path(run_a), Path(run_b)
    experiment = check_pairable(root_a, root_b)
    deals_a = _read(root_a, experiment, list(DEAL_COLUMNS))
    if not deals_a.equals(_read(root_b, experiment, list(DEAL_COLUMNS))):
        raise InputError("the runs do not hold the same deals")
    if experiment == "rikken-bids":
        return experiment, {"contracts": _bids_contracts(root_a, root_b)}
    return experiment, _play_tables(root_a, root_b)


def _bids_contracts(root_a: Path, root_b: Path) -> pd.DataFrame:
    params = [read_manifest(root)["params"] for root in (root_a, root_b)]
    shared = [c for c in params[0]["contracts"] if c in params[1]["contracts"]]
    if not shared:
        raise InputError("the runs evaluate no contract in common")
    records = []
    for contract in shared:
        name = CONTRACT_CLI_NAMES[contract]
        columns = [f"tricks_{name}", f"made_{name}", f"money_{name}"]
        # A dd run's budget may stop a count: its rows then hold the high ends too.
        high = {"money": f"money_high_{name}", "tricks": f"tricks_high_{name}"}
        a, b = (_read(root, "rikken-bids", columns, tuple(high.values())) for root in (root_a, root_b))
        # Troela rows of hands without three aces are not playable (the same hands in both runs).
        rows = a[columns[0]].to_numpy() != NOT_PLAYABLE
        record = {"contract": name, "n": int(rows.sum())}
        for measure, column in (("made", columns[1]), ("money", columns[2]), ("tricks", columns[0])):
            a_high, b_high = (frame[high[measure]].to_numpy()[rows] if high.get(measure) in frame else None
                              for frame in (a, b))
            record.update(_paired(a[column].to_numpy()[rows], b[column].to_numpy()[rows], measure, a_high, b_high))
        records.append(record)
    return pd.DataFrame.from_records(records)


def _play_tables(root_a: Path, root_b: Path) -> dict[str, pd.DataFrame]:
    columns = [f"{kind}_{seat}" for kind in ("contract", "made", "money", "points") for seat in range(4)]
    a, b = (_read(root, "rikken-play", columns) for root in (root_a, root_b))
    contract_columns = [f"contract_{seat}" for seat in range(4)]
    if not a[contract_columns].equals(b[contract_columns]):
        raise InputError("the runs' auctions differ, so their rounds cannot be paired")
    contract = a[contract_columns].to_numpy().reshape(-1)
    made = [frame[[f"made_{s}" for s in range(4)]].to_numpy().reshape(-1) for frame in (a, b)]
    money = [frame[[f"money_{s}" for s in range(4)]].to_numpy().reshape(-1) for frame in (a, b)]
    records = []
    for code in np.unique(contract[contract >= 0]):
        rows = contract == code
        record = {"contract": CONTRACT_CLI_NAMES[int(code)], "n": int(rows.sum())}
        record.update(_paired(made[0][rows], made[1][rows], "made"))
        record.update(_paired(money[0][rows], money[1][rows], "money"))
        records.append(record)
    seats = []
    for mode in ("points", "money"):
        for seat in range(4):
            column = f"{mode}_{seat}"
            seats.append({"mode": mode, "seat": SEAT_LETTERS[seat], "n": len(a),
                          **_paired(a[column].to_numpy(), b[column].to_numpy(), "score")})
    return {"contracts": pd.DataFrame.from_records(records), "seats": pd.DataFrame.from_records(seats)}
