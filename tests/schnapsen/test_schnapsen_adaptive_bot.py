"""``hybrid_adapt``: the score gap by hand, and its values against a plain-Python twin of its batching that
calls ``hybrid_values`` (with the lead inference) batch by batch from one random state."""

import random

import numpy as np
import pytest
from test_schnapsen_hybrid_bot import per_world_means
from test_schnapsen_rollout_bot import open_stock_position

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.adaptive_bot import GAP_BUMMERL, GAP_POINTS, MAX_BATCHES, adapt_values, score_gap
from analyzer.games.schnapsen.hybrid_bot import hybrid_values
from analyzer.games.schnapsen.kernels import apply_action, stock_closed_or_exhausted
from analyzer.games.schnapsen.pimc_plus import WIN_WEIGHT
from analyzer.games.schnapsen.search import list_actions, new_workspace, world_count


def test_score_gap_by_hand():
    sums = np.array([0.5, 0.2, 0.45])
    wins = np.array([0.6, 0.1, 0.5])
    # scores 1.1, 0.3, 0.95 with weight 1; 0.5, 0.2, 0.45 with weight 0
    assert score_gap(sums, wins, 3, 1.0) == pytest.approx(0.15)
    assert score_gap(sums, wins, 3, 0.0) == pytest.approx(0.05)
    assert score_gap(sums[::-1].copy(), wins[::-1].copy(), 3, 1.0) == pytest.approx(0.15)
    assert score_gap(np.array([0.3, 0.3]), np.zeros(2), 2, 1.0) == 0.0
    assert score_gap(sums, wins, 1, 1.0) == 0.0


def mean_of(batches: list[dict]) -> dict:
    """Each action's mean over the batches of its (value, share of worlds won)."""
    return {a: (sum(b[a][0] for b in batches) / len(batches), sum(b[a][1] for b in batches) / len(batches))
            for a in batches[0]}


def twin(s, samples, seed, ws) -> tuple[dict, int]:
    """Each action's (mean game points or Bummerl chance, share of worlds won) by the module notes' rule,
    written out in plain Python over ``hybrid_values`` batches; and the number of batches."""
    rng = state_from_seed(seed)
    batches = [per_world_means(lambda *a: hybrid_values(*a, True), s, samples, rng, ws)]
    bummerl = s[R.TO_GO0] > 0
    weight = 0.0 if bummerl else WIN_WEIGHT
    gap = GAP_BUMMERL if bummerl else GAP_POINTS
    if not stock_closed_or_exhausted(s) and world_count(s, s[R.TO_MOVE]) > 2 * samples:
        while len(batches) < MAX_BATCHES:
            scores = sorted((v + weight * w for v, w in mean_of(batches).values()), reverse=True)
            if scores[0] - scores[1] >= gap:
                break
            batches.append(per_world_means(lambda *a: hybrid_values(*a, True), s, samples, rng, ws))
    return mean_of(batches), len(batches)


def positions(rnd: random.Random):
    """Open-stock trick starts and follows to a lead (6 and 4 stock cards), inside a Bummerl and outside one,
    and a closed stock."""
    for stock, score in ((6, (3, 5)), (4, (0, 0)), (6, (0, 0)), (4, (2, 2)), (6, (7, 1)), (4, (4, 6))):
        st = open_stock_position(rnd, stock)
        s = st.to_array()
        s[R.TO_GO0:R.TO_GO0 + 2] = score
        yield s
        follow = s.copy()
        apply_action(follow, rnd.choice([a for a in st.legal_actions() if a < R.N_CARDS]))
        yield follow
        if R.CLOSE in st.legal_actions():
            closed = s.copy()
            apply_action(closed, R.CLOSE)
            yield closed


def test_adapt_values_match_the_twin():
    """Action by action the means equal the twin's; some positions take one batch and some two."""
    ws = new_workspace(tt_bits=12)
    counts = set()
    for k, s in enumerate(positions(random.Random(61))):
        expected, batches = twin(s, 2, k, ws)
        counts.add(batches)
        n, worlds = adapt_values(s, 2, state_from_seed(k), ws, list_actions(s, ws))
        assert worlds == 1 and n == len(expected)
        got = {int(a): (ws.sums[i], ws.wins[i]) for i, a in enumerate(ws.acts[:n])}
        assert got.keys() == expected.keys()
        for a, (v, w) in expected.items():
            assert got[a] == pytest.approx((v, w), abs=1e-12)
    assert counts == {1, 2}
