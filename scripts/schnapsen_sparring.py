"""Our Schnapsen bot against the players of cpatrasciuc/schnapsen-card-game, inside that engine, with its referee.

The outside engine is not on the package index and never a CI dependency: this script is run by hand. Put
its sources somewhere (from a clone, or from the project's mirror of it)::

    git -C schnapsen-card-game archive HEAD src/model src/ai | tar -x -C /tmp/schnapsen-engine

and pass ``--engine /tmp/schnapsen-engine/src``. Its ``Bummerl``/``Game`` deal the cards and apply every
action (``Game.play_action`` refuses an illegal one); our bot decides on a kernel state that mirrors the
engine's, action by action. At every move our legal actions must equal the engine's
(the actions its referee accepts; what its ``get_available_actions`` offers must be among them), and at the end of every deal the winner and game points must agree: the first
difference stops the run with the position.

Opponents: ``heuristic`` (its ``HeuristicPlayer``, pure Python), ``random`` (its ``RandomPlayer``) and
``mcts:N`` (its ``CythonMctsPlayer`` with N iterations in all, split over its default 667 permutations, in
one process; build its Cython extension first, in the checkout:
``pip install cython && python setup.py build_ext --inplace``). Bummerls come in pairs on the same deal seeds
with the seats swapped (the same cards to each seat, the bots exchanged). Prints the seed (fresh unless
``--seed``), our Bummerl and deal win rates with 95% Wilson intervals and n, our game points won minus
lost per pair with a 95% interval, wins per seat, closings won, the deals by how they ended
(with our wins and game points won minus lost) and each side's CPU milliseconds per decision (positions with more
than one legal action). A run stopped by hand (Ctrl-C, ``kill -INT`` or ``kill``) prints the same for the pairs it
finished (the deal counts and CPU times also cover the unfinished pair).

Usage: python scripts/schnapsen_sparring.py --engine DIR/src [--bot hybrid:20] [--opponent heuristic]
       [--pairs N] [--seed S] [--params name=value,...]  (--params: our heuristic's parameters changed)
       [--deals CSV]  (one row per finished deal: pair, our seat, deal, who led it, winner, game points, closer)
"""

import argparse
import contextlib
import signal
from dataclasses import replace
import importlib
import io
import os
import random
import secrets
import sys
import time
from typing import NoReturn

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np
import pandas as pd

from analyzer.cards.rng import state_from_seed
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams
from analyzer.games.schnapsen.experiments import Bot, parse_bot
from analyzer.games.schnapsen.kernels import apply_action, legal_actions
from analyzer.games.schnapsen.play import choose_action
from analyzer.games.schnapsen.search import new_workspace
from analyzer.games.schnapsen.state import SchnapsenState
from analyzer.reports.stats import mean_interval, wilson_interval
from schnapsen_strength import seat_sign_test


