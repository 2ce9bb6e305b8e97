"""Solver verdicts and table generations shared by the plays of one deal's options in ``rikken advise`` (issue 39's
speed goal).

sampled-dd asks the double-dummy solver which cards keep its side's result in each world it draws
(``sampled_dd.world_values``). ``advise`` plays every option of a deal from the same random stream
(``advice._play_by_deal``), so options whose play coincides draw the same worlds and ask the same questions:
8 to 13 Alone in one trump ask the same trick counts (the tie-break, most of the solving) until their cards
differ. While :func:`sharing` is on, a question asked before returns the verdicts it got then.

Exact: the key is every argument that defines the question (the four hands, trump, mover, team, goal and its
``k``, the trick in progress, the call and the blind lead), and only complete verdicts are kept, which are the
solver's proved answer whatever the budget or what its table held (``api.judge_moves``). A hit does leave the
solver's table holding less: a later question that runs out of its budget may then end on another bound, as
after ``sampled_dd.decided_action``'s stop.

With ``table=True`` the block also keeps one set of the solver's table generations for all its questions, in
place of each round's own (``api.judge_moves``' ``generations``): a later option's questions, past the point where
its cards differ from an earlier option's, reuse the positions the earlier one searched under the same trump,
team and kind of goal. Exact for the same reason as within a round: the table's entries bound the team's tricks
from their position and carry the call while the called card is out (``transposition._pattern``), so no entry
answers a question about another trump, team, kind of goal or call. Only the budget's stopping point moves: a
question that runs out of its budget may decide other moves than it would have with the round's own table.
"""

from contextlib import contextmanager

from analyzer.solvers.dd import api

_shared: dict | None = None
_generations: dict | None = None


@contextmanager
def sharing(table: bool = True):
    """Share complete verdicts among the questions asked inside the block (nested blocks: the innermost) and,
    with ``table``, one set of the solver's table generations."""
    global _shared, _generations
    outer = _shared, _generations
    _shared, _generations = {}, ({} if table else None)
    try:
        yield
    finally:
        _shared, _generations = outer


def judge_moves(hands, trump, leader, team, goal="max", k=0, trick=(), called_card=-1, blind_call=False,
                trick_blind=False, generations=None, budget=0, moves=None, until_fail=False):
    """``api.judge_moves``, answered from the verdicts shared so far when :func:`sharing` is on and the same
    question was answered completely before (for the same ``moves``, or for every move: those verdicts hold the
    subset's), and searched in the block's table generations when it shares them. Arguments and result as
    ``api.judge_moves``."""
    if _shared is None:
        return api.judge_moves(hands, trump, leader, team, goal, k, trick, called_card, blind_call, trick_blind,
                               generations, budget, moves=moves, until_fail=until_fail)
    key = (tuple(int(h) for h in hands), int(trump), int(leader), int(team), goal, int(k),
           tuple(int(c) for c in trick), int(called_card), bool(blind_call), bool(trick_blind))
    subset = None if moves is None else (tuple(int(m) for m in moves), bool(until_fail))
    verdicts = _shared.get(key)
    if verdicts is None and subset is not None:
        verdicts = _shared.get((key, subset))
    if verdicts is None:
        verdicts = api.judge_moves(hands, trump, leader, team, goal, k, trick, called_card, blind_call, trick_blind,
                                   generations if _generations is None else _generations, budget, moves=moves,
                                   until_fail=until_fail)
        if verdicts.complete:
            _shared[key if subset is None else (key, subset)] = verdicts
    return verdicts
