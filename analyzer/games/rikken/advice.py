"""What one Rikken hand should declare: every contract it could bid, played out on random deals of the rest.

The hand sits at a chosen seat, with a chosen dealer (the seat after the dealer leads). The other 39
cards are dealt uniformly among the deals meeting any further constraints. Each *option* is a
contract with the trump the hand plays it in and the card it calls: the trump the bidding policy
would name, and for Rik and the Alone contracts also every other suit of at least
``MIN_ALTERNATIVE_LENGTH`` cards (Rik in hearts only when Rik Beter, the same contract bid one step
higher, is not considered). Every option is played out on every deal, so options are paired
deal for deal; besides per-option counts and sums, each chunk keeps the sums of products of the
options' money scores, from which the paired difference of any two options follows.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.cards.dealing import ACE_MASK, SUIT_NAMES
from analyzer.cards.deck import SUIT_LETTERS, SUIT_MASKS, card_name
from analyzer.cards.masks import popcounts
from analyzer.cards.pbn import format_hand
from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import bots, rules
from analyzer.games.rikken.advice_verdict import PASS
from analyzer.games.rikken.bidding import HEARTS, choose_trump_batch
from analyzer.games.rikken.calling import choose_call_batch
from analyzer.games.rikken.experiments import (
    DEAL_COLUMNS,
    Policies,
    build_setups,
    play_setups,
    random_deals,
    result_columns,
    shared_play,
)
from analyzer.reports.stats import moments_interval, wilson_interval

# A suit this long is worth showing as an alternative trump for Rik and the Alone contracts.
MIN_ALTERNATIVE_LENGTH = 4
# Troela's trump is named by the partner, deal by deal.
PARTNER_NAMES_TRUMP = -1
MAX_TRICKS = 13


@dataclass(frozen=True)
class Option:
    """One way to declare: a contract, its trump (a suit, ``rules.NO_TRUMP`` or
    ``PARTNER_NAMES_TRUMP``) and the called card (-1 for none; ``blind``: an ace of a suit the hand
    is void in, see ``calling``)."""

    contract: int
    trump: int
    called: int = -1
    blind: bool = False

    @property
    def name(self) -> str:
        """A short ASCII name, unique among a hand's options: ``rik-S``, ``9-alone-H``, ``misery``."""
        base = rules.CONTRACT_CLI_NAMES[self.contract]
        return f"{base}-{SUIT_LETTERS[self.trump]}" if 0 <= self.trump < 4 and self._trump_is_chosen else base

    @property
    def _trump_is_chosen(self) -> bool:
        return rules.TRUMP_RULE[self.contract] == rules.TrumpRule.BIDDER

    def describe(self) -> str:
        """How the option is played, for tables: trump and call."""
        if self.trump == PARTNER_NAMES_TRUMP:
            trump = "partner names trumps"
        elif self.trump == rules.NO_TRUMP:
            trump = "no trumps"
        else:
            trump = f"{SUIT_NAMES[self.trump]} trumps"
        if self.called < 0:
            return trump if rules.SIDE[self.contract] != rules.Side.CALLED else f"{trump}, no card to call (alone)"
        blind = " (blind)" if self.blind else ""
        same = "; Rik in hearts, bid one step higher" if self.contract == rules.Contract.RIK_BETER else ""
        return f"{trump}, calls {card_name(self.called)}{blind}{same}"


def hand_options(hand: int, contracts) -> list[Option]:
    """The options ``hand`` can declare among ``contracts``, in contract order (Troela only with three aces).

    Parameters
    ----------
    hand : int
        The hand's card mask.
    contracts : iterable of int
        Contract ids to consider.

    Returns
    -------
    list of Option
    """
    hand_array = np.array([hand], dtype=np.int64)
    lengths = popcounts(hand_array[:, None] & SUIT_MASKS[None, :])[0]
    named = int(choose_trump_batch(hand_array)[0])
    others = sorted((s for s in range(4) if s != named and lengths[s] >= MIN_ALTERNATIVE_LENGTH),
                    key=lambda s: (-lengths[s], -s))
    options = []
    for contract in sorted({int(c) for c in contracts}):
        rule = rules.TRUMP_RULE[contract]
        if rule == rules.TrumpRule.BIDDER:
            trumps = [named, *others]
        elif rule == rules.TrumpRule.HEARTS:
            trumps = [HEARTS]
        elif rule == rules.TrumpRule.PARTNER:
            if popcounts(hand_array & ACE_MASK)[0] != 3:
                continue
            trumps = [PARTNER_NAMES_TRUMP]
        else:
            trumps = [rules.NO_TRUMP]
        for trump in trumps:
            if rules.SIDE[contract] == rules.Side.CALLED:
                called, blind = choose_call_batch(hand_array, np.array([trump], dtype=np.int64))
                options.append(Option(contract, trump, int(called[0]), bool(blind[0])))
            else:
                options.append(Option(contract, trump))
    return _without_rik_in_hearts(options)


