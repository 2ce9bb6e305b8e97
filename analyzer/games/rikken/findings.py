"""What a report says about the Rikken experiments: findings in a few sentences from the summary tables,
the glossary of their columns, chart captions and the headline rows of the long tables.

``BIDS_REPORT``, ``PLAY_REPORT`` and ``ADVISE_REPORT`` are the experiments' :class:`ReportSpec`; their
declarations (:mod:`analyzer.games.rikken.experiments`, :mod:`analyzer.games.rikken.advice_experiment`) hand them to
``analyzer report``.
"""

import pandas as pd

from analyzer.cards.pbn import SEAT_LETTERS
from analyzer.games.rikken.pairing import shared_deals_note
from analyzer.games.rikken.summary import MIN_CELL
from analyzer.reports.formatting import (
    format_number,
    format_percent,
    mean_with_interval,
    paired_difference_text,
    rate_with_interval,
)
from analyzer.reports.report_spec import MeanMeasure, RateMeasure, ReportSpec, TableSpec

# Contracts named in a sentence listing the best or worst of them.
LISTED = 3


def _contract_rate(row) -> str:
    return (f"{row.contract} {format_percent(row.rate)} (95% {format_percent(row.rate_lo)} to "
            f"{format_percent(row.rate_hi)}, n {row.n:,})")


def _money(row) -> str:
    return (f"{row.contract} {format_number(row.mean_score)} (95% {format_number(row.score_lo)} to "
            f"{format_number(row.score_hi)})")


