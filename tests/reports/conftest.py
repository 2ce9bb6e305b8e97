"""Hand-built run folders for the report tests: a manifest, a summary table and a one-pixel chart."""

import base64
import json

import pandas as pd
import pytest

# A one-pixel PNG, so the tests do not depend on matplotlib.
PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")


def _make_run(path, seed, summary: pd.DataFrame, experiment: str = "rikken-bids"):
    """A complete run folder of ``experiment`` at ``path`` holding ``summary.csv`` and ``chart.png``."""
    path.mkdir()
    argv = ["analyzer", *experiment.split("-"), "--deals", "100", "--seed", str(seed), "--out", str(path)]
    (path / "manifest.json").write_text(json.dumps({"analyzer_version": "0.1.0", "argv": argv, "seed": seed,
                                                    "experiment": experiment, "status": "complete",
                                                    "params": {"policy": "heuristic", "dealing": "random"}}))
    summary.to_csv(path / "summary.csv", index=False)
    (path / "chart.png").write_bytes(PIXEL)
    return path


@pytest.fixture
def make_run():
    """``make_run(path, seed, summary, experiment="rikken-bids")``: a complete run folder at ``path``
    holding ``summary.csv`` and the one-pixel ``chart.png``."""
    return _make_run


@pytest.fixture
def pixel():
    """The bytes of the one-pixel chart of every hand-built run."""
    return PIXEL


@pytest.fixture
def sample_runs(tmp_path):
    """Two runs of one experiment: a baseline and one whose win rate is higher."""
    return [_make_run(tmp_path / name, seed, pd.DataFrame({"contract": ["solo"], "n": [100], "win_rate": [rate]}))
            for name, seed, rate in (("a", 1, 0.5), ("b", 2, 0.6))]
