# SPDX-License-Identifier: BSD-3-Clause
"""Ensembles of structure learners.

``bootstrap_edge_frequencies`` gives bootstrap arc strengths and an averaged, acyclic graph;
``BootstrapPosetLearner`` (Caravagna & Ramazzotti) learns a partial order from bootstrap
fits and keeps the arcs that beat a permutation null; ``PEFLearner`` (Gu & Zhou) learns
Gaussian networks with many variables by partition, estimation and fusion.
"""

from skbn.ensemble._bootstrap import (
    BootstrapPosetLearner,
    EdgeFrequencies,
    bootstrap_edge_frequencies,
)
from skbn.ensemble._pef import PEFLearner, partition_variables

__all__ = [
    "BootstrapPosetLearner",
    "EdgeFrequencies",
    "PEFLearner",
    "bootstrap_edge_frequencies",
    "partition_variables",
]
