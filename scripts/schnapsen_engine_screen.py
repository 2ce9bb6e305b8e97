"""Screen heuristic rule changes, or one kind of decision handed to an oracle bot, against the outside engine's
rule player, deal by deal, paired.

Each deal seed is played twice by every variant of our player, once from each seat (the engine's player
ONE deals, so the same cards reach the same seat), inside cpatrasciuc/schnapsen-card-game with its referee
(see ``scripts/schnapsen_sparring.py`` for the engine's sources). Python's ``random``, which the engine's
player draws from, is seeded per deal and seat, and our bots' random state is drawn per decision from the deal
seed, the seat and the position (:class:`Decider`), so a variant that decides as the first one replays its deal
exactly: the paired differences come only from the deals where a variant changed a card. Single deals, not
Bummerls: each deal's game points (won +, lost -) are the measure, which a Bummerl's win follows.

Our player is ``--base`` (default ``heuristic``; any bot of ``parse_bot``, say ``hybrid:20``). A variant's
``name=value`` items change the heuristic's parameters (only with the heuristic as the base).

Prints the seed (fresh unless ``--seed``), per variant our game points a deal with a 95% interval and the
deals by how they ended (deals, won by us, game points won minus lost), and for every variant after the
first the paired difference a deal pair (both seats) against the first, with a 95% interval and the
number of pairs that differ.

With ``--oracle BOT`` (say ``hybrid:200``) a variant may hand one kind of our decisions to that bot: the item
``oracle:KIND`` among its parameters, KIND one of ``DECISION_KINDS``. The kind of a decision is read from the
situation and from both actions, the base's and the oracle's, so that the kinds split our decisions
without overlap (see :func:`decision_kind`); the oracle's action is played where the kind matches. The paired
difference against a variant without the oracle is then what the base loses in that kind of decision,
judged by the bot and paid in game points against the engine's player. Both bots' actions are kept per deal
and seat by position, so the variants share the search of the positions they reach alike.

Usage: python scripts/schnapsen_engine_screen.py --engine DIR/src [--deals N] [--seed S] [--base BOT]
       [--oracle BOT] [--variants '' 'name=value,...' 'oracle:follow' ...]  (the first variant is the reference)
"""

import argparse
import hashlib
import random
import secrets

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams
from analyzer.games.schnapsen.experiments import Bot, parse_bot
from analyzer.games.schnapsen.kernels import apply_action, legal_actions
from analyzer.games.schnapsen.play import choose_action
from analyzer.games.schnapsen.search import new_workspace
from analyzer.reports.stats import mean_interval
from schnapsen_sparring import ENDINGS, Engine, deal_ending

#: kinds of our decisions (with more than one legal action) an oracle may take over
DECISION_KINDS = ("lead", "close", "exchange", "marriage", "follow", "closed", "exhausted")


def decision_kind(s: np.ndarray, ours: int, theirs: int) -> str:
    """The kind of our decision in ``s`` where the heuristic plays ``ours`` and the oracle ``theirs``.

    Once the stock is closed (by either side): ``closed``; once it is exhausted: ``exhausted``; a follow with
    the stock open: ``follow``. A lead with the stock open is ``close`` when either action closes, else
    ``exchange`` when either exchanges the trump jack, else ``marriage`` when either announces one, else
    ``lead`` (the card led).
    """
    if s[R.CLOSER] >= 0:
        return "closed"
    if s[R.DRAWN] >= R.STOCK_SIZE:
        return "exhausted"
    if s[R.LEAD_CARD] >= 0:
        return "follow"
    pair = (ours, theirs)
    if R.CLOSE in pair:
        return "close"
    if R.EXCHANGE in pair:
        return "exchange"
    if any(R.MARRIAGE_OFFSET <= a < R.EXCHANGE for a in pair):
        return "marriage"
    return "lead"