def _without_rik_in_hearts(options: list[Option]) -> list[Option]:
    """The options without Rik in hearts when Rik Beter is among them: Rik Beter is Rik in hearts bid one step
    higher (the same trump, call, target and scores), so the two rows would be the same numbers twice; the
    Rik Beter row stays, the bid that also outranks every other Rik."""
    if not any(o.contract == rules.Contract.RIK_BETER for o in options):
        return options
    return [o for o in options if not (o.contract == rules.Contract.RIK and o.trump == HEARTS)]


def option_params(options: list[Option]) -> list[list[int]]:
    """Options as JSON-able ``[contract, trump, called, blind]`` rows for a run's parameters."""
    return [[o.contract, o.trump, o.called, int(o.blind)] for o in options]


def options_from_params(rows) -> list[Option]:
    """Inverse of :func:`option_params`."""
    return [Option(int(c), int(t), int(k), bool(b)) for c, t, k, b in rows]


def _setup_groups(options: list[Option]) -> list[tuple[int | None, list[int]]]:
    """Options grouped by the setups that play them: ``(trump for build_setups, option indices)``.

    Options with a bidder-named trump are grouped by that trump; the others (hearts, none, the
    partner's choice) are set up together with the bidding policy's defaults.
    """
    groups: dict[int | None, list[int]] = {}
    for index, option in enumerate(options):
        key = option.trump if rules.TRUMP_RULE[option.contract] == rules.TrumpRule.BIDDER else None
        groups.setdefault(key, []).append(index)
    return list(groups.items())


def _option_columns(deals: np.ndarray, leader: np.ndarray, seat: int, options: list[Option], policies: Policies,
                    play_seed: np.random.SeedSequence, budget: int) -> tuple[dict[int, dict], bool]:
    """Every option played out on ``deals`` by ``policies`` (their draws from ``play_seed``; with sampled-dd
    deal by deal, :func:`_play_by_deal`): per option index its per-deal ``trump``, ``partner``, ``tricks``,
    ``made``, ``money`` and ``points`` (and, when dd plays every seat, ``exact``, ``tricks_high``,
    ``money_high`` and ``points_high``), and whether those bounds are there."""
    count = deals.shape[0]
    shared = shared_play(policies)
    setups, merged = option_setups(deals, leader, seat, options, policies)
    if any(_solves_worlds(name) for name in policies.names()):
        tricks, high_tricks = _play_by_deal(merged, policies, play_seed, count)
    else:
        tricks, high_tricks = play_setups(merged, policies, state_from_seed(play_seed), budget)
    hand_rows = 4 * np.arange(count) + seat
    keys = ["tricks", "made", "money", "points"]
    if high_tricks is not None:
        keys += ["exact", "tricks_high", "money_high", "points_high"]
    columns: dict[int, dict] = {}
    offset = 0
    for indices, group in setups:
        size = group["hand"].size
        part = slice(offset, offset + size)
        results = result_columns(group, tricks[part], 4 * count, [options[i].contract for i in indices], shared,
                                 None if high_tricks is None else high_tricks[part])
        for index in indices:
            contract = options[index].contract
            name = rules.CONTRACT_CLI_NAMES[contract]
            played = group["contract"] == shared.get(contract, contract)
            columns[index] = {key: results[f"{key}_{name}"][hand_rows] for key in keys}
            columns[index].update(trump=group["trump"][played], partner=group["partner"][played])
        offset += size
    return columns, high_tricks is not None


