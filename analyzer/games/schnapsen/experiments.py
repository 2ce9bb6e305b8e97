"""Schnapsen experiments as chunk tasks for ``run_chunks`` plus their summaries.

``match_task``: Bummerl matches between two bots, each match played twice on the same deals with the
seats swapped. ``closing_task``: at every position where closing is legal, "close now" against
"play on" under one bot, on the same sampled worlds. ``advise``: every legal action of one position.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.experiments.progress import report_items
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams, heuristic_action
from analyzer.games.schnapsen.kernels import (
    apply_action,
    deal_into,
    random_action,
    shuffle_deck,
)
from analyzer.games.schnapsen.play import (
    HEURISTIC,
    PERFECT,
    PIMC,
    POLICIES,
    PlayWorkspace,
    evaluate_actions,
    play_deals,
    play_match,
)
from analyzer.games.schnapsen.search import DEFAULT_SAMPLES
from analyzer.games.schnapsen.state import SchnapsenState


@dataclass(frozen=True)
class Bot:
    """A bot: policy name, PIMC samples (also worlds for rollout evaluation) and heuristic parameters."""

    name: str
    samples: int = DEFAULT_SAMPLES
    params: HeuristicParams = field(default_factory=HeuristicParams)

    @property
    def policy(self) -> int:
        """The kernel policy id."""
        return POLICIES[self.name]

    @property
    def label(self) -> str:
        """Name as typed on the command line (``pimc:24`` for a non-default sample count)."""
        return f"{self.name}:{self.samples}" if self.name == "pimc" and self.samples != DEFAULT_SAMPLES else self.name

    def as_dict(self) -> dict:
        """Picklable description for task parameters and manifests."""
        return {"name": self.name, "samples": self.samples, "params": self.params.__dict__}

    @classmethod
    def from_dict(cls, d: dict) -> "Bot":
        """Inverse of :meth:`as_dict`."""
        return cls(d["name"], d["samples"], HeuristicParams(**d["params"]))


def parse_bot(text: str, samples: int | None = None) -> Bot:
    """Parse ``random``, ``heuristic``, ``perfect``, ``pimc`` or ``pimc:N`` (N samples).

    Raises
    ------
    InputError
        For an unknown bot or a bad sample count.
    """
    name, _, count = text.strip().lower().partition(":")
    if name not in POLICIES:
        raise InputError(f"unknown Schnapsen bot {text!r} (choose from {', '.join(POLICIES)})")
    n = samples if samples is not None else DEFAULT_SAMPLES
    if count:
        try:
            n = int(count)
        except ValueError:
            raise InputError(f"bad sample count in {text!r}: write pimc:N") from None
    if n < 1 or n > 10_000:
        raise InputError(f"sample count must be 1..10000, got {n}")
    return Bot(name, n)


def _seat_arrays(bots: list[Bot]):
    policy = np.array([b.policy for b in bots], dtype=np.int64)
    samples = np.array([b.samples for b in bots], dtype=np.int64)
    hparams = np.stack([b.params.to_array() for b in bots])
    return policy, samples, hparams


# ---------------------------------------------------------------------------------------- matches
def match_task(params: dict, start: int, count: int, seed_seq: np.random.SeedSequence) -> pd.DataFrame:
    """Play ``count`` match pairs: bot A in seat 0 then in seat 1, on the same deal sequence.

    Returns one row per match: ``pair, seating, a_seat, winner ("A"/"B"), deals, gp_a, gp_b``.
    """
    a = Bot.from_dict(params["a"])
    b = Bot.from_dict(params["b"])
    ws = PlayWorkspace()
    rows = []
    for i, child in enumerate(seed_seq.spawn(count)):
        deal_ss, bot_ss = child.spawn(2)
        for seating, seats in enumerate(([a, b], [b, a])):
            policy, samples, hparams = _seat_arrays(seats)
            winner, deals, gp0, gp1 = play_match(policy, samples, hparams, state_from_seed(deal_ss),
                                                 state_from_seed(bot_ss), 1, *ws.args())
            a_seat = seating
            gp = (gp0, gp1)
            rows.append({"pair": start + i, "seating": seating, "a_seat": a_seat,
                         "winner": "A" if winner == a_seat else "B", "deals": deals,
                         "gp_a": gp[a_seat], "gp_b": gp[1 - a_seat]})
        report_items()
    return pd.DataFrame(rows)


def paired_deals(a: Bot, b: Bot, n_deals: int, seed: int) -> pd.DataFrame:
    """Play ``n_deals`` random deals twice, A in seat 0 then in seat 1, on the same cards.

    Returns one row per deal with A's signed game points in each seating (``a_seat0``, ``a_seat1``) and
    their mean ``a_gp`` (B's result is its negative: every deal has one winner).
    """
    ws = PlayWorkspace()
    deal_ss, bot_ss = np.random.SeedSequence(seed).spawn(2)
    out = np.zeros((n_deals, 6), dtype=np.int64)
    results = []
    for seats in ([a, b], [b, a]):
        policy, samples, hparams = _seat_arrays(seats)
        play_deals(n_deals, policy, samples, hparams, state_from_seed(deal_ss), state_from_seed(bot_ss), out,
                   *ws.args())
        results.append(np.where(out[:, 0] == 0, out[:, 1], -out[:, 1]))
    a0, a1 = results[0], -results[1]
    return pd.DataFrame({"deal": np.arange(n_deals), "a_seat0": a0, "a_seat1": a1, "a_gp": (a0 + a1) / 2})


# ---------------------------------------------------------------------------------------- closing
HIGH_TRUMP_RANKS = (R.TEN, R.ACE)


def _closing_row(s: np.ndarray, n: int, worlds: int, acts, sums, wins) -> dict | None:
    close = [i for i in range(n) if acts[i] == R.CLOSE]
    if not close:
        return None
    c = close[0]
    others = [i for i in range(n) if acts[i] != R.CLOSE]
    best = max(others, key=lambda i: sums[i])
    p = int(s[R.TO_MOVE])
    trump = int(s[R.TRUMP])
    hand = int(s[R.HAND0 + p])
    trumps = hand & int(R.SUIT_MASKS[trump])
    high = sum((hand >> R.card_of(trump, r)) & 1 for r in HIGH_TRUMP_RANKS)
    return {"position": SchnapsenState.from_array(s).to_text(), "player": p, "stock_size": 10 - int(s[R.DRAWN]),
            "own_points": int(s[R.POINTS0 + p]), "opp_points": int(s[R.POINTS0 + 1 - p]),
            "own_pending": int(s[R.PENDING0 + p]), "own_has_trick": int(s[R.TRICKS0 + p] > 0),
            "opp_has_trick": int(s[R.TRICKS0 + 1 - p] > 0),
            "trumps_held": trumps.bit_count(), "high_trumps_held": int(high), "worlds": worlds,
            "close_win": wins[c] / worlds, "close_gp": sums[c] / worlds,
            "playon_action": R.action_name(int(acts[best])), "playon_win": wins[best] / worlds,
            "playon_gp": sums[best] / worlds, "gain": (sums[c] - sums[best]) / worlds}


def closing_task(params: dict, start: int, count: int, seed_seq: np.random.SeedSequence) -> pd.DataFrame:
    """Play ``count`` deals with ``params["bot"]`` in both seats and evaluate each legal closing.

    At every position where closing is legal the bot's evaluation (sampled worlds shared by all
    actions) gives "close now" and the best other action ("play on"); the deal then continues with the
    bot's own choice. One row per such position, with its deal and the whole position in state
    notation (``position``: every card placed, ready for ``analyzer schnapsen advise``).
    """
    bot = Bot.from_dict(params["bot"])
    hp = bot.params.to_array()
    ws = PlayWorkspace()
    rows = []
    s = ws.state
    for i, child in enumerate(seed_seq.spawn(count)):
        deal_ss, bot_ss = child.spawn(2)
        deal_rng = state_from_seed(deal_ss)
        rng = state_from_seed(bot_ss)
        shuffle_deck(deal_rng, ws.deck)
        deal_into(ws.deck, (start + i) % 2, s)
        while s[R.WINNER] < 0:
            n, worlds = 0, 0
            can_close = s[R.LEAD_CARD] < 0 and s[R.CLOSER] < 0 and s[R.DRAWN] <= 8
            if can_close or bot.policy in (PIMC, PERFECT):
                n, worlds = evaluate_actions(s, bot.policy, bot.samples, hp, rng, *ws.args())
                row = _closing_row(s, n, worlds, ws.acts, ws.sums, ws.wins) if can_close else None
                if row is not None:
                    rows.append({"deal": start + i, **row})
            if bot.policy in (PIMC, PERFECT):
                action = int(ws.acts[int(np.argmax(ws.sums[:n]))])
            elif bot.policy == HEURISTIC:
                action = heuristic_action(s, hp, ws.acts)
            else:
                action = random_action(s, rng, ws.acts)
            apply_action(s, action)
        report_items()
    return pd.DataFrame(rows, columns=["deal", "position", "player", "stock_size", "own_points", "opp_points",
                                       "own_pending", "own_has_trick", "opp_has_trick", "trumps_held",
                                       "high_trumps_held", "worlds", "close_win", "close_gp", "playon_action",
                                       "playon_win", "playon_gp", "gain"])


# ---------------------------------------------------------------------------------------- advise
def advise(state: SchnapsenState, bot: Bot, seed: int) -> pd.DataFrame:
    """Evaluate every legal action of ``state`` for the player to move under ``bot``.

    Returns one row per action: ``action, expected_gp, win_probability, worlds``, best first.
    """
    if state.is_over:
        raise InputError("the deal is already over")
    if state.hidden_filled and bot.policy == PERFECT:
        raise InputError("the perfect bot needs every card: name the opponent's hand and the stock")
    ws = PlayWorkspace()
    rng = state_from_seed(seed)
    s = state.to_array()
    n, worlds = evaluate_actions(s, bot.policy, bot.samples, bot.params.to_array(), rng, *ws.args())
    rows = [{"action": R.action_name(int(ws.acts[i])), "expected_gp": ws.sums[i] / worlds,
             "win_probability": ws.wins[i] / worlds, "worlds": worlds} for i in range(n)]
    return pd.DataFrame(rows).sort_values("expected_gp", ascending=False, kind="stable").reset_index(drop=True)

