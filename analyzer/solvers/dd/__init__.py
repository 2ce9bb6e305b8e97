"""Exact double-dummy solver for 52-card trick play (teams of any shape, Rikken rules).

Public API: :func:`solve`, :func:`solve_batch`, :func:`solve_table`, :func:`solve_questions`
(with :class:`Question`), :func:`solve_question` (one yes/no question by restarts), :func:`solve_bounds` (a
trick count within a search budget), :func:`best_cards`, :func:`best_moves`.

The API is imported on first use of one of its names, not with the package: the search compiles on
import, and a cold first run compiles the helper modules first, in other processes, which import the
package (``compile_split``).
"""

__all__ = ["GOALS", "Question", "best_cards", "best_moves", "solve", "solve_batch", "solve_bounds", "solve_question",
           "solve_questions", "solve_table"]


def __getattr__(name):
    """The API's ``name``, importing the API (and compiling the search on a cold cache) on first use."""
    if name in __all__:
        from analyzer.solvers.dd import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
