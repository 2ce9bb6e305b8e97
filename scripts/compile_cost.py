"""Compile cost of the double-dummy solver: CPU seconds of its first use from an empty numba cache, against
the same steps loading the cache that first run filled, in one invocation.

    .venv/bin/python scripts/compile_cost.py [--steps split,import,bounds,ge] [--by-function]

Each side runs in a fresh interpreter with ``NUMBA_CACHE_DIR`` set to one new temporary folder (so this
script does not use the code digest's cache folder: it wants an empty one). The steps, in the order given:
``split`` (first if given: the solver's helper groups compiled at once, one here and one in another process,
as a cold ``rikken solve`` does, ``parallel_compile.compile_solver_helpers``; its CPU-s include that
process's), ``import`` (``analyzer.solvers.dd.api``; the explicit signatures compile here), then one first call of each API entry on
a full deal: ``max`` (``solve``), ``ge`` (``solve`` with goal ge 7), ``bounds`` (``solve_bounds``
with a budget, what ``rikken solve`` asks for a trick count), ``judge`` (``judge_moves``), ``questions``
(``solve_questions``), ``table`` (``solve_table``), ``batch`` (``solve_batch``). A step's cold time is what it
compiles on top of the steps before it; the warm time is the same step with every kernel in the cache.
``rikken solve`` of a deal needs ``split,import,bounds,ge``. Each step's wall seconds are printed too.

With ``--by-function``, the cold side also reports each compiled function (numba's ``numba:compile``
events): how many specialisations it compiled, its CPU-s without and with the callees compiled inside it
(a helper with ``inline="always"`` compiles inside each caller, so its cost shows in theirs; a function
compiled more than once lists its argument types: literal arguments make a specialisation each), and the
compiler passes that took longest (``numba:run_pass`` events; module-level LLVM optimisation and machine code
of linked callees fall outside every pass).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

STEPS = ("split", "import", "max", "ge", "bounds", "judge", "questions", "table", "batch")
DEAL = "N:AKQT86.A2.K73.95 J32.KQJ5.Q84.AK2 974.T987.AJ2.QJ8 5.643.T965.T7643"
NORTH_SOUTH = 0b0101


class _Timings:
    """Exclusive and inclusive CPU seconds per compiled function and per compiler pass, from numba's events."""

    def __init__(self):
        self.functions = {}
        self.passes = {}
        self._compiles = []
        self._runs = []

    @staticmethod
    def _close(stack):
        started, inner = stack.pop()
        spent = time.process_time() - started
        if stack:
            stack[-1][1] += spent
        return spent, spent - inner

    def install(self):
        from numba.core import event

        timings = self

        class Compiles(event.Listener):
            def on_start(self, ev):
                timings._compiles.append([time.process_time(), 0.0])

            def on_end(self, ev):
                spent, own = timings._close(timings._compiles)
                func = ev.data["dispatcher"].py_func
                name = f"{func.__module__.rsplit('.', 1)[-1]}.{func.__name__}"
                row = timings.functions.setdefault(name, [0, 0.0, 0.0, []])
                row[0] += 1
                row[1] += own
                row[2] += spent
                row[3].append(", ".join(str(arg) for arg in ev.data["args"]))

        class Passes(event.Listener):
            def on_start(self, ev):
                timings._runs.append([time.process_time(), 0.0])

            def on_end(self, ev):
                own = timings._close(timings._runs)[1]
                timings.passes[ev.data["name"]] = timings.passes.get(ev.data["name"], 0.0) + own

        event.register("numba:compile", Compiles())
        event.register("numba:run_pass", Passes())


