"""Exact game solvers (double dummy and perfect-information search)."""
