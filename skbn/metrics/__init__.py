# SPDX-License-Identifier: BSD-3-Clause
"""Structure metrics: how far a learned graph is from the truth (or from a partial graph).

Learned graphs are compared at the level of Markov equivalence classes by default: a DAG is
replaced by its CPDAG, because data cannot tell apart the DAGs of one class. Every function
accepts networkx graphs (matched by node name) or adjacency arrays (in the same node order),
and refuses graphs over different node sets. Two PAGs are compared mark by mark
(arrowheads, tails and circles at edge ends, as Tetrad counts them).
"""

from skbn.metrics._structure import (
    PrecisionRecallF1,
    StructureReport,
    adjacency_precision_recall_f1,
    arrowhead_precision_recall_f1,
    f1_adjacency,
    f1_arrowhead,
    mark_precision_recall_f1,
    partial_hamming_distance,
    precision_recall_f1,
    shd,
    structure_report,
)

__all__ = [
    "PrecisionRecallF1",
    "StructureReport",
    "adjacency_precision_recall_f1",
    "arrowhead_precision_recall_f1",
    "f1_adjacency",
    "f1_arrowhead",
    "mark_precision_recall_f1",
    "partial_hamming_distance",
    "precision_recall_f1",
    "shd",
    "structure_report",
]
