"""The learned bidding strategy: calibration arithmetic, the learned chooser's legality, save and load,
the auction with learned seats, the hold-out split, and the duel's paired arithmetic.

Expectations come from the rules (docs/rules.md, "Auction") or from direct computation here, not from
the code under test.
"""

import hashlib
import json
import math
import pickle
import zipfile

import joblib
import numpy as np
import pandas as pd
import pytest
import skops.io
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

from analyzer.cards.dealing import ACE_MASK, deal_random, hcp_of
from analyzer.cards.masks import popcounts
from analyzer.errors import InputError
from analyzer.games.rikken.auction import auction_batch, run_auction
from analyzer.games.rikken.bidding import PASS, bid_for
from analyzer.games.rikken.rules import CONTRACT_CLI_NAMES, LEVEL, N_CONTRACTS
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.rikken.strategy import (
    FEATURES,
    ConstantModel,
    LearnedBidder,
    Strategy,
    best_legal_bid,
    calibration_rows,
    holdout_deals,
    load_strategy,
    save_strategy,
)
from analyzer.games.rikken.strategy_duel import contract_mix, money_table

Z = 1.959963984540054
JOINABLE = {4, 9, 11}  # docs/rules.md: a player may join the standing level at levels 4, 9 and 11
TROELA_LEVEL = 10


def _aces(hand: int) -> int:
    return (hand & int(ACE_MASK)).bit_count()


def _legal_by_rules(bid: int, hand: int, standing: int, first_turn: bool) -> bool:
    """The auction rules written out again: Troela obligation, beat or join the level, Troela with 3 aces."""
    if first_turn and _aces(hand) == 3 and standing < TROELA_LEVEL:
        return bid == K.TROELA
    if bid == PASS:
        return True
    level = int(LEVEL[bid])
    if bid == K.TROELA and _aces(hand) != 3:
        return False
    return level > standing or (level == standing and level in JOINABLE)


def test_calibration_rows_on_a_hand_computed_example():
    table = calibration_rows([0.1, 0.9, 0.5, 0.3], [False, True, True, False], n_bins=2)
    assert table["n"].tolist() == [2, 2] and table["made"].tolist() == [0, 2]
    assert table["predicted"].tolist() == pytest.approx([0.2, 0.7])
    assert table["observed"].tolist() == [0.0, 1.0]
    # Wilson at 0 of 2: [0, z^2 / (2 + z^2)]; at 2 of 2: [2 / (2 + z^2), 1].
    assert table["observed_lo"].tolist() == pytest.approx([0.0, 2 / (2 + Z * Z)])
    assert table["observed_hi"].tolist() == pytest.approx([Z * Z / (2 + Z * Z), 1.0])


