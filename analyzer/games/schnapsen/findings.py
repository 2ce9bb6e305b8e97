"""What a report says about the Schnapsen experiments: findings in a few sentences from the summary
tables, the glossary of their columns and chart captions.

``MATCH_REPORT`` and ``CLOSING_REPORT`` are the experiments' :class:`analyzer.reports.report.ReportSpec`;
their declarations in :mod:`analyzer.games.schnapsen.experiments` hand them to ``analyzer report``.
"""

import pandas as pd

from analyzer.reports.formatting import (
    format_number,
    format_percent,
    mean_with_interval,
    paired_difference_text,
    rate_with_interval,
)
from analyzer.reports.report_spec import MeanMeasure, RateMeasure, ReportSpec, TableSpec
from analyzer.reports.stats import wilson_interval

# A closing-table group needs this many positions before a sentence names it.
MIN_GROUP = 30


def _gain(row) -> str:
    return (f"gain {format_number(row['gain'])}, 95% {format_number(row['gain_lo'])} to "
            f"{format_number(row['gain_hi'])}, n {row['n']:,}")


def match_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``schnapsen match`` run, each sentence a new fact: A's Bummerl win rate and whether
    either bot is clearly stronger, the paired game-point difference, the seats, and each bot's closing.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``summary_overall``, ``summary_paired``, ``summary_by_seat``,
        ``summary_per_bot``).
    manifest : dict
        The run's manifest.

    Returns
    -------
    list of str
        One sentence per finding.
    """
    overall = tables.get("summary_overall")
    if overall is None or overall.empty:
        return ["The run has no overall summary."]
    row = overall.iloc[0]
    a, b = row["bot_a"], row["bot_b"]
    if a == b:  # self-play: the seats of the pair tell them apart
        a, b = f"{a} (A)", f"{b} (B)"
    verdict = (f"{a} is the stronger bot" if row["a_win_lo"] > 0.5 else f"{b} is the stronger bot"
               if row["a_win_hi"] < 0.5 else "neither bot is clearly stronger at this size")
    sentences = [f"{a} won {row['a_wins']:,} of {row['matches']:,} Bummerls against {b}: "
                 f"{rate_with_interval(row['a_win_rate'], row['a_win_lo'], row['a_win_hi'])}; {verdict}."]
    paired = tables.get("summary_paired")
    points = None if paired is None else paired[paired["metric"].str.startswith("game points")]
    if points is not None and not points.empty:
        r = points.iloc[0]
        difference = paired_difference_text(a, b, r["mean"], r["lo"], r["hi"], "game points a deal")
        sentences.append(f"On the same deals, {difference} over {r['pairs']:,} pairs.")
    seats = tables.get("summary_by_seat")
    if seats is not None and len(seats) == 2:
        sentences.append(f"By seat, {a} won " + " and ".join(
            f"{rate_with_interval(r.a_win_rate, r.a_win_lo, r.a_win_hi)} of {r.matches:,} from seat {r.a_seat}"
            for r in seats.itertuples()) + ".")
    bots = tables.get("summary_per_bot")
    if bots is not None and not bots.empty and "closes_per_deal" in bots.columns:
        name = {"A": a, "B": b}
        sentences += [f"{name.get(r.bot, r.label)} closed the stock {format_number(r.closes_per_deal)} times a deal" + (
            f" and won {format_percent(r.close_success)} of its {r.closes:,} closing{'' if r.closes == 1 else 's'}." if r.closes else ".")
            for r in bots.itertuples()]
    return sentences


def closing_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``schnapsen closing`` run: how often closing wins the deal against playing on, the
    mean gain in game points, and where closing pays most and least.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The run's summary tables by CSV stem (``summary_closing``).
    manifest : dict
        The run's manifest.

    Returns
    -------
    list of str
        One sentence per finding.
    """
    table = tables.get("summary_closing")
    if table is None or table.empty:
        return ["The run has no closing summary."]
    overall = table[table["factor"] == "all"].iloc[0]
    n = int(overall["n"])

    def share(column: str) -> str:
        # a Wilson interval over the positions: exact for a yes/no per position (closing gained), and on
        # the safe side for a mean of shares in [0, 1] (their variance is at most that of yes/no answers)
        low, high = wilson_interval(overall[column] * n, n)
        return rate_with_interval(overall[column], float(low), float(high))

    sentences = [f"Over {n:,} positions where closing was legal, closing won the deal {share('close_win')} of the "
                 f"time and playing on {share('playon_win')}.",
                 f"Closing gained {mean_with_interval(overall['gain'], overall['gain_lo'], overall['gain_hi'])} game "
                 f"points on average and was the better choice in {share('close_better_share')} of positions."]
    groups = table[(table["factor"] != "all") & (table["n"] >= MIN_GROUP)]
    if not groups.empty:
        best, worst = groups.loc[groups["gain"].idxmax()], groups.loc[groups["gain"].idxmin()]
        sentences.append(f"Among groups of at least {MIN_GROUP} positions, closing does best with {best['factor']} "
                         f"{best['value']} ({_gain(best)}) and worst with {worst['factor']} {worst['value']} "
                         f"({_gain(worst)}).")
        paying = groups[groups["gain_lo"] > 0]
        sentences.append("Groups where closing gains with a 95% interval above zero: " + (
            ", ".join(f"{r.factor} {r.value}" for r in paying.itertuples()) if not paying.empty else "none") + ".")
    return sentences


