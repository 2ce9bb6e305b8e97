"""Mutation testing: apply one single-point edit at a time to a module and run the tests that should notice.

Each mutant flips one comparison (``<`` / ``<=``, ``==`` / ``!=``, ...), one arithmetic operator
(``+`` / ``-``, ``*`` / ``/``, ...), one ``and`` / ``or``, one boolean constant, or moves one integer
constant by one. The package is copied to a scratch folder first and the tests run against the copy
(``PYTHONPATH``), so the working tree is never edited, with the copy's numba caches deleted before
every mutant. A mutant is *killed* when the tests fail (or time out), *survives* otherwise; survivors
are printed with their line, to be killed by a new test or argued equivalent.

Usage::

    python scripts/mutate.py analyzer/reports/stats.py tests/reports/test_stats.py [more tests ...]
        [--functions wilson_interval,moments_interval] [--lines 24,62] [--timeout 120] [--limit N]
"""

import argparse
import ast
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SWAPS = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.And: ast.Or, ast.Or: ast.And,
}


def mutation_points(tree: ast.Module, functions: set[str] | None) -> list[tuple[int, str]]:
    """``(node index in ast.walk order, description)`` of every single-point edit, in source order."""
    points = []
    inside = _nodes_inside(tree, functions)
    for index, node in enumerate(ast.walk(tree)):
        if inside is not None and id(node) not in inside:
            continue
        if isinstance(node, (ast.BinOp, ast.BoolOp, ast.AugAssign)) and type(node.op) in _SWAPS:
            points.append((index, f"{type(node.op).__name__} -> {_SWAPS[type(node.op)].__name__}"))
        elif isinstance(node, ast.Compare):
            for position, op in enumerate(node.ops):
                if type(op) in _SWAPS:
                    points.append((index, f"{type(op).__name__} -> {_SWAPS[type(op)].__name__} #{position}"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            points.append((index, f"{node.value} -> {not node.value}"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            points.append((index, f"{node.value} -> {node.value + 1}"))
    return points


def _nodes_inside(tree: ast.Module, functions: set[str] | None) -> set[int] | None:
    """Ids of the nodes inside the named functions (None: every node), docstrings left out."""
    if not functions:
        return None
    chosen = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in functions:
            chosen.update(id(child) for child in ast.walk(node))
    return chosen


def mutant_source(tree: ast.Module, index: int, description: str) -> str:
    """The module's source with the edit at node ``index`` applied."""
    mutated = copy.deepcopy(tree)
    node = list(ast.walk(mutated))[index]
    if isinstance(node, (ast.BinOp, ast.BoolOp, ast.AugAssign)):
        node.op = _SWAPS[type(node.op)]()
    elif isinstance(node, ast.Compare):
        position = int(description.rsplit("#", 1)[1])
        node.ops[position] = _SWAPS[type(node.ops[position])]()
    elif type(node.value) is bool:
        node.value = not node.value
    else:
        node.value = node.value + 1
    return ast.unparse(mutated)


def run_tests(scratch: Path, tests: list[str], timeout: float) -> bool:
    """Whether the tests pass against the scratch copy of the package."""
    for cache in scratch.rglob("*.nb[ic]"):
        cache.unlink()
    # Run from the scratch folder: ``python -m`` puts the working folder first on sys.path, ahead of the
    # editable install of the working tree.
    env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        result = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                 *(str(ROOT / test) for test in tests)],
                                cwd=scratch, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return result.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="Source file to mutate, e.g. analyzer/reports/stats.py.")
    parser.add_argument("tests", nargs="+", help="Test files or node ids that should kill its mutants.")
    parser.add_argument("--functions", default="", help="Only mutate inside these functions (comma-separated).")
    parser.add_argument("--timeout", type=float, default=300.0, help="Seconds per mutant before it counts as killed.")
    parser.add_argument("--lines", default="", help="Only mutate on these source lines (comma-separated), e.g. "
                                                    "to re-run the survivors of an earlier run.")
    parser.add_argument("--limit", type=int, default=0, help="Stop after this many mutants (0: all).")
    args = parser.parse_args()
    module = Path(args.module).resolve()
    relative = module.relative_to(ROOT)
    tree = ast.parse(module.read_text())
    points = mutation_points(tree, set(filter(None, args.functions.split(","))) or None)
    if args.lines:
        lines = {int(line) for line in args.lines.split(",")}
        nodes = list(ast.walk(tree))
        points = [(index, what) for index, what in points if getattr(nodes[index], "lineno", None) in lines]
    if args.limit:
        points = points[: args.limit]
    with tempfile.TemporaryDirectory(prefix="mutate-") as folder:
        scratch = Path(folder)
        shutil.copytree(ROOT / "analyzer", scratch / "analyzer", ignore=shutil.ignore_patterns("*.nb[ic]"))
        target = scratch / relative
        if not run_tests(scratch, args.tests, args.timeout):
            sys.exit("the tests fail without any mutant: fix them first")
        target.write_text(target.read_text() + "\nraise ImportError('mutate.py: the tests must import the copy')\n")
        if run_tests(scratch, args.tests, args.timeout):
            sys.exit(f"the tests pass with {relative} broken in the copy: they import another one")
        survivors, started = [], time.time()
        for count, (index, description) in enumerate(points, 1):
            mutated = mutant_source(tree, index, description)
            target.write_text(mutated)
            line = getattr(list(ast.walk(tree))[index], "lineno", "?")
            killed = not run_tests(scratch, args.tests, args.timeout)
            print(f"{count}/{len(points)} {relative}:{line} {description}: {'killed' if killed else 'SURVIVED'}",
                  flush=True)
            if not killed:
                survivors.append(f"{relative}:{line} {description}")
        target.write_text(module.read_text())
    killed_count = len(points) - len(survivors)
    print(f"\nscore {killed_count}/{len(points)} killed ({100 * killed_count / max(len(points), 1):.0f}%) in "
          f"{time.time() - started:.0f} s")
    for survivor in survivors:
        print(f"survivor: {survivor}")


if __name__ == "__main__":
    main()
