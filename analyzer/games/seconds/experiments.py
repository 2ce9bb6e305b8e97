"""Sloppy Seconds experiments: chunk tasks for ``run_chunks`` and the summaries built from their rows.

``play``: games to the target with one policy per seat. When the seats do not all use the same policy,
every game is replayed under each rotation of the policy list round the table, on the same deals and
the same play stream, so each policy sits in each seat against the same cards; policy comparisons are
paired on these (game, rotation) units.

``variants``: the same random deals played under each (trump rule, minimum rule) pair with one policy
at every seat and the same play stream: trump emergence, score distributions and seat advantage.
Seat 0 leads the first trick of every deal (the dealer is the last seat).
"""

import itertools

import numpy as np
import pandas as pd

from analyzer.cards.dealing import deal_random
from analyzer.games.seconds.play import game_states, simulate_deals, simulate_games
from analyzer.games.seconds.policies import POLICY_NAMES, params_array
from analyzer.games.seconds.rules import MINIMUM_VARIANTS, TRUMP_VARIANTS, SecondsRules


def rotations(seat_policies: list[int]) -> list[list[int]]:
    """Policy lists for each rotation round the table (just one when every seat plays the same)."""
    n = len(seat_policies)
    if len(set(seat_policies)) == 1:
        return [list(seat_policies)]
    return [[seat_policies[(s + r) % n] for s in range(n)] for r in range(n)]


def play_task(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """Chunk task of ``play``: one row per (game, rotation, seat). A game's deals come from its own
    seed (``game_states``), so the game index with the run's seed and chunk size identifies its cards."""
    rules = SecondsRules(**params["rules"])
    policy_params = params_array(rules.n_players, **params["policy_params"])
    states = game_states(seed_seq, count)
    frames = []
    for r, seat_policies in enumerate(rotations(params["policies"])):
        out = simulate_games(count, seat_policies, rules, None, policy_params, first_game=start, states=states)
        n = rules.n_players
        games = np.repeat(np.arange(start, start + count), n)
        seats = np.tile(np.arange(n), count)
        frames.append(pd.DataFrame({
            "game": games,
            "rotation": r,
            "seat": seats,
            "policy": [POLICY_NAMES[seat_policies[s]] for s in seats],
            "total": out["totals"].reshape(-1),
            "n_deals": np.repeat(out["n_deals"], n),
            "win": np.repeat(out["winner"], n) == seats,
        }))
    frame = pd.concat(frames, ignore_index=True)
    frame["score_per_deal"] = frame["total"] / frame["n_deals"]
    return frame


def variants_task(params: dict, start: int, count: int, seed_seq) -> pd.DataFrame:
    """Chunk task of ``variants``: one row per (deal, trump rule, minimum rule, seat), with the seat's
    hand as a card mask (``cards``: the rows of a deal hold all its cards)."""
    n = params["n_players"]
    deal_seq, play_seq = seed_seq.spawn(2)
    probe = SecondsRules(n_players=n)
    deals = deal_random(count, deal_seq, n, probe.deck)
    leaders = np.zeros(count, np.int64)
    policy_params = params_array(n, **params["policy_params"])
    frames = []
    for trump, minimum in itertools.product(TRUMP_VARIANTS, MINIMUM_VARIANTS):
        rules = SecondsRules(n_players=n, trump=trump, minimum=minimum)
        out = simulate_deals(deals, leaders, [params["policy"]] * n, rules, play_seq, policy_params)
        frames.append(pd.DataFrame({
            "deal": np.repeat(np.arange(start, start + count), n),
            "trump_rule": trump,
            "minimum_rule": minimum,
            "seat": np.tile(np.arange(n), count),
            "cards": deals.reshape(-1),
            "score": out["scores"].reshape(-1),
            "trump_suit": np.repeat(out["trump_suit"], n),
            "trump_trick": np.repeat(out["trump_trick"], n),
        }))
    return pd.concat(frames, ignore_index=True)


