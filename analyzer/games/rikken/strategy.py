"""A bidding strategy learned from a ``rikken bids`` run: per contract, the make probability and the
expected money score of a hand, fitted with scikit-learn's histogram gradient boosting.

Every feature is computed from the hand's 13 cards and its seat relative to the dealer
(``strategy_features``), so the fit (from the run's stored hands) and the auction (from a round's
deal) see the same numbers. ``position`` is 0 for the seat left of the dealer (first to bid and to
lead) up to 3 for the dealer, as in the ``hands/`` table.

A learned seat (``LearnedBidder``) bids, among the contracts legal at its turn, the one with the best
predicted money above a margin, or passes; a hand with three aces bids Troela where the rules oblige it.
The auction (``auction.run_auction``) checks every bid against the rules as it does the hand-written
policy's.
"""

import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from analyzer.cards.dealing import ACE_MASK, JACK_MASK, KING_MASK, QUEEN_MASK
from analyzer.cards.deck import N_RANKS
from analyzer.cards.masks import popcounts
from analyzer.errors import InputError
from analyzer.reports.integrity import verified_parts
from analyzer.games.rikken.bidding import (
    DEFAULT_PARAMS,
    HEARTS,
    PASS,
    choose_trump_batch,
    count_rank,
    estimated_tricks_batch,
    is_legal_bid,
    liabilities_batch,
    troela_obliged,
)
from analyzer.games.rikken.calling import ACE
from analyzer.games.rikken.features import LOW_CARD_MASK, suit_lengths
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, N_CONTRACTS, TRUMP_RULE, TrumpRule
from analyzer.games.rikken.rules import Contract as K
from analyzer.reports.manifest import read_manifest
from analyzer.reports.stats import wilson_interval
from analyzer.reports.store import atomic_write
from analyzer.reports.safe_sql import locked_connection, register_parts

FORMAT = "analyzer-rikken-strategy"
# 2: a zip of JSON and skops models (1 was a joblib pickle, never opened now).
FORMAT_VERSION = 2
HEADER_NAME = "strategy.json"
MAX_STRATEGY_BYTES = 512 << 20
# Types a strategy file's models may hold beyond those skops trusts by default (numpy, builtins, ...).
ALLOWED_TYPES = {"sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor"}
EXPECTED_MODELS = {
    "classifier": "sklearn.ensemble._hist_gradient_boosting.gradient_boosting.HistGradientBoostingClassifier",
    "regressor": "sklearn.ensemble._hist_gradient_boosting.gradient_boosting.HistGradientBoostingRegressor",
}
FEATURES = ("hcp", "aces", "kings", "queens", "trumps", "trump_hcp", "longest", "second", "third", "shortest",
            "hearts", "heart_hcp", "voids", "singletons", "low_cards", "est_tricks", "heart_tricks",
            "liabilities", "open_liabilities", "position")
HOLDOUT_SHARE = 0.2
DECILES = 10
# Below this many training hands (or with one class only) a contract gets a constant model.
MIN_FIT_ROWS = 50
# Fewer made (or failed) training hands than this also give a constant make model.
MIN_CLASS_ROWS = 10
SEAT_COLUMNS = ("cards_n", "cards_e", "cards_s", "cards_w")