def bids_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``rikken bids`` run: the contracts made most and least often, those that pay the
    declarer on average, where (by hand feature) each one pays, and what the bidding chart advises.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``summary``, ``bidding_chart``).
    manifest : dict
        The run's manifest.

    Returns
    -------
    list of str
        One sentence per finding.
    """
    summary = tables.get("summary")
    if summary is None or summary.empty:
        return ["The run has no summary of its contracts."]
    overall = summary[summary["feature"] == "all"]
    hands = manifest.get("hands")
    sentences = [(f"Rates are over all {f'{hands:,} ' if isinstance(hands, int) else ''}hands, each played in every "
                 f"one of the {len(overall)} contracts it could declare: how a contract fares on a random hand, not "
                 "on the hands that would bid it.")]
    by_rate = overall.sort_values("rate", ascending=False)
    made = by_rate[by_rate["rate"] > 0]
    never = by_rate[by_rate["rate"] == 0]
    text = "Made most often: " + "; ".join(_contract_rate(r) for r in made.head(LISTED).itertuples()) + "."
    rarest = made.iloc[LISTED:].tail(LISTED).iloc[::-1]
    if not rarest.empty:
        text += " Least often made: " + "; ".join(_contract_rate(r) for r in rarest.itertuples()) + "."
    if not never.empty:
        text += (f" Never made: {', '.join(never['contract'])} (below {format_percent(never['rate_hi'].max())} "
                 "with 95% confidence).")
    sentences.append(text)
    paying = overall[overall["score_lo"] > 0].sort_values("mean_score", ascending=False)
    if paying.empty:
        best = overall.sort_values("mean_score", ascending=False).iloc[0]
        sentences.append(f"No contract pays the declarer on average (mean money per hand with its 95% interval "
                         f"above zero); the best is {_money(best)}.")
    else:
        sentences.append("Pay the declarer on average (mean money per hand, interval above zero): "
                         + "; ".join(_money(r) for r in paying.head(LISTED).itertuples()) + ".")
    sentences.append(_where_contracts_pay(summary, overall))
    chart = tables.get("bidding_chart")
    if chart is not None and not chart.empty:
        judged = chart[chart["best_ev"].notna() & (chart["best_ev"].astype(str) != "")]
        if not judged.empty:
            advice = judged["best_ev"].value_counts()
            hands_by_advice = judged.groupby("best_ev")["hands"].sum().sort_values(ascending=False)
            share = hands_by_advice / hands_by_advice.sum()
            sentences.append(f"Bidding chart (best mean money, cells of at least {MIN_CELL} hands): "
                             + ", ".join(f"{name} in {advice[name]} cell{'s' if advice[name] > 1 else ''} "
                                         f"({format_percent(share[name], 0)} of the hands judged)"
                                         for name in hands_by_advice.index) + ".")
    sentences += strategy_findings(tables)
    return sentences


_FEATURE_WORDS = {"hcp_bin": "HCP", "trumps": "trumps", "aces": "aces", "longest": "cards in the longest suit",
                  "low_cards": "cards ranked 2-7", "voids": "voids"}


def _where_contracts_pay(summary: pd.DataFrame, overall: pd.DataFrame) -> str:
    """Per contract, the feature bins (of at least ``MIN_CELL`` hands) where its mean money's 95% interval lies
    above zero, by the feature whose paying bins hold the most hands; and the contracts that pay in none."""
    binned = summary[(summary["feature"] != "all") & (summary["n"] >= MIN_CELL) & (summary["score_lo"] > 0)]
    paying, never = [], []
    for contract in overall.sort_values("mean_score", ascending=False)["contract"]:
        rows = binned[binned["contract"] == contract]
        if rows.empty:
            never.append(contract)
            continue
        # A bin holding every hand that can declare the contract restates its definition (troela's three aces).
        hands = int(overall.loc[overall["contract"] == contract, "n"].iloc[0])
        rows = rows[rows["n"] < hands]
        if rows.empty:
            paying.append(f"{contract} on all its {hands:,} hands")
            continue
        feature = rows.groupby("feature")["n"].sum().idxmax()
        bins = rows[rows["feature"] == feature]
        paying.append(f"{contract} with {_FEATURE_WORDS.get(feature, feature)} {', '.join(map(str, bins['bin']))} "
                      f"({int(bins['n'].sum()):,} hands)")
    text = ("Where a contract pays the declarer (bins of one feature, at least "
            f"{MIN_CELL} hands, mean money's 95% interval above zero): " + "; ".join(paying) + "."
            if paying else f"No contract pays the declarer in any bin of at least {MIN_CELL} hands.")
    return text + (f" Never paying in any such bin: {', '.join(never)}." if never and paying else "")


def strategy_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """The learned bidding strategy's opening bids, when ``rikken strategy fit`` wrote its card into the run.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem; the strategy's are ``strategy.card_bids`` and
        ``strategy.calibration``.

    Returns
    -------
    list of str
        One sentence on the commonest opening bids and their make rates, one on calibration; none
        without a strategy.
    """
    bids = tables.get("strategy.card_bids")
    if bids is None or bids.empty:
        return []
    declared = bids[bids["bid"] != "pass"].sort_values("share", ascending=False)
    passes = bids.loc[bids["bid"] == "pass", "share"].sum()
    listed = "; ".join(f"{r.bid} with {format_percent(r.share)} of the hands (HCP {r.hcp}, trumps {r.trumps}), made "
                       f"{format_percent(r.make_rate)} (95% {format_percent(r.make_lo)} to {format_percent(r.make_hi)}, "
                       f"n {int(r.hands):,})" for r in declared.head(LISTED).itertuples())
    sentences = [(f"The bidding strategy learned from this run (strategy card below) opens {listed}; it passes "
                  f"{format_percent(passes)} of the held-out hands.")]
    calibration = tables.get("strategy.calibration")
    if calibration is not None and not calibration.empty:
        error = ((calibration["predicted"] - calibration["observed"]).abs() * calibration["n"]).sum()
        sentences.append(f"Its make-rate predictions on held-out hands are off by "
                         f"{format_percent(error / calibration['n'].sum())} on average (deciles of prediction, "
                         "weighted by hands).")
    return sentences


def play_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``rikken play`` run: the contract mix with make rates, passed-out rounds, and each
    seat's mean score in both scoring modes (and game wins when scored in games).

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``summary``, ``seats``, ``games``).
    manifest : dict
        The run's manifest.

    Returns
    -------
    list of str
        One sentence per finding.
    """
    sentences = []
    summary = tables.get("summary")
    if summary is not None and not summary.empty:
        declared = summary[summary["contract"] != "passed-out"].sort_values("per_round", ascending=False)
        passed = summary[summary["contract"] == "passed-out"]
        rounds = manifest.get("rounds")
        mix = "; ".join(f"{r.contract} in {format_percent(r.per_round)} of rounds (made {format_percent(r.make_rate)}"
                        f" of {r.declared:,})" for r in declared.head(LISTED).itertuples())
        sentences.append(f"Contracts played most{f' over {rounds:,} rounds' if isinstance(rounds, int) else ''}: "
                         f"{mix}." + (f" Passed out: {format_percent(passed['per_round'].iloc[0])} of rounds."
                                      if not passed.empty else ""))
        counted = declared[declared["declared"] >= MIN_CELL].sort_values("make_rate")
        if len(counted) > 1:
            low, high = counted.iloc[0], counted.iloc[-1]
            sentences.append(f"Among contracts declared at least {MIN_CELL} times, {low.contract} was made least "
                             f"often, {rate_with_interval(low.make_rate, low.make_lo, low.make_hi)}, and "
                             f"{high.contract} most, {rate_with_interval(high.make_rate, high.make_lo, high.make_hi)}.")
    seats = tables.get("seats")
    if seats is not None and not seats.empty:
        for mode, rows in seats.groupby("mode", sort=False):
            scores = ", ".join(f"{r.seat} {mean_with_interval(r.mean, r.low, r.high)}" for r in rows.itertuples())
            best, worst = rows.loc[rows["mean"].idxmax()], rows.loc[rows["mean"].idxmin()]
            apart = best["low"] > worst["high"]
            sentences.append(f"Mean {mode} score per round by seat: {scores}; "
                             + (f"{best['seat']} scores more than {worst['seat']} (their intervals do not "
                                "overlap)." if apart else "the seats' intervals overlap."))
    games = tables.get("games")
    if games is not None and not games.empty:
        sentences.append("Game wins (points mode, ties shared): " + ", ".join(
            f"{r.seat} {rate_with_interval(r.win_prob, r.win_lo, r.win_hi)}" for r in games.itertuples()) + f" of {int(games['games'].iloc[0]):,} games; an equal share is 25%.")
    undecided = manifest.get("undecided_rounds")
    if undecided:
        budget = manifest.get("params", {}).get("dd_turn_budget")
        sentences.append(f"{undecided:,} of {manifest.get('rounds', 0):,} rounds had a dd turn whose search the budget"
                         + (f" ({budget:,} completed tricks a turn)" if budget else "") + " stopped before it proved "
                         "a card best: those rounds (the rounds' undecided column) are not perfect-play results.")
    return sentences or ["The run has no summary tables."]


