"""The work array of the double-dummy search: its slots, the solve's context, the statistics switch.

State lives in one work array ``mem`` (see the ``M_*`` slots): the hands (changed and restored in
place), the current trick in play order (a blind lead is ``card + BLIND``), the solve's constant
facts (``C_*`` slots), the move buffers per depth, the counters of a counting
build, the cut-off card cache, the length abstraction's work and table (``A_*`` slots,
:mod:`analyzer.solvers.dd.lone_length`), then the transposition table
(:mod:`analyzer.solvers.dd.transposition`).  A node answers in one int64 (:func:`_answer`): the
yes/no bit and the cards whose ranks decided it.
"""

import os
import tempfile

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# Slots of the one work array ``mem``: the hands, the trick in progress, the solve's context,
# the move buffers per depth, then the transposition table.  A single array keeps the recursion
# cheap: numba reference-counts every array argument on every call.
M_HANDS = 0  # four seat masks, changed and restored in place
M_TRICK = 4  # the current trick's cards in play order (a blind lead is ``card + BLIND``)
M_CTX = 8
C_TRUMP = 0
C_TEAM = 1
C_MODE = 2
C_CALLED = 3  # called card id, -1 for none
C_BIDDER = 4  # seat allowed a blind lead, -1 for none
C_GEN = 5  # transposition-table generation: entries of older generations are empty
C_NODES = 6  # node counter: spreads table replacements over a bucket
C_TRICKS = 11  # completed tricks searched: fourth-hand card plays (statistics; DDS reports this count as its nodes)
C_TT_MASK = 7  # table buckets - 1
C_MOVES = 8  # number of root moves written by a collecting search
C_HEADS = 9  # where the first bucket starts (its head, see ``HEAD``, then its entries)
C_LIMIT = 12  # the C_TRICKS count at which the search gives up (0: none); see ``solve_bounded``
C_ABORTED = 13  # 1 once the limit was reached: every node returns at once and stores nothing
C_SALT = 14  # move-ordering salt (0: the plain ordering); see ``moves._salt_term`` and ``restart``
CTX_SIZE = 16
MAX_DEPTH = 56
MAX_MOVES = 32
M_OUT = M_CTX + CTX_SIZE  # per root move: its answer (collecting search)
M_MOVES = M_OUT + MAX_MOVES
M_STATS = M_MOVES + MAX_DEPTH * MAX_MOVES
# Cut-off statistics (scripts/dd_cutoff_stats.py): a build switch read once at import, compiled into
# the kernels, so the plain build carries no counting code.  A counting build keeps numba's on-disk
# cache apart: the switch and the layout below are compiled in, and must never reach plain runs.
STATS = os.environ.get("ANALYZER_DD_STATS") == "1"
if STATS:
    numba.config.CACHE_DIR = tempfile.mkdtemp(prefix="dd-stats-numba-")
