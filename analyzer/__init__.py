"""analyzer: a Monte Carlo strategy analyzer for trick-taking card games."""

__version__ = "0.1.0"