def test_calibration_rows_match_a_direct_computation():
    rng = np.random.default_rng(5)
    n = 1003
    predicted = np.round(rng.random(n), 2)  # rounded: many ties
    made = rng.random(n) < predicted
    table = calibration_rows(predicted, made)
    assert table["decile"].tolist() == list(range(1, 11))
    assert table["n"].sum() == n and set(table["n"]) <= {n // 10, n // 10 + 1}
    order = sorted(range(n), key=lambda i: (predicted[i], i))
    start = 0
    for row in table.itertuples():
        members = order[start:start + row.n]
        start += row.n
        k = int(made[members].sum())
        p = k / row.n
        centre = (p + Z * Z / (2 * row.n)) / (1 + Z * Z / row.n)
        half = Z * math.sqrt(p * (1 - p) / row.n + Z * Z / (4 * row.n * row.n)) / (1 + Z * Z / row.n)
        assert row.made == k and row.observed == pytest.approx(p)
        assert row.predicted == pytest.approx(predicted[members].mean())
        assert (row.observed_lo, row.observed_hi) == pytest.approx((centre - half, centre + half))


def test_holdout_keeps_the_hands_of_a_deal_together():
    deals = np.repeat(np.arange(500), 4)
    held = holdout_deals(deals, seed=3)
    per_deal = held.reshape(500, 4)
    assert (per_deal.all(axis=1) | ~per_deal.any(axis=1)).all()
    assert per_deal[:, 0].sum() == 100
    assert (holdout_deals(deals, seed=3) == held).all() and (holdout_deals(deals, seed=4) != held).any()


def test_the_learned_chooser_only_bids_legally_and_picks_the_best():
    rng = np.random.default_rng(11)
    deals = deal_random(800, 7)
    hands = deals.reshape(-1)
    three_aces = popcounts(hands & ACE_MASK) == 3
    checked_troela = 0
    for i, hand in enumerate(int(h) for h in hands):
        values = rng.normal(0, 3, N_CONTRACTS)
        values[rng.random(N_CONTRACTS) < 0.2] = np.nan
        standing, first_turn, margin = int(rng.integers(0, 13)), bool(rng.integers(0, 2)), float(rng.normal(0, 1))
        bid = best_legal_bid(values, hand, standing, first_turn, margin)
        assert _legal_by_rules(bid, hand, standing, first_turn)
        options = [c for c in range(N_CONTRACTS) if _legal_by_rules(c, hand, standing, first_turn)
                   and values[c] > margin]
        if first_turn and three_aces[i] and standing < TROELA_LEVEL:
            checked_troela += 1
            assert bid == K.TROELA
        elif options:
            assert values[bid] == max(values[c] for c in options)
        else:
            assert bid == PASS
    assert checked_troela > 0


def test_the_margin_is_strict_and_ties_go_to_the_lower_contract():
    hand = 0b1  # one low spade-suit card bit: no aces, so no Troela obligation
    values = np.full(N_CONTRACTS, np.nan)
    values[int(K.RIK)] = 1.5
    assert best_legal_bid(values, hand, 0, True, 1.5) == PASS  # equal to the margin: not above it
    assert best_legal_bid(values, hand, 0, True, 1.4999) == K.RIK
    values[int(K.RIK_BETER)] = 1.5
    assert best_legal_bid(values, hand, 0, True, 0.0) == min(int(K.RIK), int(K.RIK_BETER))


class HashModel:
    """Different, repeatable values for different hands: a stand-in for a fitted model."""

    def __init__(self, salt: int):
        self.salt = salt

    def predict(self, features):
        weights = np.random.default_rng(self.salt).normal(size=features.shape[1])
        return np.sin(features @ weights) * 4

    def predict_proba(self, features):
        p = (self.predict(features) + 4) / 8
        return np.column_stack([1 - p, p])


def _strategy(models) -> Strategy:
    return Strategy(list(range(N_CONTRACTS)), {c: ConstantModel(0.5) for c in range(N_CONTRACTS)}, models)


def test_auctions_with_learned_seats_follow_every_rule():
    strategy = _strategy({c: HashModel(c) for c in range(N_CONTRACTS)})
    rng = np.random.default_rng(2)
    deals = deal_random(400, 9)
    dealers = rng.integers(0, 4, len(deals))
    bidders = [LearnedBidder(strategy, -2.0), None, LearnedBidder(strategy, 0.5), None]
    values = [strategy.predict(deals[:, s], (s - dealers - 1) % 4)[1] for s in range(4)]
    def policy_of(row):
        def policy(seat, hand, standing, first_turn):
            if bidders[seat] is None:
                return bid_for(hand, standing, first_turn)
            return best_legal_bid(values[seat][row], hand, standing, first_turn, bidders[seat].margin)
        return policy

    batch = auction_batch(deals, dealers, bidders=bidders)
    learned_bids = 0
    for i in range(len(deals)):
        result = run_auction(deals[i], int(dealers[i]), policy=policy_of(i))
        assert (batch["contract_of"][i] == result.contract_of).all()
        standing, asked = 0, set()
        for seat, bid in result.bids:
            first = seat not in asked
            asked.add(seat)
            assert _legal_by_rules(bid, int(deals[i, seat]), standing, first)
            learned_bids += seat in (0, 2) and bid != PASS
            if bid != PASS:
                standing = max(standing, int(LEVEL[bid]))
    assert learned_bids > 50


def test_a_strategy_that_prefers_misery_bids_it():
    models = {c: ConstantModel(-1.0) for c in range(N_CONTRACTS)}
    models[K.MISERY] = ConstantModel(5.0)
    strategy = _strategy(models)
    deals = deal_random(200, 4)
    dealers = np.full(len(deals), 3)  # N bids first
    batch = auction_batch(deals, dealers, bidders=[LearnedBidder(strategy), None, None, None])
    three_aces = popcounts(deals[:, 0] & ACE_MASK) == 3
    opening = np.array([run_first_bid(strategy, int(h)) for h in deals[:, 0]])
    assert (opening[~three_aces] == K.MISERY).all() and (opening[three_aces] == K.TROELA).all()
    # N's Misery stands unless a later seat bids above level 4 or joins it.
    assert (batch["contract_of"][~three_aces, 0] == K.MISERY).mean() > 0.5
    # Above the margin only: with a margin of 6 nothing is worth bidding.
    assert best_legal_bid(strategy.predict(deals[:1, 0], [0])[1][0], 0b1, 0, True, 6.0) == PASS


def run_first_bid(strategy: Strategy, hand: int) -> int:
    return LearnedBidder(strategy).bid(strategy.predict([hand], [0])[1][0], hand, 0, True)


def test_save_and_load_and_bad_files(tmp_path):
    strategy = _strategy({c: ConstantModel(float(c)) for c in range(N_CONTRACTS)})
    path = save_strategy(strategy, tmp_path / "s.zip")
    loaded = load_strategy(path)
    assert loaded.contracts == strategy.contracts and loaded.regressors[K.TROELA].value == float(K.TROELA)
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"this is not a strategy")
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("strategy.json", json.dumps({"format": "something else"}))
    for bad in (garbage, other, tmp_path / "missing.zip", tmp_path):
        with pytest.raises(InputError) as info:
            load_strategy(bad)
        assert "\n" not in str(info.value)