def _entries():
    from analyzer.cards.pbn import parse_deal
    from analyzer.solvers.dd import api

    hands = parse_deal(DEAL)
    return {
        "max": lambda: api.solve(hands, 0, 0, NORTH_SOUTH),
        "ge": lambda: api.solve(hands, 0, 0, NORTH_SOUTH, goal="ge", k=7),
        "bounds": lambda: api.solve_bounds(hands, 0, 0, NORTH_SOUTH, 2000),
        "judge": lambda: api.judge_moves(hands, 0, 0, NORTH_SOUTH, budget=2000),
        "questions": lambda: api.solve_questions(hands, [api.Question(4, 1, NORTH_SOUTH)]),
        "table": lambda: api.solve_table(hands),
        "batch": lambda: api.solve_batch(hands[None, :], 3, 2, NORTH_SOUTH),
    }


def child(steps: list[str], by_function: bool) -> None:
    """Run the steps in this interpreter and print their CPU seconds (and the timings) as one JSON line."""
    timings = _Timings()
    if by_function:
        timings.install()
    seconds = {}
    walls = {}
    entries = None
    for step in steps:
        started = time.process_time()
        wall = time.perf_counter()
        if step == "split":
            from analyzer.experiments.parallel_compile import compile_solver_helpers

            compile_solver_helpers()
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            started -= children.ru_utime + children.ru_stime
        elif step == "import":
            import analyzer.solvers.dd.api  # noqa: F401 (the import is the step)
        else:
            entries = entries or _entries()
            entries[step]()
        seconds[step] = time.process_time() - started
        walls[step] = time.perf_counter() - wall
    print(json.dumps({"seconds": seconds, "walls": walls, "functions": timings.functions,
                      "passes": timings.passes}))


def _run(steps: list[str], cache: str, by_function: bool) -> dict:
    args = [sys.executable, __file__, "--child", "--steps", ",".join(steps)]
    if by_function:
        args.append("--by-function")
    done = subprocess.run(args, check=True, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": cache})
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated, in order, of {', '.join(STEPS)}")
    parser.add_argument("--by-function", action="store_true", help="also the costliest functions and passes")
    parser.add_argument("--top", type=int, default=25, help="rows of the function and pass tables")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    steps = [s for s in args.steps.split(",") if s]
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        print(f"unknown step {unknown[0]!r}: use {', '.join(STEPS)}", file=sys.stderr)
        sys.exit(2)
    if "import" not in steps:
        steps.insert(1 if "split" in steps else 0, "import")
    if "split" in steps:
        steps.remove("split")
        steps.insert(0, "split")
    if args.child:
        child(steps, args.by_function)
        return
    with tempfile.TemporaryDirectory(prefix="compile-cost-") as cache:
        cold = _run(steps, cache, args.by_function)
        warm = _run(steps, cache, False)
    print(f"{'step':<10} {'cold CPU-s':>10} {'warm CPU-s':>10} {'compile':>8} {'cold wall':>9} {'warm wall':>9}")
    for step in steps:
        c, w = cold["seconds"][step], warm["seconds"][step]
        print(f"{step:<10} {c:10.1f} {w:10.1f} {c - w:8.1f} {cold['walls'][step]:9.1f} {warm['walls'][step]:9.1f}")
    c, w = sum(cold["seconds"].values()), sum(warm["seconds"].values())
    print(f"{'total':<10} {c:10.1f} {w:10.1f} {c - w:8.1f} {sum(cold['walls'].values()):9.1f} "
          f"{sum(warm['walls'].values()):9.1f}")
    if args.by_function:
        functions = sorted(cold["functions"].items(), key=lambda kv: -kv[1][1])[:args.top]
        print(f"\n{'function':<40} {'specs':>5} {'own CPU-s':>9} {'with callees':>12}")
        for name, (count, own, spent, signatures) in functions:
            print(f"{name:<40} {count:5d} {own:9.1f} {spent:12.1f}")
            if count > 1:
                for signature in signatures:
                    print(f"    ({signature})")
        print(f"\n{'pass [function]':<52} {'CPU-s':>6}")
        for name, own in sorted(cold["passes"].items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"{name:<52} {own:6.1f}")


if __name__ == "__main__":
    main()
