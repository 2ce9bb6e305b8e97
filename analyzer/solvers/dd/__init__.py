"""Exact double-dummy solver for 52-card trick play (teams of any shape, Rikken rules).

Public API: :func:`solve`, :func:`solve_batch`, :func:`best_cards`, :func:`best_moves`.
"""

from analyzer.solvers.dd.api import GOALS, best_cards, best_moves, solve, solve_batch

__all__ = ["GOALS", "best_cards", "best_moves", "solve", "solve_batch"]
