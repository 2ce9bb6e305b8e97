"""Game rules, states and kernels, one package per game."""
