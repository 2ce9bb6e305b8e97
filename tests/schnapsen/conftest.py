"""Fixtures for the Schnapsen tests."""

import pytest
from schnapsen_helpers import KernelEngine

from analyzer.games.schnapsen.state import SchnapsenState


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path, monkeypatch):
    """Every test runs in its own empty directory: a command's default run folder (``results/...``, as
    ``schnapsen advise`` writes) lands there, never in the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(params=["python", "kernel"])
def engine(request):
    """Factory: build an engine of either kind from a notation string."""

    def make(text):
        st = SchnapsenState.from_text(text)
        return st if request.param == "python" else KernelEngine(st)

    return make