class Marker:
    """Unpickling this creates the marker file: proof that code ran."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def _fitted_strategy():
    rng = np.random.default_rng(3)
    features = rng.normal(size=(200, len(FEATURES)))
    classifier = HistGradientBoostingClassifier(max_iter=3).fit(features, features[:, 0] > 0)
    regressor = HistGradientBoostingRegressor(max_iter=3).fit(features, features[:, 1])
    return _strategy({c: ConstantModel(0.0) for c in range(N_CONTRACTS)} | {int(K.RIK): regressor}), classifier


def _rewrite(path, change):
    """A copy of the strategy file with ``change(header, members)`` applied."""
    with zipfile.ZipFile(path) as archive:
        header = json.loads(archive.read("strategy.json"))
        members = {n: archive.read(n) for n in archive.namelist() if n != "strategy.json"}
    change(header, members)
    crafted = path.with_name("crafted.zip")
    with zipfile.ZipFile(crafted, "w") as archive:
        archive.writestr("strategy.json", json.dumps(header))
        for name, data in members.items():
            archive.writestr(name, data)
    return crafted


def test_fitted_models_round_trip(tmp_path):
    strategy, _ = _fitted_strategy()
    loaded = load_strategy(save_strategy(strategy, tmp_path / "s.zip"))
    hands = deal_random(20, np.random.SeedSequence(4))[:, 0]
    np.testing.assert_array_equal(loaded.predict(hands, np.zeros(20))[1], strategy.predict(hands, np.zeros(20))[1])


def test_crafted_strategy_files_run_no_code(tmp_path):
    marker = tmp_path / "code-ran"
    pickled = tmp_path / "old.joblib"
    joblib.dump({"format": "analyzer-rikken-strategy", "strategy": Marker(marker)}, pickled)
    with pytest.raises(InputError, match="older pickled one is never opened"):
        load_strategy(pickled)
    strategy, classifier = _fitted_strategy()
    path = save_strategy(strategy, tmp_path / "s.zip")
    name = f"{CONTRACT_CLI_NAMES[K.RIK]}.regressor.skops"

    def swap(data):
        def change(header, members):
            members[name] = data
            header["models"][str(int(K.RIK))]["regressor"]["sha256"] = hashlib.sha256(data).hexdigest()
        return change

    # A pickle in place of a model, a skops file naming a type outside the allowed ones (its hash forged
    # to match), and a model of the wrong kind.
    cases = {"pickle": pickle.dumps(Marker(marker)), "foreign type": skops.io.dumps({"m": Marker(marker)}),
             "wrong kind": skops.io.dumps(classifier)}
    messages = {"pickle": "unreadable", "foreign type": "types this analyzer does not load", "wrong kind": "not a"}
    for case, data in cases.items():
        with pytest.raises(InputError, match=messages[case]):
            load_strategy(_rewrite(path, swap(data)))
    with pytest.raises(InputError, match="differs from its checksum"):
        load_strategy(_rewrite(path, lambda header, members: members.update({name: cases["wrong kind"]})))
    assert not marker.exists()


def test_malformed_strategy_files_are_one_line_errors(tmp_path):
    strategy, _ = _fitted_strategy()
    path = save_strategy(strategy, tmp_path / "s.zip")
    rik = str(int(K.RIK))

    def model_name_as_list(header, members):
        header["models"][rik]["regressor"]["skops"] = ["a", "list"]

    def unfitted_regressor(header, members):
        data = skops.io.dumps(HistGradientBoostingRegressor())
        header["models"][rik]["regressor"]["sha256"] = hashlib.sha256(data).hexdigest()
        members[header["models"][rik]["regressor"]["skops"]] = data

    with pytest.raises(InputError, match="a model entry is malformed"):
        load_strategy(_rewrite(path, model_name_as_list))
    with pytest.raises(InputError, match="is not a HistGradientBoostingRegressor"):
        load_strategy(_rewrite(path, unfitted_regressor))
    # A member stored with a compression method zipfile cannot read (id 99, as AES-encrypted zips mark it).
    data = bytearray(path.read_bytes())
    header_at = data.index(b"PK\x03\x04")
    data[header_at + 8:header_at + 10] = (99).to_bytes(2, "little")
    central_at = data.index(b"PK\x01\x02")
    data[central_at + 10:central_at + 12] = (99).to_bytes(2, "little")
    odd = tmp_path / "odd.zip"
    odd.write_bytes(bytes(data))
    with pytest.raises(InputError, match="is not a strategy file"):
        load_strategy(odd)


def test_troela_has_no_value_without_three_aces():
    strategy = _strategy({c: ConstantModel(1.0) for c in range(N_CONTRACTS)})
    hands = deal_random(100, 1).reshape(-1)
    _, money = strategy.predict(hands, np.zeros(hands.size))
    three = popcounts(hands & ACE_MASK) == 3
    assert np.isnan(money[~three, K.TROELA]).all() and (money[three, K.TROELA] == 1.0).all()


def test_duel_tables_pair_rounds_and_pool_per_deal():
    base = pd.DataFrame({"round": [1, 0, 2], "passed_out": [False, True, False],
                         **{f"money_{s}": [0, 0, 0] for s in range(4)},
                         **{f"contract_{s}": [-1, -1, -1] for s in range(4)}})
    learned = {}
    for seat in range(4):
        frame = base.copy()
        frame[f"money_{seat}"] = [seat + 1, 0, 3]  # by round: 0 -> 0, 1 -> seat + 1, 2 -> 3
        frame[f"contract_{seat}"] = [0, -1, 3]
        frame["passed_out"] = [False, False, False]
        learned[seat] = frame
    money = money_table(base, learned).set_index("seat")
    assert money.loc["N", "diff"] == pytest.approx((0 + 1 + 3) / 3)
    # Pooled: per round the mean over seats: 0, 2.5, 3.
    pooled = np.array([0, 2.5, 3])
    half = Z * pooled.std(ddof=1) / math.sqrt(3)
    assert (money.loc["pooled", "diff"], money.loc["pooled", "diff_lo"]) == pytest.approx((pooled.mean(),
                                                                                           pooled.mean() - half))
    mix = contract_mix(base, learned).set_index("contract")
    assert mix.loc["rik", "learned"] == pytest.approx(1 / 3) and mix.loc["rik", "baseline"] == 0
    assert mix.loc["declares anything", "learned"] == pytest.approx(2 / 3)
    assert mix.loc["passed-out", "diff"] == pytest.approx(-1 / 3)


def _bids_frame(n_deals: int) -> pd.DataFrame:
    """Rows shaped like ``read_hands``: every hand of ``n_deals`` deals with Rik made on 12+ HCP."""
    hands = deal_random(n_deals, np.random.SeedSequence(8)).reshape(-1)
    hcp = np.array([hcp_of(int(h)) for h in hands])
    return pd.DataFrame({"deal": np.repeat(np.arange(n_deals), 4), "hand": hands,
                         "position": np.tile(np.arange(4), n_deals), "tricks_rik": 5 + hcp // 4,
                         "made_rik": hcp >= 12, "money_rik": np.where(hcp >= 12, 2.0, -3.0) + hcp / 10})


def test_the_fit_runs_on_the_threads_asked_and_its_models_do_not_depend_on_them(monkeypatch):
    from threadpoolctl import threadpool_info

    import analyzer.games.rikken.strategy as learned

    frame, seen = _bids_frame(300), []
    fit_one = learned._fit_one

    def spy(*args):
        seen.append({info["num_threads"] for info in threadpool_info() if info["user_api"] == "openmp"})
        return fit_one(*args)

    monkeypatch.setattr(learned, "_fit_one", spy)
    done = []
    one, held = learned.fit_strategy(frame, [int(K.RIK)], max_iter=5, threads=1, fitted=done.append)
    two, _ = learned.fit_strategy(frame, [int(K.RIK)], max_iter=5, threads=2)
    assert seen == [{1}, {2}] and done == [int(K.RIK)]
    hands, position = frame["hand"].to_numpy()[held], frame["position"].to_numpy()[held]
    for a, b in zip(one.predict(hands, position), two.predict(hands, position), strict=True):
        np.testing.assert_array_equal(a, b)
