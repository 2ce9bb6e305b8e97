"""The enhanced transposition cut-off at a trick's last card (``proof_probe``) against the brute force.

The probe cuts only on entries earlier searches stored, so every question of an ending is asked in one
kept table (``generations``), the way ``solve_questions`` and the count's probes ask them: the later
questions meet the earlier ones' entries at the fourth hand.  Random 3-card endings (4-card ones in the slow
test), every leader,
lone declarers and both partnership shapes, no trump and a trump; the reference
(tests/solvers/reference_minimax.py) shares no code with the solver.
"""

import numpy as np
import pytest

from analyzer.solvers.dd import solve

from .reference_minimax import Rules, can_force

TEAMS = (0b0001, 0b0010, 0b0100, 0b1000, 0b0101, 0b0011, 0b1110)
GOALS = {"ge": lambda k: (k, 99), "le": lambda k: (-99, k), "eq": lambda k: (k, k)}


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)


def _check(seed, size, leaders=range(4)):
    rng = np.random.default_rng(9100 + seed)
    for leader in range(4):
        cards = [int(c) for c in rng.permutation(52)[:4 * size]]
        hands = [cards[size * s:size * s + size] for s in range(4)]
        team = TEAMS[(seed + leader) % len(TEAMS)]
        trump = 4 if (seed + leader) % 3 else int(rng.integers(4))
        if leader not in leaders:
            continue
        rules = Rules(trump, [s for s in range(4) if team >> s & 1])
        generations = {}
        for goal in ("le", "eq", "ge"):
            for k in (0, 1, 2, size, 1, 0):
                lo, hi = GOALS[goal](k)
                expected = can_force(rules, hands, leader, lo, hi)
                got = solve(_masks(hands), trump, leader, team, goal=goal, k=k, generations=generations)
                assert got == expected, (leader, team, trump, goal, k)


@pytest.mark.parametrize("seed", range(8))
def test_questions_in_one_table_match_the_reference(seed):
    _check(seed, 3)


def test_a_lone_declarer_at_four_cards():
    # W alone, diamonds trumps, S on lead: "at most 0" meets its own entries at the fourth hand.
    _check(1, 4, leaders=(2,))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(14))
def test_questions_in_one_table_match_the_reference_at_four_cards(seed):
    _check(seed, 4)
