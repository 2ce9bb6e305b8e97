"""DuckDB for questions to stored rows, locked so that no text of the user's can reach a file.

Two locks, each enough on its own for file access: the connection has external access disabled and
its configuration locked (no ``read_csv``, ``COPY``, ``ATTACH``, ``INSTALL`` and no way to turn that
back on), and rows come in as registered Arrow datasets of files the caller has checked, so no path
is ever written into SQL. A user's ``--where`` is parsed with sqlglot and must be one expression of
comparisons, arithmetic, ``and``/``or``/``not``, ``in``, ``between``, ``is null`` and a few plain
functions over the stored columns; DuckDB runs sqlglot's rendering of the checked tree, never the
user's text.
"""

from pathlib import Path

from analyzer.errors import InputError

# The expression nodes a condition may contain (sqlglot class names).
ALLOWED_NODES = frozenset({
    "Column", "Identifier", "Literal", "Boolean", "Null", "Paren", "Neg", "Not", "And", "Or", "Xor",
    "EQ", "NEQ", "GT", "GTE", "LT", "LTE", "NullSafeEQ", "NullSafeNEQ", "Is", "In", "Between", "Tuple",
    "Add", "Sub", "Mul", "Div", "IntDiv", "Mod", "Pow", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
    "BitwiseNot", "BitwiseLeftShift", "BitwiseRightShift", "Abs", "Least", "Greatest", "Coalesce", "If",
    "Case", "Like", "ILike", "Cast", "DataType", "DType",
})
ALLOWED_TEXT = ("comparisons, arithmetic, and/or/not, in (...), between, is null, like, case, "
                "abs/least/greatest/coalesce and casts over the stored columns")


def locked_connection():
    """A DuckDB connection that cannot read or write files, load extensions, or change that."""
    import duckdb  # about 0.3 s to import: only when a question is asked

    return duckdb.connect(config={"enable_external_access": False, "autoload_known_extensions": False,
                                  "autoinstall_known_extensions": False, "lock_configuration": True})


def register_parts(connection, name: str, files: list[Path]) -> None:
    """Make the Parquet ``files`` (already checked by the caller) a table ``name`` of ``connection``."""
    import pyarrow.dataset as ds

    try:
        dataset = ds.dataset([str(f) for f in files], format="parquet")
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the stored rows: {str(exc).splitlines()[0]}") from None
    connection.register(name, dataset)


def checked_condition(text: str, columns: list[str], option: str = "--where") -> str:
    """The SQL of a user's condition after checking it is one expression over ``columns``.

    Parameters
    ----------
    text : str
        The condition, e.g. ``trumps >= 6 and aces == 2``.
    columns : list of str
        The stored columns it may name.
    option : str
        The option's name, for messages.

    Returns
    -------
    str
        The condition as DuckDB SQL, rendered from the checked tree.

    Raises
    ------
    InputError
        If it is not exactly one expression, uses anything outside ``ALLOWED_NODES`` (a function such
        as ``read_csv``, a subquery, a second statement) or names an unknown column.
    """
    import sqlglot
    from sqlglot.errors import SqlglotError

    try:
        trees = [tree for tree in sqlglot.parse(text, dialect="duckdb") if tree is not None]
    except SqlglotError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"bad {option} {text!r}: {first}") from None
    if len(trees) != 1:
        raise InputError(f"bad {option} {text!r}: give one condition, not {len(trees)} statements")
    known = {column.lower(): column for column in columns}
    for node in trees[0].walk():
        kind = type(node).__name__
        if kind not in ALLOWED_NODES:
            shown = node.sql(dialect="duckdb")[:60]
            raise InputError(f"bad {option} {text!r}: {shown!r} is not allowed; a condition may use {ALLOWED_TEXT}")
        if kind == "Column":
            if node.table or node.name.lower() not in known:
                raise InputError(f"bad {option} {text!r}: unknown column {node.sql(dialect='duckdb')}")
    return trees[0].sql(dialect="duckdb")
