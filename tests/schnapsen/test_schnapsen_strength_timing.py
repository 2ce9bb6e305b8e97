"""The strength script's timing: with ``in_bummerl`` every decision it times sees a Bummerl score of 1-7 game
points to go for each player, fixed through a deal; without it no score (0, outside a Bummerl)."""

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import schnapsen_strength  # noqa: E402

from analyzer.games.schnapsen import rules as R  # noqa: E402
from analyzer.games.schnapsen.experiments import parse_bot  # noqa: E402


def scores_seen(monkeypatch, in_bummerl: bool) -> dict[int, set]:
    """The scores (to go for player 0, for player 1) the bots were asked at, deal by deal."""
    seen = {}
    deals = []
    real_kernels, real_init = schnapsen_strength.kernels_for, schnapsen_strength.init_round

    def init_round(*args):
        deals.append(len(deals))
        return real_init(*args)

    def kernels_for(policies):
        choose = real_kernels(policies).choose_action

        def choose_action(s, *args):
            seen.setdefault(deals[-1], set()).add((int(s[R.TO_GO0]), int(s[R.TO_GO0 + 1])))
            return choose(s, *args)
        return SimpleNamespace(choose_action=choose_action)

    monkeypatch.setattr(schnapsen_strength, "init_round", init_round)
    monkeypatch.setattr(schnapsen_strength, "kernels_for", kernels_for)
    bots = [parse_bot("heuristic"), parse_bot("heuristic:classic")]
    times = schnapsen_strength.decision_ms(bots, 6, seed=5, in_bummerl=in_bummerl)
    assert sum(len(t) for t in times) > 0 and len(seen) == 7
    return seen


def test_timing_in_a_bummerl_sees_one_score_a_deal(monkeypatch):
    seen = scores_seen(monkeypatch, True)
    assert all(len(scores) == 1 for scores in seen.values())
    scores = set.union(*seen.values())
    assert all(1 <= a <= R.MATCH_POINTS and 1 <= b <= R.MATCH_POINTS for a, b in scores)
    assert len(scores) > 1


def test_timing_outside_a_bummerl_sees_no_score(monkeypatch):
    assert set.union(*scores_seen(monkeypatch, False).values()) == {(0, 0)}
