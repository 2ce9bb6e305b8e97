"""The size of the proof the search found (counting build only, ``layout.STATS``).

A yes/no search visits more nodes than its answer needs: at a node where the side to move succeeds
one succeeding move proves it, and the moves tried before it are waste; where it fails every move
is needed.  So the proof tree is: at a node that cuts off, the node and the proof of the move that
cut; at a node where every move failed, the node and the proofs of all its moves; a node ended
without a move loop (a bound, the last trick, a table entry) is a leaf.  Its size by depth, against
the nodes the search entered, says how much of the search is ordering (waste) and how much is the
proof itself.  A table entry counts as one leaf even when the subtree that stored it lies outside
the proof (searched as waste, or in an earlier question).  It measures the proof the search found:
whether another succeeding move had a smaller proof is not counted.

Each node fills its depth's row of ``M_PROOF`` (``P_KINDS`` counters per depth below it) when it
returns; the parent reads its child's row (one depth below) after each move.
"""

from numba import njit

from analyzer.solvers.dd.layout import MAX_DEPTH, M_PROOF, P_KINDS, P_ROW

P_SEARCHED = 0  # nodes with a move loop
P_TABLE = 1  # leaves ended by a table entry
P_CUT = 2  # leaves ended by a bound or scored directly
P_LATE = 3  # nodes with a move loop whose cutting move was not the first tried (also counted in P_SEARCHED)

__all__ = ["P_CUT", "P_LATE", "P_SEARCHED", "P_TABLE", "proof_counts"]


@njit(cache=True, inline="always")
def _proof_enter(mem, depth):
    """A node at ``depth`` starts: its proof is itself, a leaf ended by a bound until told otherwise."""
    row = M_PROOF + depth * P_ROW
    for k in range(P_KINDS):
        for d in range(depth, MAX_DEPTH):
            mem[row + k * MAX_DEPTH + d] = 0
    mem[row + P_CUT * MAX_DEPTH + depth] = 1


@njit(cache=True, inline="always")
def _proof_kind(mem, depth, kind):
    """The node at ``depth`` is a table leaf (``P_TABLE``) or searches its moves (``P_SEARCHED``)."""
    row = M_PROOF + depth * P_ROW
    mem[row + P_CUT * MAX_DEPTH + depth] = 0
    mem[row + kind * MAX_DEPTH + depth] = 1


@njit(cache=True, inline="always")
def _proof_child(mem, depth, cut, late):
    """Fold the proof of the move just searched (the row one depth below) into the node's.

    ``cut``: the move cut off, so the node's proof is itself and that move's proof alone (``late``:
    earlier moves were tried).  Otherwise the move's proof is added: it is needed if every move fails.
    """
    row = M_PROOF + depth * P_ROW
    below = row + P_ROW
    for k in range(P_KINDS):
        for d in range(depth + 1, MAX_DEPTH):
            if cut:
                mem[row + k * MAX_DEPTH + d] = mem[below + k * MAX_DEPTH + d]
            else:
                mem[row + k * MAX_DEPTH + d] += mem[below + k * MAX_DEPTH + d]
    if cut and late:
        mem[row + P_LATE * MAX_DEPTH + depth] = 1


def proof_counts(mem):
    """The root's proof after a finished search: per kind (``P_*``) the count of proof nodes per depth."""
    return mem[M_PROOF:M_PROOF + P_ROW].reshape(P_KINDS, MAX_DEPTH).copy()
