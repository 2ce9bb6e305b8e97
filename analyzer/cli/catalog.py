"""Every experiment of every game, by the name its manifests record: what ``analyzer report`` and
``analyzer query`` look up for a run directory. A game's experiments join by being listed in its
``experiments.EXPERIMENTS``."""

from analyzer.experiments.demo import DEMO
from analyzer.experiments.experiment import Experiment
from analyzer.games.rikken import findings as rikken_findings
from analyzer.games.rikken import queries as rikken_queries
from analyzer.games.schnapsen import experiments as schnapsen
from analyzer.games.seconds import experiments as seconds

EXPERIMENTS: dict[str, Experiment] = {experiment.name: experiment
                                      for experiment in (*schnapsen.EXPERIMENTS, *seconds.EXPERIMENTS, DEMO)}

#: what a report says about each experiment's runs
REPORT_SPECS = {**rikken_findings.SPECS,
                **{name: experiment.report for name, experiment in EXPERIMENTS.items() if experiment.report}}

#: what ``analyzer query`` measures on each experiment's rows
QUERY_SPECS = {**rikken_queries.SPECS,
               **{name: experiment.query for name, experiment in EXPERIMENTS.items() if experiment.query}}
