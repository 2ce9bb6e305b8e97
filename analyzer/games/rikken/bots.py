"""The Rikken card-play bots: one registry (``BOTS``) and the one dispatch of a table of them.

A bot is a name on the command line and an id in the ``policy_of_seat`` arrays the play-outs take.
Kernel bots (``driver`` None) are chosen inside the numba kernels by id (``kernels.choose_action``);
a Python bot brings a driver that plays whole rounds card by card, its own seats by itself and every
other seat through ``kernels.choose_action``. A table holds kernel bots and at most one kind of Python
bot (:func:`driver_of`).

A Python bot's module loads when one of its seats plays (its driver imports it): the dd solver compiles its
search when imported, tens of CPU-seconds on a first run that no command without a dd seat should pay.

Adding a bot: its code (a kernel function dispatched in ``kernels.choose_action``, or a Python driver
with the two entry points of :class:`Driver`), one ``Bot`` entry below, and its tests. The command's
choices and help (``cli/rikken.py``), the experiments' ids, chunk sizes and shared play-outs
(``experiments.py``) all read this registry.
"""

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from analyzer import catalog
from analyzer.errors import InputError
from analyzer.games.rikken.kernels import (
    POLICY_DD,
    POLICY_EXPERT,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    POLICY_SAMPLED_DD,
    playout_batch,
    playout_one,
)


def _load_dd():
    from analyzer.games.rikken import dd  # the solver, when a dd seat plays (module notes)

    return dd


def _load_sampled_dd():
    from analyzer.games.rikken import sampled_dd  # the solver, when a sampled-dd seat plays (module notes)

    return sampled_dd


class Driver(NamedTuple):
    """A Python bot's play-outs, with ``kernels.playout_batch``'s arrays and ``kernels.playout_one``'s results.

    ``batch(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state,
    tricks_out)`` and ``one(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat,
    params, rng_state) -> (tricks, trace)``; with ``takes_worlds`` both also take ``worlds=`` (worlds drawn
    per decision); with ``budgeted`` both also take ``budget=`` (completed tricks a turn may search, 0: no
    limit) and ``undecided_out=`` (``int64[n]`` / ``int64[1]``: the turns per round the budget stopped);
    ``load()`` imports the bot's module (the solver compiles then on a first run).
    """

    batch: Callable
    one: Callable
    load: Callable
    takes_worlds: bool = False
    budgeted: bool = False


@dataclass(frozen=True)
class Bot:
    """One card-play bot.

    Attributes
    ----------
    name : str
        The name commands take (``--policy NAME``).
    policy : int
        Its id in ``policy_of_seat`` arrays (unique).
    honest : bool
        Decides only from what its seat may see (False: it reads hidden hands, an oracle).
    speed : str
        Speed class, for default chunk sizes: ``heuristic`` (microseconds a round), ``expert``
        (hundredths of a second), ``dd`` (seconds).
    plays_for_target : bool
        Plays for each contract's own trick target, so 8 to 13 Alone cannot share one play-out.
    driver : Driver or None
        Python play-outs; None for a kernel bot.
    help : str
        One phrase for the command's help.
    """

    name: str
    policy: int
    honest: bool
    speed: str
    plays_for_target: bool
    driver: Driver | None
    help: str


def _dd_batch(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state,
              tricks_out, budget, undecided_out):
    _load_dd().playout_batch_dd(hands, leader, contract_of, partner, trump, called_card, blind, rng_state,
                                tricks_out, policy_of_seat, params, budget, undecided_out)


def _dd_one(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state,
            budget, undecided_out):
    return _load_dd().playout_one_dd(hands, leader, contract_of, partner, trump, called_card, blind, rng_state,
                                     policy_of_seat, params, budget, undecided_out)


def _sampled_batch(*args, worlds):
    _load_sampled_dd().playout_batch_sampled(*args, worlds=worlds)


def _sampled_one(*args, worlds):
    return _load_sampled_dd().playout_one_sampled(*args, worlds=worlds)


#: The code of each Rikken bot of ``catalog.RIKKEN_BOTS`` (which holds its name and help): kernel id, honest,
#: speed class, plays for the target, Python driver.
_CODE = {
    "random": (POLICY_RANDOM, True, "heuristic", False, None),
    "heuristic": (POLICY_HEURISTIC, True, "heuristic", False, None),
    "expert": (POLICY_EXPERT, True, "expert", True, None),
    "dd": (POLICY_DD, False, "dd", False, Driver(_dd_batch, _dd_one, _load_dd, budgeted=True)),
    "sampled-dd": (POLICY_SAMPLED_DD, True, "dd", True, Driver(_sampled_batch, _sampled_one, _load_sampled_dd,
                                                                takes_worlds=True)),
}
#: The Rikken bots by name (module notes).
BOTS = {name: Bot(name, *_CODE[name], help) for name, help in catalog.RIKKEN_BOTS.items()}

_BY_ID = {bot.policy: bot for bot in BOTS.values()}
_SPEEDS = ("heuristic", "expert", "dd")
#: Worlds a sampling bot draws per decision unless told otherwise, and the most it accepts.
DEFAULT_WORLDS = catalog.RIKKEN_DEFAULT_WORLDS
MAX_WORLDS = catalog.RIKKEN_MAX_WORLDS


