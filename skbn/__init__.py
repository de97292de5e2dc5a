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

from __future__ import annotations

import importlib

from skbn._version import __version__

#: Public name -> the module that defines it. Nothing is imported until a name is used, so
#: ``import skbn`` (and ``skbn --help``) load neither the learners nor Optuna.
_LAZY = {
    **{
        name: f"skbn.{name}"
        for name in (
            "ci_tests",
            "classification",
            "data",
            "datasets",
            "ensemble",
            "feature_selection",
            "graph",
            "io",
            "learners",
            "metrics",
            "model_selection",
            "parameters",
            "preprocessing",
            "scores",
        )
    },
    "check_data": "skbn.data",
    **dict.fromkeys(("list_networks", "load_network", "make_problem"), "skbn.datasets"),
    **dict.fromkeys(
        (
            "AutoSLEEnsemble",
            "BootstrapPosetLearner",
            "PEFLearner",
            "StructureLearningEnsemble",
            "bootstrap_edge_frequencies",
        ),
        "skbn.ensemble",
    ),
    **dict.fromkeys(
        ("BOSS", "FGES", "MMHC", "HillClimb", "PCStable", "TabuSearch"), "skbn.learners"
    ),
    **dict.fromkeys(
        ("InterValSearchCV", "OTSLSearchCV", "intersection_validate"), "skbn.model_selection"
    ),
    **dict.fromkeys(("ParameterLearner", "fit_network"), "skbn.parameters"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'skbn' has no attribute {name!r}")
    mod = importlib.import_module(module)
    value = mod if module == f"skbn.{name}" else getattr(mod, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
