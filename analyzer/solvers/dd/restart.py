"""Randomized restarts for the yes/no searches whose cost is a heavy tail (Misery, 1 Alone).

One yes/no search can cost a thousand times another of the same size because of one early ordering
choice: a wrong card tried first at a node whose answer decides little, with a huge subtree below it.
The classic cure for such heavy-tailed exact search (Gomes, Selman and Kautz, 1998-2000) is to run it
with a growing limit and a fresh move order per run: a run that hits its limit is dropped, the next
starts again with another ordering salt (``moves._salt_term``) and a larger limit.  The limits follow
Luby, Sinclair and Zuckerman's universal sequence (1, 1, 2, 1, 1, 2, 4, ... times ``unit``), within a
logarithmic factor of the best fixed limit for any run-time distribution; run ``i`` uses salt ``i``, so
the first run is today's search exactly and the whole sequence is reproducible.

Why the answer is exact: each run is the exact search; a run either finishes, and its answer is the
position's, or hits its limit, and then its answer is never read (``search`` returns at once, before its
own table store, in every node once the limit is reached, see ``solve_bounded``).  The transposition
table is kept across runs: an entry holds a bound on the team's future tricks in its position under the
question's trump, team and kind of goal, found by a finished subtree, true whatever order found it; the
cut-off cache and the entries' best moves steer only the order.  The sequence is unbounded, so some run
has a limit above the plain search's cost and finishes: the driver always answers (unless ``budget``).

Restarts pay only where the ordering is at fault: they answered the "no" questions that stuck (the
defenders' one good card found by another salt) but no long "yes" proof, whose size is the proof's,
and they made such proofs 1.2-3.4x dearer in a review's sample.  So once the runs together have spent
``RESTART_UNITS`` units the driver stops restarting: one last run with today's order and no limit, in
the kept table, finishes the question, and a proof no salt shortens costs at most that much more.
"""

from analyzer.solvers.dd.layout import C_ABORTED, C_LIMIT, C_SALT, C_TRICKS, M_CTX
from analyzer.solvers.dd.search import solve_window

# Completed tricks of the first run: the plain search answers 99% of the lone questions of the Rikken
# bids within it (2,381 of 2,393 on 300 deals), so they never restart (docs/dd-diagnosis.md, "Session 13:
# restarts").
UNIT = 1 << 18
# Units spent on restarts before the last, unlimited run: the stuck "no" questions measured answered
# within 19 (docs/dd-diagnosis.md, "Session 13: restarts").
RESTART_UNITS = 32


def luby(i):
    """Term ``i`` (from 0) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    i += 1
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def solve_window_restarts(mem, hands, trick, leader, pos, blind, lo, hi, unit=UNIT, budget=0, units=RESTART_UNITS):
    """:func:`search.solve_window` (without collecting) by restarts: can the team's tricks land in ``[lo, hi]``?

    Parameters
    ----------
    mem : ndarray
        The work array, its context set (``set_context``) for the question.
    hands, trick, leader, pos, blind, lo, hi
        As for ``solve_window``.
    unit : int
        Completed tricks of a run of Luby term 1 (the first run's limit).
    budget : int
        Completed tricks of all runs together (0: none); the last run is cut to what is left.
    units : int
        After ``units * unit`` completed tricks the runs stop restarting (the module notes); 0 asks the
        plain search (one run, salt 0, no limit but ``budget``).

    Returns
    -------
    bool or None
        The answer, or None when ``budget`` ran out first.  ``C_TRICKS`` counts every run's completed
        tricks, and the salt, limit and abort flag are left at 0.
    """
    ctx = M_CTX
    start = mem[ctx + C_TRICKS]
    answer = None
    run = 0
    while True:
        last = mem[ctx + C_TRICKS] - start >= units * unit
        limit = 0 if last else unit * luby(run)
        if budget:
            left = start + budget - mem[ctx + C_TRICKS]
            limit = left if last else min(limit, left)
        mem[ctx + C_SALT] = 0 if last else run
        mem[ctx + C_LIMIT] = mem[ctx + C_TRICKS] + limit if limit else 0
        mem[ctx + C_ABORTED] = 0
        yes = solve_window(mem, hands, trick, leader, pos, blind, lo, hi, False)
        if not mem[ctx + C_ABORTED]:
            answer = bool(yes)
            break
        run += 1
        if budget and mem[ctx + C_TRICKS] - start >= budget:
            break
    mem[ctx + C_SALT] = 0
    mem[ctx + C_LIMIT] = 0
    mem[ctx + C_ABORTED] = 0
    return answer
