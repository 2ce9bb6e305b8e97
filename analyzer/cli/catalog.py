"""Every experiment of every game, by the name its manifests record: what ``analyzer report`` and
``analyzer query`` look up for a run directory. A game's experiments join by being listed here, from its
``experiments.EXPERIMENTS`` (each game's advise is declared beside its task)."""

from analyzer.experiments.demo import DEMO
from analyzer.experiments.experiment import Experiment
from analyzer.games.rikken import experiments as rikken
from analyzer.games.rikken.advice_experiment import ADVISE as RIKKEN_ADVISE
from analyzer.games.schnapsen import experiments as schnapsen
from analyzer.games.schnapsen.advice import ADVISE as SCHNAPSEN_ADVISE
from analyzer.games.seconds import experiments as seconds

EXPERIMENTS: dict[str, Experiment] = {
    experiment.name: experiment
    for experiment in (*rikken.EXPERIMENTS, RIKKEN_ADVISE, *schnapsen.EXPERIMENTS, SCHNAPSEN_ADVISE,
                       *seconds.EXPERIMENTS, DEMO)}

#: what a report says about each experiment's runs
REPORT_SPECS = {name: experiment.report for name, experiment in EXPERIMENTS.items() if experiment.report}

#: what ``analyzer query`` measures on each experiment's rows
QUERY_SPECS = {name: experiment.query for name, experiment in EXPERIMENTS.items() if experiment.query}
