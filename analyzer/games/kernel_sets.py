"""Numba kernels compiled for part of what they can do: a first run compiles only the bots it plays.

A game writes its dispatching kernels once, as plain functions whose branches test module-level switches
(``if _WITH_PIMC and policy == PIMC:``). :func:`compile_set` builds them again with the switches set as
the command needs: numba reads globals as constants and prunes a branch whose switch is False before it
types it, so the bots behind it are neither typed nor compiled.
"""

from collections.abc import Callable
from types import FunctionType

from numba import njit


def set_label(kernel_ids) -> str:
    """A kernel set's name in numba's cache, from the ids of what it compiles in (``k1_3_7``): ids cannot
    read two ways, as joined bot names could (``hybrid_infer`` against ``hybrid`` and ``infer``)."""
    return "k" + "_".join(str(i) for i in sorted(kernel_ids))


def compile_set(templates: tuple[Callable, ...], module_globals: dict, switches: dict[str, bool],
                label: str, inline: tuple[str, ...] = ()) -> dict[str, Callable]:
    """The ``templates`` as cached numba kernels that see ``switches`` among their globals and call each
    other's versions of this set.

    Parameters
    ----------
    templates : tuple of callable
        Plain (undecorated) functions of one module.
    module_globals : dict
        That module's globals (``globals()``).
    switches : dict of str to bool
        The values of the switches the templates test.
    label : str
        Names the set in numba's cache (``<template>__<label>``): its cache key holds a kernel's name and
        code but not its globals, so each set needs a name of its own.
    inline : tuple of str
        Names of the templates numba inlines into the set's kernels that call them (``inline="always"``).

    Returns
    -------
    dict
        Template name -> its kernel in this set.
    """
    namespace = {**module_globals, **switches}
    kernels = {}
    for template in templates:
        function = FunctionType(template.__code__, namespace, template.__name__, template.__defaults__)
        function.__qualname__ = f"{template.__name__}__{label}"
        function.__doc__ = template.__doc__
        inlined = "always" if template.__name__ in inline else "never"
        kernels[template.__name__] = namespace[template.__name__] = njit(cache=True, inline=inlined)(function)
    return kernels
