"""Say "compiling ... (first run only)" when, and only when, numba compiles: a kernel set whose cache is
missing (a first run, a set of bots not played before, new code) announces itself; a warm run says nothing."""

import sys
from contextlib import ExitStack, contextmanager

from numba.core import event

from analyzer.reports.progress import stage


class _FirstCompile(event.Listener):
    """Prints the notice and starts a spinner at the first compilation numba begins (a cache hit is no
    compilation: numba loads it before it raises the ``numba:compile`` event)."""

    def __init__(self, kernels: str, seconds: int | None, stack: ExitStack):
        self.kernels = kernels
        self.seconds = seconds
        self.stack = stack
        self.compiled = False

    def on_start(self, event) -> None:
        if self.compiled:
            return
        self.compiled = True
        about = f", about {self.seconds} s" if self.seconds else ""
        print(f"compiling {self.kernels} kernels (first run only{about})...", file=sys.stderr, flush=True)
        self.stack.enter_context(stage(f"compiling {self.kernels} kernels"))

    def on_end(self, event) -> None:
        return None


@contextmanager
def compile_notice(kernels: str, seconds: int | None = None):
    """Announce on stderr that ``kernels`` (a game's name) compile if numba compiles anything inside the block.

    Parameters
    ----------
    kernels : str
        Whose kernels, as the notice names them (``"Rikken"``).
    seconds : int, optional
        About how long the compilation takes on two cores, said in the notice.

    Yields
    ------
    _FirstCompile
        Its ``compiled`` says afterwards whether anything compiled.
    """
    with ExitStack() as stack:
        listener = _FirstCompile(kernels, seconds, stack)
        with event.install_listener("numba:compile", listener):
            yield listener
