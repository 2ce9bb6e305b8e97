"""Double-dummy card play for Rikken rounds (``analyzer rikken play --policy dd``).

Every seat sees all four hands and, at each turn, asks the solver (:func:`best_moves`) for the cards
that are optimal for its side, then draws one of them uniformly with the run's xoshiro state (the
same draw as the random policy: face-up cards in id order, then face-down leads). The rules of play
are the kernels' (``init_round`` / ``legal_actions`` / ``apply_action``), so legality, the called
card, blind leads and trick winners are exactly those of the other policies. Open contracts change
nothing here: every hand is seen anyway.

What each seat plays for, contract by contract (the *questions* of a round):
- trick contracts (Rik .. 13 Alone, Troela): the declaring side maximises its tricks, the others
  minimise them. Both sides playing perfectly, the side ends with its double-dummy value ``v`` from
  the start, so after one ``solve`` at the start each turn asks only "can the side still reach
  ``v - won``" (its members) or "``v - won + 1``" (the others), one window search instead of two;
- Misery: the declarer plays to take no trick (``le 0``), the others to give him one;
- 1 Alone: the declarer plays to take exactly one trick (``eq``), the others to prevent it.
A Misery / 1 Alone contract already failed asks nothing more. Several Misery / 1 Alone declarers
(joined bids) play a game of more than two sides, which the solver does not model; each seat ranks
the open questions - its own contract first, then the other declarers' in seat order - and narrows
its optimal cards question by question, keeping the previous set when a question would leave none.
So a declarer who can force his contract always makes it; the defenders concentrate on the first
declarer they can still beat.
"""

import numpy as np

from analyzer.games.rikken import rules
from analyzer.games.rikken.heuristic import FACE_DOWN_OFFSET, HAND, TRICKS, TURN
from analyzer.games.rikken.kernels import apply_action, choose_card_random, legal_actions, new_round
from analyzer.solvers.dd.api import best_moves, solve
from analyzer.solvers.dd.rikken import declaring_team


class _Question:
    """One declarer's contract as a solver question: its team and how the team's goal is phrased."""

    def __init__(self, declarer: int, contract: int, partner: int):
        self.declarer = declarer
        self.kind = int(rules.KIND[contract])
        self.team = declaring_team(declarer, contract, partner)
        self.value = 0  # trick contracts: the team's double-dummy count from the start

    def won(self, st) -> int:
        return sum(int(st[TRICKS + s]) for s in range(4) if self.team >> s & 1)

    def goal(self, st, mover: int, tricks_left: int):
        """``(goal, k)`` for :func:`best_moves` from the mover's point of view, or None when every card is optimal.

        ``tricks_left`` counts the trick in progress.
        """
        won = self.won(st)
        if self.kind == rules.Kind.TRICKS:
            need = self.value - won + (0 if self.team >> mover & 1 else 1)
            # Reaching 0 more tricks is certain and more than tricks_left impossible: no card matters.
            return ("ge", need) if 0 < need <= tricks_left else None
        if self.kind == rules.Kind.MISERY:
            return ("le", 0) if won == 0 else None
        return ("eq", 1 - won) if won <= 1 else None


def _questions(contract_of, partner: int) -> list[_Question]:
    return [_Question(s, int(c), int(partner)) for s, c in enumerate(contract_of) if c >= 0]


def _ranked(questions: list[_Question], mover: int) -> list[_Question]:
    """The mover's own contract first, then the others in seat order."""
    return sorted(questions, key=lambda q: q.declarer != mover)


def _optimal(st, mover, up, fd, questions, trump, trick, trick_blind, called_card, blind):
    """The legal actions (face-up mask, face-down mask) that are optimal for ``mover``."""
    hands = st[HAND:HAND + 4].copy()
    # The mover has not played to the trick in progress: his cards count it.
    tricks_left = int(hands[mover]).bit_count()
    for question in _ranked(questions, mover):
        if up.bit_count() + fd.bit_count() <= 1:
            break
        asked = question.goal(st, mover, tricks_left)
        if asked is None:
            continue
        best_up, best_fd = best_moves(hands, trump, mover, question.team, asked[0], asked[1], trick=trick,
                                      called_card=called_card, blind_call=blind, trick_blind=trick_blind)
        if (up & best_up) | (fd & best_fd):
            up, fd = up & best_up, fd & best_fd
    return up, fd


def playout_one_dd(hands, leader, contract_of, partner, trump, called_card, blind, rng_state):
    """Play one Rikken round double dummy (see the module notes).

    Parameters
    ----------
    hands : array_like of 4 int64
        Hand masks of seats 0..3, all of one size (13 for a round; fewer for an ending).
    leader : int
        Seat leading to the first trick.
    contract_of : array_like of 4 int64
        Contract id each seat declares, -1 for non-declarers.
    partner, trump, called_card, blind : int
        As in ``kernels.playout_batch``.
    rng_state : numpy.ndarray of uint64[4]
        xoshiro256** state for the choice among equally good cards, advanced in place.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Tricks per seat ``int64[4]`` and the trace ``int64[4 * cards, 4]``, rows ``(seat, action,
        legal face-up mask, legal face-down mask)`` as ``kernels.playout_one`` records them.
    """
    hands = np.asarray(hands, dtype=np.int64)
    contract_of = np.asarray(contract_of, dtype=np.int64)
    trump, called_card, blind = int(trump), int(called_card), bool(blind)
    st = new_round(hands, int(leader), contract_of, int(partner), trump, called_card, int(blind))
    questions = _questions(contract_of, partner)
    for question in questions:
        if question.kind == rules.Kind.TRICKS:
            question.value = solve(hands, trump, int(leader), question.team, called_card=called_card,
                                   blind_call=blind)
    moves = 4 * int(hands[0]).bit_count()
    trace = np.empty((moves, 4), dtype=np.int64)
    trick: list[int] = []
    trick_blind = False
    for i in range(moves):
        seat = int(st[TURN])
        up, fd = legal_actions(st, seat)
        best_up, best_fd = _optimal(st, seat, int(up), int(fd), questions, trump, trick, trick_blind, called_card,
                                    blind)
        action = int(choose_card_random(np.int64(best_up), np.int64(best_fd), rng_state))
        trace[i] = seat, action, up, fd
        face_down = action >= FACE_DOWN_OFFSET
        # The solver needs the face-down card itself (the kernel state only records that one was led).
        trick.append(action - FACE_DOWN_OFFSET if face_down else action)
        trick_blind = trick_blind or face_down
        if apply_action(st, seat, action) >= 0:
            trick, trick_blind = [], False
    return st[TRICKS:TRICKS + 4].copy(), trace


def playout_batch_dd(hands, leader, contract_of, partner, trump, called_card, blind, rng_state, tricks_out):
    """Play out a batch of rounds double dummy; arrays as in ``kernels.playout_batch`` (no policies, no params)."""
    for d in range(hands.shape[0]):
        tricks_out[d], _ = playout_one_dd(hands[d], leader[d], contract_of[d], partner[d], trump[d], called_card[d],
                                          blind[d], rng_state)