GLOSSARY = {
    "bot_a": "bot A", "bot_b": "bot B", "matches": "Bummerl matches played",
    "a_wins": "matches bot A won", "a_win_rate": "share of the matches bot A won",
    "deals": "deals played in those matches", "a_gp_per_deal": "bot A's game points per deal (mean over the pairs of matches)",
    "b_gp_per_deal": "bot B's game points per deal (mean over the pairs of matches)", "gp_a": "bot A's game points", "gp_b": "bot B's game points",
    "a_seat": "bot A's seat in the first deal (0 or 1)",
    "metric": "the paired difference measured, per pair of matches on the same deals",
    "pairs": "pairs of matches (seats swapped on the same deals)", "mean": "mean paired difference",
    "factor": "what the row groups positions by (all: every position)", "value": "the factor's value or points bin",
    "summary_closing.n": "positions where closing was legal",
    "close_win": "share of the worlds (sampled, or all of them where exact) in which closing won the deal",
    "playon_win": "share in which playing on won the deal", "close_gp": "mean game points after closing",
    "playon_gp": "mean game points after playing on", "gain": "mean game points of closing minus playing on",
    "close_better_share": "share of the positions where closing gained",
    "exact_share": "share of the positions whose worlds were all enumerated (exact, not sampled)",
    "bot_close_share": "share of the positions where the bot itself chose to close",
    "bot": "A or B", "label": "the bot", "wins": "matches won", "win_rate": "share of the matches won",
    "gp_per_deal": "game points per deal (mean over the pairs of matches)",
    "closes": "times the bot closed the stock", "closes_per_deal": "closings per deal played",
    "close_wins": "closings that won the deal", "close_success": "share of the closings that won the deal",
    "close_lo": "lower end of the 95% interval of close_success",
    "close_hi": "upper end of the 95% interval of close_success",
    "closes_a": "times bot A closed", "closes_b": "times bot B closed",
    "close_wins_a": "bot A's closings that won the deal", "close_wins_b": "bot B's closings that won the deal",
}

MATCH_CAPTIONS = {
    "match_win_rate": "Bummerls won by each bot, overall and with A in each seat, with 95% Wilson intervals; the "
                      "dashed line is an even match.",
    "match_game_points": "Game points per deal of each bot and the paired difference A - B, with 95% intervals over "
                         "the pairs of matches.",
    "match_closing": "How often each bot closes the stock, and how often its closings win the deal (95% Wilson "
                     "intervals).",
}

