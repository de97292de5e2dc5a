# SPDX-License-Identifier: BSD-3-Clause
"""Graphs of Bayesian-network structure learning: DAGs, CPDAGs and PDAGs.

A learner's ``graph_`` is a :class:`networkx.DiGraph` whose nodes are the feature names. A
directed edge ``u -> v`` is one arc; an undirected edge ``u - v`` is the pair of arcs
``u -> v`` and ``v -> u``; ``graph.graph["kind"]`` says ``"dag"``, ``"cpdag"`` or ``"pdag"``.
Internally algorithms work on adjacency arrays, ``A[i, j] == 1`` for an arc ``i -> j``;
:func:`to_adjacency`, :func:`from_adjacency` and :func:`as_adjacency` convert at the boundary.

Every helper here accepts a networkx graph or an adjacency array; those that return a graph
return the same type they were given.

Markov equivalence: :func:`dag_to_cpdag` (Chickering's edge labelling) gives the CPDAG that
represents a DAG's equivalence class; :func:`pdag_to_dag` (Dor-Tarsi) goes back to one member,
and raises when a PDAG has no consistent extension; :func:`meek_orient` applies Meek's rules.
"""

from skbn.graph._convert import as_adjacency, from_adjacency, to_adjacency
from skbn.graph._cpdag import (
    NoExtensionError,
    dag_to_cpdag,
    is_cpdag,
    meek_orient,
    pdag_to_dag,
    to_cpdag,
    to_dag,
)
from skbn.graph._dag import (
    directed_edges,
    is_dag,
    markov_blanket,
    skeleton,
    topological_order,
    undirected_edges,
    v_structures,
)
from skbn.graph._io import graph_format, read_graph, to_dot, write_graph
from skbn.graph._learned import LearnedGraph
from skbn.graph._partial import PartialGraph

__all__ = [
    "NoExtensionError",
    "PartialGraph",
    "as_adjacency",
    "dag_to_cpdag",
    "directed_edges",
    "from_adjacency",
    "graph_format",
    "LearnedGraph",
    "is_cpdag",
    "is_dag",
    "markov_blanket",
    "meek_orient",
    "pdag_to_dag",
    "plot_graph",
    "read_graph",
    "skeleton",
    "to_adjacency",
    "to_cpdag",
    "to_dag",
    "to_dot",
    "topological_order",
    "undirected_edges",
    "v_structures",
    "write_graph",
]


def __getattr__(name):
    # plot_graph lives in skbn.plotting (one plotting module); it is also found here, where
    # graph helpers are, without importing matplotlib-using code when skbn.graph loads
    if name == "plot_graph":
        from skbn.plotting import plot_graph

        return plot_graph
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
