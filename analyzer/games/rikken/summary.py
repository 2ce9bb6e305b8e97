"""Summary tables of the Rikken experiments: bid success (rates with Wilson intervals, mean scores,
the bidding chart) and full rounds (contract frequencies, make rates, score per seat, game wins)."""

import numpy as np
import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.errors import InputError
from analyzer.games.rikken import rules
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, KIND, LEVEL, Contract, Kind
from analyzer.reports.stats import group_moments, moments_interval, wilson_interval

HCP_BINS = [0, 5, 8, 11, 14, 17, 20, 38]
HCP_LABELS = ["0-4", "5-7", "8-10", "11-13", "14-16", "17-19", "20+"]
# Cells with fewer hands get no rate or advice in tables and charts: too noisy to read.
MIN_CELL = 30
FEATURE_COLUMNS = ("hcp_bin", "trumps", "aces", "longest", "low_cards", "voids")
# Grids the charts draw: the HCP bin and one or two card counts 0..13, coded in base GRID_WIDTH. For
# trick contracts: the contract's trump length; the length of the suit the bidding policy would name
# together with the hearts (the bidding chart needs both: Rik Beter's trumps are hearts, whose length the
# named suit's does not fix). For Misery and 1 Alone: the cards ranked 2-7.
GRID_WIDTH = 14
TRUMP_GRIDS = {"hcp_trumps": ("trumps",), "hcp_policy_trumps_hearts": ("policy_trumps", "hearts")}
NO_TRUMP_GRIDS = {"hcp_low_cards": ("low_cards",)}
GRIDS = {**TRUMP_GRIDS, **NO_TRUMP_GRIDS}
MOMENT_KEYS = ("all", *FEATURE_COLUMNS, *GRIDS)
# Trick count stored for a contract the hand cannot declare (Troela without three aces).
NOT_PLAYABLE = -1


def bin_hcp(hcp) -> pd.Categorical:
    """HCP as ordered bins (``0-4`` ... ``20+``)."""
    codes = np.searchsorted(HCP_BINS, np.asarray(hcp), side="right") - 1
    return pd.Categorical.from_codes(codes, categories=HCP_LABELS, ordered=True)


def contract_rows(table: pd.DataFrame, contract: int) -> pd.DataFrame:
    """Long-format rows of one contract from the per-hand table (hands that can declare it only).

    ``trumps`` is the number of cards the bidder holds in that contract's trump suit (0 at no trump);
    ``policy_trumps`` the number in the suit the bidding policy would name; ``hearts`` the hearts.
    """
    name = CONTRACT_CLI_NAMES[contract]
    if f"tricks_{name}" not in table.columns:
        return pd.DataFrame(columns=["contract", "contract_id", "hcp", "hcp_bin", "made", "score_money"])
    if contract == Contract.RIK_BETER:
        trumps_column = "hearts"
    elif contract == Contract.TROELA:
        trumps_column = "troela_trumps"
    elif rules.TRUMP_RULE[contract] == rules.TrumpRule.NONE:
        trumps_column = None
    else:
        trumps_column = "trumps"
    playable = table[f"tricks_{name}"].to_numpy() != NOT_PLAYABLE

    def column(key: str) -> np.ndarray:
        values = table[key].to_numpy()
        return values if playable.all() else values[playable]

    hcp = column("hcp")
    # Rows a budgeted double-dummy search left bounded: the scores above are their low ends (see
    # ``experiments.result_columns``); tables without bounds are exact throughout.
    bounds = f"exact_{name}" in table.columns
    bounded = ~column(f"exact_{name}") if bounds else np.zeros(hcp.size, dtype=bool)
    money, points = column(f"money_{name}").astype(np.int64), column(f"points_{name}").astype(np.int64)
    return pd.DataFrame({
        "contract": name, "contract_id": int(contract), "hcp": hcp, "hcp_bin": bin_hcp(hcp),
        "aces": column("aces"), "longest": column("longest"), "low_cards": column("low_cards"),
        "voids": column("voids"), "trumps": column(trumps_column) if trumps_column else np.zeros(hcp.size, np.int64),
        "policy_trumps": column("trumps"), "hearts": column("hearts"), "tricks": column(f"tricks_{name}"),
        "made": column(f"made_{name}"), "score_money": money, "score_points": points, "bounded": bounded,
        "score_money_high": column(f"money_high_{name}").astype(np.int64) if bounds else money,
        "score_points_high": column(f"points_high_{name}").astype(np.int64) if bounds else points,
    })


