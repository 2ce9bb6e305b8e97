"""Card ids, bit masks, notation and dealing shared by every game."""
