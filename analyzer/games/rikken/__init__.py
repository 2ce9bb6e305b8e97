"""Rikken: 4 players, 52 cards, auction of 13 levels, called-ace partnerships (docs/rules.md section 1)."""
