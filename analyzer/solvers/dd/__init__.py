"""Exact double-dummy solver for 52-card trick play (teams of any shape, Rikken rules).

Public API: :func:`solve`, :func:`solve_batch`, :func:`solve_table`, :func:`solve_questions`
(with :class:`Question`), :func:`solve_bounds` (a trick count within a search budget),
:func:`best_cards`, :func:`best_moves`.
"""

from analyzer.solvers.dd.api import (
    GOALS, Question, best_cards, best_moves, solve, solve_batch, solve_bounds, solve_questions, solve_table,
)

__all__ = ["GOALS", "Question", "best_cards", "best_moves", "solve", "solve_batch", "solve_bounds", "solve_questions", "solve_table"]