def _suit_hcp(hands: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """Milton points of each hand in its ``suit`` (``int64[n]``)."""
    shift = np.asarray(suit, dtype=np.int64) * N_RANKS
    field = (hands >> shift) & ((1 << N_RANKS) - 1)
    return 4 * (field >> 12 & 1) + 3 * (field >> 11 & 1) + 2 * (field >> 10 & 1) + (field >> 9 & 1)


def strategy_features(hands, position) -> np.ndarray:
    """The model's features (``FEATURES``, in order) of each hand.

    Parameters
    ----------
    hands : int64[n]
        Card masks.
    position : int64[n]
        Seat relative to the dealer: 0 left of the dealer (bids first) .. 3 the dealer.

    Returns
    -------
    numpy.ndarray
        ``float64[n, len(FEATURES)]``.
    """
    hands = np.asarray(hands, dtype=np.int64)
    rows = np.arange(hands.size)
    lengths = suit_lengths(hands)
    ordered = -np.sort(-lengths, axis=1)
    trump = choose_trump_batch(hands)
    hearts = np.full(hands.size, HEARTS, dtype=np.int64)
    columns = {
        "hcp": 4 * popcounts(hands & ACE_MASK) + 3 * popcounts(hands & KING_MASK)
        + 2 * popcounts(hands & QUEEN_MASK) + popcounts(hands & JACK_MASK),
        "aces": popcounts(hands & ACE_MASK), "kings": popcounts(hands & KING_MASK),
        "queens": popcounts(hands & QUEEN_MASK), "trumps": lengths[rows, trump], "trump_hcp": _suit_hcp(hands, trump),
        "longest": ordered[:, 0], "second": ordered[:, 1], "third": ordered[:, 2], "shortest": ordered[:, 3],
        "hearts": lengths[:, HEARTS], "heart_hcp": _suit_hcp(hands, hearts),
        "voids": (lengths == 0).sum(axis=1), "singletons": (lengths == 1).sum(axis=1),
        "low_cards": popcounts(hands & LOW_CARD_MASK),
        "est_tricks": estimated_tricks_batch(hands, trump), "heart_tricks": estimated_tricks_batch(hands, hearts),
        "liabilities": liabilities_batch(hands, DEFAULT_PARAMS.misery_safe_rank, DEFAULT_PARAMS.misery_step),
        "open_liabilities": liabilities_batch(hands, DEFAULT_PARAMS.open_misery_safe_rank, DEFAULT_PARAMS.misery_step),
        "position": np.asarray(position, dtype=np.int64),
    }
    return np.column_stack([np.asarray(columns[name], dtype=np.float64) for name in FEATURES])


@dataclass(frozen=True)
class ConstantModel:
    """A model that predicts one value: a contract with one outcome or too few hands to fit."""

    value: float

    def predict(self, features: np.ndarray) -> np.ndarray:
        """``value`` for every row."""
        return np.full(len(features), self.value)

    def predict_proba(self, features: np.ndarray) -> np.ndarray:
        """``[1 - value, value]`` for every row (``value`` a probability)."""
        return np.column_stack([np.full(len(features), 1.0 - self.value), np.full(len(features), self.value)])


@dataclass
class Strategy:
    """A fitted bidding strategy.

    Attributes
    ----------
    contracts : list of int
        Contract ids with models, in id order.
    classifiers, regressors : dict
        Contract id -> model of the make probability (``predict_proba``) and of the declarer's money
        (``predict``), on ``FEATURES``.
    features : tuple of str
        Feature names, as ``strategy_features`` computes them.
    source : dict
        Where it came from: run directory, its seed and policies, hands used for fitting and held out,
        the fit's seed.
    """

    contracts: list[int]
    classifiers: dict
    regressors: dict
    features: tuple[str, ...] = FEATURES
    source: dict = field(default_factory=dict)

    def predict(self, hands, position) -> tuple[np.ndarray, np.ndarray]:
        """Make probability and expected money of every contract for each hand.

        Returns
        -------
        (numpy.ndarray, numpy.ndarray)
            ``float64[n, N_CONTRACTS]`` each, NaN for contracts without a model and for Troela
            without exactly three aces.
        """
        hands = np.asarray(hands, dtype=np.int64)
        features = strategy_features(hands, position)
        prob = np.full((hands.size, N_CONTRACTS), np.nan)
        money = np.full((hands.size, N_CONTRACTS), np.nan)
        if hands.size == 0:
            return prob, money
        for contract in self.contracts:
            prob[:, contract] = self.classifiers[contract].predict_proba(features)[:, 1]
            money[:, contract] = self.regressors[contract].predict(features)
        no_troela = popcounts(hands & ACE_MASK) != 3
        prob[no_troela, K.TROELA] = np.nan
        money[no_troela, K.TROELA] = np.nan
        return prob, money


def save_strategy(strategy: Strategy, path) -> Path:
    """Write ``strategy`` to ``path`` (atomically) and return the path.

    The file is a zip archive: ``strategy.json`` (format, features, source, and per contract each
    model as a constant or as the name and SHA-256 of a member) and one skops file per fitted model.
    skops stores a scikit-learn model as data and rebuilds only types the reader allows, unlike a
    pickle, which runs whatever code its bytes name.
    """
    import skops.io

    models, members = {}, {}
    for contract in strategy.contracts:
        entry = {}
        for role, model in (("classifier", strategy.classifiers[contract]), ("regressor", strategy.regressors[contract])):
            if isinstance(model, ConstantModel):
                entry[role] = {"constant": float(model.value)}
                continue
            name = f"{CONTRACT_CLI_NAMES[contract]}.{role}.skops"
            members[name] = skops.io.dumps(model)
            entry[role] = {"skops": name, "sha256": hashlib.sha256(members[name]).hexdigest()}
        models[str(contract)] = entry
    header = {"format": FORMAT, "version": FORMAT_VERSION, "features": list(strategy.features),
              "source": strategy.source, "models": models}

    def write(temp: Path) -> None:
        with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(HEADER_NAME, json.dumps(header, indent=2, default=str))
            for name, data in members.items():
                archive.writestr(name, data)

    path = Path(path)
    atomic_write(path, write)
    return path


def read_strategy_bytes(path) -> bytes:
    """The bytes of a strategy file, refusing a missing or absurdly large one before reading it."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such strategy file")
    if path.stat().st_size > MAX_STRATEGY_BYTES:
        raise InputError(f"{path} is larger than {MAX_STRATEGY_BYTES >> 20} MiB: not a strategy file")
    return path.read_bytes()


def load_strategy(path, data: bytes | None = None) -> Strategy:
    """Read a strategy file written by ``save_strategy``; no byte of it can run code.

    Parameters
    ----------
    path : path-like
        The file (named in errors).
    data : bytes, optional
        Its bytes, already read (and checked against a recorded hash) by the caller.

    Raises
    ------
    InputError
        If the file is missing, not a strategy file of this format (an old pickled one included), a
        model's bytes differ from their recorded checksum, or a model needs a type outside the allowed ones.
    """
    import skops.io

    path = Path(path)
    data = read_strategy_bytes(path) if data is None else data
    not_one = f"{path} is not a strategy file (write one with `analyzer rikken strategy fit`)"
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise InputError(f"{path} is not a strategy file of this analyzer (an older pickled one is never opened, "
                         "as a pickle can run code): fit it again with `analyzer rikken strategy fit`")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_STRATEGY_BYTES:
                raise InputError(f"{path} unpacks to more than {MAX_STRATEGY_BYTES >> 20} MiB: not a strategy file")
            header = json.loads(archive.read(HEADER_NAME))
            members = {name: archive.read(name) for name in archive.namelist() if name != HEADER_NAME}
    # NotImplementedError: an unknown compression method; RuntimeError: an encrypted member.
    except (KeyError, zipfile.BadZipFile, UnicodeDecodeError, json.JSONDecodeError, OSError, EOFError,
            NotImplementedError, RuntimeError):
        raise InputError(not_one) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or not isinstance(header.get("models"), dict):
        raise InputError(not_one)
    if not isinstance(header.get("version"), int) or header["version"] > FORMAT_VERSION:
        raise InputError(f"{path} has strategy format {header.get('version')!r}; this analyzer reads {FORMAT_VERSION}")
    if header.get("features") != list(FEATURES):
        raise InputError(f"{path} was fitted on other features than this analyzer computes: fit it again")
    classifiers, regressors = {}, {}
    for key, entry in header["models"].items():
        if not (key.isdigit() and int(key) < N_CONTRACTS and isinstance(entry, dict)):
            raise InputError(not_one)
        contract = int(key)
        classifiers[contract] = _model(path, entry.get("classifier"), members, EXPECTED_MODELS["classifier"], skops.io)
        regressors[contract] = _model(path, entry.get("regressor"), members, EXPECTED_MODELS["regressor"], skops.io)
    source = header.get("source") if isinstance(header.get("source"), dict) else {}
    return Strategy(sorted(classifiers), classifiers, regressors, FEATURES, source)


def _model(path: Path, spec, members: dict, expected: str, sio):
    """One model of a strategy file: a constant, or a skops member checked against its hash and loaded
    with only the allowed types."""
    if isinstance(spec, dict) and set(spec) == {"constant"} and isinstance(spec["constant"], (int, float)):
        return ConstantModel(float(spec["constant"]))
    if not (isinstance(spec, dict) and isinstance(spec.get("skops"), str) and spec["skops"] in members
            and isinstance(spec.get("sha256"), str)):
        raise InputError(f"{path} is not a strategy file (a model entry is malformed)")
    data = members[spec["skops"]]
    if hashlib.sha256(data).hexdigest() != spec["sha256"]:
        raise InputError(f"{path} is damaged: model {spec['skops']} differs from its checksum")
    try:
        untrusted = sio.get_untrusted_types(data=data)
    except Exception:  # noqa: BLE001 - unreadable skops bytes fail in many ways, each meaning "damaged"
        raise InputError(f"{path} is damaged: model {spec['skops']} is unreadable") from None
    refused = sorted(set(untrusted) - ALLOWED_TYPES)
    if refused:
        raise InputError(f"{path}: model {spec['skops']} needs types this analyzer does not load ({refused[0]})")
    try:
        model = sio.loads(data, trusted=untrusted)
    except Exception:  # noqa: BLE001 - as above
        raise InputError(f"{path} is damaged: model {spec['skops']} is unreadable") from None
    if (f"{type(model).__module__}.{type(model).__qualname__}" != expected
            or getattr(model, "n_features_in_", None) != len(FEATURES)):  # an unfitted model has none
        raise InputError(f"{path}: model {spec['skops']} is not a {expected.rsplit('.', 1)[1]} on {len(FEATURES)} features")
    return model


@dataclass(frozen=True)
class LearnedBidder:
    """The learned auction policy of one seat (``auction.auction_batch``'s ``bidders``).

    Attributes
    ----------
    strategy : Strategy
    margin : float
        Predicted money a contract must beat to be bid (0: any contract expected to win money).
    """

    strategy: Strategy
    margin: float = 0.0

    def prepare(self, hands, position) -> np.ndarray:
        """Expected money of every contract (``float64[n, N_CONTRACTS]``, NaN = never bid) for the hands
        this seat will bid with, predicted once per hand before the auctions."""
        return self.strategy.predict(hands, position)[1]

    def bid(self, values: np.ndarray, hand: int, standing: int, first_turn: bool) -> int:
        """The legal contract with the highest ``values`` above the margin, Troela where obliged, else ``PASS``.

        Parameters
        ----------
        values : float64[N_CONTRACTS]
            This hand's row of ``prepare``.
        hand : int
            Card mask.
        standing : int
            Standing level, 0 if nobody has bid.
        first_turn : bool
            The seat's first turn (the Troela obligation).
        """
        return best_legal_bid(values, hand, standing, first_turn, self.margin)


def best_legal_bid(values: np.ndarray, hand: int, standing: int, first_turn: bool, margin: float = 0.0) -> int:
    """The legal contract of highest value above ``margin`` (the lower id on ties), Troela where obliged,
    else ``PASS``; Troela only with exactly three aces, NaN values never."""
    if troela_obliged(hand, standing, first_turn):
        return int(K.TROELA)
    best, best_value = PASS, margin
    three_aces = count_rank(hand, ACE) == 3
    for contract in range(N_CONTRACTS):
        value = values[contract]
        if value > best_value and is_legal_bid(contract, standing) and (contract != K.TROELA or three_aces):
            best, best_value = contract, value
    return best


def read_hands(run_dir, max_hands: int, seed: int) -> tuple[pd.DataFrame, dict]:
    """Hands of a ``rikken bids`` run, at most ``max_hands`` of them: whole deals drawn with ``seed``.

    Returns
    -------
    (pandas.DataFrame, dict)
        Columns ``deal``, ``seat``, ``position``, ``hand`` (mask) and ``made_<c>``, ``money_<c>``,
        ``tricks_<c>`` of the run's contracts; and the run's manifest.
    """
    manifest = read_manifest(run_dir)
    if manifest.get("experiment") != "rikken-bids":
        raise InputError(f"{run_dir} is not a `rikken bids` run (experiment {manifest.get('experiment')!r})")
    files = verified_parts(run_dir, "hands", manifest)
    contracts = (manifest.get("params") or {}).get("contracts")
    if not isinstance(contracts, list) or not all(isinstance(c, int) and 0 <= c < N_CONTRACTS for c in contracts):
        raise InputError(f"{run_dir}/manifest.json is corrupt: its contracts are not a list of contract ids")
    names = [CONTRACT_CLI_NAMES[c] for c in contracts]
    outcome = ", ".join(f'"{kind}_{name}"' for name in names for kind in ("made", "money", "tricks"))
    con = locked_connection()
    source = "stored_hands"
    register_parts(con, source, files)
    try:
        return _sample_hands(con, source, outcome, max_hands, seed), manifest
    except duckdb.Error as exc:
        raise InputError(f"{run_dir}: cannot read its hands/ rows: {str(exc).splitlines()[0]}") from None


def _sample_hands(con, source: str, outcome: str, max_hands: int, seed: int) -> pd.DataFrame:
    """Whole deals drawn with ``seed`` from the registered table ``source``, each row's own hand as ``hand``."""
    deals = np.array([row[0] for row in con.execute(f"SELECT DISTINCT deal FROM {source} ORDER BY deal").fetchall()],
                     dtype=np.int64)
    n_rows = con.execute(f"SELECT count(*) FROM {source}").fetchall()[0][0]
    per_deal = max(n_rows // max(len(deals), 1), 1)
    keep = min(len(deals), max(max_hands // per_deal, 1))
    picked = pd.DataFrame({"deal": np.sort(np.random.default_rng(seed).choice(deals, size=keep, replace=False))})
    con.register("picked", picked)
    frame = con.execute(f"SELECT deal, seat, position, {', '.join(SEAT_COLUMNS)}, {outcome} FROM {source} "
                        "WHERE deal IN (SELECT deal FROM picked) ORDER BY deal, seat").fetchdf()
    seat = frame["seat"].to_numpy().astype(np.int64)
    masks = frame[list(SEAT_COLUMNS)].to_numpy().astype(np.int64)
    frame.insert(3, "hand", masks[np.arange(len(frame)), seat])
    return frame.drop(columns=list(SEAT_COLUMNS))


def holdout_deals(deals: np.ndarray, seed: int, share: float = HOLDOUT_SHARE) -> np.ndarray:
    """``bool[n]``: whether each row's deal is held out; ``share`` of the distinct deals, drawn with ``seed``,
    so the hands of one deal fall on the same side."""
    distinct = np.unique(deals)
    count = round(share * distinct.size)
    held = np.random.default_rng(seed).choice(distinct, size=count, replace=False)
    return np.isin(deals, held)


def _fit_one(features: np.ndarray, made: np.ndarray, money: np.ndarray, seed: int, max_iter: int):
    """(classifier, regressor) of one contract."""
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    if len(made) < MIN_FIT_ROWS or min(made.sum(), (~made).sum()) < MIN_CLASS_ROWS:
        classifier = ConstantModel(float(made.mean()) if len(made) else 0.0)
    else:
        classifier = HistGradientBoostingClassifier(max_iter=max_iter, random_state=seed).fit(features, made)
    if len(money) < MIN_FIT_ROWS or np.ptp(money) == 0:
        regressor = ConstantModel(float(money.mean()) if len(money) else 0.0)
    else:
        regressor = HistGradientBoostingRegressor(max_iter=max_iter, random_state=seed).fit(features, money)
    return classifier, regressor


def fit_strategy(frame: pd.DataFrame, contracts, seed: int = 0, max_iter: int = 200,
                 source: dict | None = None, threads: int = 1,
                 fitted: Callable[[int], None] | None = None) -> tuple[Strategy, np.ndarray]:
    """Fit every contract's models on the hands not held out.

    Parameters
    ----------
    frame : pandas.DataFrame
        ``read_hands`` rows.
    contracts : sequence of int
        Contracts to fit (each needs its ``made_``, ``money_`` and ``tricks_`` columns).
    seed : int
        Seeds the hold-out draw and the models.
    max_iter : int
        Boosting iterations per model (early stopping applies above 10,000 hands).
    source : dict, optional
        Recorded in ``Strategy.source``.
    threads : int
        OpenMP threads of scikit-learn's boosting (the models do not depend on it): more threads than
        idle cores spin against other work and make the fit slower than one thread.
    fitted : callable, optional
        Called with each contract once its models are fitted (progress).

    Returns
    -------
    (Strategy, numpy.ndarray)
        The strategy and the ``bool[n]`` hold-out mask of ``frame``'s rows.
    """
    if frame.empty:
        raise InputError("no hands to fit a strategy on")
    held = holdout_deals(frame["deal"].to_numpy(), seed)
    features = strategy_features(frame["hand"].to_numpy(), frame["position"].to_numpy())
    classifiers, regressors = {}, {}
    with threadpool_limits(limits=threads, user_api="openmp"):
        for contract in sorted(int(c) for c in contracts):
            name = CONTRACT_CLI_NAMES[contract]
            rows = ~held & (frame[f"tricks_{name}"].to_numpy() >= 0)
            classifiers[contract], regressors[contract] = _fit_one(
                features[rows], frame[f"made_{name}"].to_numpy()[rows].astype(bool),
                frame[f"money_{name}"].to_numpy()[rows].astype(np.float64), seed, max_iter)
            if fitted is not None:
                fitted(contract)
    info = {**(source or {}), "fit_seed": seed, "hands_fitted": int((~held).sum()), "hands_held_out": int(held.sum())}
    return Strategy(sorted(classifiers), classifiers, regressors, FEATURES, info), held


def decile_bins(predicted: np.ndarray, n_bins: int = DECILES) -> np.ndarray:
    """Bin (0 .. ``n_bins`` - 1) of each prediction: sorted by value, ties in input order, cut into
    groups of equal count (sizes differ by at most one)."""
    order = np.argsort(predicted, kind="stable")
    bins = np.empty(predicted.size, dtype=np.int64)
    bins[order] = np.arange(predicted.size) * n_bins // max(predicted.size, 1)
    return bins


def calibration_rows(predicted, made, n_bins: int = DECILES) -> pd.DataFrame:
    """Predicted against observed make rate by bin of prediction: the hands sorted by prediction (ties
    in input order) and cut into ``n_bins`` groups of equal count (sizes differ by at most one).

    Returns
    -------
    pandas.DataFrame
        ``decile`` (1 = lowest predictions), ``n``, ``predicted`` (mean), ``made``, ``observed``,
        ``observed_lo``, ``observed_hi`` (95% Wilson interval).
    """
    predicted = np.asarray(predicted, dtype=np.float64)
    made = np.asarray(made, dtype=bool)
    bins = decile_bins(predicted, n_bins)
    count = np.bincount(bins, minlength=n_bins)
    made_count = np.bincount(bins, weights=made, minlength=n_bins)
    pred_sum = np.bincount(bins, weights=predicted, minlength=n_bins)
    keep = count > 0
    lo, hi = wilson_interval(made_count[keep], count[keep])
    return pd.DataFrame({"decile": np.arange(1, n_bins + 1)[keep], "n": count[keep],
                         "predicted": pred_sum[keep] / count[keep], "made": made_count[keep].astype(np.int64),
                         "observed": made_count[keep] / count[keep], "observed_lo": lo, "observed_hi": hi})


def calibration_table(strategy: Strategy, frame: pd.DataFrame) -> pd.DataFrame:
    """``calibration_rows`` of every contract on ``frame``'s hands (the held-out ones), with the contract's
    mean predicted and observed money in each decile of its make prediction."""
    prob, money = strategy.predict(frame["hand"].to_numpy(), frame["position"].to_numpy())
    parts = []
    for contract in strategy.contracts:
        name = CONTRACT_CLI_NAMES[contract]
        rows = frame[f"tricks_{name}"].to_numpy() >= 0
        if not rows.any():
            continue
        table = calibration_rows(prob[rows, contract], frame[f"made_{name}"].to_numpy()[rows])
        bins = decile_bins(prob[rows, contract])
        counts = np.bincount(bins, minlength=DECILES)
        observed_money = frame[f"money_{name}"].to_numpy()[rows].astype(np.float64)
        for column, values in (("predicted_money", money[rows, contract]), ("observed_money", observed_money)):
            sums = np.bincount(bins, weights=values, minlength=DECILES)
            table[column] = sums[counts > 0] / counts[counts > 0]
        table.insert(0, "contract", name)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def opening_bids(strategy: Strategy, frame: pd.DataFrame, margin: float = 0.0) -> pd.DataFrame:
    """The strategy's bid for each hand at the start of the auction (no bid standing, first turn).

    Returns
    -------
    pandas.DataFrame
        ``hcp``, ``aces``, ``trumps``, ``low_cards``, ``bid`` (contract id or ``PASS``), ``predicted`` (its
        make probability), ``made`` (whether the run's play-out made it; False for passes).
    """
    hands = frame["hand"].to_numpy().astype(np.int64)
    prob, money = strategy.predict(hands, frame["position"].to_numpy())
    bids = np.array([best_legal_bid(money[i], int(hands[i]), 0, True, margin) for i in range(hands.size)],
                    dtype=np.int64)
    features = strategy_features(hands, frame["position"].to_numpy())
    made = np.zeros(hands.size, dtype=bool)
    predicted = np.full(hands.size, np.nan)
    for contract in np.unique(bids[bids >= 0]):
        rows = bids == contract
        made[rows] = frame[f"made_{CONTRACT_CLI_NAMES[contract]}"].to_numpy()[rows]
        predicted[rows] = prob[rows, contract]
    return pd.DataFrame({"hcp": features[:, FEATURES.index("hcp")].astype(np.int64),
                         "aces": features[:, FEATURES.index("aces")].astype(np.int64),
                         "trumps": features[:, FEATURES.index("trumps")].astype(np.int64),
                         "low_cards": features[:, FEATURES.index("low_cards")].astype(np.int64),
                         "bid": bids, "predicted": predicted, "made": made})


def contract_card(bids: pd.DataFrame) -> pd.DataFrame:
    """Per bid of ``opening_bids`` (passes included): share of hands, observed make rate with its 95%
    Wilson interval, mean predicted make rate, and the middle 80% of HCP, trumps and low cards."""
    rows = []
    for bid, group in bids.groupby("bid"):
        made = int(group["made"].sum())
        lo, hi = wilson_interval(made, len(group)) if bid >= 0 else (np.nan, np.nan)
        spans = {key: f"{int(group[key].quantile(0.1))}-{int(group[key].quantile(0.9))}"
                 for key in ("hcp", "trumps", "low_cards")}
        rows.append({"bid": "pass" if bid < 0 else CONTRACT_CLI_NAMES[bid], "hands": len(group),
                     "share": len(group) / len(bids), "made": made if bid >= 0 else np.nan,
                     "make_rate": made / len(group) if bid >= 0 else np.nan, "make_lo": lo, "make_hi": hi,
                     "predicted": group["predicted"].mean(), **spans})
    return pd.DataFrame(rows)


HCP_BINS = (0, 6, 9, 12, 15, 18, 21, 41)
# The longest of four suits holding 13 cards has at least 4.
TRUMP_BINS = (4, 5, 6, 7, 8, 14)
# Cards ranked 2-7 (24 in the deck): the Misery contracts' feature.
LOW_CARD_BINS = (0, 4, 6, 8, 10, 14)
# A cell of the card names a bid only when it holds this many hands and this many of them bid it; other
# cells show only their count.
MIN_CARD_CELL = 30
MIN_CARD_BID = 10
CARD_PANELS = {"trumps": TRUMP_BINS, "low_cards": LOW_CARD_BINS}
THREE_ACES = 3


def bin_labels(edges) -> list[str]:
    """Labels of the bins ``[a, b)`` between consecutive ``edges``, the last one open (``8+``)."""
    labels = [f"{a}-{b - 1}" if b - 1 > a else str(a) for a, b in pairwise(edges)]
    labels[-1] = f"{edges[-2]}+"
    return labels


# The contracts without trumps (Misery, 1 Alone and their open forms): the low-card grid shows these.
NO_TRUMP_BIDS = tuple(int(c) for c in np.flatnonzero(TRUMP_RULE == TrumpRule.NONE))


def _cell(group: pd.DataFrame, among=None) -> dict:
    """The commonest opening bid of a cell's hands (of the bids ``among``, if given), its share of the cell's
    hands and its make rate; no bid below ``MIN_CARD_CELL`` hands or when fewer than ``MIN_CARD_BID`` bid it."""
    candidates = group if among is None else group[group["bid"].isin(among)]
    top = int(candidates["bid"].value_counts().index[0]) if len(candidates) else None
    chosen = group[group["bid"] == top]
    if len(group) < MIN_CARD_CELL or len(chosen) < MIN_CARD_BID:
        return {"hands": len(group), "bid": "", "share": np.nan, "make_rate": np.nan}
    return {"hands": len(group), "bid": "pass" if top < 0 else CONTRACT_CLI_NAMES[top],
            "share": len(chosen) / len(group), "make_rate": chosen["made"].mean() if top >= 0 else np.nan}


def card_cells(bids: pd.DataFrame) -> pd.DataFrame:
    """The strategy card's grids: per cell, the commonest opening bid, the share of the cell's hands bidding
    it, and its observed make rate in those hands.

    Hands with three aces open with Troela whatever else they hold (the rules make it compulsory), so they
    have a panel of their own by HCP and stay out of the two grids. The others are binned by HCP and the
    length of their longest suit (where trick contracts are decided: the commonest bid, pass included) and
    by HCP and cards ranked 2-7 (where the contracts without trumps are: the commonest of those, which are
    rarely a cell's commonest bid of all).

    Returns
    -------
    pandas.DataFrame
        ``panel`` (``trumps``, ``low_cards`` or ``three_aces``), ``hcp`` and ``bin`` (bin labels; ``bin``
        empty for three aces), ``hands``, ``bid`` (name, ``pass``, or empty below ``MIN_CARD_CELL`` hands
        or ``MIN_CARD_BID`` bidders), ``share``, ``make_rate`` (NaN for pass and empty cells).
    """
    hcp_labels = bin_labels(HCP_BINS)
    hcp_bin = np.searchsorted(HCP_BINS, bids["hcp"].to_numpy(), side="right") - 1
    three_aces = bids["aces"].to_numpy() == THREE_ACES
    rows = []
    for panel, edges in CARD_PANELS.items():
        labels = bin_labels(edges)
        among = NO_TRUMP_BIDS if panel == "low_cards" else None
        other = np.searchsorted(edges, bids[panel].to_numpy(), side="right") - 1
        for (h, b), group in bids[~three_aces].groupby([hcp_bin[~three_aces], other[~three_aces]]):
            rows.append({"panel": panel, "hcp": hcp_labels[h], "bin": labels[b], **_cell(group, among)})
    for h, group in bids[three_aces].groupby(hcp_bin[three_aces]):
        rows.append({"panel": "three_aces", "hcp": hcp_labels[h], "bin": "", **_cell(group)})
    return pd.DataFrame(rows, columns=["panel", "hcp", "bin", "hands", "bid", "share", "make_rate"])


RULES = "rules"
LEARNED = "learned:"


def bidding_params(spec: str | None, seat_specs: str | None, margin: float) -> dict:
    """Manifest parameters of ``rikken play``'s auction policies, ``{}`` when every seat bids by the rules.

    Parameters
    ----------
    spec : str, optional
        ``rules`` or ``learned:FILE`` for every seat (``--bidding``).
    seat_specs : str, optional
        Four specs for N,E,S,W, comma-separated (``--seat-bidding``), instead of ``spec``.
    margin : float
        Predicted money a learned seat's bid must beat.

    Returns
    -------
    dict
        ``bidding`` (a spec per seat, files as absolute paths), ``bidding_margin`` and ``bidding_files``
        (path -> SHA-256, checked by every chunk), or ``{}``.

    Raises
    ------
    InputError
        For both options at once, a spec that is neither form, a file that is not a strategy file, or a
        margin without a learned seat.
    """
    if spec is not None and seat_specs is not None:
        raise InputError("give --bidding (every seat) or --seat-bidding (N,E,S,W), not both")
    texts = [spec] * 4 if seat_specs is None else [text.strip() for text in seat_specs.split(",")]
    if len(texts) != 4:
        raise InputError(f"--seat-bidding needs four specs for N,E,S,W (rules or learned:FILE), got {seat_specs!r}")
    seats, files = [], {}
    for text in texts:
        if text is None or text.strip().lower() == RULES:
            seats.append(RULES)
        elif text.startswith(LEARNED) and text[len(LEARNED):].strip():
            path = Path(text[len(LEARNED):].strip()).resolve()
            data = read_strategy_bytes(path)
            load_strategy(path, data)
            files[str(path)] = hashlib.sha256(data).hexdigest()
            seats.append(LEARNED + str(path))
        else:
            raise InputError(f"unknown bidding {text!r}: use rules or learned:FILE")
    if not files:
        if margin != 0:
            raise InputError("--bidding-margin applies to learned seats: give --bidding or --seat-bidding learned:FILE")
        return {}
    if not np.isfinite(margin):
        raise InputError("--bidding-margin must be a finite number")
    return {"bidding": seats, "bidding_margin": float(margin), "bidding_files": files}


_LOADED: dict[tuple[str, str], Strategy] = {}


def bidders_from_params(params: dict) -> list[LearnedBidder | None] | None:
    """Each seat's auction policy from ``bidding_params`` (None: the hand-written policy at every seat).

    Raises
    ------
    InputError
        If a strategy file changed since the run recorded its hash.
    """
    seats = params.get("bidding")
    if not seats:
        return None
    bidders = []
    for spec in seats:
        if spec == RULES:
            bidders.append(None)
            continue
        path = Path(spec[len(LEARNED):])
        digest = params["bidding_files"][str(path)]
        if (str(path), digest) not in _LOADED:  # each worker process reads a file once
            data = path.read_bytes() if path.is_file() else b""
            if hashlib.sha256(data).hexdigest() != digest:  # checked before a byte of it is parsed
                raise InputError(f"strategy file {path} is missing or changed since this run started")
            _LOADED[(str(path), digest)] = load_strategy(path, data)
        bidders.append(LearnedBidder(_LOADED[(str(path), digest)], params["bidding_margin"]))
    return bidders


def bidding_label(params: dict) -> str:
    """``bidding rules`` or the learned seats, e.g. ``bidding N learned (margin 0), E S W rules``."""
    seats = params.get("bidding")
    if not seats:
        return "bidding rules"
    learned = "".join(letter for letter, spec in zip("NESW", seats) if spec != RULES)
    rules_seats = "".join(letter for letter, spec in zip("NESW", seats) if spec == RULES)
    text = f"bidding {' '.join(learned)} learned (margin {params['bidding_margin']:g})"
    return text + (f", {' '.join(rules_seats)} rules" if rules_seats else "")