GLOSSARY = {
    "contract": "the contract, by its command-line name",
    "feature": "the hand feature the row groups by (all: every hand that could declare the contract)",
    "bin": "the feature's value or range for the row",
    "summary.n": "hands that could declare the contract (in the feature's bin)",
    "summary.made": "of those, the hands whose play-out made the contract",
    "rate": "share of the hands that made it",
    "mean_score": "declarer's mean money score per hand (zero-sum settlement)",
    "mean_points": "declarer's mean points-mode score per hand",
    "bounded": "rows whose trick count a budgeted double-dummy search left as an interval: their scores span it, "
               "the mean scores take its low ends, the _high means its high ends, and the 95% intervals widen over "
               "both",
    "mean_score_high": "mean money score with every bounded row at its high end (equals mean_score when none is)",
    "mean_points_high": "mean points score with every bounded row at its high end (equals mean_points when none is)",
    "hcp_bin": "the hand's high-card points (A 4, K 3, Q 2, J 1)",
    "trumps": "cards in the suit the bidder would name (his longest)",
    "hands": "hands in the cell",
    "highest_safe": "highest trick contract made at least half the time on the cell's hands (empty: under "
                    f"{MIN_CELL} hands)",
    "rik_beter_safe_hearts": "heart lengths at which Rik Beter is the highest contract made half the time instead",
    "best_ev": "the contract with the best mean money score on the cell's hands (pass if none is positive)",
    "best_ev_value": "that contract's mean money score per hand",
    "rik_beter_ev_hearts": "heart lengths at which Rik Beter has the best mean money instead",
    "declared": "declarations of the contract",
    "per_round": "declarations per round (passed-out: share of rounds nobody bid)",
    "make_rate": "share of the declarations made",
    "undecided": "declarations in rounds with a dd turn the turn budget stopped before proving a card best: not "
                 "perfect-play results",
    "strategy.card_bids.make_rate": "share of the hands opening with the bid that made it",
    "bid": "the learned strategy's opening bid",
    "share": "share of the held-out hands",
    "predicted": "the model's mean predicted make rate for those hands",
    "strategy.card_bids.hcp": "middle 80% of the high-card points of the hands opening with the bid",
    "strategy.card_bids.trumps": "middle 80% of the trump length of those hands",
    "strategy.card.hcp": "the cell's high-card points (A 4, K 3, Q 2, J 1)",
    "strategy.card.make_rate": "share of the cell's hands opening with the bid that made it",
    "panel": "the card's grid: trumps (by longest suit), low_cards (bids without trumps) or three_aces (Troela)",
    "low_cards": "middle 80% of the cards ranked 2-7 of those hands",
    "decile": "decile of the predicted make rate (1: lowest)",
    "observed": "observed make rate of the decile's hands",
    "predicted_money": "the model's mean predicted money score",
    "observed_money": "observed mean money score",
    "mode": "scoring mode: points or money (zero-sum)",
    "seat": "the seat (N, E, S, W)",
    "rounds": "rounds played",
    "mean": "the seat's mean score per round",
    "games": "games played (of --rounds-per-game rounds)",
    "wins": "games won, ties for the top shared equally",
    "win_prob": "share of games won (ties shared)",
    "outright": "games won alone",
    "outright_prob": "share of games won alone",
    "shared_top": "games tied for the highest total",
}

