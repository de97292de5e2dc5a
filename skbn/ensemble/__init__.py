# SPDX-License-Identifier: BSD-3-Clause
"""Ensembles of structure learners.

``bootstrap_edge_frequencies`` gives bootstrap arc strengths and an averaged, acyclic graph;
``BootstrapPosetLearner`` (Caravagna & Ramazzotti) learns a partial order from bootstrap
fits and keeps the arcs that beat a permutation null.
"""

from skbn.ensemble._bootstrap import (
    BootstrapPosetLearner,
    EdgeFrequencies,
    bootstrap_edge_frequencies,
)

__all__ = ["BootstrapPosetLearner", "EdgeFrequencies", "bootstrap_edge_frequencies"]
