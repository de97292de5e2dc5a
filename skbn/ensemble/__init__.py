# SPDX-License-Identifier: BSD-3-Clause
"""Ensembles of structure learners.

``bootstrap_edge_frequencies`` gives bootstrap arc strengths and an averaged, acyclic graph
(for a PAG learner, the frequency of each edge type and the most frequent type's PAG);
``BootstrapPosetLearner`` (Caravagna & Ramazzotti) learns a partial order from bootstrap
fits and keeps the arcs that beat a permutation null; ``PEFLearner`` (Gu & Zhou) learns
Gaussian networks with many variables by partition, estimation and fusion;
``StructureLearningEnsemble`` runs several learners and keeps the best-scoring output, and
``AutoSLEEnsemble`` (Liu et al.) learns its members with Optuna on training problems;
``MultipleImputation`` pools the graphs learned on several imputed copies of incomplete data.
"""

from skbn.ensemble._autosle import (
    AutoSLEEnsemble,
    default_search_space,
    ensemble_quality,
    members_from_study,
    selected_qualities,
)
from skbn.ensemble._bootstrap import (
    EDGE_TYPES,
    BootstrapPosetLearner,
    EdgeFrequencies,
    PAGEdgeFrequencies,
    bootstrap_arc_counts,
    bootstrap_edge_frequencies,
    edge_frequencies,
    edge_pvalues,
    pag_edge_frequencies,
    permutation_arc_counts,
    poset_from_counts,
)
from skbn.ensemble._imputation import MultipleImputation
from skbn.ensemble._pef import PEFLearner, partition_variables
from skbn.ensemble._sle import PAPER_SLE, FallbackSelectedWarning, StructureLearningEnsemble

__all__ = [
    "EDGE_TYPES",
    "PAPER_SLE",
    "AutoSLEEnsemble",
    "BootstrapPosetLearner",
    "EdgeFrequencies",
    "PAGEdgeFrequencies",
    "FallbackSelectedWarning",
    "MultipleImputation",
    "PEFLearner",
    "StructureLearningEnsemble",
    "bootstrap_arc_counts",
    "bootstrap_edge_frequencies",
    "edge_frequencies",
    "edge_pvalues",
    "pag_edge_frequencies",
    "members_from_study",
    "selected_qualities",
    "permutation_arc_counts",
    "poset_from_counts",
    "default_search_space",
    "ensemble_quality",
    "partition_variables",
]
