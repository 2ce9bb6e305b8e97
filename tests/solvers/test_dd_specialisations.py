"""The solver's kernels compile once each, whatever calls them.

Numba compiles one specialisation per combination of literal arguments a jitted caller passes (``0``,
``False``, a module constant), and types each recursive call site of a function by re-running the whole
function's type inference; both multiply the compile (docs/performance.md, "Compile cost (session 8)" and
"(session 9)"). The oracles are the compiled signatures themselves and the search's source: after every API
entry has run, no kernel of the solver holds a specialisation for a literal argument (calls from Python,
as the other tests make, never pass literals), and the search calls itself from one place.
"""

import ast
import importlib
import inspect
import pkgutil

from numba import types
from numba.core.registry import CPUDispatcher

import analyzer.solvers.dd as dd_package
from analyzer.cards.pbn import parse_deal
from analyzer.solvers.dd import api
from analyzer.solvers.dd import search as kernels

ENDING = "N:AKQ... JT9... 876... 543..."
DEAL = "N:AKQT86.A2.K73.95 J32.KQJ5.Q84.AK2 974.T987.AJ2.QJ8 5.643.T965.T7643"
NORTH_SOUTH = 0b0101


def _solver_kernels():
    for info in pkgutil.iter_modules(dd_package.__path__):
        module = importlib.import_module(f"{dd_package.__name__}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                yield f"{info.name}.{name}", value


def test_no_kernel_is_specialised_for_a_literal_argument():
    hands = parse_deal(ENDING, hand_size=None)
    assert api.solve(hands, 4, 0, NORTH_SOUTH) == 3
    assert api.solve(hands, 4, 1, NORTH_SOUTH, goal="ge", k=1)
    assert api.solve_bounds(hands, 4, 1, NORTH_SOUTH, 100) == (3, 3)
    api.judge_moves(hands, 4, 0, NORTH_SOUTH, budget=100)
    api.solve_questions(hands, [api.Question(4, 0, NORTH_SOUTH), api.Question(4, 0, NORTH_SOUTH, "le", 2)])
    assert api.solve_table(hands)[4, 0] == 3
    assert list(api.solve_batch(hands[None, :], 4, 0, NORTH_SOUTH)) == [3]
    # A full deal reaches the helpers an ending of three cards does not (quick tricks, Misery bounds).
    full = parse_deal(DEAL)
    api.solve(full, 4, 1, NORTH_SOUTH, goal="le", k=0)
    api.solve_bounds(full, 0, 0, NORTH_SOUTH, 2000)
    literal = {name: [str(sig) for sig in kernel.signatures if any(isinstance(arg, types.Literal) for arg in sig)]
               for name, kernel in _solver_kernels()}
    assert {name: sigs for name, sigs in literal.items() if sigs} == {}
    assert len(kernels.search.signatures) == 1


def test_the_search_calls_itself_from_one_place():
    tree = ast.parse(inspect.getsource(kernels.search.py_func))
    calls = [node for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "search"]
    assert len(calls) == 1
