"""Where a cold ``schnapsen advise`` at the first lead of ``first_run.py`` compiles: numba's compile events in
the command's own process (the parent: what runs after the compile processes of the bot's parts, on the
critical path of a first run), CPU seconds per function without and with its callees, and the CPU seconds of
the parent and of its child processes (the parts' compile processes and the workers).

    .venv/bin/python scripts/bench_schnapsen_advise_compile.py [--workers 2] [--top 12]
    .venv/bin/python scripts/bench_schnapsen_advise_compile.py --part heuristic|worlds|both [--top 12]

Runs the command once in a fresh interpreter with a new empty ``NUMBA_CACHE_DIR``; compare two trees by
running each tree's copy of this script (``PYTHONPATH=TREE``) in one sitting: CPU seconds, not wall seconds,
are the comparable figure on a loaded machine. A command that fails is reported in one line (exit code 2),
not timed.

With ``--part``, instead of the command: one of ``hybrid_bot.VALUE_PARTS`` compiled alone
(``compile_value_part(part, False)``, what one of the cold advise's compile processes does) in a fresh
interpreter on a new empty cache, after the import of ``hybrid_bot`` (its CPU-s printed apart); ``both`` runs
each part so, one after the other, and then lists the functions compiled in both processes (the cost paid
twice). Each function's argument types are listed when it compiled more than once.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def child(workers: str) -> None:
    """Run the cold command here with the compile events recorded; print the timings as one JSON line, or exit
    with the command's exit code when it fails."""
    from compile_cost import _Timings
    from first_run import ANALYZER, COMMANDS

    timings = _Timings()
    timings.install()
    with tempfile.TemporaryDirectory() as out:
        sys.argv = [ANALYZER[-1], *COMMANDS["schnapsen advise"], "--workers", workers, "--out", out]
        started = time.process_time()
        from analyzer.cli.app import main

        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code
        elapsed = time.process_time() - started
    if code not in (0, None):
        sys.exit(code if isinstance(code, int) else 1)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"parent": elapsed, "children": children.ru_utime + children.ru_stime,
                      "functions": timings.functions}))


def part_child(part: str) -> None:
    """Import the bot, then compile ``part`` here with the compile events recorded; print one JSON line."""
    from compile_cost import _Timings

    timings = _Timings()
    timings.install()
    started = time.process_time()
    from analyzer.games.schnapsen.hybrid_bot import compile_value_part

    imported = time.process_time()
    compile_value_part(part, False)
    print(json.dumps({"import": imported - started, "part": time.process_time() - imported,
                      "functions": timings.functions}))


def _run_part(part: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run([sys.executable, __file__, "--child-part", part], capture_output=True, text=True,
                              cwd=os.path.dirname(os.path.abspath(__file__)),
                              env={**os.environ, "NUMBA_CACHE_DIR": cache})
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"compiling part {part} failed (exit {done.returncode}): {last}", file=sys.stderr)
        sys.exit(2)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _print_functions(functions: dict, top: int) -> None:
    print(f"  {'function':<38} {'specs':>5} {'own CPU-s':>9} {'with callees':>12}")
    for name, (count, own, inclusive, signatures) in sorted(functions.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {name:<38} {count:5d} {own:9.2f} {inclusive:12.2f}")
        if count > 1:
            for signature in signatures:
                print(f"      ({signature})")


def parts(chosen: str, top: int) -> None:
    """Compile each chosen part alone on a fresh cache and print its functions (and, for both, the shared)."""
    from analyzer.games.schnapsen.hybrid_bot import VALUE_PARTS

    results = {part: _run_part(part) for part in (VALUE_PARTS if chosen == "both" else (chosen,))}
    for part, result in results.items():
        compiling = sum(row[1] for row in result["functions"].values())
        print(f"part {part}: import {result['import']:.1f} CPU-s, compile {result['part']:.1f} CPU-s "
              f"(numba's compile events: {compiling:.1f} own CPU-s in {len(result['functions'])} functions)")
        _print_functions(result["functions"], top)
    if len(results) == 2:
        first, second = (result["functions"] for result in results.values())
        shared = {name: [first[name][0] + second[name][0], first[name][1] + second[name][1],
                         first[name][2] + second[name][2], []]
                  for name in first.keys() & second.keys()}
        print(f"compiled in both parts: {len(shared)} functions, "
              f"{sum(row[1] for row in shared.values()):.1f} own CPU-s in the two processes together")
        _print_functions(shared, top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="2")
    parser.add_argument("--top", type=int, default=12, help="functions listed, most CPU-s of their own first")
    parser.add_argument("--part", help="heuristic, worlds or both: compile the bot's value parts alone")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-part", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child_part:
        part_child(options.child_part)
        return
    if options.part is not None:
        if options.part not in ("heuristic", "worlds", "both"):
            print(f"unknown part {options.part!r}: use heuristic, worlds or both", file=sys.stderr)
            sys.exit(2)
        parts(options.part, options.top)
        return
    if options.child:
        child(options.workers)
        return
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run([sys.executable, __file__, "--child", "--workers", options.workers],
                              capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(__file__)),
                              env={**os.environ, "NUMBA_CACHE_DIR": cache})
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"schnapsen advise failed (exit {done.returncode}): {last}", file=sys.stderr)
        sys.exit(2)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    functions = sorted(result["functions"].items(), key=lambda item: -item[1][1])
    print(f"parent {result['parent']:.1f} CPU-s (compiling {sum(row[1] for _, row in functions):.1f}), "
          f"child processes {result['children']:.1f} CPU-s")
    for name, (count, own, inclusive, _) in functions[:options.top]:
        print(f"{name:<40} {count:3d} x  own {own:5.2f}  with callees {inclusive:6.2f}")


if __name__ == "__main__":
    main()
