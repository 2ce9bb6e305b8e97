"""A chunk's aggregate as a data file: nothing in it can run code when it is read.

An aggregate is a tree of dicts (string keys), lists, pandas DataFrames, numeric numpy arrays and
plain scalars. It is stored as one ``.npz`` archive read with ``allow_pickle=False``: the tree's shape
as JSON, each DataFrame as an Arrow IPC stream (index kept, pandas' JSON metadata only), each array
as a ``.npy`` member of a numeric dtype. A pickle would run whatever code its bytes name.
"""

import io
import json

import numpy as np
import pandas as pd
import pyarrow as pa

TREE = "tree"
SUFFIX = ".npz"


def encode(value) -> bytes:
    """The bytes of ``value`` as a chunk file.

    Raises
    ------
    TypeError
        For a value outside the supported tree (a programming error: aggregates are written by the code).
    """
    members: dict[str, np.ndarray] = {}
    tree = _encode(value, members)
    members[TREE] = np.frombuffer(json.dumps(tree).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **members)
    return buffer.getvalue()


def decode(data: bytes):
    """The value stored by :func:`encode`.

    Raises
    ------
    ValueError
        If the bytes are not a chunk file (any failure to read them says so).
    """
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            members = {name: archive[name] for name in archive.files}
        tree = json.loads(members.pop(TREE).tobytes().decode())
        return _decode(tree, members)
    except Exception as exc:  # noqa: BLE001 - unreadable bytes fail in many ways, each meaning "not a chunk file"
        raise ValueError(f"not a chunk file ({type(exc).__name__}: {exc})") from None


def _encode(value, members: dict):
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("chunk aggregates need string dict keys")
        return {"dict": {key: _encode(item, members) for key, item in value.items()}}
    if isinstance(value, (list, tuple)):
        return {"list": [_encode(item, members) for item in value]}
    if isinstance(value, pd.DataFrame):
        name = f"m{len(members)}"
        sink = io.BytesIO()
        table = pa.Table.from_pandas(value, preserve_index=True)
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        members[name] = np.frombuffer(sink.getvalue(), dtype=np.uint8)
        return {"frame": name}
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("chunk aggregates hold numeric arrays only")
        name = f"m{len(members)}"
        members[name] = value
        return {"array": name}
    if isinstance(value, np.generic):
        return {"value": value.item()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    raise TypeError(f"chunk aggregates cannot hold {type(value).__name__}")


def _decode(node, members: dict):
    (kind, content), = node.items()
    if kind == "dict":
        return {key: _decode(item, members) for key, item in content.items()}
    if kind == "list":
        return [_decode(item, members) for item in content]
    if kind == "frame":
        with pa.ipc.open_stream(members[content].tobytes()) as reader:
            return reader.read_all().to_pandas()
    if kind == "array":
        return members[content]
    if kind == "value":
        return content
    raise ValueError(f"unknown node {kind!r}")