def advise_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``rikken advise`` run: the best option and how it compares with the next ones.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``advice``, best option first).
    manifest : dict
        The run's manifest.

    Returns
    -------
    list of str
        One sentence per finding.
    """
    from analyzer.games.rikken.advice_verdict import bracket_sentences, headline, play_name
    advice = tables.get("advice")
    if advice is None or advice.empty:
        return ["The run has no advice table."]
    params = manifest.get("params", {})
    options = advice[advice["option"] != "pass"]
    sentences = [f"The hand {params.get('hand', '')} at seat {'NESW'[params['seat']] if 'seat' in params else '?'} "
                 f"was played out in {len(options)} ways on the same {int(advice.iloc[0]['n']):,} deals of the other "
                 "cards, beside passing (money 0).", headline(advice)["sentence"]]
    for row in advice.iloc[1:LISTED].itertuples():
        if row.option == "pass":
            continue
        difference = paired_difference_text(row.option, advice.iloc[0]["option"], row.money_vs_best, row.vs_best_lo,
                                            row.vs_best_hi, "money a deal")
        sentences.append(f"{row.option}: made {rate_with_interval(row.rate, row.rate_lo, row.rate_hi)}, money "
                         f"{mean_with_interval(row.mean_money, row.money_lo, row.money_hi)}; on the same deals, "
                         f"{difference}.")
    bracket = tables.get("bracket")
    if bracket is not None and not bracket.empty:
        flagged = bracket_sentences(bracket.fillna({"flag": ""}), options, play_name(manifest.get("policies", "")))
        sentences.append(f"The bracket played {int(bracket['n'].iloc[0]):,} of the deals again with perfect play on "
                         "both sides. " + (" ".join(flagged) if flagged else
                                           "No option's verdict changes between the two ways of playing."))
    return sentences


ADVICE_GLOSSARY = {
    "option": "how the hand declares: the contract and, where the hand names it, the trump suit's letter",
    "play": "the trump it is played in and the card the hand calls (blind: an ace of a suit the hand is void in)",
    "advice.n": "deals played out (the same deals for every option)",
    "advice.made": "deals on which the option was made",
    "mean_money": "declarer's mean money score per deal (zero-sum settlement)",
    "money_vs_best": "mean money per deal minus the best option's, paired on the same deals",
    "mean_money_high": "mean money score with every bounded row at its high end (equals mean_money when none is)",
    "target": "what the declaring side needs",
    "perfect_rate": "make rate with perfect play on both sides (double dummy), on the bracket's deals",
    "perfect_money": "mean money with perfect play on both sides (low ends of bounded counts)",
    "perfect_money_high": "mean money with perfect play, bounded counts at their high ends",
    "money_change": "perfect-play money minus ordinary-play money, paired on the same deals",
    "rate_change": "perfect-play make rate minus ordinary-play make rate, paired on the same deals",
    "verdict": "pays (money interval above zero), loses (below zero) or unclear, under ordinary play",
    "perfect_verdict": "pays, loses or unclear under perfect play on the bracket's deals",
    "flag": "differs: pays one way and loses the other; made less / made more: perfect play makes it less / "
            "more often on the same deals",
    **{f"p_tricks_{k}": f"share of the deals on which the declaring side took {k} trick{'s' if k != 1 else ''}"
       for k in range(14)},
}

_BIDS_CAPTIONS = {
    "success_by_trumps_hcp": "Each trick contract's success rate (cell labels and colour, in %) by the length of its "
                             f"trump suit and HCP, in cells of at least {MIN_CELL} hands; the blue panels give the "
                             "hands per cell, and contracts made in under 5% of every cell are listed instead of "
                             "drawn.",
    "misery_one_alone_by_low_cards": "Misery and 1 Alone: the best of them per cell of (cards ranked 2-7, HCP) by mean "
                                     "money, outlined where it pays; right, each contract's success rate with its 95% "
                                     "band against the cards ranked 2-7.",
    "bidding_chart": "The bidding chart: per cell of HCP and length of the suit you would name, the highest contract "
                     "made at least half the time (left) and the one with the best mean money score (right).",
    "strategy.card": "The learned bidding strategy as a player reads it (`rikken strategy fit`, held-out hands): "
                     "left, the commonest opening bid per cell of HCP and length of the longest suit; right, every "
                     "opening bid with its share of hands, observed make rate and 95% interval, the model's "
                     "predicted rate, and the middle 80% of the hands that bid it.",
    "strategy.calibration": "Calibration of the learned strategy on held-out hands: per decile of predicted make "
                            "rate, the observed rate with its 95% interval against the prediction (on the diagonal "
                            "when the model is right).",
}

def settings_as_read(params: dict) -> dict:
    """A Rikken run's parameters for the report, with the seat numbers ``seat`` and ``dealer`` as letters."""
    shown = dict(params)
    for key in ("seat", "dealer"):
        if isinstance(shown.get(key), int):
            shown[key] = SEAT_LETTERS[shown[key]]
    return shown