def bounded_note(moments: pd.DataFrame) -> str:
    """``; 12 of 4,000 rows bounded`` for titles when a budgeted search left some trick counts bounded."""
    overall = moments[moments["key"] == "all"]
    bounded = int(overall["bounded_sum"].sum()) if "bounded_sum" in overall else 0
    return f"; {bounded:,} of {int(overall['n'].sum()):,} rows bounded" if bounded else ""


def _key_codes(rows: pd.DataFrame, key: str) -> tuple[np.ndarray, int]:
    """Integer codes of one aggregate key for every row, and the number of codes."""
    if key == "all":
        return np.zeros(len(rows), dtype=np.int64), 1
    hcp = rows["hcp_bin"].cat.codes.to_numpy().astype(np.int64)
    if key == "hcp_bin":
        return hcp, len(HCP_LABELS)
    if key in GRIDS:
        codes = hcp
        for column in GRIDS[key]:
            codes = codes * GRID_WIDTH + rows[column].to_numpy().astype(np.int64)
        return codes, len(HCP_LABELS) * GRID_WIDTH ** len(GRIDS[key])
    codes = rows[key].to_numpy().astype(np.int64)
    return codes, int(codes.max()) + 1 if codes.size else 0


def bids_moments(table: pd.DataFrame) -> pd.DataFrame:
    """The mergeable summary of per-hand bid results: per contract and per code of each key in
    ``MOMENT_KEYS``, the number of hands and the sums of ``made``, money and points scores (and of the
    money scores' squares), of the bounded rows, and of the money and points scores at the bounded
    rows' high ends (``money_high``, ``points_high``; the low ends are ``money`` and ``points``). Chunk
    summaries add up (:func:`merge_bids_moments`).

    The grids are kept only where a chart reads them: ``TRUMP_GRIDS`` for trick contracts,
    ``NO_TRUMP_GRIDS`` for Misery and 1 Alone.
    """
    parts = []
    for contract in Contract:
        rows = contract_rows(table, contract)
        if rows.empty:
            continue
        grids = TRUMP_GRIDS if KIND[contract] == Kind.TRICKS else NO_TRUMP_GRIDS
        keys = np.array(["all", *FEATURE_COLUMNS, *grids])
        coded = [_key_codes(rows, key) for key in keys]
        # All keys at once: each key's codes shifted past the previous keys', one bincount per value.
        offsets = np.cumsum([0, *(size for _, size in coded)])
        codes = np.concatenate([key_codes + offset for (key_codes, _), offset in zip(coded, offsets)])
        values = {name: np.tile(rows[column].to_numpy(), len(keys))
                  for name, column in (("made", "made"), ("money", "score_money"), ("points", "score_points"),
                                       ("bounded", "bounded"), ("money_high", "score_money_high"),
                                       ("points_high", "score_points_high"))}
        sums = group_moments(codes, values, int(offsets[-1]))
        keep = np.flatnonzero(sums["n"] > 0)
        key_of = np.searchsorted(offsets, keep, side="right") - 1
        parts.append(pd.DataFrame({"contract": int(contract), "key": keys[key_of], "code": keep - offsets[key_of],
                                   **{name: column[keep] for name, column in sums.items()}}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["contract", "key", "code", "n"])


def merge_bids_moments(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up chunk summaries of :func:`bids_moments` into the summary of the whole run."""
    merged = pd.concat(parts, ignore_index=True)
    return merged.groupby(["contract", "key", "code"], sort=True).sum().reset_index()


def moment_rows(moments: pd.DataFrame, contract: int, key: str) -> pd.DataFrame:
    """The rows of one contract and key, by code."""
    rows = moments[(moments["contract"] == int(contract)) & (moments["key"] == key)]
    return rows.sort_values("code")


def rate_table(rows: pd.DataFrame, labels) -> pd.DataFrame:
    """Per code of one contract and key: n, made, rate with its Wilson interval, mean money score with
    a normal interval, mean points score, and the rows whose count is bounded; ``labels[code]`` names
    each bin.

    Bounded rows widen the money interval: its low end is taken from the rows' low scores
    (``mean_score``), its high end from their high scores (``mean_score_high``); ``mean_points`` and
    ``mean_points_high`` likewise. Without bounded rows both means are equal and the interval is the
    usual one."""
    n = rows["n"].to_numpy()
    made = rows["made_sum"].to_numpy()
    mean, score_lo, _ = moments_interval(n, rows["money_sum"].to_numpy(), rows["money_sq"].to_numpy())
    mean_high, _, score_hi = moments_interval(n, rows["money_high_sum"].to_numpy(), rows["money_high_sq"].to_numpy())
    rate_lo, rate_hi = wilson_interval(made, n)
    return pd.DataFrame({"bin": [str(labels[c]) for c in rows["code"]], "n": n.astype(np.int64),
                         "made": made.astype(np.int64), "rate": made / n, "rate_lo": rate_lo, "rate_hi": rate_hi,
                         "mean_score": mean, "score_lo": score_lo, "score_hi": score_hi,
                         "mean_points": rows["points_sum"].to_numpy() / n,
                         "bounded": rows["bounded_sum"].to_numpy().astype(np.int64), "mean_score_high": mean_high,
                         "mean_points_high": rows["points_high_sum"].to_numpy() / n})


def _labels(key: str):
    if key == "all":
        return ["all"]
    if key == "hcp_bin":
        return HCP_LABELS
    return range(14)


def summarize_bids(moments: pd.DataFrame) -> pd.DataFrame:
    """Long table: each contract overall (``feature == "all"``) and per bin of each hand feature.

    Columns: ``contract, feature, bin, n, made, rate, rate_lo, rate_hi, mean_score, score_lo,
    score_hi, mean_points, bounded, mean_score_high, mean_points_high``; ``mean_score`` is the
    declarer's money-mode result, ``mean_points`` the declarer's points-mode score; ``bounded`` counts
    the rows whose trick count a budgeted double-dummy search left as an interval, over which the
    ``_high`` means and the money interval widen (:func:`rate_table`).
    """
    parts = []
    for contract in Contract:
        name = CONTRACT_CLI_NAMES[contract]
        for key in ("all", *FEATURE_COLUMNS):
            rows = moment_rows(moments, contract, key)
            if not rows.empty:
                parts.append(rate_table(rows, _labels(key)).assign(contract=name, feature=key))
    columns = ["contract", "feature", "bin", "n", "made", "rate", "rate_lo", "rate_hi", "mean_score", "score_lo",
               "score_hi", "mean_points", "bounded", "mean_score_high", "mean_points_high"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


# The bidding chart's candidates: the trick contracts a bidder chooses (Troela is compulsory with three
# aces, not a choice). Misery and 1 Alone are judged on their own features (best_no_trump).
BIDDING_CANDIDATES = tuple(c for c in Contract if KIND[c] == Kind.TRICKS and c != Contract.TROELA)
NO_TRUMP_CONTRACTS = tuple(c for c in Contract if KIND[c] != Kind.TRICKS)


def _grid_sums(moments: pd.DataFrame, contracts, key: str) -> tuple[list[int], dict[str, np.ndarray]]:
    """The ``contracts`` that have rows of grid ``key``, and their ``n``, ``made_sum``, ``money_sum`` and
    ``bounded_sum`` as dense arrays shaped ``(contract, HCP bin, count, ...)``."""
    shape = (len(HCP_LABELS),) + (GRID_WIDTH,) * len(GRIDS[key])
    present, sums = [], {"n": [], "made_sum": [], "money_sum": [], "bounded_sum": []}
    for contract in contracts:
        rows = moment_rows(moments, contract, key)
        if rows.empty:
            continue
        present.append(int(contract))
        codes = rows["code"].to_numpy().astype(np.int64)
        for name, grids in sums.items():
            grids.append(np.bincount(codes, weights=rows[name].to_numpy(), minlength=int(np.prod(shape))))
    return present, {name: np.array(grids).reshape(len(present), *shape) for name, grids in sums.items()}


def _advice(contracts: list[int], n: np.ndarray, made: np.ndarray, money: np.ndarray, criterion: str):
    """The advice over one set of hands from each candidate's count and sums on exactly that set.

    ``criterion`` ``safe``: the highest contract made at least half the time; ``ev``: the best mean money,
    ties to the higher contract (it wins the auction). ``pass`` when none qualifies; ``None`` when no
    candidate has ``MIN_CELL`` hands. Returns ``(advice, mean money of the advice, 0 for pass, NaN for None)``.
    """
    judged = [i for i in range(len(contracts)) if n[i] >= MIN_CELL]
    if not judged:
        return None, float("nan")  # no advice, no money: a 0 would read as the money of passing
    rank = {i: (LEVEL[contracts[i]], contracts[i]) for i in judged}
    if criterion == "safe":
        chosen = [i for i in judged if made[i] >= 0.5 * n[i]]
        best = max(chosen, key=rank.get, default=None)
    else:
        best = max(judged, key=lambda i: (money[i] / n[i], rank[i]))
        best = best if money[best] > 0 else None
    if best is None:
        return "pass", 0.0
    return CONTRACT_CLI_NAMES[contracts[best]], float(money[best] / n[best])


def _spans(values: list[int]) -> str:
    """``[4, 5, 7]`` as ``4-5,7``."""
    spans = []
    for value in values:
        if spans and value == spans[-1][1] + 1:
            spans[-1][1] = value
        else:
            spans.append([value, value])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def best_contracts(moments: pd.DataFrame) -> pd.DataFrame:
    """The bidding chart: per cell, the highest trick contract made at least half the time and the one
    with the best mean money score, with the heart lengths at which Rik Beter is the advice instead.

    A cell is a set of hands: those with HCP in ``hcp_bin`` whose named suit (the suit the bidding
    policy would name as trumps: the longest, then the most high-card points, then the higher suit)
    has ``trumps`` cards. Every candidate but Rik Beter (Rik, 8 to 13 Alone, Open 13 Alone) plays with
    that suit as trumps, so all of them are measured on the same hands, each of which holds exactly
    ``trumps`` trumps in them. Rik Beter plays hearts, whose length the cell leaves open
    (any number up to ``trumps``), so its average over the cell would say nothing about a given hand.
    It is judged instead on each sub-cell of one heart length (the hands of the cell holding that many
    hearts), against every candidate measured on that same sub-cell; ``rik_beter_safe_hearts`` and
    ``rik_beter_ev_hearts`` list the heart lengths (``4-5,7``) at which Rik Beter is the advice.
    ``highest_safe`` and ``best_ev`` are then taken among the named-suit contracts over the rest of
    the cell: its hands with a heart length not listed. So each piece of advice is computed on exactly
    the hands it speaks of: "with these HCP and this many cards in the named suit, bid X" over the
    cell's hands outside the listed heart lengths, "... and this many hearts, bid Rik Beter" over that
    sub-cell. A contract counts only on sets of at least ``MIN_CELL`` hands; ``pass`` when no contract
    qualifies (best mean money not positive), empty when the set is smaller than ``MIN_CELL``.

    Troela is left out (compulsory with three aces, not a choice) and so are Misery and 1 Alone, whose
    success the trump length does not decide (:func:`best_no_trump`).

    Returns
    -------
    pandas.DataFrame
        One row per cell holding any hand: ``hcp_bin, trumps, hands, highest_safe,
        rik_beter_safe_hearts, best_ev, best_ev_value`` (mean money of ``best_ev``, 0 for ``pass``, NaN, a blank
        in the CSV, where the cell is too small to judge),
        ``rik_beter_ev_hearts``, ``bounded`` (the candidates' rows in the cell whose count is bounded:
        their money is taken at its low end).
    """
    columns = ["hcp_bin", "trumps", "hands", "highest_safe", "rik_beter_safe_hearts", "best_ev", "best_ev_value",
               "rik_beter_ev_hearts", "bounded"]
    contracts, sums = _grid_sums(moments, BIDDING_CANDIDATES, "hcp_policy_trumps_hearts")
    if not contracts:
        return pd.DataFrame(columns=columns)
    n, made, money = sums["n"], sums["made_sum"], sums["money_sum"]
    named = [i for i, c in enumerate(contracts) if c != Contract.RIK_BETER]
    named_contracts = [contracts[i] for i in named]
    by_hearts = range(GRID_WIDTH) if Contract.RIK_BETER in contracts else range(0)
    records = []
    for h, t in np.ndindex(n.shape[1], n.shape[2]):
        hands = int(n[:, h, t].sum(axis=1).max())
        if hands == 0:
            continue
        record = {"hcp_bin": HCP_LABELS[h], "trumps": t, "hands": hands,
                  "bounded": int(sums["bounded_sum"][:, h, t].sum())}
        for criterion, column in (("safe", "highest_safe"), ("ev", "best_ev")):
            hearts = [u for u in by_hearts if _advice(contracts, n[:, h, t, u], made[:, h, t, u], money[:, h, t, u],
                                                      criterion)[0] == "rik-beter"]
            rest = np.ones(GRID_WIDTH, dtype=bool)
            rest[hearts] = False
            advice, value = _advice(named_contracts, *(a[named, h, t][:, rest].sum(axis=1) for a in (n, made, money)),
                                    criterion)
            record[column] = advice or ""
            record[f"rik_beter_{criterion}_hearts"] = _spans(hearts)
            if criterion == "ev":
                record["best_ev_value"] = value
        records.append(record)
    return pd.DataFrame.from_records(records, columns=columns)


def best_no_trump(moments: pd.DataFrame) -> pd.DataFrame:
    """Misery and 1 Alone (closed, open, open to all): per cell of (HCP bin, cards ranked 2-7), the
    contract with the best mean money score and its make rate.

    These contracts have no trumps, so the trump length says nothing about them; a Misery declarer
    wants low cards and few high ones, which the cell fixes. Every hand can declare all of them, so
    within a cell they are measured on the same hands. Only contracts with at least ``MIN_CELL`` hands
    in the cell count; ties go to the higher contract.

    Returns
    -------
    pandas.DataFrame
        One row per cell: ``hcp_bin, low_cards, hands, top`` (best mean money), ``top_rate``,
        ``top_money``, ``advice`` (``top`` when its mean money is positive, else ``pass``).
    """
    columns = ["hcp_bin", "low_cards", "hands", "top", "top_rate", "top_money", "advice"]
    contracts, sums = _grid_sums(moments, NO_TRUMP_CONTRACTS, "hcp_low_cards")
    if not contracts:
        return pd.DataFrame(columns=columns)
    records = []
    for h, low in np.ndindex(len(HCP_LABELS), GRID_WIDTH):
        n, made, money = (sums[name][:, h, low] for name in ("n", "made_sum", "money_sum"))
        judged = [i for i in range(len(contracts)) if n[i] >= MIN_CELL]
        if not judged:
            continue
        best = max(judged, key=lambda i: (money[i] / n[i], LEVEL[contracts[i]], contracts[i]))
        name = CONTRACT_CLI_NAMES[contracts[best]]
        records.append({"hcp_bin": HCP_LABELS[h], "low_cards": low, "hands": int(n.max()), "top": name,
                        "top_rate": made[best] / n[best], "top_money": money[best] / n[best],
                        "advice": name if money[best] > 0 else "pass"})
    return pd.DataFrame.from_records(records, columns=columns)


def declarations(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per declared contract: ``round, seat, contract, made, undecided`` (the round had a dd turn
    the turn budget stopped)."""
    parts = [pd.DataFrame({"round": rounds["round"], "seat": seat, "contract": rounds[f"contract_{seat}"],
                           "made": rounds[f"made_{seat}"], "undecided": rounds["undecided"] > 0})
             for seat in range(4)]
    table = pd.concat(parts, ignore_index=True)
    return table[table["contract"] >= 0]


def rounds_moments(rounds: pd.DataFrame, rounds_per_game: int | None = None) -> pd.DataFrame:
    """The mergeable summary of full rounds, one row per ``(key, code)``: ``rounds``; ``passed-out``;
    ``undecided`` (rounds with a dd turn the turn budget stopped: not perfect-play results); ``contract``
    (code = contract id: declarations ``n``, ``made`` and ``undecided``, those in such rounds); ``points`` and ``money``
    (code = seat: ``n``, ``total`` and ``squares`` of the seat's score); with ``rounds_per_game``,
    ``games`` (:func:`game_tops`). Chunk summaries add up (:func:`merge_rounds_moments`).

    Parameters
    ----------
    rounds : pandas.DataFrame
        One chunk's rows of ``play_chunk``.
    rounds_per_game : int, optional
        Rounds per game; the chunk must hold whole games (see :func:`game_tops`).
    """
    declared = declarations(rounds)
    contracts = np.sort(declared["contract"].unique())
    made = declared.groupby("contract")["made"].sum().reindex(contracts).to_numpy()
    undecided = declared.groupby("contract")["undecided"].sum().reindex(contracts).to_numpy()
    count = declared.groupby("contract").size().reindex(contracts).to_numpy()
    parts = [pd.DataFrame({"key": ["rounds", "passed-out", "undecided"], "code": 0,
                           "n": [len(rounds), int(rounds["passed_out"].sum()), int((rounds["undecided"] > 0).sum())]}),
             pd.DataFrame({"key": "contract", "code": contracts.astype(np.int64), "n": count, "made": made,
                           "undecided": undecided})]
    for mode in ("points", "money"):
        scores = [rounds[f"{mode}_{seat}"].to_numpy(dtype=np.float64) for seat in range(4)]
        parts.append(pd.DataFrame({"key": mode, "code": np.arange(4), "n": len(rounds),
                                   "total": [x.sum() for x in scores], "squares": [(x * x).sum() for x in scores]}))
    if rounds_per_game is not None:
        parts.append(game_tops(rounds, rounds_per_game))
    return pd.concat(parts, ignore_index=True).fillna(0)


def game_tops(rounds: pd.DataFrame, rounds_per_game: int) -> pd.DataFrame:
    """Who won each game of ``rounds_per_game`` consecutive rounds, in points mode, as mergeable counts.

    Round ``r`` belongs to game ``r // rounds_per_game``; a game is won by the highest total of points
    over its rounds. Per seat (``code``), ``top_k`` counts the games in which the seat had the highest
    total together with ``k - 1`` other seats (``top_1``: won alone), so a tie can be scored either
    way later (:func:`game_summary` shares it). ``n`` is the number of games.

    Raises
    ------
    ValueError
        If some game has rounds outside ``rounds``: games must not straddle chunks.
    """
    game = rounds["round"].to_numpy() // rounds_per_game
    games, index, size = np.unique(game, return_inverse=True, return_counts=True)
    if (size != rounds_per_game).any():
        raise ValueError(f"rounds {int(rounds['round'].min())}..{int(rounds['round'].max())} are not whole games of "
                         f"{rounds_per_game} rounds: a game must not straddle chunks")
    totals = np.stack([np.bincount(index, weights=rounds[f"points_{seat}"].to_numpy(dtype=np.float64),
                                   minlength=games.size) for seat in range(4)], axis=1)
    top = totals == totals.max(axis=1, keepdims=True)
    sharing = top.sum(axis=1)
    return pd.DataFrame({"key": "games", "code": np.arange(4), "n": games.size,
                         **{f"top_{k}": (top & (sharing == k)[:, None]).sum(axis=0) for k in range(1, 5)}})


def game_chunk_size(rounds: int, rounds_per_game: int, chunk_size: int | None, default: int) -> int:
    """The chunk size of a run scored in games: a multiple of ``rounds_per_game`` so that no game
    straddles two chunks (each chunk's aggregate counts its own games).

    Parameters
    ----------
    rounds : int
        Rounds of the run; they must make whole games.
    rounds_per_game : int
        Rounds per game.
    chunk_size : int or None
        The chunk size asked for; None takes ``default`` rounded up to a multiple of ``rounds_per_game``.
    default : int
        The command's default chunk size.

    Raises
    ------
    InputError
        If ``rounds`` or an explicit ``chunk_size`` is not a multiple of ``rounds_per_game``.
    """
    if rounds % rounds_per_game:
        raise InputError(f"--rounds {rounds:,} is not a whole number of games of {rounds_per_game} rounds "
                         "(--rounds-per-game)")
    if chunk_size is None:
        return -(-default // rounds_per_game) * rounds_per_game
    if chunk_size % rounds_per_game:
        raise InputError(f"--chunk-size {chunk_size:,} is not a multiple of --rounds-per-game {rounds_per_game}: "
                         "a game must not straddle chunks")
    return chunk_size


def merge_rounds_moments(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Add up chunk summaries of :func:`rounds_moments`."""
    return pd.concat(parts, ignore_index=True).groupby(["key", "code"], sort=True).sum().reset_index()


def _moment(moments: pd.DataFrame, key: str) -> pd.DataFrame:
    return moments[moments["key"] == key].sort_values("code")


def undecided_rounds(moments: pd.DataFrame) -> int:
    """Rounds with a dd turn the turn budget stopped (:func:`rounds_moments`)."""
    return int(_moment(moments, "undecided")["n"].sum())


def contract_summary(moments: pd.DataFrame) -> pd.DataFrame:
    """Per contract: declarations, share of rounds, make rate with its 95% Wilson interval, and ``undecided``
    (declarations in rounds with a dd turn the turn budget stopped); plus passed-out deals."""
    n_rounds = int(_moment(moments, "rounds")["n"].sum())
    grouped = _moment(moments, "contract")
    size = grouped["n"].to_numpy().astype(np.int64)
    made = grouped["made"].to_numpy().astype(np.int64)
    rate_lo, rate_hi = wilson_interval(made, size)
    freq_lo, freq_hi = wilson_interval(size, n_rounds)
    table = pd.DataFrame({"contract": [CONTRACT_CLI_NAMES[c] for c in grouped["code"]],
                          "declared": size, "per_round": size / n_rounds,
                          "per_round_lo": freq_lo, "per_round_hi": freq_hi, "made": made,
                          "make_rate": made / size, "make_lo": rate_lo, "make_hi": rate_hi,
                          "undecided": grouped["undecided"].to_numpy().astype(np.int64)})
    passed = int(_moment(moments, "passed-out")["n"].sum())
    low, high = wilson_interval(passed, n_rounds)
    passed_row = pd.DataFrame([{"contract": "passed-out", "declared": passed, "per_round": passed / max(n_rounds, 1),
                                "per_round_lo": low, "per_round_hi": high, "undecided": 0}])
    return pd.concat([table, passed_row], ignore_index=True)


def seat_summary(moments: pd.DataFrame) -> pd.DataFrame:
    """Mean score per round for each seat in both scoring modes, with 95% intervals."""
    records = []
    for mode in ("points", "money"):
        for seat, row in zip(range(4), _moment(moments, mode).itertuples()):
            mean, low, high = moments_interval(row.n, row.total, row.squares)
            records.append({"mode": mode, "seat": SEAT_LETTERS[seat], "rounds": int(row.n), "mean": mean,
                            "low": low, "high": high})
    return pd.DataFrame.from_records(records)


def game_summary(moments: pd.DataFrame) -> pd.DataFrame:
    """Each seat's probability of winning a game (points mode), with 95% intervals, from the
    ``games`` rows of :func:`rounds_moments`.

    A game tied for the highest total between k seats counts 1/k to each of them, so the four win
    probabilities add up to 1 and each is the seat's expected share of a game. A share lies in
    [0, 1], so its variance is at most p(1 - p): the Wilson interval of the summed shares over the
    games is therefore a (slightly conservative where ties occur) 95% interval that stays inside
    [0, 1]. The games are taken as independent, which holds for random dealing; with ``packets``
    dealing the games of one chunk share a chain of deals. ``outright`` counts the games a seat won
    alone (Wilson interval ``outright_lo``, ``outright_hi``); ``shared_top`` those it tied for the top.

    Returns
    -------
    pandas.DataFrame
        Per seat: ``seat, games, wins, win_prob, win_lo, win_hi, outright, outright_prob, outright_lo,
        outright_hi, shared_top``; empty when the run was not scored in games.
    """
    columns = ["seat", "games", "wins", "win_prob", "win_lo", "win_hi", "outright", "outright_prob", "outright_lo",
               "outright_hi", "shared_top"]
    rows = _moment(moments, "games")
    if rows.empty:
        return pd.DataFrame(columns=columns)
    games = rows["n"].to_numpy().astype(np.int64)
    tops = {k: rows[f"top_{k}"].to_numpy().astype(np.int64) for k in range(1, 5)}
    wins = sum(tops[k] / k for k in tops)
    win_lo, win_hi = wilson_interval(wins, games)
    outright_lo, outright_hi = wilson_interval(tops[1], games)
    return pd.DataFrame({"seat": [SEAT_LETTERS[seat] for seat in rows["code"]], "games": games, "wins": wins,
                         "win_prob": wins / games, "win_lo": win_lo, "win_hi": win_hi, "outright": tops[1],
                         "outright_prob": tops[1] / games, "outright_lo": outright_lo, "outright_hi": outright_hi,
                         "shared_top": tops[2] + tops[3] + tops[4]})[columns]