def _situation_may_be(s: np.ndarray, kind: str) -> bool:
    """Whether a decision in ``s`` can be of ``kind`` at all (the oracle is asked only then)."""
    if kind in ("closed", "exhausted"):
        return decision_kind(s, 0, 0) == kind
    return s[R.CLOSER] < 0 and s[R.DRAWN] < R.STOCK_SIZE and (s[R.LEAD_CARD] >= 0) == (kind == "follow")


class Decider:
    """One of our bots (``bot`` with the heuristic row ``params``) deciding the positions of one deal and seat.

    Its random state at a position is drawn from the deal seed, the seat and the position, so its action is a
    function of the position alone: a variant that reaches a position another variant reached gets the same
    action, kept from the first time instead of searched again.
    """

    def __init__(self, bot: Bot, params: np.ndarray):
        self.bot = bot
        self.params = params
        self.ws = new_workspace()
        self.deal = (-1, -1)
        self.known: dict[bytes, int] = {}

    def start(self, deal_seed: int, seat: int) -> None:
        """Decide for this deal seed and seat from now on (what another deal's positions got is forgotten)."""
        if (deal_seed, seat) != self.deal:
            self.deal = (deal_seed, seat)
            self.known = {}

    def action(self, s: np.ndarray) -> int:
        """The bot's action in ``s`` (a position of the current deal, our player to move)."""
        key = s.tobytes()
        if key not in self.known:
            digest = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")
            rng = state_from_seed(np.random.SeedSequence([*self.deal, digest]))
            self.known[key] = int(choose_action(s.copy(), self.bot.policy, self.bot.samples, self.params, rng,
                                                self.ws))
        return self.known[key]


class Oracle:
    """A bot (``decider``) taking one kind of our decisions, with the counts of decisions it changed."""

    def __init__(self, decider: Decider, kind: str):
        self.decider = decider
        self.kind = kind
        self.asked = 0
        self.changed = 0

    def overrule(self, s: np.ndarray, code: int) -> int:
        """The action played where the base chose ``code`` in ``s`` (a position with more than one legal action)."""
        if not _situation_may_be(s, self.kind):
            return code
        theirs = self.decider.action(s)
        if decision_kind(s, code, theirs) != self.kind:
            return code
        self.asked += 1
        self.changed += int(theirs != code)
        return theirs


