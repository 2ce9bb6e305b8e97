"""The engine screen's split of our decisions into kinds (``decision_kind``): by the situation, then by both
actions of a lead with the stock open, each case worked out by hand."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyzer.games.schnapsen import rules as R  # noqa: E402
from schnapsen_engine_screen import decision_kind  # noqa: E402

CARD = R.parse_card("HJ")
QUEEN_MARRIAGE = R.MARRIAGE_OFFSET + R.parse_card("HQ")


def state(closer: int = -1, drawn: int = 4, lead: int = -1) -> np.ndarray:
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    s[R.CLOSER], s[R.DRAWN], s[R.LEAD_CARD] = closer, drawn, lead
    return s


def test_the_situation_decides_once_the_stock_is_closed_or_exhausted_or_when_following():
    # whatever the two actions: a closed stock (by either side), an exhausted one, a follow
    assert decision_kind(state(closer=1, drawn=6), CARD, R.CLOSE) == "closed"
    assert decision_kind(state(closer=0, drawn=10, lead=CARD), CARD, CARD + 1) == "closed"
    assert decision_kind(state(drawn=10), CARD, QUEEN_MARRIAGE) == "exhausted"
    assert decision_kind(state(lead=CARD), CARD + 1, CARD + 2) == "follow"


def test_a_lead_with_the_stock_open_is_split_by_both_actions():
    lead = state()
    assert decision_kind(lead, CARD, R.CLOSE) == "close"
    assert decision_kind(lead, R.CLOSE, R.EXCHANGE) == "close"  # closing first
    assert decision_kind(lead, R.EXCHANGE, QUEEN_MARRIAGE) == "exchange"
    assert decision_kind(lead, CARD, QUEEN_MARRIAGE) == "marriage"
    assert decision_kind(lead, QUEEN_MARRIAGE + 1, QUEEN_MARRIAGE) == "marriage"  # the king's or the queen's
    assert decision_kind(lead, CARD, CARD + 3) == "lead"
    assert decision_kind(lead, CARD, CARD) == "lead"
