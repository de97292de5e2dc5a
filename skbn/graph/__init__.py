# SPDX-License-Identifier: BSD-3-Clause
"""Graphs of Bayesian-network structure learning: DAGs, CPDAGs, PDAGs, MAGs and PAGs.

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

Hidden common causes: a MAG or PAG (``graph["kind"]`` ``"mag"`` or ``"pag"``) puts a mark at
each end of an edge, held in networkx as both arcs, each with the ``mark`` at its head
(``"arrow"``, ``"tail"`` or ``"circle"``), and internally as an endpoint matrix
(:func:`endpoint_matrix`, :func:`from_endpoint_matrix`). :func:`dag_to_mag` and
:func:`dag_to_pag` give the truth over the measured variables of a DAG with latents,
:func:`mag_to_pag` the PAG of a MAG's class, :func:`pag_to_mag` a MAG in a PAG's class, and
:func:`is_m_separated` decides m-separation (d-separation in a DAG), and
:func:`is_legal_pag` whether a graph is the PAG of some MAG.

Other libraries: :func:`to_causallearn` / :func:`from_causallearn` convert any of these
kinds to and from causal-learn's ``GeneralGraph``, :func:`to_tetrad` / :func:`from_tetrad`
to and from Tetrad's graphs (through a running JVM); :func:`write_graph` and
:func:`read_graph` also take Tetrad's text format (``.txt``), which
:func:`to_tetrad_text` and :func:`parse_tetrad_text` give as a string.
"""

from skbn.graph._ancestral import (
    dag_to_mag,
    dag_to_pag,
    is_ancestral,
    is_legal_pag,
    is_m_separated,
    mag_to_pag,
    pag_to_mag,
)
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
from skbn.graph._foreign import from_causallearn, from_tetrad, to_causallearn, to_tetrad
from skbn.graph._io import graph_format, read_graph, to_dot, write_graph
from skbn.graph._learned import LearnedGraph
from skbn.graph._pag import (
    ARROW,
    CIRCLE,
    TAIL,
    endpoint_matrix,
    from_endpoint_matrix,
    is_marked,
    marked_edges,
)
from skbn.graph._partial import PartialGraph
from skbn.graph._tetrad_text import parse_tetrad_text, to_tetrad_text

__all__ = [
    "ARROW",
    "CIRCLE",
    "TAIL",
    "NoExtensionError",
    "PartialGraph",
    "LearnedGraph",
    "as_adjacency",
    "dag_to_cpdag",
    "dag_to_mag",
    "dag_to_pag",
    "directed_edges",
    "endpoint_matrix",
    "from_adjacency",
    "from_causallearn",
    "from_endpoint_matrix",
    "from_tetrad",
    "graph_format",
    "is_ancestral",
    "is_cpdag",
    "is_dag",
    "is_legal_pag",
    "is_m_separated",
    "is_marked",
    "mag_to_pag",
    "marked_edges",
    "markov_blanket",
    "meek_orient",
    "pag_to_mag",
    "parse_tetrad_text",
    "pdag_to_dag",
    "plot_graph",
    "read_graph",
    "skeleton",
    "to_adjacency",
    "to_causallearn",
    "to_cpdag",
    "to_dag",
    "to_dot",
    "to_tetrad",
    "to_tetrad_text",
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