def parse_variant(text: str, base: Bot, oracle: str | None) -> tuple[np.ndarray, str | None]:
    """The base's heuristic row and the oracle's kind (None without one) of one ``--variants`` item."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    kinds = [item[len("oracle:"):] for item in items if item.startswith("oracle:")]
    changes = ",".join(item for item in items if not item.startswith("oracle:"))
    if changes and base.name != "heuristic":
        raise ValueError(f"variant {text!r} changes heuristic parameters: only with --base heuristic")
    params = HeuristicParams.parse(changes, base.params).to_array()
    if not kinds:
        return params, None
    if oracle is None:
        raise ValueError(f"variant {text!r} names an oracle kind but --oracle is not given")
    if len(kinds) > 1 or kinds[0] not in DECISION_KINDS:
        raise ValueError(f"variant {text!r}: one oracle kind, of {', '.join(DECISION_KINDS)}")
    return params, kinds[0]


def players(base: Bot, oracle: str | None, parsed: list) -> tuple[list[Decider], list[Oracle | None]]:
    """Each variant's base decider and oracle from ``parse_variant``'s rows; variants with the same heuristic
    row share a base decider, and every oracle one decider, so that a position is searched once per bot."""
    bases: dict[bytes, Decider] = {}
    shared = None
    if oracle is not None:
        oracle_bot = parse_bot(oracle)
        shared = Decider(oracle_bot, oracle_bot.params.to_array())
    deciders, oracles = [], []
    for params, kind in parsed:
        deciders.append(bases.setdefault(params.tobytes(), Decider(base, params)))
        oracles.append(Oracle(shared, kind) if kind is not None else None)
    return deciders, oracles


def play_deal(engine: Engine, base: Decider, our_seat: int, deal_seed: int, acts: np.ndarray,
              oracle: Oracle | None = None) -> np.ndarray:
    """One deal of our ``base`` (one kind of decision by ``oracle`` if given) as player ``our_seat`` against the
    engine's rule player, player ONE dealing; the finished kernel state."""
    ids = engine.ids.PlayerId
    seats = (ids.ONE, ids.TWO)
    them = engine.opponent("heuristic", seats[1 - our_seat])
    game = engine.bummerl.Bummerl(next_dealer=ids.ONE).start_game(seed=deal_seed)
    s = engine.mirror(game.game_state)
    base.start(deal_seed, our_seat)
    if oracle is not None:
        oracle.decider.start(deal_seed, our_seat)
    while not game.game_state.is_game_over:
        state = game.game_state
        if state.next_player == seats[our_seat]:
            choices = legal_actions(s, acts)
            code = base.action(s) if choices > 1 else int(acts[0])
            if oracle is not None and choices > 1:
                code = oracle.overrule(s, code)
            action = engine.action(code, seats[our_seat])
        else:
            action = them.request_next_action(state.next_player_view())
            code = engine.code(action)
        game.play_action(action)
        apply_action(s, code)
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="the outside engine's src folder")
    parser.add_argument("--deals", type=int, default=1000, help="deal seeds (each played from both seats)")
    parser.add_argument("--seed", type=int, default=None, help="run seed (default: fresh)")
    parser.add_argument("--variants", nargs="+", default=[""],
                        help="heuristic parameters changed, one per variant (and oracle:KIND)")
    parser.add_argument("--base", default="heuristic", help="our player (any bot, say hybrid:20)")
    parser.add_argument("--oracle", default=None, help="the bot an oracle:KIND variant hands that kind to")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        base = parse_bot(args.base)
        parsed = [parse_variant(text, base, args.oracle) for text in args.variants]
        bases, oracles = players(base, args.oracle, parsed)
    except (ValueError, InputError) as exc:
        parser.error(str(exc))
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    engine = Engine(args.engine)
    deal_seeds = 1 + np.random.SeedSequence(seed).generate_state(args.deals, np.uint32).astype(np.int64)
    acts = np.zeros(16, dtype=np.int64)
    points = np.zeros((len(bases), args.deals), dtype=np.int64)  # ours, both seats of a deal seed
    endings = [{name: [0, 0, 0] for name in ENDINGS} for _ in bases]
    print(f"seed {seed}: {args.deals} deals from both seats, {len(bases)} variants of {base.label}", flush=True)
    for k, deal_seed in enumerate(deal_seeds):
        for seat in (0, 1):
            for v, decider in enumerate(bases):
                random.seed(int(deal_seed) * 2 + seat)
                s = play_deal(engine, decider, seat, int(deal_seed), acts, oracles[v])
                won = int(s[R.WINNER]) == seat
                gp = int(s[R.GAME_POINTS]) * (1 if won else -1)
                points[v, k] += gp
                ending = endings[v][deal_ending(s, seat)]
                ending[0] += 1
                ending[1] += int(won)
                ending[2] += gp
    for v, text in enumerate(args.variants):
        mean, lo, hi = mean_interval(points[v] / 2)
        print(f"variant {v} ({text or 'default'}): {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] game points a deal; " + "; ".join(
            f"{name} {n}, {won}, {gp:+d}" for name, (n, won, gp) in endings[v].items()))
        if v:
            diff = points[v] - points[0]
            mean, lo, hi = mean_interval(diff)
            print(f"  minus variant 0: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}] a deal pair, total {int(diff.sum()):+d}, "
                  f"{int(np.count_nonzero(diff))} of {args.deals} pairs differ")
        if oracles[v] is not None:
            print(f"  {args.oracle} took {oracles[v].asked} {oracles[v].kind} decisions, "
                  f"{oracles[v].changed} of them differently")


if __name__ == "__main__":
    main()