def option_setups(deals: np.ndarray, leader: np.ndarray, seat: int, options: list[Option],
                  policies: Policies) -> tuple[list[tuple[list[int], dict]], dict]:
    """The round setups that play ``options`` for the hand at ``seat`` on ``deals``: per group of
    :func:`_setup_groups` (in its order) its option indices and its ``build_setups`` dict, and all the dicts merged
    into one."""
    shared = shared_play(policies)
    setups = [(indices, build_setups(deals, leader, [options[i].contract for i in indices], [seat], trump=trump,
                                     shared=shared))
              for trump, indices in _setup_groups(options)]
    return setups, {key: np.concatenate([s[key] for _, s in setups]) for key in setups[0][1]}


def _solves_worlds(name: str) -> bool:
    """Whether bot ``name`` solves its sampled worlds double dummy in Python (sampled-dd): its advice is played
    deal by deal (:func:`_play_by_deal`)."""
    driver = bots.BOTS[name].driver
    return driver is not None and driver.takes_worlds


def _play_by_deal(setups: dict, policies: Policies, play_seed: np.random.SeedSequence, count: int):
    """``play_setups`` deal by deal: every option's round of a deal starts from the same random stream (the deal's
    own, spawned from ``play_seed``), with the solver's verdicts shared among them (``shared_verdicts``).

    Options whose play coincides then draw the same worlds and ask the same questions, each solved once: 8 to 13
    Alone in one trump share their trick counts until their cards differ. The common stream also pairs the
    options' comparisons more closely (the same worlds where they play alike).
    """
    from analyzer.games.rikken import shared_verdicts  # the solver, only when it plays (``bots`` notes)

    tricks = np.zeros((setups["hand"].size, 4), dtype=np.int64)
    deal_of = setups["hand"] // 4
    for deal, stream in enumerate(play_seed.spawn(count)):
        start = state_from_seed(stream)
        with shared_verdicts.sharing():
            for row in np.flatnonzero(deal_of == deal):
                one = {key: value[row:row + 1] for key, value in setups.items()}
                tricks[row] = play_setups(one, policies, start.copy())[0][0]
    return tricks, None


def bracket_quota(bracket_deals: int, total: int, start: int, count: int) -> int:
    """How many of the deals ``start .. start + count - 1`` (a chunk of a run of ``total`` deals) are also
    played with perfect play for the bracket: the chunk's first ones, spread so that every chunk takes its
    share of the ``bracket_deals`` and the shares add up to exactly that many."""
    return bracket_deals * (start + count) // total - bracket_deals * start // total


def chunk_deals(params: dict, count: int, seed_seq) -> tuple[np.ndarray, np.ndarray, np.random.SeedSequence]:
    """The draws of one advice chunk (:func:`advice_chunk`): its deals, their leaders and the play's seed.

    Parameters
    ----------
    params : dict
        The run's parameters (``constraints`` and ``dealer`` are read).
    count : int
        Deals in the chunk.
    seed_seq : numpy.random.SeedSequence
        The chunk's seed; its first two children seed the deals and the play.

    Returns
    -------
    deals : numpy.ndarray
        ``(count, 4)`` card masks, seat by seat.
    leader : numpy.ndarray
        The seat on lead of each deal (the one after the dealer).
    play_seed : numpy.random.SeedSequence
        The seed of the play.
    """
    deal_seed, play_seed = seed_seq.spawn(2)
    deals = random_deals(count, deal_seed, params["constraints"])
    leader = np.full(count, (int(params["dealer"]) + 1) % 4, dtype=np.int64)
    return deals, leader, play_seed


