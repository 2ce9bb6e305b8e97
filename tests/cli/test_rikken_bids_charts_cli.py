"""`analyzer rikken bids` writes only the charts it has data for."""

import subprocess
import sys


def test_rik_only_writes_no_misery_chart_and_no_warning(tmp_path):
    out = tmp_path / "rik"
    result = subprocess.run([sys.executable, "-m", "analyzer", "rikken", "bids", "--deals", "40", "--workers", "1",
                             "--contracts", "rik", "--out", str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr, result.stderr
    assert not list(out.glob("misery_one_alone_by_low_cards.*"))
    for name in ("bidding_chart.png", "bidding_chart.svg", "success_by_trumps_hcp.png"):
        assert (out / name).is_file(), name
