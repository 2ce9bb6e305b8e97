"""A small self-test experiment for the batch machinery: high-card points of random deals.

``analyzer runs demo`` deals random Rikken/bridge deals in chunks and tabulates, per seat, the mean
high-card points and the rate of hands with at least ``threshold`` points. It exercises the whole
batch path (chunks, checkpoints, backends, resume, catalog, reports) with a cheap, well-understood
computation: every deal holds exactly 40 points, 10 per seat on average.
"""

import numpy as np
import pandas as pd

from analyzer.cards.dealing import ACE_MASK, JACK_MASK, KING_MASK, QUEEN_MASK, deal_random
from analyzer.experiments.experiment import Experiment, Plan, Summary, records
from analyzer.reports.query import Measure, QuerySpec, Subject
from analyzer.reports.stats import merge_sums, moments_interval, wilson_interval

SEAT_NAMES = ("N", "E", "S", "W")
# Most high-card points one 13-card hand can hold: four aces, kings and queens, one jack.
MAX_HCP = 37


def hand_hcp(hands: np.ndarray) -> np.ndarray:
    """High-card points (A=4, K=3, Q=2, J=1) of an array of hand masks, elementwise."""
    hands = np.asarray(hands, dtype=np.int64)
    return (4 * np.bitwise_count(hands & ACE_MASK) + 3 * np.bitwise_count(hands & KING_MASK)
            + 2 * np.bitwise_count(hands & QUEEN_MASK) + np.bitwise_count(hands & JACK_MASK)).astype(np.int64)


def hcp_chunk(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """One chunk: deal ``count`` random deals and return one row per deal with each seat's points and
    cards (``cards_n`` .. ``cards_w``: each hand as a card mask).

    ``params["rounds"]`` repeats the (identically seeded) dealing that many times, to make chunks
    heavier for benchmarks without changing the result.
    """
    for _ in range(max(1, int(params.get("rounds", 1)))):
        deals = deal_random(count, seed_seq)
    points = hand_hcp(deals)
    frame = pd.DataFrame({"deal": np.arange(start, start + count, dtype=np.int64)})
    for seat, name in enumerate(SEAT_NAMES):
        frame[name] = points[:, seat]
    for seat, name in enumerate(SEAT_NAMES):
        frame[f"cards_{name.lower()}"] = deals[:, seat]
    return frame


def hcp_sums(deals: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Mergeable aggregate of ``hcp_chunk`` rows: ``hcp``, per number of points ``0 .. MAX_HCP`` (the
    index), how many hands of each seat hold it (one column per seat)."""
    index = pd.RangeIndex(MAX_HCP + 1, name="hcp")
    return {"hcp": pd.DataFrame({name: np.bincount(deals[name].to_numpy(), minlength=index.size)
                                 for name in SEAT_NAMES}, index=index)}


def summarize(sums: dict[str, pd.DataFrame], threshold: int) -> pd.DataFrame:
    """Per seat: deals, mean points with its interval, and the rate of hands with >= ``threshold`` points,
    from merged :func:`hcp_sums`."""
    histogram = sums["hcp"]
    points = histogram.index.to_numpy().astype(np.float64)
    rows = []
    for name in SEAT_NAMES:
        counts = histogram[name].to_numpy()
        n = int(counts.sum())
        mean, low, high = moments_interval(n, (points * counts).sum(), (points * points * counts).sum())
        strong = int(counts[points >= threshold].sum())
        rate_low, rate_high = wilson_interval(strong, n)
        rows.append({"seat": name, "n": n, "hcp_mean": mean, "hcp_lo": low, "hcp_hi": high,
                     "strong_rate": strong / n if n else float("nan"),
                     "strong_lo": rate_low, "strong_hi": rate_high})
    return pd.DataFrame(rows)


def hcp_figure(sums: dict[str, pd.DataFrame]):
    """Distribution of each seat's points (fraction of deals), one line per seat, from merged :func:`hcp_sums`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 3.5))
    histogram = sums["hcp"]
    for name in SEAT_NAMES:
        counts = histogram[name].to_numpy()
        axes.plot(histogram.index.to_numpy(), counts / max(1, counts.sum()), marker=".", label=name)
    axes.set_xlabel("high-card points")
    axes.set_ylabel("fraction of hands")
    axes.legend(title="seat")
    return figure


def _demo_subjects(columns: list[str]) -> list[Subject]:
    """Each seat's mean high-card points (group with ``--by`` or filter with ``--where``)."""
    return [Subject("all", "", tuple(Measure(f"hcp_{name.lower()}", name) for name in SEAT_NAMES))]


QUERY_SPEC = QuerySpec("deals", _demo_subjects)


def demo_plan(deals: int, threshold: int, rounds: int, seed: int, chunk_size: int) -> Plan:
    """The plan of ``deals`` random deals; hands of at least ``threshold`` points count as strong."""
    return Plan({"rounds": rounds}, deals, seed, chunk_size, context=threshold,
                manifest={"params": {"deals": deals, "threshold": threshold, "chunk_size": chunk_size}})


def _demo_summary(plan: Plan, chunks: list) -> Summary:
    sums = merge_sums(chunks)
    summary = summarize(sums, plan.context)
    return Summary(tables={"summary": summary}, figures={"hcp": lambda: hcp_figure(sums)},
                   shown=[("summary", summary)], payload={"summary": records(summary)})


DEMO = Experiment("runs demo", hcp_chunk, hcp_sums, rows="deals", description="demo deals", summarize=_demo_summary,
                  stage="deals", query=QUERY_SPEC)
