"""Where a cold ``schnapsen advise`` at the first lead of ``first_run.py`` compiles: numba's compile events in
the command's own process (the parent: what runs after the compile processes of the bot's parts, on the
critical path of a first run), CPU seconds per function without and with its callees, and the CPU seconds of
the parent and of its child processes (the parts' compile processes and the workers).

    .venv/bin/python scripts/bench_schnapsen_advise_compile.py [--workers 2] [--top 12]

Runs the command once in a fresh interpreter with a new empty ``NUMBA_CACHE_DIR``; compare two trees by
running each tree's copy of this script (``PYTHONPATH=TREE``) in one sitting: CPU seconds, not wall seconds,
are the comparable figure on a loaded machine. A command that fails is reported in one line (exit code 2),
not timed.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="2")
    parser.add_argument("--top", type=int, default=12, help="functions listed, most CPU-s of their own first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
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
