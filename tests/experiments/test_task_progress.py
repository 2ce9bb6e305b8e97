"""The long chunk tasks report their items as they go: Schnapsen per match pair and per deal, the
Rikken double-dummy experiments per round and per contract setup (spread over the deals)."""

import numpy as np
import pytest

from analyzer.experiments import progress
from analyzer.games.rikken.experiments import Policies, bids_chunk, play_chunk
from analyzer.games.rikken.rules import parse_contract
from analyzer.games.schnapsen.experiments import closing_task, match_task, parse_bot

DD = {**Policies.everywhere("dd").params(), "dealing": "random"}
TASKS = {
    "schnapsen match": (match_task, {"a": parse_bot("heuristic").as_dict(), "b": parse_bot("random").as_dict()}, 3),
    "schnapsen closing": (closing_task, {"bot": parse_bot("heuristic").as_dict()}, 3),
    "rikken play dd": (play_chunk, DD, 2),
    "rikken bids dd": (bids_chunk, {**DD, "contracts": [int(parse_contract("rik")), int(parse_contract("misery"))]},
                       2),
}


@pytest.mark.parametrize("name", TASKS)
def test_task_reports_every_item_of_its_chunk_as_it_goes(monkeypatch, name):
    monkeypatch.setattr(progress, "REPORT_INTERVAL", 0.0)  # every report sent at once
    task, params, count = TASKS[name]
    reports = []
    progress.run_reporting(lambda start, items: reports.append((start, items)), task, params, 5, count,
                           np.random.SeedSequence(3))
    assert len(reports) >= count and all(start == 5 and items > 0 for start, items in reports)
    assert sum(items for _, items in reports) == count
