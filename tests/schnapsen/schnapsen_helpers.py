"""Helpers shared by the Schnapsen tests: run the same actions through both engines."""

import numpy as np

from analyzer.games.schnapsen import kernels as K
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.state import SchnapsenState


class KernelEngine:
    """Adapter giving the numba kernels the same small interface as ``SchnapsenState``."""

    def __init__(self, state: SchnapsenState):
        self.s = state.to_array()
        self.buf = np.zeros(16, dtype=np.int64)

    def legal_actions(self):
        n = K.legal_actions(self.s, self.buf)
        return [int(x) for x in self.buf[:n]]

    def apply(self, action):
        K.apply_action(self.s, action)

    def view(self) -> SchnapsenState:
        return SchnapsenState.from_array(self.s)


def view(engine) -> SchnapsenState:
    """Return the engine's position as a ``SchnapsenState``."""
    return engine.view() if isinstance(engine, KernelEngine) else engine


def card(name):
    return R.parse_card(name)


def cards(text):
    return R.mask_of(R.parse_cards(text))
