"""Exact double-dummy solver for 52-card trick play (teams of any shape, Rikken rules).

Public API: :func:`solve`, :func:`solve_batch`, :func:`solve_table`, :func:`best_cards`,
:func:`best_moves`.
"""

from analyzer.solvers.dd.api import GOALS, best_cards, best_moves, solve, solve_batch, solve_table

__all__ = ["GOALS", "best_cards", "best_moves", "solve", "solve_batch", "solve_table"]