def policy_id(name: str) -> int:
    """The id of bot ``name``.

    Raises
    ------
    InputError
        For a name not in ``BOTS``.
    """
    if name not in BOTS:
        raise InputError(f"unknown card-play policy {name!r}: use one of {', '.join(BOTS)}")
    return BOTS[name].policy


def speed_class(names) -> str:
    """The slowest speed class among the bots ``names`` (see :class:`Bot`)."""
    return max((BOTS[name].speed for name in names), key=_SPEEDS.index)


def plays_for_target(names) -> bool:
    """True when one of the bots ``names`` plays for each contract's own target."""
    return any(BOTS[name].plays_for_target for name in names)


def takes_worlds(names) -> bool:
    """True when one of the bots ``names`` draws worlds (its count is then a run parameter)."""
    return any(BOTS[name].driver is not None and BOTS[name].driver.takes_worlds for name in names)


def takes_budget(names) -> bool:
    """True when one of the bots ``names`` searches within a turn budget (its turns may be undecided)."""
    return any(BOTS[name].driver is not None and BOTS[name].driver.budgeted for name in names)


def check_worlds(names, worlds: int | None) -> int:
    """The worlds per decision of the sampling bots among ``names``: ``worlds``, or ``DEFAULT_WORLDS`` when None.

    Raises
    ------
    InputError
        For a count given with no sampling bot at the table, or outside 1..``MAX_WORLDS``.
    """
    if worlds is None:
        return DEFAULT_WORLDS
    sampling = [name for name, bot in BOTS.items() if bot.driver is not None and bot.driver.takes_worlds]
    if not takes_worlds(names):
        raise InputError(f"a world count is for {' and '.join(sampling)}, which plays no seat here")
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= MAX_WORLDS:
        raise InputError(f"worlds per decision must be a whole number 1..{MAX_WORLDS}, got {worlds!r}")
    return int(worlds)


def load(names) -> None:
    """Import the modules of the Python bots among ``names`` (the solver compiles its search then, once)."""
    for name in sorted(names):
        if BOTS[name].driver is not None:
            BOTS[name].driver.load()


def kernel_stand_in(names) -> str | None:
    """A kernel bot among ``names`` to play the Python bots' seats of a compile round (the first in registry
    order), None when only Python bots play: their rounds take seconds to minutes, a kernel bot's microseconds."""
    return next((name for name in BOTS if name in names and BOTS[name].driver is None), None)


def check_table(names) -> None:
    """Refuse bots ``names`` that cannot share a table: more than one kind of Python bot (see :func:`driver_of`).

    Raises
    ------
    InputError
        Naming them.
    """
    python = sorted({name for name in names if BOTS[name].driver is not None})
    if len(python) > 1:
        raise InputError(f"{' and '.join(python)} cannot play at one table: each plays rounds with its own driver")


def driver_of(policy_of_seat: np.ndarray) -> Driver | None:
    """The Python driver the table(s) ``policy_of_seat`` need, or None when kernel bots play every seat.

    Raises
    ------
    InputError
        For an unknown id, or two kinds of Python bot in one batch (no driver plays another's seats).
    """
    ids = {int(i) for i in np.unique(policy_of_seat)}
    unknown = ids - set(_BY_ID)
    if unknown:
        raise InputError(f"unknown policy ids {sorted(unknown)}: ids are {({b.name: b.policy for b in BOTS.values()})}")
    names = {_BY_ID[i].name for i in ids}
    check_table(names)
    python = [name for name in names if BOTS[name].driver is not None]
    return BOTS[python[0]].driver if python else None


def _settings(driver: Driver | None, worlds: int, budget: int, undecided_out) -> dict:
    if driver is None:
        return {}
    return {**({"worlds": worlds} if driver.takes_worlds else {}),
            **({"budget": budget, "undecided_out": undecided_out} if driver.budgeted else {})}


def play_batch(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state,
               tricks_out, worlds: int = DEFAULT_WORLDS, budget: int = 0, undecided_out=None) -> None:
    """Play out a batch of rounds with the bots ``policy_of_seat`` (``int64[n, 4]``), arrays as in
    ``kernels.playout_batch``: the kernels, or the Python driver a seat's bot needs; ``worlds``: per decision
    of a sampling bot (:func:`check_worlds`); ``budget``: completed tricks per turn of a budgeted bot (dd; 0: no
    limit), whose stopped turns per round go to ``undecided_out`` (``int64[n]``, zero for every other table;
    required with a budget and a dd seat, see ``dd.playout_one_dd``)."""
    driver = driver_of(policy_of_seat)
    if undecided_out is not None:
        undecided_out[:] = 0
    play = playout_batch if driver is None else driver.batch
    play(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state, tricks_out,
         **_settings(driver, worlds, budget, undecided_out))


def play_one(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state,
             worlds: int = DEFAULT_WORLDS, budget: int = 0, undecided_out=None):
    """``(tricks int64[4], trace)`` of one round, drawing from ``rng_state`` exactly as :func:`play_batch` does;
    ``budget`` and ``undecided_out`` (``int64[1]``) as there."""
    driver = driver_of(np.asarray(policy_of_seat))
    if undecided_out is not None:
        undecided_out[:] = 0
    play = playout_one if driver is None else driver.one
    return play(hands, leader, contract_of, partner, trump, called_card, blind, policy_of_seat, params, rng_state,
                **_settings(driver, worlds, budget, undecided_out))
