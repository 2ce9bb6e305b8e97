"""``scripts/profile_bids_dd.py`` asks what ``rikken bids --policy dd`` asks: the same deals, leaders and solver
questions, in the same order; ``scripts/dd_misery_bids.py`` asks the same Misery and 1 Alone questions.

The oracle is the experiment itself: one of its chunks (``bids_chunk``) runs with the solver's entry points in
``analyzer.games.rikken.dd`` replaced by recorders that answer at once (each count exact at 6, every "makes t?"
and lone question no), so the questions each deal's ``contract_bounds`` call really asks are on record; the
profile's list for the same deals must be that record.  And it asks each Misery and 1 Alone question as
``contract_bounds`` does (``solve_questions``: by the restart driver), not by the plain search.
"""

import json
import sys
from pathlib import Path

import numpy as np

from analyzer.experiments.runner import plan_chunks
from analyzer.games.rikken import dd
from analyzer.games.rikken.experiments import Policies, bids_chunk, bids_plan
from analyzer.solvers.dd import restart

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import dd_misery_bids  # noqa: E402
from profile_bids_dd import _answer, deal_questions, experiment_deals  # noqa: E402

SEED = 52020311
DEALS = 6


def _recorded_run(monkeypatch):
    """Per deal (in the order the chunks ask them) the experiment's questions: ``(hands, [question key, ...])``."""
    asked = []

    def new_deal(hands):
        if not asked or not np.array_equal(asked[-1][0], hands):
            asked.append((np.array(hands), []))
        return asked[-1][1]

    def solve(hands, trump, leader, team, goal="max", k=0, called_card=-1, blind_call=False, generations=None):
        new_deal(hands).append(("made", trump, leader, team, called_card, blind_call, goal, k))
        return False

    def solve_bounds(hands, trump, leader, team, budget=0, low=0, high=None, called_card=-1, blind_call=False,
                     generations=None):
        new_deal(hands).append(("count", trump, leader, team, called_card, blind_call))
        return (6, 6) if low <= 6 <= high else (low, low)

    def solve_questions(hands, questions, generations=None):
        new_deal(hands).extend(("lone", q.trump, q.leader, q.team, q.goal, q.k) for q in questions)
        return [False] * len(questions)

    monkeypatch.setattr(dd, "solve", solve)
    monkeypatch.setattr(dd, "solve_bounds", solve_bounds)
    monkeypatch.setattr(dd, "solve_questions", solve_questions)
    plan = bids_plan(Policies.everywhere("dd"), "random", "all", {}, None, DEALS, SEED, None)
    for chunk in plan_chunks(DEALS, plan.chunk_size, SEED):
        bids_chunk(plan.params, chunk.start, chunk.count, chunk.seed_seq)
    return asked


def _profile_keys(setups, rows):
    """The profile's questions as the recorders key them: a trick count's made probes (targets its proved
    bounds leave open) are not listed by the profile, only its count question, so those are compared apart."""
    keys = []
    for q, contract, kind, _ in deal_questions(setups, rows):
        if contract is None:
            keys.append(("lone", q.trump, q.leader, q.team, q.goal, q.k))
        else:
            keys.append(("count", q.trump, q.leader, q.team, q.called_card, q.blind_call))
    return keys


def test_profile_asks_the_experiments_questions_on_its_deals(monkeypatch):
    asked = _recorded_run(monkeypatch)
    profiled = experiment_deals(SEED, DEALS)
    assert len(asked) == DEALS == len(profiled)
    for (hands, questions), (profile_hands, setups, rows) in zip(asked, profiled):
        assert np.array_equal(hands, profile_hands)
        assert [key for key in questions if key[0] != "made"] == _profile_keys(setups, rows)
        # Every made probe belongs to the count question after it (same trump, leader, team and call).
        for i, key in enumerate(questions):
            if key[0] == "made":
                count = next(k for k in questions[i + 1:] if k[0] == "count")
                assert key[1:6] == count[1:6]


def test_profile_asks_the_lone_questions_by_restarts_as_the_bids_do(monkeypatch):
    runs = []
    driver = restart.solve_window_restarts

    def recorded(*args, **kwargs):
        runs.append(args[6:8])
        return driver(*args, **kwargs)

    monkeypatch.setattr(restart, "solve_window_restarts", recorded)
    hands, setups, rows = experiment_deals(SEED, 1)[0]
    lone = [q for q, contract, _, _ in deal_questions(setups, rows) if contract is None]
    assert len(lone) >= 2
    for q in lone:
        before = len(runs)
        ((_, answer, _, _),) = _answer(hands, q, None, {}, None, 0)
        assert len(runs) == before + 1
        assert answer == dd.solve_questions(hands, [q])[0]


def test_the_misery_script_asks_the_experiments_lone_questions(monkeypatch, tmp_path):
    asked = _recorded_run(monkeypatch)
    expected = [key[1:] for _, questions in asked for key in questions if key[0] == "lone"]
    seen = []

    def ask(hands, q, limit, **kwargs):
        seen.append((q.trump, q.leader, q.team, q.goal, q.k))
        return False, 0, 0.0

    monkeypatch.setattr(dd_misery_bids, "_ask", ask)
    out = tmp_path / "lone.jsonl"
    dd_misery_bids.run(SEED, 0, DEALS, 1, str(out))
    assert len(expected) >= DEALS and seen == expected
    records = [json.loads(line) for line in out.read_text().splitlines()]
    kinds = {("le", 0): "misery", ("eq", 1): "one"}
    assert [(r["team"], r["trump"], r["kind"]) for r in records] == [(q[2], q[0], kinds[q[3:]]) for q in expected]
