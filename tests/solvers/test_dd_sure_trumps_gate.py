"""The search skips the sure-trump count when even a side's trump count could not settle the window;
that is sound only if ``_sure_trumps`` never counts a side more tricks than it holds trumps.  Checked
on random positions of every size, trump, team shape and call (the count itself is checked against
the brute force in ``test_dd_sure_trumps.py``)."""

import numpy as np

from analyzer.solvers.dd.quick_tricks import _sure_trumps

TEAMS = (0b0101, 0b0011, 0b0001, 0b1110, 0b1010, 0b0100)


def test_a_sides_sure_trump_tricks_never_exceed_its_trumps():
    rng = np.random.default_rng(3641)
    for i in range(4000):
        size = int(rng.integers(1, 14))
        cards = rng.permutation(52)[:4 * size]
        # Trump-rich deals too: cards of the trump suit first when the deal is skewed.
        trump = int(rng.integers(4))
        if i % 2:
            cards = sorted(cards, key=lambda c: (c // 13 != trump, rng.random()))
            cards = rng.permutation(cards[:4 * size])
        hands = np.zeros(4, dtype=np.int64)
        for seat in range(4):
            for card in cards[seat * size:(seat + 1) * size]:
                hands[seat] |= np.int64(1) << int(card)
        team = TEAMS[i % len(TEAMS)]
        called = int(rng.choice(cards)) if i % 3 == 0 else -1
        ours, theirs, _ = _sure_trumps(tuple(hands), trump, team, called, bool(i % 4 < 2))
        team_trumps = sum(bin(int(hands[s]) >> (13 * trump) & 0x1FFF).count("1") for s in range(4) if team >> s & 1)
        all_trumps = sum(bin(int(hands[s]) >> (13 * trump) & 0x1FFF).count("1") for s in range(4))
        assert ours <= team_trumps
        assert theirs <= all_trumps - team_trumps
