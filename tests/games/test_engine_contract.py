"""One engine contract, run against every game's numba engine with random legal play.

Each game's engine is wrapped in the same small vocabulary (``deal``, ``over``, ``to_move``, ``hand``,
``legal``, ``play``, ``played``, ``unseen``, ``points``); the contract then checks, at every move of many
random deals: the legal set is non-empty and inside the mover's hand, no card is lost or duplicated
(hands, cards played and cards not yet dealt out partition the deck), every player puts one card into
every trick, and the points taken add up to the points of the cards played (plus announcements).
"""

import numpy as np
import pytest

from analyzer.cards.dealing import deal_random
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import bounded, state_from_seed
from analyzer.games.rikken import round_layout as RL
from analyzer.games.rikken.kernels import apply_action as rikken_apply
from analyzer.games.rikken.kernels import legal_actions as rikken_legal
from analyzer.games.rikken.kernels import new_round
from analyzer.games.rikken.rules import NO_TRUMP
from analyzer.games.rikken.rules import Contract as K
from analyzer.games.schnapsen import kernels as SK
from analyzer.games.schnapsen import rules as SR
from analyzer.games.seconds import kernels as EK
from analyzer.games.seconds.rules import CARD_VALUES, SecondsRules

FULL_52 = (1 << 52) - 1


class Rikken:
    """Rikken card play: one declarer of Rik with spades trumps calling the heart ace, or Misery."""

    name, n_players = "rikken", 4

    def deal(self, seed: int):
        hands = deal_random(1, seed)[0]
        if seed % 2:
            return {"st": new_round(hands, seed % 4, [K.MISERY, -1, -1, -1], -1, NO_TRUMP, -1, 0), "deck": FULL_52}
        holder = next(s for s in range(4) if (int(hands[s]) >> (26 + 12)) & 1)
        contract = [-1, -1, -1, -1]
        bidder = (holder + 1) % 4
        contract[bidder] = K.RIK
        return {"st": new_round(hands, seed % 4, contract, holder, 3, 26 + 12, 0), "deck": FULL_52}

    def over(self, g) -> bool:
        return g["st"][RL.TRICK_NO] == 13

    def to_move(self, g) -> int:
        return int(g["st"][RL.TURN])

    def hand(self, g, player: int) -> int:
        return int(g["st"][RL.HAND + player])

    def legal(self, g) -> list[tuple[int, int]]:
        up, down = rikken_legal(g["st"], self.to_move(g))
        return [(c, c) for c in cards_of(int(up))] + [(RL.FACE_DOWN_OFFSET + c, c) for c in cards_of(int(down))]

    def play(self, g, action: int) -> None:
        rikken_apply(g["st"], self.to_move(g), action)

    def tricks_done(self, g) -> int:
        return int(g["st"][RL.TRICK_NO])

    def unseen(self, g) -> int:
        return 0

    def points(self, g) -> tuple[int, int]:
        """Tricks taken against tricks completed."""
        return int(g["st"][RL.TRICKS:RL.TRICKS + 4].sum()), self.tricks_done(g)


class Schnapsen:
    """Schnapsen: cards, marriages, trump exchanges and closing, to the end of the deal."""

    name, n_players = "schnapsen", 2

    def deal(self, seed: int):
        s = np.zeros(SR.STATE_SIZE, dtype=np.int64)
        deck = np.zeros(SR.N_CARDS, dtype=np.int64)
        SK.shuffle_deck(state_from_seed(seed), deck)
        SK.init_round(deck, seed % 2, s)
        return {"s": s, "acts": np.zeros(16, dtype=np.int64), "deck": SR.FULL_MASK, "tricks": 0}

    def over(self, g) -> bool:
        return g["s"][SR.WINNER] >= 0

    def to_move(self, g) -> int:
        return int(g["s"][SR.TO_MOVE])

    def hand(self, g, player: int) -> int:
        return int(g["s"][SR.HAND0 + player])

    def legal(self, g) -> list[tuple[int, int | None]]:
        n = SK.legal_actions(g["s"], g["acts"])
        moves = []
        for a in (int(a) for a in g["acts"][:n]):
            if a < SR.N_CARDS:
                moves.append((a, a))
            elif a < SR.EXCHANGE:
                moves.append((a, a - SR.MARRIAGE_OFFSET))  # a marriage leads one of its two cards
            else:
                moves.append((a, None))  # exchange or close: no card leaves the hand for a trick
        return moves

    def play(self, g, action: int) -> None:
        tricks = g["s"][SR.TRICKS0] + g["s"][SR.TRICKS0 + 1]
        SK.apply_action(g["s"], action)
        g["tricks"] += int(g["s"][SR.TRICKS0] + g["s"][SR.TRICKS0 + 1] - tricks)

    def tricks_done(self, g) -> int:
        return g["tricks"]

    def played(self, g) -> int:
        return int(g["s"][SR.PLAYED])

    def unseen(self, g) -> int:
        stock = g["s"][SR.STOCK:SR.STOCK + SR.STOCK_SIZE]
        return int(sum(1 << int(c) for c in stock if c >= 0))

    def points(self, g) -> tuple[int, int]:
        """Counted points less the announcements in them, against the points of the cards won in tricks."""
        s = g["s"]
        counted = int(s[SR.POINTS0] + s[SR.POINTS0 + 1])
        in_tricks = int(SR.CARD_POINTS[cards_of(self.played(g) & ~self._trick_on_table(g))].sum())
        return (counted - in_tricks) % 20, 0

    def _trick_on_table(self, g) -> int:
        lead = int(g["s"][SR.LEAD_CARD])
        return 1 << lead if lead >= 0 else 0


