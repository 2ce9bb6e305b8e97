"""Where sampled-dd's defence lets an Open Misery (or ``--contract``) through: the first card that gave it up.

The deals and play streams are those of ``rikken_sdd_retry.py`` (deal ``d`` of ``rikken_play_strength.py
--seed S --deals N --screen K --contracts C``, stream ``state_from_seed([S, d])``, heuristic declarer,
sampled-dd defenders). Each deal is played again with every sampled-dd decision recorded (its worlds'
value bounds per card), then each sampled-dd decision is judged on the true hands (``first_given_up``: the
solver's moves that keep the side's result, ``--judge-budget`` completed tricks a question, so a walk cannot
hang on one exact question as the unbudgeted judge once did for 40 minutes). For a made deal, the first
defender card proved to turn a beatable contract into a made one is printed with what its decision knew:

- ``tied``: every world scored every card alike (the tie rule's card: the expert's or
  ``misery_defence_card``);
- ``stopped``: some world's question ran out of its budget and no card was proved better (the expert's card);
- ``chose``: the worlds told the cards apart, finished, and the card they chose gave it up;
- ``forced``: the seat had one distinct card.

Against an exposed misère a ``tied`` (or ``chose`` with several classes still on top) decision is broken by
play-outs (``sampled_dd.playout_tie_break``); the line says whether they told the top classes apart
(``play-outs chose``) or tied too (``play-outs tied``: ``own``'s card). Each card is named with the defender
who played it, counted from the declarer (``after``: the seat after him, ``across``, ``before``), and whether
it led or followed.

A decision the judge's budget left undecided before that card is named with it (``judge stopped at trick T``);
a made deal with no proved card and an undecided decision counts as ``judge stopped``. ``--keeping`` also names
the cards the judge proved to keep the contract beatable at that decision.

Then the counts per class. ``--deals-list`` plays only the listed deals (the made ones of a
``rikken_sdd_retry.py`` output, say).

Usage: ``python scripts/rikken_sdd_walk.py --seed S [--deals 40] [--screen 40] [--contract open-misery]
[--deals-list 0,5,9] [--playout-worlds K] [--judge-budget 20000000] [--keeping]``.
"""

import argparse
import sys
import time
from collections import Counter
from types import SimpleNamespace

import digest_cache  # noqa: F401  (first: numba's cache by code digest)
import numpy as np

from analyzer.cards.deck import card_name
from analyzer.cards.masks import cards_of
from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.rikken import bots, rules, sampled_dd
from analyzer.games.rikken.experiments import declaring_seats
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.games.rikken.round_layout import CONTRACT, FACE_DOWN_OFFSET, HAND, KIND, TRICKS
from analyzer.solvers.dd.api import check_budget, judge_moves
from rikken_play_strength import outcome, setups_for


def play_recorded(row: dict, ids, seed) -> tuple[np.ndarray, list, list, list]:
    """Tricks, the trace, per move the recorded decision (None where sampled-dd searched nothing): the list
    of ``(low, high)`` per world, and per move the play-out values of the top classes (None where no play-out
    ran)."""
    decisions, playouts = [], []
    plain, plain_playouts = sampled_dd.world_values, sampled_dd.playout_values

    def recording(*args, **kwargs):
        low, high = plain(*args, **kwargs)
        decisions[-1].append((low, high))
        return low, high

    def recording_playouts(*args, **kwargs):
        values = plain_playouts(*args, **kwargs)
        playouts[-1] = values.tolist()
        return values

    original = sampled_dd.choose_sampled

    def choosing(*args, **kwargs):
        decisions.append([])
        playouts.append(None)
        return original(*args, **kwargs)

    sampled_dd.world_values, sampled_dd.choose_sampled = recording, choosing
    sampled_dd.playout_values = recording_playouts
    try:
        tricks, trace = sampled_dd.playout_one_sampled(row["hands"], row["leader"], row["contract_of"], row["partner"],
                                                       row["trump"], row["called_card"], row["blind"], ids,
                                                       default_params(), state_from_seed(seed))
    finally:
        sampled_dd.world_values, sampled_dd.choose_sampled = plain, original
        sampled_dd.playout_values = plain_playouts
    per_move, per_playout = [], []
    searched, played_out = iter(decisions), iter(playouts)
    for seat, _, _, _ in trace:
        mine = ids[int(seat)] == bots.policy_id("sampled-dd")
        per_move.append(next(searched) if mine else None)
        per_playout.append(next(played_out) if mine else None)
    return tricks, trace, per_move, per_playout


