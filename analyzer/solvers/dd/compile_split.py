"""The solver's first compile split over two processes: its helpers first, in halves at once, then the search.

``search`` compiles on import (an explicit signature), and on a cold cache most of that is the helpers it
calls without inlining: typing each call compiles the callee, one after the other (about two thirds of the
import's CPU). Compiled beforehand with the argument types ``search`` calls them with, in two groups at once
(``experiments.parallel_compile.solver_groups``), they are in numba's on-disk cache when ``search`` types its
calls, so it loads them instead: on two cores the helpers take about half their time, and only the search's
own compile follows. No helper is in both groups, nor called from both (a helper's callees compile with it).
Signatures that drift from the calls only cost time: ``search`` then compiles that helper itself, as without
the split (``tests/solvers/test_dd_compile_split.py`` checks that none does).
"""
import importlib
import os
from functools import partial

from numba import types

_HANDS = types.UniTuple(types.int64, 4)
_MEM = types.Array(types.int64, 1, "C")
_I = types.int64
_B = types.boolean

#: numba's index file of the search kernel (``<module>.<function>-<line>.<python>.nbi``): written when the
#: search has compiled, after every helper it calls.
SEARCH_INDEX = "search.search-*.nbi"
#: The folder of the package, where numba caches its kernels (or below ``NUMBA_CACHE_DIR``, by this path).
FOLDER = os.path.dirname(os.path.abspath(__file__))

#: Per group, per module of ``analyzer.solvers.dd``, each helper and the argument types it is called with:
#: by ``search`` (the solver's kernels' calls), or from Python by the entries (``api``, ``search.solve_*``).
#: The two groups cost about the same (``scripts/compile_cost.py --by-function``); the callers compile the last,
#: a little larger, in their own process while the first compiles in another.
GROUPS = (
    {
        "misery_bounds": {"_lone_ducks": (_HANDS, _I, _I),
                          "_caught_in_trick": (_HANDS, _I, _I, _I, _I, _I, _I, _I)},
        "quick_tricks": {"_sure_trumps": (_HANDS, _I, _I, _I, _B), "_lone_winners": (_HANDS, _I, _B, _I, _I),
                         "_quick_tricks": (_HANDS, _I, _I, _I, _I), "_partner_ruffs": (_HANDS, _I, _I, _I)},
        "later_tricks": {"_leader_loses_trick": (_HANDS, _I, _I, _I, _I), "_tops_fall_short": (_HANDS, _I, _I, _I),
                         "_guarded_trump_trick": (_HANDS, _I, _I, _I, _I)},
    },
    {
        "rules": {"_blind_allowed": (_HANDS, _I, _I, _I), "_last_trick": (_HANDS, _I, _I),
                  "future_tricks": (_MEM,)},
        "sure_trick": {"_second_hand_tricks": (_HANDS, _I, _I, _I, _I, _I, _I, _I, _I),
                       "_sure_trick_cards": (_HANDS, _I, _I, _I, _I, _I, _I, _I, _I)},
        "moves": {"_lead_suits": (_I, _HANDS, _I, _I, _I),
                  "_order_score": (_I, _I, _I, _HANDS, _I, _I, _I, _I, _I, _I, _I, _B, _B),
                  "_more_moves": (_MEM, _HANDS) + (_I,) * 13 + (_B, _I)},
        "transposition": {"_window_code": (_I, _I, _I, _I), "_pattern": (_HANDS, _I, _I, _I, _I),
                          "_position": (_HANDS, _I), "_tt_lookup": (_MEM,) + (_I,) * 9,
                          "_cards_of_tops": (_I, _I), "_decode_move": (_I, _I), "_tops_of": (_I, _I),
                          "_encode_move": (_I, _I), "_tt_store": (_MEM,) + (_I,) * 10 + (_B, _I, _I)},
        "layout": {"set_context": (_MEM,) + (_I,) * 6, "set_position": (_MEM, _MEM, _MEM)},
        "lone_length": {"_lone_length": (_I, _I, _HANDS, _I, _I, _I, _I)},
    },
)


def compile_group(index: int) -> None:
    """Compile group ``index`` of :data:`GROUPS` (into numba's cache); imports no ``search``."""
    for module, helpers in GROUPS[index].items():
        kernels = importlib.import_module(f"analyzer.solvers.dd.{module}")
        for name, args in helpers.items():
            getattr(kernels, name).compile(args)


def compile_groups() -> list:
    """The groups as ``parallel_compile.compile_in_parallel`` takes them (picklable, no argument)."""
    return [partial(compile_group, index) for index in range(len(GROUPS))]
