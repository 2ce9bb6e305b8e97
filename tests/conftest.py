"""Test-wide settings."""

from hypothesis import settings

# The first example of a property test may compile numba kernels, so no per-example deadline;
# derandomised examples keep CI runs repeatable.
settings.register_profile("analyzer", deadline=None, derandomize=True)
settings.load_profile("analyzer")
