"""Row tables of a run as Parquet datasets: one part file per chunk in a folder, never one big table.

A chunk task's rows are written by the worker that computed them (``write_part``), so the parent
process only ever holds the small per-chunk aggregates. Parts are named by the chunk's first item,
so the lexical order of the files is the order of the rows; a part rewritten by a resumed run is
identical to the one it replaces.
"""

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.reports.store import atomic_write

PART_PATTERN = "part-*.parquet"


def part_path(directory, start: int) -> Path:
    """The part file of the chunk whose first item is ``start``."""
    return Path(directory) / f"part-{start:012d}.parquet"


def write_part(directory, start: int, frame: pd.DataFrame) -> Path:
    """Write one chunk's rows as a zstd-compressed Parquet part (atomically) and return its path."""
    path = part_path(directory, start)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    atomic_write(path, lambda p: pq.write_table(table, p, compression="zstd"))
    return path


def part_files(directory) -> list[Path]:
    """The dataset's part files in row order."""
    return sorted(Path(directory).glob(PART_PATTERN))


def read_dataset(directory, columns=None, readable: bool = False) -> pd.DataFrame:
    """All rows of a dataset folder as one DataFrame (for small runs and tests; queries use DuckDB); with
    ``readable`` the hands as a person reads them (:func:`readable_cards`)."""
    files = part_files(directory)
    if not files:
        return pd.DataFrame()
    rows = pd.concat([pd.read_parquet(f, columns=columns) for f in files], ignore_index=True)
    return readable_cards(rows) if readable else rows


def readable_cards(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with each stored hand (a ``cards_*`` column of card masks, as Rikken stores a deal's four
    hands: 8 bytes a hand instead of a string) as a PBN hand, ``AKQT86.A2.K73.95`` (spades first)."""
    from analyzer.cards.pbn import format_hand

    hands = [c for c in rows.columns if c.startswith("cards_") and pd.api.types.is_integer_dtype(rows[c])]
    return rows.assign(**{c: [format_hand(m) for m in rows[c]] for c in hands})


def dataset_bytes(directory) -> int:
    """Bytes stored in the dataset's part files."""
    return sum(f.stat().st_size for f in part_files(directory))