class Seconds:
    """Sloppy Seconds with 5 players (two cards removed), seed trump rule, a whole deal."""

    name, n_players = "seconds", 5

    def deal(self, seed: int):
        rules = SecondsRules(n_players=self.n_players)
        arrays = EK.new_state_arrays(self.n_players)
        EK.init_round(deal_random(1, seed, self.n_players, rules.deck)[0], seed % self.n_players, *arrays)
        return {"arrays": arrays, "variant": rules.trump_id, "deck": rules.deck, "tricks": 0}

    def over(self, g) -> bool:
        return int(g["arrays"][4][EK.M_IN_HANDS]) == 0

    def to_move(self, g) -> int:
        meta = g["arrays"][4]
        return int(EK.seat_after(meta[EK.M_LEADER], meta[EK.M_POS], self.n_players))

    def hand(self, g, player: int) -> int:
        return int(g["arrays"][0][player])

    def legal(self, g) -> list[tuple[int, int]]:
        mask = EK.legal_actions(g["arrays"][0][self.to_move(g)], g["arrays"][4][EK.M_LED])
        return [(c, c) for c in cards_of(int(mask))]

    def play(self, g, action: int) -> None:
        EK.apply_action(*g["arrays"], action, g["variant"], CARD_VALUES)

    def tricks_done(self, g) -> int:
        return int(g["arrays"][4][EK.M_TRICK])

    def unseen(self, g) -> int:
        return 0

    def points(self, g) -> tuple[int, int]:
        """Card points taken against the points of the cards of the completed tricks."""
        meta = g["arrays"][4]
        in_tricks = g["deck"] & ~int(meta[EK.M_IN_HANDS])
        trick = g["arrays"][3][:int(meta[EK.M_POS])]
        on_table = sum(1 << int(c) for c in trick)
        return int(g["arrays"][1].sum()), int(CARD_VALUES[cards_of(in_tricks & ~on_table)].sum())


ENGINES = [Rikken(), Schnapsen(), Seconds()]


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_random_legal_play_keeps_the_engine_contract(engine):
    rng = state_from_seed(20261205)
    for seed in range(40):
        g = engine.deal(seed)
        played_by = np.zeros(engine.n_players, dtype=np.int64)
        gone = 0  # cards that left a hand for a trick
        moves = 0
        while not engine.over(g):
            mover = engine.to_move(g)
            hand = engine.hand(g, mover)
            legal = engine.legal(g)
            assert legal, (engine.name, seed, moves)
            assert all(card is None or (hand >> card) & 1 for _, card in legal), (engine.name, seed, moves)
            action, card = legal[bounded(rng, len(legal))]
            tricks_before = engine.tricks_done(g)
            engine.play(g, action)
            if card is not None and not (engine.hand(g, mover) >> card) & 1:
                gone |= 1 << card
                played_by[mover] += 1
            if engine.tricks_done(g) > tricks_before:
                # A trick just ended: everybody has put in one card per trick so far.
                assert (played_by == engine.tricks_done(g)).all(), (engine.name, seed, played_by)
            hands = [engine.hand(g, p) for p in range(engine.n_players)]
            held = 0
            for h in hands:
                assert held & h == 0, (engine.name, seed, "a card in two hands")
                held |= h
            assert held & gone == 0 and (held | gone) & engine.unseen(g) == 0, (engine.name, seed)
            assert held | gone | engine.unseen(g) == g["deck"], (engine.name, seed, "a card lost")
            taken, expected = engine.points(g)
            assert taken == expected, (engine.name, seed, moves, taken, expected)
            moves += 1
            assert moves <= 200


@pytest.mark.parametrize("module", ["analyzer.games.rikken.play_rules", "analyzer.games.schnapsen.kernels",
                                    "analyzer.games.seconds.kernels"])
def test_every_engine_speaks_the_same_verbs(module):
    import importlib

    engine = importlib.import_module(module)
    for verb in ("init_round", "legal_actions", "apply_action"):
        assert callable(getattr(engine, verb, None)), (module, verb)