CLOSING_CAPTIONS = {
    "closing_success": "Probability that closing wins the deal, by cards left in the stock and own counted points "
                       "(cell: rate and positions).",
    "closing_gain": "Mean game points of closing minus playing on, by cards in the stock and own counted points; "
                    "blue cells favour closing.",
    "close_when": "Share of positions where closing beats playing on, by trumps held and own counted points: close "
                  "where it is above one half.",
}

MATCH_REPORT = ReportSpec(
    findings=match_findings, glossary=GLOSSARY, captions=MATCH_CAPTIONS,
    tables={"summary_overall": TableSpec("The match result over all matches.", keys=("bot_a", "bot_b"),
                                         measures=(RateMeasure("a_win_rate", "matches"),)),
            "summary_paired": TableSpec("Paired differences A - B per pair of matches on the same deals.",
                                        keys=("metric",), measures=(MeanMeasure("mean", "lo", "hi"),)),
            "summary_per_bot": TableSpec("Each bot's matches, game points and closings.", keys=("bot", "label"),
                                         measures=(RateMeasure("win_rate", "matches"),
                                                   MeanMeasure("gp_per_deal", "gp_lo", "gp_hi", "deals"))),
            "summary_by_seat": TableSpec("Bot A's results by its seat.")})
CLOSING_REPORT = ReportSpec(
    findings=closing_findings, glossary=GLOSSARY, captions=CLOSING_CAPTIONS,
    tables={"summary_closing": TableSpec("Closing against playing on, by one factor of the position at a time.",
                                         keys=("factor", "value"),
                                         measures=(RateMeasure("close_win", "n"),
                                                   MeanMeasure("gain", "gain_lo", "gain_hi", "n")))})


def advise_findings(tables: dict[str, pd.DataFrame], manifest: dict) -> list[str]:
    """Findings of a ``schnapsen advise`` run: the best action's game points with its interval and how often
    it won, and which actions are within noise of it (their difference to it, on the same worlds, spans 0)."""
    advice = tables.get("advice")
    if advice is None or advice.empty:
        return ["The run has no advice table."]
    best = advice.iloc[0]
    sentences = [f"{best['action']} has the highest mean: "
                 f"{mean_with_interval(best['expected_gp'], best['gp_lo'], best['gp_hi'])} game points over "
                 f"{int(best['worlds']):,} worlds, won in {_won(best)} of them."]
    close = [str(r.action) for r in advice.iloc[1:].itertuples() if r.vs_best_lo <= 0 <= r.vs_best_hi]
    if close:
        sentences.append(f"Within noise of it on the same worlds: {', '.join(close)}.")
    return sentences


def _won(row) -> str:
    """The share of worlds won, with its interval when it has one (runs before it had none; enumerated worlds
    give an exact share)."""
    if "win_lo" not in row or row["win_lo"] == row["win_hi"]:
        return format_percent(row["win_probability"])
    return rate_with_interval(row["win_probability"], row["win_lo"], row["win_hi"])


ADVISE_REPORT = ReportSpec(
    findings=advise_findings, unit="worlds",
    glossary={"action": "a legal action of the player to move (a card, or a closing or exchange)",
              "expected_gp": "the action's mean game points over the worlds (signed: + for the player to move)",
              "gp_lo": "lower 95% bound of expected_gp", "gp_hi": "upper 95% bound of expected_gp",
              "win_probability": "share of the worlds the action won the deal",
              "vs_best": "the action's game points minus the best action's, on the same worlds",
              "vs_best_lo": "lower 95% bound of vs_best", "vs_best_hi": "upper 95% bound of vs_best",
              "worlds": "sampled (or, once every card is known, exact) worlds each action was played out on"},
    tables={"advice": TableSpec("Each legal action played out on the same worlds, best first.", keys=("action",),
                                measures=(MeanMeasure("expected_gp", "gp_lo", "gp_hi", "worlds"),))})
