"""Schnapsen (2 players, 20 cards): rules, Python state, numba kernels, bots and search."""