def advice_chunk(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """One chunk of advice: ``count`` deals with the hand at ``params["seat"]``, every option played out.

    Returns one row per (deal, option), option-major: ``deal``, ``option`` (index into the options),
    ``option_name`` (``Option.name``), ``contract``, ``trump`` (the suit played, 4 for none), ``partner`` (seat,
    -1 for none), ``tricks`` (the declaring side's), ``made``, ``money`` and ``points`` (the declarer's score in
    each mode), and the deal's four card masks. Under dd at every seat (each trick count searched
    within ``params["dd_budget"]`` completed tricks) also ``exact``, ``tricks_high``, ``money_high`` and
    ``points_high``: ``tricks``, ``money`` and ``points`` are then the low ends of each row's bounds.

    With ``params["bracket"]`` (``deals``: perfect-play deals of the run, ``of``: the run's deals,
    ``budget``: the solver's budget) the chunk's first :func:`bracket_quota` deals are also solved with
    perfect play on both sides: ``perfect`` marks them, and ``perfect_tricks``, ``perfect_made``,
    ``perfect_money``, ``perfect_money_high`` and ``perfect_exact`` hold the double-dummy results (the low and
    high ends of bounded counts); the other rows hold 0 there. The perfect play draws nothing, so the
    ordinary columns are those of the same run without the bracket.
    """
    seat = int(params["seat"])
    options = options_from_params(params["options"])
    deals, leader, play_seed = chunk_deals(params, count, seed_seq)
    policies = Policies.from_params(params)
    columns, _ = _option_columns(deals, leader, seat, options, policies, play_seed, params.get("dd_budget", 0))
    keys = [key for key in columns[0] if key not in ("trump", "partner")]
    frame = pd.DataFrame({
        "deal": np.tile(start + np.arange(count), len(options)),
        "option": np.repeat(np.arange(len(options)), count).astype(np.int16),
        "option_name": pd.Categorical(np.repeat([o.name for o in options], count)),
        "contract": np.repeat([o.contract for o in options], count).astype(np.int8),
        **{key: np.concatenate([columns[i][key] for i in range(len(options))]) for key in ["trump", "partner", *keys]},
    })
    frame["trump"] = frame["trump"].astype(np.int8)
    frame["partner"] = frame["partner"].astype(np.int8)
    bracket = params.get("bracket")
    if bracket:
        frame = frame.assign(**_perfect_columns(deals, leader, seat, options, bracket, start, count))
    for column_seat, column in enumerate(DEAL_COLUMNS):
        frame[column] = np.tile(deals[:, column_seat], len(options))
    return frame


PERFECT = Policies.everywhere("dd")


def _perfect_columns(deals, leader, seat, options, bracket: dict, start: int, count: int) -> dict[str, np.ndarray]:
    """The bracket's columns of one chunk (option-major, as the chunk's rows): see :func:`advice_chunk`."""
    quota = bracket_quota(int(bracket["deals"]), int(bracket["of"]), start, count)
    out = {"perfect": np.zeros((len(options), count), dtype=bool),
           "perfect_exact": np.zeros((len(options), count), dtype=bool),
           "perfect_made": np.zeros((len(options), count), dtype=bool),
           **{f"perfect_{key}": np.zeros((len(options), count), dtype=np.int16)
              for key in ("tricks", "money", "money_high")}}
    if quota:
        # dd at every seat solves each setup outright: no draws, so any stream will do.
        columns, _ = _option_columns(deals[:quota], leader[:quota], seat, options, PERFECT,
                                     np.random.SeedSequence(0), int(bracket["budget"]))
        for index in range(len(options)):
            out["perfect"][index, :quota] = True
            for key in ("tricks", "made", "money", "money_high", "exact"):
                out[f"perfect_{key}"][index, :quota] = columns[index][key]
    return {key: value.reshape(-1) for key, value in out.items()}


def advice_moments(rows: pd.DataFrame, n_options: int) -> dict[str, np.ndarray]:
    """Mergeable sums of one chunk's rows: per option the count, makes, bounded rows, sums and squares of
    the money and points scores at both ends of each row's bounds, the trick histogram of the exact rows
    (``int[n_options, 14]``), and the sums of products of every two options' scores over the same deals
    (``[n_options, n_options]``: low by low, high by high, low by high).

    Rows without bounds (``exact`` absent: every count exact by construction) have equal ends."""
    option = rows["option"].to_numpy().astype(np.int64)
    count = np.bincount(option, minlength=n_options).astype(np.float64)
    deals = int(count[0]) if n_options else 0
    exact = rows["exact"].to_numpy() if "exact" in rows else np.ones(len(rows), dtype=bool)
    out = {"n": count, "made": np.bincount(option, weights=rows["made"].to_numpy(), minlength=n_options),
           "bounded": np.bincount(option, weights=~exact, minlength=n_options)}
    tricks = np.clip(rows["tricks"].to_numpy().astype(np.int64), 0, MAX_TRICKS)
    out["tricks"] = np.bincount(option * (MAX_TRICKS + 1) + tricks, weights=exact,
                                minlength=n_options * (MAX_TRICKS + 1)).reshape(n_options, MAX_TRICKS + 1)
    for score in ("money", "points"):
        # Rows are option-major with the same deals in each block, so a reshape pairs them deal for deal.
        low = rows[score].to_numpy().astype(np.float64).reshape(n_options, deals)
        high = rows[f"{score}_high"].to_numpy().astype(np.float64).reshape(n_options, deals) \
            if f"{score}_high" in rows else low
        out[f"{score}_sum"] = low.sum(axis=1)
        out[f"{score}_cross"] = low @ low.T
        out[f"{score}_high_sum"] = high.sum(axis=1)
        out[f"{score}_high_cross"] = high @ high.T
        out[f"{score}_mixed"] = low @ high.T
    if "perfect" in rows:
        out.update(_bracket_moments(rows, n_options))
    return out


def _bracket_moments(rows: pd.DataFrame, n_options: int) -> dict[str, np.ndarray]:
    """Per option, over the deals also played with perfect play (``bracket_`` sums): their count, makes and
    money under each play, the perfect play's bounded rows, and the paired differences perfect minus
    ordinary (money at both ends of the bounds, and made) with their squares."""
    on = rows["perfect"].to_numpy()
    option = rows["option"].to_numpy().astype(np.int64)[on]

    def total(values):
        return np.bincount(option, weights=np.asarray(values, dtype=np.float64)[on], minlength=n_options)

    made, perfect_made = rows["made"].to_numpy().astype(np.float64), rows["perfect_made"].to_numpy().astype(np.float64)
    money = rows["money"].to_numpy().astype(np.float64)
    perfect = {"low": rows["perfect_money"].to_numpy().astype(np.float64),
               "high": rows["perfect_money_high"].to_numpy().astype(np.float64)}
    out = {"bracket_n": total(np.ones(len(rows))), "bracket_made": total(made),
           "bracket_perfect_made": total(perfect_made),
           "bracket_bounded": total(~rows["perfect_exact"].to_numpy()),
           "bracket_money_sum": total(money), "bracket_money_squares": total(money ** 2),
           "bracket_made_diff_sum": total(perfect_made - made),
           "bracket_made_diff_squares": total((perfect_made - made) ** 2)}
    for end, values in perfect.items():
        out[f"bracket_perfect_{end}_sum"] = total(values)
        out[f"bracket_perfect_{end}_squares"] = total(values ** 2)
        out[f"bracket_diff_{end}_sum"] = total(values - money)
        out[f"bracket_diff_{end}_squares"] = total((values - money) ** 2)
    return out


def merge_advice_moments(parts: list[dict]) -> dict[str, np.ndarray]:
    """Add up chunk sums of :func:`advice_moments`."""
    return {key: sum(part[key] for part in parts) for key in parts[0]}


def advice_table(moments: dict, options: list[Option]) -> pd.DataFrame:
    """Per option and for passing (the row ``pass``: money 0 on every deal, no make rate, no tricks), best
    expected money score first: make rate with its 95% Wilson interval, mean points and money scores
    with 95% intervals, the paired difference in money to the best row (same deals; when every option
    loses, pass is the best row) with its interval, and the probability of each trick count of the
    declaring side.

    Rows whose count the search left bounded (``bounded``) widen the score intervals: ``mean_<score>``
    and the interval's low end come from each row's low score, ``mean_<score>_high`` and the high end
    from its high score; the difference to the best option pairs one option's low ends with the best's
    high ends and the other way round. ``p_tricks_<k>`` counts exact rows only, so with bounded rows
    they add up to less than one.

    Parameters
    ----------
    moments : dict
        Merged :func:`advice_moments`.
    options : list of Option
        The options, in the order the moments index them.

    Returns
    -------
    pandas.DataFrame
    """
    moments = _with_pass(moments)
    n = moments["n"]
    is_pass = np.arange(len(n)) == len(options)
    rate_lo, rate_hi = wilson_interval(moments["made"], n)
    table = pd.DataFrame({
        "option": [o.name for o in options] + [PASS],
        "contract": [rules.CONTRACT_NAMES[o.contract] for o in options] + ["Pass"],
        "play": [o.describe() for o in options] + ["no contract: every seat scores 0"],
        "n": n.astype(np.int64), "made": moments["made"].astype(np.int64),
        "rate": np.where(is_pass, np.nan, moments["made"] / n), "rate_lo": np.where(is_pass, np.nan, rate_lo),
        "rate_hi": np.where(is_pass, np.nan, rate_hi), "bounded": moments["bounded"].astype(np.int64)})
    for score in ("points", "money"):
        mean, low, _ = moments_interval(n, moments[f"{score}_sum"], np.diag(moments[f"{score}_cross"]))
        mean_high, _, high = moments_interval(n, moments[f"{score}_high_sum"], np.diag(moments[f"{score}_high_cross"]))
        table[f"mean_{score}"], table[f"{score}_lo"], table[f"{score}_hi"] = mean, low, high
        table[f"mean_{score}_high"] = mean_high
    best = int(np.nanargmax(table["mean_money"].to_numpy()))
    low_cross, high_cross, mixed = (moments[f"money_{key}"] for key in ("cross", "high_cross", "mixed"))
    low_sum, high_sum = moments["money_sum"], moments["money_high_sum"]
    # Low end: this option's low scores less the best's high ones; high end: the other way round.
    mean, low, _ = moments_interval(n, low_sum - high_sum[best],
                                    np.diag(low_cross) - 2 * mixed[:, best] + high_cross[best, best])
    _, _, high = moments_interval(n, high_sum - low_sum[best],
                                  np.diag(high_cross) - 2 * mixed[best, :] + low_cross[best, best])
    # The best option against itself is the same count on every deal: no difference at all.
    itself = np.arange(len(n)) == best
    table["money_vs_best"] = np.where(itself, 0.0, mean)
    table["vs_best_lo"], table["vs_best_hi"] = np.where(itself, 0.0, low), np.where(itself, 0.0, high)
    probabilities = moments["tricks"] / n[:, None]
    for tricks in range(MAX_TRICKS + 1):
        table[f"p_tricks_{tricks}"] = probabilities[:, tricks]
    table.loc[is_pass, [f"p_tricks_{tricks}" for tricks in range(MAX_TRICKS + 1)]] = np.nan
    table["target"] = [_target_text(o.contract) for o in options] + ["-"]
    order = np.lexsort((-table["rate"].to_numpy(), -table["mean_money"].to_numpy()))
    return table.iloc[order].reset_index(drop=True)


def _with_pass(moments: dict) -> dict:
    """``moments`` with one more option last: pass, which scores 0 on every deal (and is never "made"),
    so that the paired differences to it are the options' own scores."""
    out = dict(moments)
    for key, value in moments.items():
        if key.startswith("bracket_"):
            continue
        if key == "n":
            out[key] = np.append(value, value[0] if len(value) else 0.0)
        elif key == "tricks":
            out[key] = np.vstack([value, np.zeros((1, value.shape[1]))])
        elif value.ndim == 2:
            out[key] = np.pad(value, ((0, 1), (0, 1)))
        else:
            out[key] = np.append(value, 0.0)
    return out


def bounded_note(table: pd.DataFrame) -> str:
    """``, 3 of 120 rows bounded`` for titles when the search left some trick counts bounded, else empty."""
    bounded = int(table["bounded"].sum())
    return f", {bounded:,} of {int(table['n'].sum()):,} rows bounded" if bounded else ""


def _target_text(contract: int) -> str:
    kind = rules.KIND[contract]
    if kind == rules.Kind.MISERY:
        return "0 tricks"
    if kind == rules.Kind.ONE:
        return "exactly 1 trick"
    return f">= {int(rules.TARGET[contract])} tricks"


def describe_hand(hand: int) -> str:
    """The hand suit by suit, spades first: ``S AKQT86  H A2  D K73  C 95``."""
    return "  ".join(f"{letter} {ranks or '-'}" for letter, ranks in zip("SHDC", format_hand(hand).split(".")))
