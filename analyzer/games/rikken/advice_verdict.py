"""What ``rikken advise`` concludes: the headline (declare one option, pass, or several options within
noise of each other) and the bracket from ordinary to perfect play, with the options whose verdict
changes between them.

Both read the tables of :mod:`advice` (which takes ``PASS`` from here); neither plays a card.
"""

import numpy as np
import pandas as pd

from analyzer.reports.stats import moments_interval, wilson_interval

# The name of the row of not declaring at all (money 0 on every deal, the baseline).
PASS = "pass"
PAYS, LOSES, UNCLEAR = "pays", "loses", "unclear"
# Bracket flags: the verdicts are opposite (one money interval above zero, the other below); perfect play
# makes the option less (more) often on the same deals, the paired difference's interval clear of zero.
DIFFERS, MADE_LESS, MADE_MORE = "differs", "made less", "made more"


def verdict(low: float, high: float) -> str:
    """``pays`` when a money interval lies above zero, ``loses`` below it, else ``unclear``."""
    if low > 0:
        return PAYS
    if high < 0:
        return LOSES
    return UNCLEAR


def headline(table: pd.DataFrame) -> dict:
    """The advice in one sentence, from :func:`advice.advice_table` (best mean money first, ``pass`` among
    the rows).

    ``pass`` when no option's money interval lies above zero. Otherwise the best option (highest mean
    money), unless other rows (pass included) are within noise of it: their paired difference to it on
    the same deals has an interval reaching zero, and then they are all named instead of one best.

    Returns
    -------
    dict
        ``advice`` (an option's name, ``pass``, or ``close`` for rows within noise), ``options`` (the rows
        named, best first) and ``sentence``.
    """
    options = table[table["option"] != PASS]
    best = table.iloc[0]
    if not (options["money_lo"] > 0).any():
        top = options.iloc[0]
        return {"advice": PASS, "options": [PASS],
                "sentence": f"Advice: pass. No option's money interval lies above zero; the best, {top['option']} "
                            f"({top['play']}), {_money(top)} a deal."}
    close = table.iloc[1:][table["vs_best_hi"].iloc[1:] >= 0]
    if close.empty:
        runner = table.iloc[1]
        return {"advice": best["option"], "options": [best["option"]],
                "sentence": f"Advice: {best['option']} ({best['play']}), made {100 * best['rate']:.1f}%, "
                            f"{_money(best)} a deal; {_ahead(runner)}."}
    names = [best["option"], *close["option"]]
    return {"advice": "close", "options": names,
            "sentence": f"Advice: no single best. {_listed(names)} are within noise of each other (paired on the "
                        f"same deals, their differences to {best['option']} include zero); {best['option']} has "
                        f"the highest mean, {_money(best)} a deal."}


def _money(row) -> str:
    return f"money {row['mean_money']:+.2f} [{row['money_lo']:+.2f}, {row['money_hi']:+.2f}]"