def first_given_up(row: dict, plays, judged, budget: int) -> tuple[int | None, int | None, tuple | None]:
    """The first move of a ``judged`` seat proved to give up a contract its side could still force (made for
    declarers, beaten for the others), and the first judged move before it the budget left undecided, as move
    indices (None: none); then the cards proved to keep that contract there, ``(face_up, face_down)`` masks as
    the verdicts give them (None with no such move).

    At each judged move with more than one legal card, every open yes/no contract of the true position is asked
    with ``judge_moves`` (``budget`` completed tricks a question): the card gave the contract up when another
    card is proved to keep it and the played one proved not to.
    """
    st = new_round(row["hands"], int(row["leader"]), row["contract_of"], int(row["partner"]), int(row["trump"]),
                   int(row["called_card"]), int(row["blind"]))
    contract_of = [int(st[CONTRACT + s]) for s in range(4)]
    kind_of = [int(st[KIND + s]) for s in range(4)]
    called, blind = int(row["called_card"]), bool(row["blind"])
    generations: dict = {}
    trick, trick_blind, undecided = [], False, None
    for i, (seat, action) in enumerate(plays):
        up, fd = (int(m) for m in legal_actions(st, seat))
        if judged(seat) and (up | fd).bit_count() > 1:
            won = [int(st[TRICKS + s]) for s in range(4)]
            goals = sampled_dd.open_goals(won, contract_of, kind_of, int(row["partner"]),
                                          int(st[HAND + seat]).bit_count())
            for goal in (g for g in goals if g.goal is not None):
                verdicts = judge_moves(st[HAND:HAND + 4].copy(), int(row["trump"]), seat, goal.team, goal.goal, goal.k,
                                       trick=trick, called_card=called, blind_call=blind, trick_blind=trick_blind,
                                       generations=generations, budget=budget)
                keeps = verdicts.keep_up or verdicts.keep_down
                failed = sampled_dd.has_action((verdicts.fail_up, verdicts.fail_down), action)
                kept = sampled_dd.has_action((verdicts.keep_up, verdicts.keep_down), action)
                if keeps and failed:
                    return i, undecided, (verdicts.keep_up, verdicts.keep_down)
                if not (kept or failed) and undecided is None:
                    undecided = i
        face_down = action >= FACE_DOWN_OFFSET
        trick.append(action - FACE_DOWN_OFFSET if face_down else action)
        trick_blind = trick_blind or face_down
        if apply_action(st, seat, action) >= 0:
            trick, trick_blind = [], False
    return None, undecided, None


def classify(record) -> str:
    """What the decision knew (module notes)."""
    if not record:
        return "forced"
    if any(low != high for low, high in record):
        return "stopped"
    if all(len(set(low)) == 1 for low, _ in record):
        return "tied"
    return "chose"


def playout_note(values) -> str:
    """What the play-outs said at a decision (``values``: per top class, None where none ran): ``chose`` when one
    class's value is above every other's beyond the tie-break's rounding, else ``tied`` (several on top: own's
    card if it is among them, as ``sampled_dd.playout_tie_break`` plays)."""
    if values is None:
        return ""
    top = max(values)
    return "; play-outs tied" if sum(value >= top - 1e-9 for value in values) > 1 else "; play-outs chose"


def keeping_note(keeping: tuple[int, int]) -> str:
    """The judge's keeping cards, ``; kept by SA S7`` (face-down ones marked ``face down``)."""
    up, down = keeping
    names = [card_name(c) for c in cards_of(up)] + [f"{card_name(c)} face down" for c in cards_of(down)]
    return "; kept by " + " ".join(names)


def position(seat: int, declarer: int, lead: bool) -> str:
    """Defender ``seat`` counted from ``declarer`` (``after`` him, ``across``, ``before`` him) and whether the card
    led."""
    where = {1: "after", 2: "across", 3: "before"}[(seat - declarer) % 4]
    return f"{where}, {'lead' if lead else 'follow'}"


