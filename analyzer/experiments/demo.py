"""A small self-test experiment for the batch machinery: high-card points of random deals.

``analyzer runs demo`` deals random Rikken/bridge deals in chunks and tabulates, per seat, the mean
high-card points and the rate of hands with at least ``threshold`` points. It exercises the whole
batch path (chunks, checkpoints, backends, resume, catalog, reports) with a cheap, well-understood
computation: every deal holds exactly 40 points, 10 per seat on average.
"""

import numpy as np
import pandas as pd

from analyzer.cards.dealing import ACE_MASK, JACK_MASK, KING_MASK, QUEEN_MASK, deal_random
from analyzer.reports.stats import mean_interval, wilson_interval

SEAT_NAMES = ("N", "E", "S", "W")


def hand_hcp(hands: np.ndarray) -> np.ndarray:
    """High-card points (A=4, K=3, Q=2, J=1) of an array of hand masks, elementwise."""
    hands = np.asarray(hands, dtype=np.int64)
    return (4 * np.bitwise_count(hands & ACE_MASK) + 3 * np.bitwise_count(hands & KING_MASK)
            + 2 * np.bitwise_count(hands & QUEEN_MASK) + np.bitwise_count(hands & JACK_MASK)).astype(np.int64)


def hcp_chunk(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """One chunk: deal ``count`` random deals and return one row per deal with each seat's points.

    ``params["rounds"]`` repeats the (identically seeded) dealing that many times, to make chunks
    heavier for benchmarks without changing the result.
    """
    for _ in range(max(1, int(params.get("rounds", 1)))):
        deals = deal_random(count, seed_seq)
    points = hand_hcp(deals)
    frame = pd.DataFrame({"deal": np.arange(start, start + count, dtype=np.int64)})
    for seat, name in enumerate(SEAT_NAMES):
        frame[name] = points[:, seat]
    return frame


def summarize(deals: pd.DataFrame, threshold: int) -> pd.DataFrame:
    """Per seat: deals, mean points with its interval, and the rate of hands with >= ``threshold`` points."""
    rows = []
    for name in SEAT_NAMES:
        points = deals[name].to_numpy()
        mean, low, high = mean_interval(points)
        strong = int((points >= threshold).sum())
        rate_low, rate_high = wilson_interval(strong, points.size)
        rows.append({"seat": name, "n": int(points.size), "hcp_mean": mean, "hcp_lo": low, "hcp_hi": high,
                     "strong_rate": strong / points.size if points.size else float("nan"),
                     "strong_lo": rate_low, "strong_hi": rate_high})
    return pd.DataFrame(rows)


def hcp_figure(deals: pd.DataFrame):
    """Distribution of each seat's points (fraction of deals), one line per seat."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 3.5))
    points = np.arange(38)
    for name in SEAT_NAMES:
        counts = np.bincount(deals[name].to_numpy(), minlength=points.size)[: points.size]
        axes.plot(points, counts / max(1, len(deals)), marker=".", label=name)
    axes.set_xlabel("high-card points")
    axes.set_ylabel("fraction of hands")
    axes.legend(title="seat")
    return figure
