"""Test-wide settings."""

from hypothesis import settings

from analyzer.experiments.code_digest import use_digest_cache

# The tests compile into the numba cache folder the command line uses (set before numba is imported), so
# a kernel compiled by a test is not compiled again by a command a test runs, nor the other way round.
use_digest_cache()

# The first example of a property test may compile numba kernels, so no per-example deadline;
# derandomised examples keep CI runs repeatable.
settings.register_profile("analyzer", deadline=None, derandomize=True)
settings.load_profile("analyzer")
