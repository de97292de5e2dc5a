# SPDX-License-Identifier: BSD-3-Clause
"""skbn: scikit-learn-compatible structure learning of Bayesian networks.

Learners (:mod:`skbn.learners`) are scikit-learn estimators whose ``fit(X)`` sets
``graph_``; scores (:mod:`skbn.scores`) and CI tests (:mod:`skbn.ci_tests`) are small
parameter objects; :mod:`skbn.model_selection` tunes and compares learners (OTSL,
Intersection-Validation); :mod:`skbn.ensemble` combines them (bootstrap + poset,
partition-estimation-fusion, structure-learning ensembles and Auto-SLE).
:mod:`skbn.data`, :mod:`skbn.graph`, :mod:`skbn.metrics` and :mod:`skbn.datasets` hold data
validation, graph helpers, structure metrics, bundled networks and generators;
:mod:`skbn.parameters` fits a network's parameters on a graph and :mod:`skbn.io` reads and writes
BIF, Hugin NET and GeNIe XDSL files and converts networks for pgmpy and pyAgrum.
"""

from skbn import (
    ci_tests,
    data,
    datasets,
    ensemble,
    graph,
    io,
    learners,
    metrics,
    model_selection,
    parameters,
    scores,
)
from skbn._version import __version__
from skbn.data import check_data
from skbn.datasets import list_networks, load_network, make_problem
from skbn.ensemble import (
    AutoSLEEnsemble,
    BootstrapPosetLearner,
    PEFLearner,
    StructureLearningEnsemble,
    bootstrap_edge_frequencies,
)
from skbn.learners import BOSS, FGES, MMHC, HillClimb, PCStable, TabuSearch
from skbn.model_selection import InterValSearchCV, OTSLSearchCV, intersection_validate
from skbn.parameters import ParameterLearner, fit_network

__all__ = [
    "BOSS",
    "FGES",
    "MMHC",
    "AutoSLEEnsemble",
    "BootstrapPosetLearner",
    "HillClimb",
    "InterValSearchCV",
    "OTSLSearchCV",
    "ParameterLearner",
    "PCStable",
    "PEFLearner",
    "StructureLearningEnsemble",
    "TabuSearch",
    "__version__",
    "bootstrap_edge_frequencies",
    "check_data",
    "ci_tests",
    "data",
    "datasets",
    "ensemble",
    "fit_network",
    "graph",
    "intersection_validate",
    "io",
    "learners",
    "list_networks",
    "load_network",
    "make_problem",
    "metrics",
    "model_selection",
    "parameters",
    "scores",
]