class Engine:
    """The outside engine's modules, imported from ``--engine``."""

    def __init__(self, src: str):
        if not os.path.isfile(os.path.join(src, "model", "card.py")):
            fail(f"--engine: {src} is not the engine's src folder (no model/card.py there)")
        sys.path.insert(0, src)
        self.cards = importlib.import_module("model.card")
        self.value = importlib.import_module("model.card_value")
        self.suit = importlib.import_module("model.suit")
        self.ids = importlib.import_module("model.player_id")
        self.actions = importlib.import_module("model.player_action")
        self.bummerl = importlib.import_module("model.bummerl")

    def card_id(self, card) -> int:
        """Our card id of an engine ``Card``."""
        rank = "T" if card.card_value == self.value.CardValue.TEN else card.card_value.name[0]
        return R.card_of(R.SUIT_LETTERS.index(card.suit.name[0]), R.RANK_LETTERS.index(rank))

    def card(self, card_id: int):
        """The engine ``Card`` of our card id."""
        suit = next(s for s in self.suit.Suit if s.name[0] == R.SUIT_LETTERS[card_id // 5])
        letter = R.RANK_LETTERS[card_id % 5]
        value = next(v for v in self.value.CardValue if ("T" if v.name == "TEN" else v.name[0]) == letter)
        return self.cards.Card(suit, value)

    def code(self, action) -> int:
        """Our action code of an engine ``PlayerAction``."""
        a = self.actions
        if isinstance(action, a.AnnounceMarriageAction):
            return R.MARRIAGE_OFFSET + self.card_id(action.card)
        if isinstance(action, a.PlayCardAction):
            return self.card_id(action.card)
        if isinstance(action, a.ExchangeTrumpCardAction):
            return R.EXCHANGE
        if isinstance(action, a.CloseTheTalonAction):
            return R.CLOSE
        raise ValueError(f"unknown engine action {action!r}")

    def action(self, code: int, player):
        """The engine ``PlayerAction`` of our action code for ``player`` (a ``PlayerId``)."""
        a = self.actions
        if code == R.EXCHANGE:
            return a.ExchangeTrumpCardAction(player)
        if code == R.CLOSE:
            return a.CloseTheTalonAction(player)
        if code >= R.MARRIAGE_OFFSET:
            return a.AnnounceMarriageAction(player, self.card(code - R.MARRIAGE_OFFSET))
        return a.PlayCardAction(player, self.card(code))

    def referee_legal(self, game_state) -> list[int]:
        """Our codes of every action the engine's referee accepts in ``game_state`` (``can_execute_on``): each
        card in hand played, each queen or king with its marriage, the exchange and closing. Its
        ``get_available_actions`` offers fewer: a queen or king is offered only with the marriage when the
        marriage is on (its TODO), though the referee accepts it played alone."""
        player = game_state.next_player
        hand = [self.card_id(c) for c in game_state.cards_in_hand[player]]
        candidates = hand + [R.MARRIAGE_OFFSET + c for c in hand if c % 5 in (1, 2)] + [R.EXCHANGE, R.CLOSE]
        return sorted(c for c in candidates if self.action(c, player).can_execute_on(game_state))

    def mirror(self, game_state) -> np.ndarray:
        """Our kernel state of a freshly dealt engine game: its talon is drawn from the front, the face-up
        trump card last."""
        ids = self.ids.PlayerId
        hands = [R.mask_of([self.card_id(c) for c in game_state.cards_in_hand[p]]) for p in (ids.ONE, ids.TWO)]
        stock = [self.card_id(c) for c in game_state.talon] + [self.card_id(game_state.trump_card)]
        leader = 0 if game_state.next_player == ids.ONE else 1
        return SchnapsenState(hands=hands, stock=stock, trump=stock[-1] // 5, leader=leader,
                              to_move=leader).to_array()

    def opponent(self, spec: str, player):
        """The engine's player named by ``spec`` in seat ``player``."""
        name, _, count = spec.partition(":")
        if name == "heuristic":
            return importlib.import_module("ai.heuristic_player").HeuristicPlayer(player)
        if name == "random":
            return importlib.import_module("ai.random_player").RandomPlayer(player)
        if name == "mcts":
            options = importlib.import_module("ai.mcts_player_options")
            try:
                cython = importlib.import_module("ai.cython_mcts_player.player")
            except ImportError as exc:
                fail(f"the engine's Cython MCTS is not built ({exc}); in its checkout run "
                     "python setup.py build_ext --inplace")
            # N iterations in all, split as the engine's defaults split 100,000: 667 permutations of the unseen
            # cards, N // 667 iterations on each (150 for 100,000)
            defaults = options.MctsPlayerOptions()
            per_permutation = max(1, int(count or 100_000) // defaults.max_permutations)
            return cython.CythonMctsPlayer(player, False, options.MctsPlayerOptions(
                num_processes=1, max_iterations=per_permutation))
        fail(f"unknown opponent {spec!r} (heuristic, random or mcts:N)")


class Mismatch(Exception):
    """Our engine and the outside one disagree."""


def play_bummerl(engine: Engine, bot: Bot, opponent: str, our_seat: int, deal_seeds, rng, ws, stats) -> bool:
    """One Bummerl with our bot as player ``our_seat`` (0 = the engine's ONE); True when we win it.

    Deal ``g`` is shuffled from ``deal_seeds[g]``; player ONE deals first, so with the seats swapped the same
    cards reach the same seat. ``stats`` gathers deals, wins, closings and CPU times.
    """
    ids = engine.ids.PlayerId
    seats = (ids.ONE, ids.TWO)
    ours, theirs = seats[our_seat], seats[1 - our_seat]
    them = engine.opponent(opponent, theirs)
    bummerl = engine.bummerl.Bummerl(next_dealer=ids.ONE)
    policy = bot.policy
    params = bot.params.to_array()
    acts = np.zeros(16, dtype=np.int64)
    g = 0
    while not bummerl.is_over:
        game = bummerl.start_game(seed=int(deal_seeds[g]))
        g += 1
        s = engine.mirror(game.game_state)
        leader = int(s[R.LEADER])
        for p in (0, 1):
            s[R.TO_GO0 + p] = R.MATCH_POINTS - bummerl.game_points[seats[p]]
        while not game.game_state.is_game_over:
            state = game.game_state
            mover = 0 if state.next_player == ids.ONE else 1
            engine_legal = engine.referee_legal(state)
            n = legal_actions(s, acts)
            ours_legal = sorted(int(a) for a in acts[:n])
            offered = {engine.code(a) for a in engine.actions.get_available_actions(state)}
            if ours_legal != engine_legal or not offered <= set(engine_legal):
                raise Mismatch(f"legal actions differ at {SchnapsenState.from_array(s).to_text()}: ours "
                               f"{[R.action_name(a) for a in ours_legal]}, the engine's referee's "
                               f"{[R.action_name(a) for a in engine_legal]}, offered "
                               f"{[R.action_name(a) for a in sorted(offered)]}")
            if state.next_player == ours:
                started = time.process_time()
                code = int(choose_action(s.copy(), policy, bot.samples, params, rng, ws))
                if n > 1:
                    stats["our_ms"].append(1000 * (time.process_time() - started))
                action = engine.action(code, ours)
            else:
                started = time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):  # its MCTS prints every permutation's scores
                    action = them.request_next_action(state.next_player_view(), bummerl.game_points)
                if n > 1:
                    stats["their_ms"].append(1000 * (time.process_time() - started))
                code = engine.code(action)
            if code == R.CLOSE:
                stats["closes"][mover == our_seat] += 1
            game.play_action(action)  # the engine's referee: refuses an illegal action
            apply_action(s, code)
        points = game.game_state.game_points
        winner = 0 if points.one > 0 else 1
        if (int(s[R.WINNER]), int(s[R.GAME_POINTS])) != (winner, points[seats[winner]]):
            raise Mismatch(f"deal result differs at {SchnapsenState.from_array(s).to_text()}: ours player "
                           f"{int(s[R.WINNER])} +{int(s[R.GAME_POINTS])}, the engine's {points}")
        closer = int(s[R.CLOSER])
        if closer >= 0:
            stats["closes_won"][closer == our_seat] += int(winner == closer)
        ending = stats["endings"][deal_ending(s, our_seat)]
        ending[0] += 1
        ending[1] += int(winner == our_seat)
        ending[2] += int(s[R.GAME_POINTS]) * (1 if winner == our_seat else -1)
        stats["game_points"][winner == our_seat][int(s[R.GAME_POINTS]) - 1] += 1
        stats["deals"] += 1
        stats["rows"].append((stats["pair"], our_seat, g - 1, leader, winner, int(s[R.GAME_POINTS]), closer))
        stats["deals_won"] += int(winner == our_seat)
        stats["net_points"] += int(s[R.GAME_POINTS]) * (1 if winner == our_seat else -1)
        bummerl.finalize_game()
    return bummerl.game_points[ours] > bummerl.game_points[theirs]


# one row per finished deal (--deals): seats are the engine's (0 = ONE, 1 = TWO); leader leads its first trick;
# deal counts from 0 in each Bummerl; closer -1 when nobody closed
DEAL_COLUMNS = ("pair", "our_seat", "deal", "leader", "winner", "game_points", "closer")

ENDINGS = ("closed by us", "closed by them", "won with the stock open", "played out")


def deal_ending(s: np.ndarray, our_seat: int) -> str:
    """How the finished deal ``s`` ended, one of ``ENDINGS``: after a closing by either side, by someone
    reaching 66 while the stock was still open, or after the stock ran out."""
    closer = int(s[R.CLOSER])
    if closer >= 0:
        return ENDINGS[0] if closer == our_seat else ENDINGS[1]
    return ENDINGS[2] if s[R.DRAWN] < R.STOCK_SIZE else ENDINGS[3]


def interval(wins: int, n: int) -> str:
    lo, hi = wilson_interval(wins, n)
    return f"{wins}/{n} = {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit code 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="the outside engine's src folder")
    parser.add_argument("--bot", default="hybrid:20", help="our bot (as for schnapsen match)")
    parser.add_argument("--opponent", default="heuristic", help="heuristic, random or mcts:N")
    parser.add_argument("--pairs", type=int, default=10, help="Bummerl pairs (seats swapped on the same deals)")
    parser.add_argument("--seed", type=int, default=None, help="run seed (default: fresh)")
    parser.add_argument("--params", default="", help="our heuristic's parameters changed: name=value,...")
    parser.add_argument("--deals", default=None, metavar="CSV", help="write one row per finished deal here")
    args = parser.parse_args()
    if args.seed is not None and args.seed < 0:
        fail("--seed must be >= 0")
    if args.deals:
        try:  # checked before the run: an unwritable path must not cost the Bummerls played
            open(args.deals, "a").close()
        except OSError as exc:
            fail(f"--deals: cannot write {args.deals}: {exc.strerror}")
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    engine = Engine(args.engine)
    bot = parse_bot(args.bot)
    if args.params:
        try:
            bot = replace(bot, params=HeuristicParams.parse(args.params, bot.params))
        except ValueError as exc:
            fail(str(exc))
    random.seed(seed)  # the engine's players draw from Python's random: the same seed, the same run
    deals_ss, bot_ss = np.random.SeedSequence(seed).spawn(2)
    # deal seeds from 1 up: the engine replaces a seed of 0 by the clock
    pair_seeds = [1 + child.generate_state(64, np.uint32).astype(np.int64) for child in deals_ss.spawn(args.pairs)]
    rng = state_from_seed(bot_ss)
    ws = new_workspace()
    stats = {"rows": [], "deals": 0, "deals_won": 0, "net_points": 0, "closes": [0, 0], "closes_won": [0, 0],
             "our_ms": [], "their_ms": [],
             "endings": {name: [0, 0, 0] for name in ENDINGS}, "game_points": [[0, 0, 0], [0, 0, 0]]}
    wins = [0, 0]
    pair_wins = []  # (won as ONE, won as TWO) of each pair
    pair_points = []  # our game points won minus lost over each pair's two Bummerls
    print(f"seed {seed}: {bot.label} against the engine's {args.opponent}, {args.pairs} Bummerl pairs", flush=True)
    # a run stopped by hand reports (a job started with & by a script ignores SIGINT, hence SIGTERM too)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for k, deal_seeds in enumerate(pair_seeds):
            stats["net_points"] = 0
            stats["pair"] = k
            won = [play_bummerl(engine, bot, args.opponent, seat, deal_seeds, rng, ws, stats) for seat in (0, 1)]
            wins = [wins[0] + won[0], wins[1] + won[1]]
            pair_wins.append(won)
            pair_points.append(stats["net_points"])
            print(f"  pair {k + 1}: Bummerls won {sum(wins)}/{2 * (k + 1)} (this pair as ONE {int(won[0])}, as TWO "
                  f"{int(won[1])})", flush=True)
    except Mismatch as exc:  # a disagreement between the engines is a defect, not bad input: exit 1
        raise SystemExit(f"error: {exc}") from None
    except KeyboardInterrupt:
        # Bummerls of the pairs played; deals and CPU times also of the unfinished pair
        print(f"interrupted after {len(pair_wins)} pairs", flush=True)
    if args.deals:
        pd.DataFrame(stats["rows"], columns=DEAL_COLUMNS).to_csv(args.deals, index=False)
    if not pair_wins:
        return
    pairs = len(pair_wins)
    n = 2 * pairs
    ours_ms, theirs_ms = np.array(stats["our_ms"]), np.array(stats["their_ms"])
    print(f"Bummerls won {interval(sum(wins), n)}; as player ONE {wins[0]}/{pairs}, as TWO {wins[1]}/{pairs}")
    one_both, two_both, p = seat_sign_test(*zip(*pair_wins))
    print(f"pairs whose both Bummerls went to player ONE: {one_both}, to TWO: {two_both} (exact two-sided p {p:.3f})")
    print(f"deals won {interval(stats['deals_won'], stats['deals'])}; every move's legal actions and every "
          "deal's result agreed")
    mean, lo, hi = mean_interval(pair_points)
    print(f"our game points won minus lost per Bummerl pair: {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] (n {len(pair_points)})")
    print(f"closings: ours {stats['closes'][1]} (won {stats['closes_won'][1]}), theirs {stats['closes'][0]} "
          f"(won {stats['closes_won'][0]})")
    print("deals by how they ended (deals, won by us, our game points won minus lost): " + "; ".join(
        f"{name} {n_deals}, {won}, {points:+d}" for name, (n_deals, won, points) in stats["endings"].items()))
    ours_gp, theirs_gp = stats["game_points"][1], stats["game_points"][0]
    print(f"deals won for 1/2/3 game points: ours {'/'.join(map(str, ours_gp))}, theirs {'/'.join(map(str, theirs_gp))}")
    print(f"CPU ms per decision: ours mean {ours_ms.mean():.1f} median {np.median(ours_ms):.1f} "
          f"(n {ours_ms.size}); theirs mean {theirs_ms.mean():.1f} median {np.median(theirs_ms):.1f} "
          f"(n {theirs_ms.size})")


if __name__ == "__main__":
    main()
