# SPDX-License-Identifier: BSD-3-Clause
"""DAG and PDAG queries: acyclicity, order, skeleton, v-structures, Markov blankets."""

from __future__ import annotations

import networkx as nx
import numpy as np

from skbn.graph._array import (
    directed_part,
    topological_sort_array,
    undirected_part,
    v_structures_array,
)
from skbn.graph._convert import as_adjacency

__all__ = [
    "is_dag",
    "topological_order",
    "skeleton",
    "v_structures",
    "markov_blanket",
    "directed_edges",
    "undirected_edges",
]


def is_dag(graph) -> bool:
    """Return True if ``graph`` has no directed cycle and no undirected edge.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    bool

    Examples
    --------
    >>> import networkx as nx
    >>> is_dag(nx.DiGraph([("a", "b"), ("b", "c")]))
    True
    >>> is_dag(nx.DiGraph([("a", "b"), ("b", "a")]))
    False
    """
    A, _ = as_adjacency(graph)
    return topological_sort_array(A) is not None


def topological_order(graph) -> list:
    """List the nodes of a DAG in a topological order (parents before children).

    Among nodes that could come next, the one listed first in the graph comes first, so the
    order is deterministic.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    list
        Node names (``x0, x1, ...`` for an array).

    Raises
    ------
    ValueError
        If the graph has a directed cycle or an undirected edge.

    Examples
    --------
    >>> import networkx as nx
    >>> topological_order(nx.DiGraph([("c", "a"), ("a", "b")]))
    ['c', 'a', 'b']
    """
    A, nodes = as_adjacency(graph)
    order = topological_sort_array(A)
    if order is None:
        raise ValueError("The graph has a directed cycle or an undirected edge: it is not a DAG.")
    return [nodes[i] for i in order]


def skeleton(graph) -> nx.Graph:
    """The undirected graph with an edge wherever ``graph`` has an arc or an edge.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    networkx.Graph

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(skeleton(nx.DiGraph([("a", "b"), ("c", "b")])).edges())
    [('a', 'b'), ('b', 'c')]
    """
    A, nodes = as_adjacency(graph)
    g = nx.Graph()
    g.add_nodes_from(nodes)
    rows, cols = np.nonzero(np.triu(A | A.T))
    g.add_edges_from((nodes[i], nodes[j]) for i, j in zip(rows.tolist(), cols.tolist()))
    return g


def v_structures(graph) -> list[tuple]:
    """Unshielded colliders ``(a, c, b)``: ``a -> c <- b`` with ``a`` and ``b`` non-adjacent.

    Only directed arcs form colliders; in a PDAG undirected edges are ignored. Each
    v-structure is listed once, with ``a`` before ``b`` in node order.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    list of tuple
        ``(a, c, b)`` triples, sorted by collider then parents in node order.

    See Also
    --------
    networkx.algorithms.dag.v_structures : The same for DAGs in networkx.

    Examples
    --------
    >>> import networkx as nx
    >>> v_structures(nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")]))
    [('a', 'c', 'b')]
    """
    A, nodes = as_adjacency(graph)
    return [(nodes[a], nodes[c], nodes[b]) for a, c, b in v_structures_array(A)]


def markov_blanket(graph, node) -> set:
    """Parents, children and the children's other parents of ``node`` in a DAG.

    For a PDAG, undirected neighbours are included too (they may be parents or children).

    Parameters
    ----------
    graph : networkx.DiGraph
    node : hashable
        A node of ``graph``.

    Returns
    -------
    set

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.DiGraph([("a", "b"), ("c", "b"), ("b", "d"), ("e", "a")])
    >>> sorted(markov_blanket(g, "a"))
    ['b', 'c', 'e']
    """
    if not isinstance(graph, nx.DiGraph):
        raise TypeError("markov_blanket expects a networkx.DiGraph.")
    if node not in graph:
        raise ValueError(f"Node {node!r} is not in the graph.")
    succ = set(graph.successors(node))
    pred = set(graph.predecessors(node))
    undirected = succ & pred
    children = succ - undirected
    blanket = pred | succ
    for child in children:
        blanket |= set(graph.predecessors(child)) - set(graph.successors(child))
    blanket.discard(node)
    return blanket


def directed_edges(graph) -> list[tuple]:
    """List the arcs ``(u, v)`` of ``graph`` that are not part of an undirected edge.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The graph (an array's nodes are its positions).

    Returns
    -------
    list of tuple

    Examples
    --------
    >>> import networkx as nx
    >>> directed_edges(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")]))
    [('a', 'b')]
    """
    A, nodes = as_adjacency(graph)
    rows, cols = np.nonzero(directed_part(A))
    return [(nodes[i], nodes[j]) for i, j in zip(rows.tolist(), cols.tolist())]


def undirected_edges(graph) -> list[tuple]:
    """List the undirected edges ``(u, v)`` of ``graph``, each once with ``u`` before ``v``.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The graph (an array's nodes are its positions).

    Returns
    -------
    list of tuple

    Examples
    --------
    >>> import networkx as nx
    >>> undirected_edges(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")]))
    [('b', 'c')]
    """
    A, nodes = as_adjacency(graph)
    rows, cols = np.nonzero(np.triu(undirected_part(A)))
    return [(nodes[i], nodes[j]) for i, j in zip(rows.tolist(), cols.tolist())]
