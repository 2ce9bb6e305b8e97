"""Session 16's speed changes to sampled-dd give the answers of the code they replace (issue 39)."""

import numpy as np

from analyzer.games.rikken.sampled_dd import _class_of, decided_action


def _decided_on_arrays(actions, low, high, own, weight_sum, left):
    """The numpy version ``decided_action`` had before session 16, kept here as its twin."""
    tolerance = 1e-9 * weight_sum
    mine = _class_of(actions, own)
    others = np.delete(low, mine)
    if others.size == 0 or high[mine] >= np.max(others) + left - tolerance:
        return own
    best = int(np.argmax(low))
    rivals = np.delete(low, best)
    if low[best] - tolerance > high[mine] + left and (rivals.size == 0 or low[best] > np.max(rivals) + left):
        return actions[best]
    return None


def test_decided_action_answers_as_its_numpy_twin_on_ties_bounds_and_weights():
    rng = np.random.default_rng(16)
    seen = set()
    for case in range(20_000):
        n = int(rng.integers(1, 8))
        actions = sorted(int(c) for c in rng.choice(52, n, replace=False))
        own = int(rng.choice(actions)) + int(rng.integers(0, 2))  # own may sit above its class's card
        # Coarse values make exact ties common (the first of equals), fine ones the tolerance's edge.
        step = [1.0, 0.5, 1 / 32, 0.37][case % 4]
        low = rng.integers(0, 9, n) * step
        high = low + rng.integers(0, 3, n) * step
        left = float(rng.integers(0, 5)) * step
        weight_sum = float(rng.choice([1.0, 8.0, 8.0 + 1e-10]))
        expected = _decided_on_arrays(actions, low, high, own, weight_sum, left)
        assert decided_action(actions, low, high, own, weight_sum, left) == expected
        seen.add("own" if expected == own else "none" if expected is None else "other")
    assert seen == {"own", "none", "other"}
