"""The solver's entry kernels compile once each, whatever calls them.

Numba compiles one specialisation per combination of argument types, literal arguments of a jitted caller
included (``0``, ``False``, a module constant), and types each recursive call site of a function by
re-running the whole function's type inference; both multiply the compile (docs/performance.md, "Compile
cost (session 8)" and "(session 9)"). The oracles are the compiled signatures themselves and the search's
source: after every API entry has run, each kernel the entries call holds one signature, and the search
calls itself from one place.
"""

import ast
import inspect

from analyzer.cards.pbn import parse_deal
from analyzer.solvers.dd import api
from analyzer.solvers.dd import search as kernels
from analyzer.solvers.dd.layout import set_context, set_position

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
    for kernel in (kernels.search, kernels.guess_tricks, set_context, set_position):
        assert len(kernel.signatures) == 1, (kernel.py_func.__name__, kernel.signatures)


def test_the_search_calls_itself_from_one_place():
    tree = ast.parse(inspect.getsource(kernels.search.py_func))
    calls = [node for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "search"]
    assert len(calls) == 1
