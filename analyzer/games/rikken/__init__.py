"""Rikken: 4 players, 52 cards, auction of 13 levels, called-ace partnerships (RULES.md section 1)."""