# Per kind, one counter per depth (cards played from the root): how nodes ended, then the move loops.
S_DECIDED = 0  # window already decided at a trick's start
S_LAST = 1  # the last trick scored without search
S_SURE_TRUMPS = 2
S_LONE_WINNERS = 3
S_LONE_DUCKS = 4
S_LATER = 5  # the side on lead needs every trick and loses one (later tricks)
S_TABLE = 6  # transposition-table hit
S_QUICK = 7  # quick tricks of the side on lead
S_SECOND = 8  # second hand's sure tricks
S_SURE_TRICK = 9  # third or fourth hand's side surely takes the trick
S_NODES = 10  # nodes entered
S_TRIED = 11  # moves searched
S_CUT_AT = 12  # move loops cut off at the first move; + 1 the second ... S_CUT_AT + 6: the seventh or later
S_NO_CUT = 19  # move loops where no move cut off
S_PROBES = 20  # table lookups
STATS_KINDS = 21
# The proof the search found (counting build, see ``proof``): per depth one row, per kind of node a
# count per depth below it.
P_KINDS = 4
P_ROW = P_KINDS * MAX_DEPTH
M_PROOF = M_STATS + (STATS_KINDS * MAX_DEPTH if STATS else 0)
M_CUTOFFS = M_PROOF + (P_ROW * MAX_DEPTH if STATS else 0)
# The cut-off card cache (see ``moves._cutoff_slot``): one word per slot, the key (a hash above bit
# 32, the table generation below it) with the card that last cut off there + 1 in its low byte.
# The slot comes from the hash alone; an older generation's words merely miss.
CUTOFF_SLOTS = 1 << 15
# The length abstraction's work (see ``lone_length``): per seat its trumps and three side-suit lengths,
# the question's node count, limit and abort flag, then its table of two words per entry.
M_ABSTRACT = M_CUTOFFS + CUTOFF_SLOTS
A_TRUMPS = M_ABSTRACT
A_LEN = A_TRUMPS + 4
A_NODES = A_LEN + 12
A_LIMIT = A_NODES + 1
A_ABORTED = A_LIMIT + 1
A_SLOTS = 1 << 17
A_TABLE = M_ABSTRACT + 24
M_TT = A_TABLE + 2 * A_SLOTS
ENTRY = 4  # words per table entry: two entries share a cache line
BUCKET = 32  # table entries per bucket (a power of two)
# A bucket's head: its fill word, then its entries' tags, padded to whole cache lines, so a probe
# finds the fill word and the first tags in one line.
HEAD = 40
STRIDE = HEAD + BUCKET * ENTRY  # words per bucket: its head, then its entries
LINE = 8  # words per cache line: the table's blocks start on a line
RESULT_SHIFT = 62
RELEVANT_BITS = (1 << 52) - 1


def new_mem(bits):
    """Allocate the work array with a transposition table of ``2**bits`` entries."""
    entries = 1 << bits
    return np.zeros(M_TT + LINE + entries // BUCKET * STRIDE, dtype=np.int64)


@njit(cache=True)
def set_context(mem, trump, team, mode, called, bidder, generation):
    """Start a solve: its constant facts, a fresh table generation, zeroed statistics."""
    ctx = mem[M_CTX:M_CTX + CTX_SIZE]
    ctx[:] = 0
    ctx[C_TRUMP] = trump
    ctx[C_TEAM] = team
    ctx[C_MODE] = mode
    ctx[C_CALLED] = called
    ctx[C_BIDDER] = bidder
    ctx[C_GEN] = generation
    ctx[C_TT_MASK] = (mem.shape[0] - M_TT - LINE) // STRIDE - 1
    # The first bucket on a cache line: every head then starts on a line (``STRIDE`` and ``HEAD`` are
    # whole lines) and, as ``ENTRY`` divides a line, no entry spans two.
    ctx[C_HEADS] = M_TT + (-(mem.ctypes.data // 8 + M_TT)) % LINE


@njit(cache=True)
def set_position(mem, hands, trick):
    """Copy the hands and the trick in progress into the work array."""
    for i in range(4):
        mem[M_HANDS + i] = hands[i]
        mem[M_TRICK + i] = trick[i]


@njit(cache=True, inline="always")
def _answer(result, relevant):
    """Pack a node's answer and the cards whose ranks decided it into one int64."""
    return relevant | (np.int64(1 if result else 0) << RESULT_SHIFT)


@njit(cache=True, inline="always")
def _stat(mem, kind, depth):
    """Count one event of ``kind`` at ``depth`` (only in a counting build, see ``STATS``)."""
    mem[M_STATS + kind * MAX_DEPTH + depth] += 1


@intrinsic
def _prefetch(typingctx, address):
    """Ask the processor to start loading the cache line at ``address`` (a hint: no effect on results).

    The table and the cut-off cache miss the processor's caches on most probes; a load started
    while the node does other work hides part of that wait.
    """
    def codegen(context, builder, signature, args):
        pointer = ir.PointerType()
        i32 = ir.IntType(32)
        llvm_prefetch = builder.module.declare_intrinsic(
            "llvm.prefetch", [pointer], ir.FunctionType(ir.VoidType(), [pointer, i32, i32, i32]))
        # A read (0), kept in every cache level (3), of data (1).
        builder.call(llvm_prefetch, [builder.inttoptr(args[0], pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(types.intp), codegen
