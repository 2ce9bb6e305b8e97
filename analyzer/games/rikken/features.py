"""Hand features for many hands at once (numpy), as used in result tables and charts."""

import numpy as np
import pandas as pd

from analyzer.cards.dealing import ACE_MASK, JACK_MASK, KING_MASK, QUEEN_MASK
from analyzer.cards.deck import N_RANKS, SUIT_MASKS
from analyzer.cards.masks import popcounts

# Cards 2..7 in every suit: a Misery declarer wants many of them.
LOW_CARD_MASK = np.int64(sum(((1 << 6) - 1) << (s * N_RANKS) for s in range(4)))


def suit_lengths(hands: np.ndarray) -> np.ndarray:
    """``int64[n, 4]`` suit lengths (C D H S) of ``hands`` (``int64[n]`` masks)."""
    return popcounts(np.asarray(hands, dtype=np.int64)[:, None] & SUIT_MASKS[None, :])


def hand_feature_frame(hands: np.ndarray, trump: np.ndarray) -> pd.DataFrame:
    """Feature columns for each hand, with ``trump`` the suit the hand would name (4 = none).

    Columns: ``hcp``, ``aces``, ``kings``, ``shape`` (sorted suit lengths, e.g. ``5-4-3-1``),
    ``longest``, ``trumps`` (cards held in ``trump``), ``voids``, ``singletons``, ``low_cards``
    (cards ranked 2 to 7).
    """
    hands = np.asarray(hands, dtype=np.int64)
    trump = np.asarray(trump, dtype=np.int64)
    lengths = suit_lengths(hands)
    ordered = -np.sort(-lengths, axis=1)
    trumps = np.where(trump < 4, lengths[np.arange(len(hands)), np.minimum(trump, 3)], 0)
    # Encode each sorted pattern as one base-14 number, then name the few distinct codes.
    weights = np.array([14 ** 3, 14 ** 2, 14, 1])
    shape_codes = ordered @ weights
    shape_names = {code: "-".join(str(int(code) // w % 14) for w in weights) for code in np.unique(shape_codes)}
    return pd.DataFrame({
        "hcp": 4 * popcounts(hands & ACE_MASK) + 3 * popcounts(hands & KING_MASK)
        + 2 * popcounts(hands & QUEEN_MASK) + popcounts(hands & JACK_MASK),
        "aces": popcounts(hands & ACE_MASK),
        "kings": popcounts(hands & KING_MASK),
        "shape": pd.Categorical([shape_names[c] for c in shape_codes]),
        "longest": ordered[:, 0],
        "trumps": trumps,
        "voids": (lengths == 0).sum(axis=1),
        "singletons": (lengths == 1).sum(axis=1),
        "low_cards": popcounts(hands & LOW_CARD_MASK),
    })
