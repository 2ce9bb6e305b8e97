"""The forehand script (scripts/schnapsen_seat.py): the hands exchanged as the rules deal them, each deck's two
deals against deals built by hand from the rules' dealing order, and the summary's figures by hand."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from schnapsen_seat import forehand_pairs, summary, swap_hands  # noqa: E402

from analyzer.cards.rng import state_from_seed  # noqa: E402
from analyzer.games.schnapsen import rules as R  # noqa: E402
from analyzer.games.schnapsen.experiments import parse_bot  # noqa: E402
from analyzer.games.schnapsen.kernels import init_round, shuffle_deck  # noqa: E402
from analyzer.games.schnapsen.play import kernels_for  # noqa: E402
from analyzer.games.schnapsen.search import new_workspace  # noqa: E402
from analyzer.games.schnapsen.state import SchnapsenState  # noqa: E402


def rules_deal(order, forehand_gets_dealers_cards: bool) -> np.ndarray:
    """RULES.md's deal of ``order`` (top first), player 0 the non-dealer on lead: three cards to him, three to
    the dealer, the trump card turned, two to him, two to the dealer, the rest the stock under the trump card;
    with the flag the two hands change places."""
    theirs = [order[i] for i in (0, 1, 2, 7, 8)]
    dealers = [order[i] for i in (3, 4, 5, 9, 10)]
    if forehand_gets_dealers_cards:
        theirs, dealers = dealers, theirs
    stock = [order[i] for i in range(11, 20)] + [order[6]]
    state = SchnapsenState(hands=[R.mask_of(theirs), R.mask_of(dealers)], stock=stock, trump=order[6] // 5,
                           leader=0, to_move=0)
    return state.to_array()


def test_swapped_hands_keep_the_trump_and_stock():
    order = np.arange(20, dtype=np.int64)
    s = np.zeros(R.STATE_SIZE, dtype=np.int64)
    init_round(swap_hands(order), 1, s)
    assert np.array_equal(s, rules_deal(order, True))
    init_round(order, 1, s)
    assert np.array_equal(s, rules_deal(order, False))


def test_each_deck_played_as_dealt_and_with_the_hands_exchanged():
    bot = parse_bot("heuristic")
    ws = new_workspace()
    got = forehand_pairs(bot, 6, state_from_seed(11), state_from_seed(12), ws)
    play_out = kernels_for((bot.policy,)).play_out
    policy = np.full(2, bot.policy, dtype=np.int64)
    samples = np.full(2, bot.samples, dtype=np.int64)
    params = np.stack([bot.params.to_array()] * 2)
    rng, deck = state_from_seed(11), np.zeros(R.N_CARDS, dtype=np.int64)
    for i in range(6):
        shuffle_deck(rng, deck)
        for j in (0, 1):
            s = rules_deal(deck, j == 1)
            play_out(s, policy, samples, params, state_from_seed(12), ws)
            assert got[i, j] == (1 if s[R.WINNER] == 0 else -1) * s[R.GAME_POINTS]
    assert np.all(np.isin(np.abs(got), (1, 2, 3)))


def test_summary_by_hand():
    points = np.array([[1, -2], [3, -1], [2, 2]])
    deals, net = summary(points)
    # 4 of 6 deals won; pairs' win shares 0.5, 0.5, 1.0
    assert deals.startswith("forehand won 4/6 deals = 66.7% [")
    assert "over the 3 pairs 66.7% [" in deals
    # net (1 - 2 + 3 - 1 + 2 + 2) / 6 = 5/6; pairs' means -0.5, 1, 2 (mean 5/6, sd 1.258, 95% half-width
    # 1.96 * 1.258 / sqrt(3) = 1.424)
    assert net.startswith("forehand's net game points a deal +0.833 [")
    assert net.endswith("over the pairs +0.833 [-0.591, +2.257]")