def _ahead(runner) -> str:
    return (f"{-runner['money_vs_best']:.2f} a deal ahead of the next, {runner['option']} (95% "
            f"{-runner['vs_best_hi']:.2f} to {-runner['vs_best_lo']:.2f}, same deals)")


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def bracket_table(moments: dict, options: list, ordinary: pd.DataFrame) -> pd.DataFrame:
    """Each option under ordinary play and under perfect play on both sides, on the same deals, in the
    order of ``ordinary`` (:func:`advice.advice_table`, without its pass row); ``options`` are the
    ``advice.Option`` rows the moments index.

    Columns: ``option``, ``n`` (deals played both ways); ``rate`` with ``rate_lo``/``rate_hi`` and
    ``mean_money`` with ``money_lo``/``money_hi`` under ordinary play on those deals; the same with the
    ``perfect_`` prefix under perfect play (``perfect_money_lo`` from the low ends of bounded counts,
    ``perfect_money_hi`` and ``perfect_money_high`` from the high ends) and ``bounded``; the paired
    differences perfect minus ordinary in money (``money_change``, ``change_lo``, ``change_hi``) and in
    the make rate (``rate_change``, ``rate_change_lo``, ``rate_change_hi``); ``verdict`` (ordinary play, over
    every deal of the run) and ``perfect_verdict`` (:func:`verdict`), and ``flag``.
    """
    n = moments["bracket_n"]
    rate_lo, rate_hi = wilson_interval(moments["bracket_made"], n)
    perfect_lo, perfect_hi = wilson_interval(moments["bracket_perfect_made"], n)
    money, money_lo, money_hi = moments_interval(n, moments["bracket_money_sum"], moments["bracket_money_squares"])
    low, perfect_money_lo, _ = moments_interval(n, moments["bracket_perfect_low_sum"],
                                                moments["bracket_perfect_low_squares"])
    high, _, perfect_money_hi = moments_interval(n, moments["bracket_perfect_high_sum"],
                                                 moments["bracket_perfect_high_squares"])
    change, change_lo, _ = moments_interval(n, moments["bracket_diff_low_sum"], moments["bracket_diff_low_squares"])
    _, _, change_hi = moments_interval(n, moments["bracket_diff_high_sum"], moments["bracket_diff_high_squares"])
    made_change, made_lo, made_hi = moments_interval(n, moments["bracket_made_diff_sum"],
                                                     moments["bracket_made_diff_squares"])
    table = pd.DataFrame({
        "option": [o.name for o in options], "n": n.astype(np.int64),
        "rate": moments["bracket_made"] / n, "rate_lo": rate_lo, "rate_hi": rate_hi,
        "mean_money": money, "money_lo": money_lo, "money_hi": money_hi,
        "perfect_rate": moments["bracket_perfect_made"] / n, "perfect_rate_lo": perfect_lo,
        "perfect_rate_hi": perfect_hi, "perfect_money": low, "perfect_money_high": high,
        "perfect_money_lo": perfect_money_lo, "perfect_money_hi": perfect_money_hi,
        "bounded": moments["bracket_bounded"].astype(np.int64),
        "money_change": change, "change_lo": change_lo, "change_hi": change_hi,
        "rate_change": made_change, "rate_change_lo": made_lo, "rate_change_hi": made_hi})
    whole = ordinary.set_index("option")
    table["verdict"] = [verdict(whole.at[name, "money_lo"], whole.at[name, "money_hi"]) for name in table["option"]]
    table["perfect_verdict"] = [verdict(lo, hi) for lo, hi in zip(table["perfect_money_lo"], table["perfect_money_hi"])]
    table["flag"] = [_flag(row) for row in table.itertuples()]
    order = {name: i for i, name in enumerate(ordinary["option"])}
    return table.sort_values("option", key=lambda names: names.map(order)).reset_index(drop=True)


def _flag(row) -> str:
    """The bracket's flag of one option (see the module constants), or empty."""
    if {row.verdict, row.perfect_verdict} == {PAYS, LOSES}:
        return DIFFERS
    if row.rate_change_hi < 0:
        return MADE_LESS
    if row.rate_change_lo > 0:
        return MADE_MORE
    return ""


def play_name(label: str) -> str:
    """The ordinary play in a sentence, from ``experiments.Policies.label()``: ``heuristic``, or
    ``declarers expert, defenders heuristic``."""
    return label.removeprefix("policy ")


def bracket_sentences(bracket: pd.DataFrame, ordinary: pd.DataFrame, policy: str) -> list[str]:
    """One sentence a player understands per flagged option of :func:`bracket_table`; ``ordinary`` is the
    advice table (every deal of the run), ``policy`` names the ordinary play (``heuristic``)."""
    whole = ordinary.set_index("option")
    sentences = []
    for row in bracket[bracket["flag"] != ""].itertuples():
        full = whole.loc[row.option]
        deals = f"on {row.n:,} of the same deals"
        perfect = (f"{row.perfect_money:+.2f} a deal (95% {row.perfect_money_lo:+.2f} to "
                   f"{row.perfect_money_hi:+.2f})")
        ordinary_money = f"{full['mean_money']:+.2f} a deal"
        if row.flag == DIFFERS:
            if full["mean_money"] > 0:
                why = "it pays only because the simulated defenders go wrong"
                text = (f"{row.option} pays under {policy} play ({ordinary_money}) but loses with perfect play on "
                        f"both sides, {perfect} {deals}: {why}")
            else:
                why = "well played, it can pay where the simulated play loses"
                text = (f"{row.option} loses under {policy} play ({ordinary_money}) but pays with perfect play on "
                        f"both sides, {perfect} {deals}: {why}")
            sentences.append(text + ".")
        elif row.flag == MADE_LESS:
            sentences.append(
                f"{row.option} is made {100 * row.rate:.0f}% under {policy} play but only "
                f"{100 * row.perfect_rate:.0f}% (95% {100 * row.perfect_rate_lo:.0f} to "
                f"{100 * row.perfect_rate_hi:.0f}) with perfect play on both sides, {deals}: strong defenders "
                "beat it far more often than the simulated ones.")
        else:
            sentences.append(
                f"{row.option} is made {100 * row.rate:.0f}% under {policy} play but "
                f"{100 * row.perfect_rate:.0f}% (95% {100 * row.perfect_rate_lo:.0f} to "
                f"{100 * row.perfect_rate_hi:.0f}) with perfect play on both sides, {deals}: the simulated "
                "declarer misses makes a strong one finds.")
    return sentences