def _deal_numbers(text: str) -> list[int]:
    """``--deals-list``: deal numbers separated by commas (argparse turns the error into one line, exit 2)."""
    try:
        numbers = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of deal numbers: {text!r}") from None
    if min(numbers) < 0:
        raise argparse.ArgumentTypeError(f"deal numbers start at 0: {text!r}")
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--screen", type=int, default=40)
    parser.add_argument("--contract", default="open-misery")
    parser.add_argument("--deals-list", type=_deal_numbers, default=None)
    parser.add_argument("--playout-worlds", type=int, default=sampled_dd.PLAYOUT_WORLDS,
                        help="worlds drawn for the Open Misery play-outs alone (sampled_dd.PLAYOUT_WORLDS)")
    parser.add_argument("--judge-budget", type=int, default=20_000_000,
                        help="completed tricks each judge question may search (0: no limit)")
    parser.add_argument("--keeping", action="store_true",
                        help="also name the cards the judge proved to keep the contract beatable at the giving-up card")
    args = parser.parse_args()
    try:
        contract = int(rules.parse_contract(args.contract))
        check_budget(args.judge_budget)
        if args.playout_worlds < 0:
            raise InputError(f"--playout-worlds must be at least 0, got {args.playout_worlds}")
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    sampled_dd.PLAYOUT_WORLDS = args.playout_worlds
    setups = setups_for(SimpleNamespace(seed=args.seed, deals=args.deals, screen=args.screen, hand=None, leader=None),
                        contract)
    ids_all = np.where(declaring_seats(setups["contract_of"], setups["partner"]), bots.policy_id("heuristic"),
                       bots.policy_id("sampled-dd")).astype(np.int64)
    wanted = args.deals_list if args.deals_list is not None else range(setups["hand"].size)
    if any(d >= setups["hand"].size for d in wanted):
        print(f"error: --deals-list names a deal past the {setups['hand'].size} screened", file=sys.stderr)
        sys.exit(2)
    counts = Counter()
    for d in wanted:
        start = time.process_time()
        row = {key: value[d] for key, value in setups.items()}
        tricks, trace, per_move, per_playout = play_recorded(row, ids_all[d], [args.seed, d])
        one = {key: value[d:d + 1] for key, value in setups.items()}
        made = bool(outcome(one, tricks[None, :], contract)[0][0])
        if not made:
            print(f"deal {d}: beaten", flush=True)
            continue
        first, undecided, keeping = first_given_up(row, [(int(s), int(a)) for s, a, _, _ in trace],
                                                   lambda seat: ids_all[d][seat] == bots.policy_id("sampled-dd"),
                                                   args.judge_budget)
        stopped = "" if undecided is None else f"; judge stopped at trick {undecided // 4 + 1} first"
        if first is None:
            counts["never beatable" if undecided is None else "judge stopped"] += 1
            print(f"deal {d}: made; no defender card proved to give it up"
                  + (" (not beatable from the deal)" if undecided is None else stopped), flush=True)
            continue
        kind = classify(per_move[first])
        seat, action = int(trace[first][0]), int(trace[first][1])
        declarers = [s for s in range(4) if int(row["contract_of"][s]) >= 0]
        where = position(seat, declarers[0], first % 4 == 0) if len(declarers) == 1 else "?"
        counts[kind] += 1
        counts[f"{kind}{playout_note(per_playout[first])} ({where}, trick {first // 4 + 1})"] += 1
        worlds = per_move[first] or []
        separated = sum(len(set(low)) > 1 for low, _ in worlds)
        print(f"deal {d}: made; trick {first // 4 + 1}, seat {'NESW'[seat]} ({where}) card {action} gave it up: "
              f"{kind} ({len(worlds)} worlds solved, {separated} told the cards apart{stopped}"
              f"{playout_note(per_playout[first])} {per_playout[first] or ''}"
              f"{keeping_note(keeping) if args.keeping else ''}; {time.process_time() - start:.1f} CPU-s)", flush=True)
    print("first giving-away card: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))


if __name__ == "__main__":
    main()
