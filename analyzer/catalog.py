"""The names, defaults and limits a user chooses from (bots, dealings, budgets, worlds, workers), as plain
values: their one home.

The games' registries attach code to these names (a bot's kernel id or driver), and importing any of them
loads numba and pandas: about 2 CPU-seconds, far more than ``--help`` and ``--version`` may take (0.3 s).
So the values live here, in a module that imports nothing heavy; the options' help reads them, and the
registries build themselves from them (a bot named here without code fails at import).

Some values are compile-time constants of cached numba kernels (``SCHNAPSEN_PLAYOUTS_PER_SAMPLE``): numba's
cache watches only the file of the kernel it compiled, not this module nor the modules whose functions it
inlined. The command line and the tests therefore keep numba's cache in a folder named by the code digest,
which covers this module (``experiments/code_digest.py``); a script run on its own uses numba's default
cache, so after changing a value delete the ``*.nbi``/``*.nbc`` caches before running one.
"""

import os

#: The most local worker processes a run takes (``--workers``, ``--scheduler local:N``)
MAX_WORKERS = 256


def default_workers() -> int:
    """Local worker processes by default: one per core."""
    return os.cpu_count() or 1


#: Each Rikken card-play bot's name and help phrase (``games.rikken.bots.BOTS`` attaches its code)
RIKKEN_BOTS = {
    "random": "a uniformly random legal card",
    "heuristic": "hand-written rules",
    "expert": "sampled hidden hands, each card played on by the heuristic (about 60x heuristic time)",
    "dd": "perfect play seeing every hand (double dummy; seconds per round): an oracle, not a fair player",
    "sampled-dd": "sampled hidden hands, each solved double dummy within a budget (about a CPU-second per round)",
}
#: Worlds a Rikken sampling bot draws per decision unless told otherwise, and the most it accepts
RIKKEN_DEFAULT_WORLDS = 8
RIKKEN_MAX_WORLDS = 256
#: Completed tricks one Rikken dd turn may search, over all its solver calls, when dd plays card by card in
#: ``rikken play`` and ``replay`` (about 0.4 CPU-s; 0: no limit): a turn the budget stops is recorded undecided
RIKKEN_DD_TURN_BUDGET = 1_000_000
#: How Rikken experiments deal: shuffled, or in packets as players deal
RIKKEN_DEALINGS = ("random", "packets")
#: The Rikken deal-constraint options, in their order
RIKKEN_CONSTRAINT_OPTIONS = ("hand", "cards", "hcp", "aces", "length")
#: The double-dummy budget per question, in completed tricks: the default and the most accepted
DD_DEFAULT_BUDGET = 10_000_000
DD_MAX_BUDGET = 10**11

#: Each Schnapsen bot's name, whether it takes ``:N`` samples, whether it is honest (decides from what its
#: player sees), and its help phrase (``games.schnapsen.play.BOTS`` attaches its kernel id)
SCHNAPSEN_BOTS = {
    "random": (False, True, "a uniformly random legal action"),
    "heuristic": (False, True, "hand-written rules (heuristic:classic: the earlier heuristic)"),
    "perfect": (False, False, "solves the deal seeing every card: an oracle, not a fair player"),
    "pimc": (True, True, "perfect-information solves of N sampled worlds"),
    "pimc_plus": (True, True, "pimc with more worlds late and where closing looks good"),
    "rollout": (True, True, "each action played on by the heuristic in sampled worlds"),
    "hybrid": (True, True, "the mean of pimc_plus's and rollout's judgements"),
    "hybrid_infer": (True, True, "hybrid drawing its worlds, when following, by how the heuristic would have led"),
    "ismcts": (True, True, "information-set tree search over sampled worlds with heuristic play-outs"),
    "ismcts_hybrid": (True, True, "hybrid with ismcts's judgement in place of rollout's"),
}
#: ``schnapsen advise``'s bot and worlds; sampled worlds per decision of a sampling bot; play-outs per
#: world of ``rollout``
SCHNAPSEN_ADVICE_BOT = "hybrid"
SCHNAPSEN_ADVICE_WORLDS = 16
SCHNAPSEN_SAMPLES = 12
SCHNAPSEN_PLAYOUTS_PER_SAMPLE = 32

#: Sloppy Seconds policies (their kernel ids are their positions) and the heuristic's parameter names
SECONDS_POLICIES = ("random", "heuristic", "sampling")
SECONDS_PARAMS = ("p_sure", "p_top", "p_unsure", "top_penalty", "below_weight", "trump_length_bonus", "rank_weight",
                  "suit_floor", "n_samples", "max_tries")
