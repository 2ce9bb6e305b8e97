"""The play-strength script's paired made-rate difference on the rounds both pairs decided."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from rikken_play_strength import decided_difference  # noqa: E402


def test_only_rounds_both_pairs_decided_count():
    # Rows 2 (this pair undecided) and 4 (the first pair undecided) are left out; the rest differ by
    # +100, 0, 0 points: mean 33.3, sample sd 57.735, half-width 1.96 * 57.735 / sqrt(3) = 65.33.
    made = np.array([1, 0, 1, 1, 0])
    unknown = np.array([False, False, True, False, False])
    base_made = np.array([0, 0, 0, 1, 1])
    base_unknown = np.array([False, False, False, False, True])
    assert decided_difference(made, unknown, base_made, base_unknown) == "+33.3 [-32.0, +98.7] (3)"


def test_no_round_decided_by_both():
    made = np.array([1, 0])
    assert decided_difference(made, np.array([True, False]), made, np.array([False, True])) == "- (0)"
