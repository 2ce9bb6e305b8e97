"""``hybrid_iimc`` (:mod:`analyzer.games.schnapsen.iimc_bot`) and its screen's Bummerls played from Python.

The IIMC half against an independent judgement: with the clairvoyant player in both seats a play-out ends at
the world's exact value, so over every world of a position each action's mean must be ``pimc_plus``'s exact
mean over the same worlds, which solves them instead of playing them. The mix of the two halves by hand, the
positions left to ``hybrid`` against the registered kernel, and the screen's Bummerl loop against the numba
``match_task`` on the same seeds."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import schnapsen_iimc_screen as screen  # noqa: E402
from analyzer.cards.rng import state_from_seed  # noqa: E402
from analyzer.games.schnapsen import iimc_bot  # noqa: E402
from analyzer.games.schnapsen import rules as R  # noqa: E402
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action  # noqa: E402
from analyzer.games.schnapsen.experiments import match_task, parse_bot  # noqa: E402
from analyzer.games.schnapsen.kernels import apply_action, init_round, shuffle_deck  # noqa: E402
from analyzer.games.schnapsen.pimc_plus import plus_values  # noqa: E402
from analyzer.games.schnapsen.play import choose_action  # noqa: E402
from analyzer.games.schnapsen.search import list_actions, new_workspace, world_count  # noqa: E402

HEURISTIC = HeuristicParams().to_array()


def position(seed: int, until) -> np.ndarray:
    """The first position where ``until(s)`` holds of heuristic self-play deals drawn from ``seed`` on (the
    first deal that reaches one)."""
    rng = state_from_seed(seed)
    deck = np.zeros(R.N_CARDS, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    acts = np.zeros(16, dtype=np.int64)
    while True:
        shuffle_deck(rng, deck)
        init_round(deck, 1, s)
        while s[R.WINNER] < 0 and not until(s):
            apply_action(s, int(heuristic_action(s, HEURISTIC, acts)))
        if s[R.WINNER] < 0:
            return s


def late_open(s: np.ndarray) -> bool:
    return s[R.CLOSER] < 0 and s[R.DRAWN] == R.STOCK_SIZE - 2


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_with_clairvoyant_play_outs_each_action_is_worth_its_exact_pimc_mean(seed):
    s = position(seed, late_open)
    ws = new_workspace()
    total = int(world_count(s, int(s[R.TO_MOVE])))
    acts, utility, won = iimc_bot.iimc_values(s, parse_bot("perfect"), total, state_from_seed(1), ws)
    n = list_actions(s, ws)
    m, solved = plus_values(s, total, state_from_seed(2), ws, n, False)
    assert solved == total and m == len(acts)
    for i in range(m):
        j = int(np.flatnonzero(acts == ws.acts[i])[0])
        assert utility[j] == pytest.approx(ws.sums[i] / total)
        assert won[j] == pytest.approx(ws.wins[i] / total)


def test_the_two_halves_count_alike(monkeypatch):
    # pimc_plus alone would take card 0 (1.0 against 0.8 a world), the play-outs alone card 1 (0.9 against 0.2): their
    # means are 0.6 and 0.85; both won half the worlds under either judgement, so only the means count
    s = position(3, late_open)
    acts = np.array([1, 0], dtype=np.int64)  # another order than pimc_plus's

    def plus(s, samples, rng, ws, n, infer):
        ws.acts[:2], ws.sums[:2], ws.wins[:2] = [0, 1], [4.0, 3.2], [2.0, 2.0]
        return 2, 4

    monkeypatch.setattr(iimc_bot, "list_actions", lambda s, ws: 2)
    monkeypatch.setattr(iimc_bot, "iimc_values", lambda *args: (acts, np.array([0.9, 0.2]), np.array([0.5, 0.5])))
    monkeypatch.setattr(iimc_bot, "plus_values", plus)
    assert iimc_bot.hybrid_iimc_action(s, 20, parse_bot("pimc:2"), 8, state_from_seed(0), new_workspace()) == 1


@pytest.mark.parametrize("until", [lambda s: s[R.DRAWN] <= 2 and s[R.LEAD_CARD] >= 0,
                                   lambda s: s[R.CLOSER] >= 0 or s[R.DRAWN] >= R.STOCK_SIZE])
def test_elsewhere_it_decides_as_hybrid(until):
    hybrid = parse_bot("hybrid:6")
    for seed in (4, 5, 6):
        s = position(seed, until)
        assert not iimc_bot.uses_iimc(s)
        ours = iimc_bot.hybrid_iimc_action(s.copy(), 6, parse_bot("pimc:2"), 8, state_from_seed(seed),
                                           new_workspace())
        theirs = choose_action(s.copy(), hybrid.policy, 6, hybrid.params.to_array(), state_from_seed(seed),
                               new_workspace())
        assert ours == theirs


def test_the_screens_bummerls_are_match_tasks():
    a, b = parse_bot("hybrid:3"), parse_bot("pimc:4")
    expected = match_task({"a": a.as_dict(), "b": b.as_dict()}, 0, 2, np.random.SeedSequence(77))
    cpu = {"A": [], "B": []}
    rows = screen.play_pairs(screen.kernel_decider(a), screen.kernel_decider(b), 0, 2, np.random.SeedSequence(77),
                             cpu)
    assert rows.to_dict("records") == expected.to_dict("records")
    assert len(cpu["A"]) > 0 and len(cpu["B"]) > 0
