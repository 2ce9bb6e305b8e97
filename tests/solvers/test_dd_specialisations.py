"""Each entry kernel of the solver compiles once, whatever calls it.

Numba compiles one specialisation per combination of literal arguments a jitted caller passes (``0``,
``False``, a module constant); each copy of an entry relinks and re-optimises the whole search (about
2 CPU-s a copy; docs/performance.md, "Compile cost (session 8)"). The oracle is the count itself: after
every API entry has run, each entry dispatcher holds exactly one signature.
"""

from analyzer.cards.pbn import parse_deal
from analyzer.solvers.dd import api
from analyzer.solvers.dd import search as kernels
from analyzer.solvers.dd.layout import set_context

ENDING = "N:AKQ... JT9... 876... 543..."
NORTH_SOUTH = 0b0101


def test_each_entry_kernel_has_one_specialisation():
    hands = parse_deal(ENDING, hand_size=None)
    assert api.solve(hands, 4, 0, NORTH_SOUTH) == 3
    assert api.solve(hands, 4, 1, NORTH_SOUTH, goal="ge", k=1)
    assert api.solve_bounds(hands, 4, 1, NORTH_SOUTH, 100) == (3, 3)
    api.judge_moves(hands, 4, 0, NORTH_SOUTH, budget=100)
    api.solve_questions(hands, [api.Question(4, 0, NORTH_SOUTH), api.Question(4, 0, NORTH_SOUTH, "le", 2)])
    assert api.solve_table(hands)[4, 0] == 3
    assert list(api.solve_batch(hands[None, :], 4, 0, NORTH_SOUTH)) == [3]
    for kernel in (kernels.solve_window, kernels.solve_bounded, kernels.solve_max, kernels.guess_tricks, set_context):
        assert len(kernel.signatures) == 1, (kernel.py_func.__name__, kernel.signatures)
