"""The names, defaults and limits the commands' options show in ``--help``, as plain values.

Each game's registry (its bots, its dealing models, its search budgets) lives with the game's kernels, and
importing any of them loads numba and pandas: about 2 CPU-seconds, far more than ``--help`` and
``--version`` may take (0.3 s). The options therefore read the copies below, and a command's body imports
the game, which checks the chosen names against its registry. ``tests/cli/test_choices.py`` holds every
copy equal to its home, so a bot added to a registry and not here fails the tests.
"""

import os

#: ``experiments.backends.MAX_WORKERS``: the most local worker processes a run takes
MAX_WORKERS = 256


def default_workers() -> int:
    """``experiments.runner.default_workers``: one worker process per core."""
    return os.cpu_count() or 1


#: ``games.rikken.bots.BOTS``: each Rikken card-play bot's name and help phrase, in the registry's order
RIKKEN_BOTS = {
    "random": "a uniformly random legal card",
    "heuristic": "hand-written rules",
    "expert": "sampled hidden hands, each card played on by the heuristic (about 60x heuristic time)",
    "dd": "perfect play seeing every hand (double dummy; seconds per round): an oracle, not a fair player",
    "sampled-dd": "sampled hidden hands, each solved double dummy within a budget (about a CPU-second per round)",
}
#: ``games.rikken.bots.DEFAULT_WORLDS`` and ``MAX_WORLDS``
RIKKEN_DEFAULT_WORLDS = 8
RIKKEN_MAX_WORLDS = 256
#: ``games.rikken.experiments.DEALINGS``
RIKKEN_DEALINGS = ("random", "packets")
#: ``games.rikken.experiments.CONSTRAINT_OPTIONS``: the deal-constraint options, in their order
RIKKEN_CONSTRAINT_OPTIONS = ("hand", "cards", "hcp", "aces", "length")
#: ``games.rikken.dd.DEFAULT_BUDGET`` and ``solvers.dd.api.MAX_BUDGET`` (completed tricks)
DD_DEFAULT_BUDGET = 10_000_000
DD_MAX_BUDGET = 10**11

#: ``games.schnapsen.play.BOTS``: each Schnapsen bot's name, whether it takes ``:N`` samples, whether it is
#: honest (decides from what its player sees), and its help phrase
SCHNAPSEN_BOTS = {
    "random": (False, True, "a uniformly random legal action"),
    "heuristic": (False, True, "hand-written rules (heuristic:classic: the earlier heuristic)"),
    "perfect": (False, False, "solves the deal seeing every card: an oracle, not a fair player"),
    "pimc": (True, True, "perfect-information solves of N sampled worlds"),
    "pimc_plus": (True, True, "pimc with more worlds late and where closing looks good"),
    "rollout": (True, True, "each action played on by the heuristic in sampled worlds"),
    "hybrid": (True, True, "the mean of pimc_plus's and rollout's judgements"),
}
#: ``games.schnapsen.advice.DEFAULT_BOT`` / ``DEFAULT_WORLDS``, ``search.DEFAULT_SAMPLES``,
#: ``rollout_bot.PLAYOUTS_PER_SAMPLE``
SCHNAPSEN_ADVICE_BOT = "hybrid"
SCHNAPSEN_ADVICE_WORLDS = 16
SCHNAPSEN_SAMPLES = 12
SCHNAPSEN_PLAYOUTS_PER_SAMPLE = 32

#: ``games.seconds.policies.POLICY_NAMES`` and ``PARAM_NAMES``
SECONDS_POLICIES = ("random", "heuristic", "sampling")
SECONDS_PARAMS = ("p_sure", "p_top", "p_unsure", "top_penalty", "below_weight", "trump_length_bonus", "rank_weight",
                  "suit_floor", "n_samples", "max_tries")