BIDS_REPORT = ReportSpec(
    findings=bids_findings, glossary=GLOSSARY, captions=_BIDS_CAPTIONS, settings=settings_as_read,
    shared_deals=shared_deals_note, unit="deals",
    tables={"summary": TableSpec("One row per contract and bin of a hand feature; the headline rows are each "
                                 "contract over all hands that could declare it.",
                                 headline=lambda t: t[t["feature"] == "all"],
                                 keys=("contract", "feature", "bin"),
                                 measures=(RateMeasure("rate", "n"),
                                           MeanMeasure("mean_score", "score_lo", "score_hi", "n"))),
            "bidding_chart": TableSpec("One row per cell of the bidding chart (HCP bin, cards in the named "
                                       "suit)."),
            "strategy.card_bids": TableSpec("The learned strategy's opening bids on the held-out hands, one row "
                                            "per bid (pass included).", keys=("bid",),
                                            measures=(RateMeasure("make_rate", "hands"),)),
            "strategy.calibration": TableSpec("One row per contract and decile of the predicted make rate, "
                                              "on held-out hands.", keys=("contract", "decile"),
                                              measures=(RateMeasure("observed", "n"),)),
            "strategy.card": TableSpec("The strategy card's panels: per cell of HCP and trump length (panel "
                                       "trumps) or low cards (panel low_cards: bids without trumps only), and "
                                       "the three-ace hands by HCP, the commonest opening bid and its share of "
                                       "the cell's hands.")})
ADVISE_REPORT = ReportSpec(
    findings=advise_findings, glossary={**GLOSSARY, **ADVICE_GLOSSARY}, settings=settings_as_read,
    captions={"tricks_per_option": "For each option (best mean money on top), the share of deals on which the "
                                   "declaring side took each number of tricks; outlined cells make the contract."},
    tables={"advice": TableSpec("One row per option and pass (money 0), best mean money score first.",
                                keys=("option",),
                                # as the terminal's table: the contract repeats the option, the made count is
                                # the rate of the deals, points are the other scoring mode; the trick counts are
                                # the chart's
                                hidden=("contract", "made", "mean_points", "points_", "p_tricks_"),
                                measures=(RateMeasure("rate", "n"),
                                          MeanMeasure("mean_money", "money_lo", "money_hi", "n"))),
            "bracket": TableSpec("One row per option: ordinary play against perfect play on both sides, on the "
                                 "same deals; flag names a changed verdict or make rate.", keys=("option",),
                                 measures=(RateMeasure("perfect_rate", "n"),
                                           MeanMeasure("perfect_money", "perfect_money_lo", "perfect_money_hi",
                                                       "n")))})
PLAY_REPORT = ReportSpec(
    findings=play_findings, glossary={**GLOSSARY, "summary.made": "declarations made"},
    settings=settings_as_read, shared_deals=shared_deals_note, unit="rounds",
    captions={"contracts_and_scores": "Left: each contract's share of rounds (bars) and make rate with its 95% "
                                      f"interval (points; a contract declared under {MIN_CELL} times shows its count "
                                      "instead). "
                                      "Right: each seat's mean score per round in both scoring modes, with 95% "
                                      "intervals."},
    tables={"summary": TableSpec("One row per contract declared, and the passed-out rounds.",
                                 keys=("contract",),
                                 measures=(MeanMeasure("per_round", "per_round_lo", "per_round_hi"),
                                           RateMeasure("make_rate", "declared"))),
            "seats": TableSpec("Each seat's mean score per round, in both scoring modes.", keys=("mode", "seat"),
                               measures=(MeanMeasure("mean", "low", "high"),)),
            "games": TableSpec("Each seat's game wins (points mode).", keys=("seat",),
                               measures=(RateMeasure("win_prob", "games"),))})
