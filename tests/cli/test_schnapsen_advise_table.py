"""``schnapsen advise``'s table at 80 columns: one block, without a ``worlds`` column the title already counts."""

import numpy as np

from analyzer.experiments.experiment import Plan
from analyzer.games.schnapsen.advice import _advise_summary
from analyzer.reports.formatting import console_table


def test_the_advice_table_fits_80_columns_in_one_block():
    # nine actions (as at a first lead with an exchange and two marriages), 16 sampled worlds of game points
    rng = np.random.default_rng(5)
    outcomes = rng.integers(-3, 4, size=(16, 9))
    plan = Plan({"sequences": [[a] for a in range(9)], "exact": False}, 16, 0, 4,
                context={"player": 0, "method": "honest play-outs by heuristic, 16 worlds, sampled"})
    [(title, table)] = _advise_summary(plan, [outcomes[:8], outcomes[8:]]).shown
    text = console_table(table)
    lines = text.splitlines()
    assert len(lines) == 10 and "\n\n" not in text  # a heading and nine rows, in one block
    assert max(map(len, lines)) <= 80
    assert "worlds" not in lines[0] and "16 worlds" in title
