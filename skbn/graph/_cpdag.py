# SPDX-License-Identifier: BSD-3-Clause
"""Markov equivalence classes: DAG -> CPDAG, PDAG -> DAG extension, Meek orientation."""

from __future__ import annotations

import networkx as nx
import numpy as np

from skbn.graph._array import dag_to_cpdag_array, meek_orient_array, pdag_to_dag_array
from skbn.graph._convert import as_adjacency, from_adjacency

__all__ = ["dag_to_cpdag", "pdag_to_dag", "to_dag", "to_cpdag", "meek_orient", "is_cpdag"]


class NoExtensionError(ValueError):
    """Raised when a PDAG has no consistent DAG extension.

    Examples
    --------
    >>> import networkx as nx
    >>> cycle = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")], kind="pdag")
    >>> try:
    ...     to_dag(cycle)
    ... except NoExtensionError:
    ...     print("no extension")
    no extension
    """


def _same_kind_out(graph, A: np.ndarray, nodes: list, kind: str):
    if isinstance(graph, nx.Graph):
        return from_adjacency(A, nodes, kind=kind)
    return A


def dag_to_cpdag(graph):
    """The CPDAG (essential graph) of a DAG's Markov equivalence class.

    Uses Chickering's (1995) edge labelling: an arc stays directed if every DAG in the class
    has it (it is *compelled*), and becomes an undirected edge otherwise.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG.

    Returns
    -------
    networkx.DiGraph or ndarray
        The CPDAG, of the same type as the input; a networkx result has
        ``graph["kind"] == "cpdag"``.

    Raises
    ------
    ValueError
        If ``graph`` is not a DAG.

    See Also
    --------
    pdag_to_dag : A DAG member of the class of a CPDAG.

    References
    ----------
    D. M. Chickering, "A transformational characterization of equivalent Bayesian network
    structures", UAI 1995.

    Examples
    --------
    >>> import networkx as nx
    >>> cpdag = dag_to_cpdag(nx.DiGraph([("a", "b"), ("b", "c")]))
    >>> sorted(cpdag.edges())  # a chain: every arc is reversible
    [('a', 'b'), ('b', 'a'), ('b', 'c'), ('c', 'b')]
    >>> sorted(dag_to_cpdag(nx.DiGraph([("a", "c"), ("b", "c")])).edges())  # a collider
    [('a', 'c'), ('b', 'c')]
    """
    A, nodes = as_adjacency(graph)
    return _same_kind_out(graph, dag_to_cpdag_array(A), nodes, "cpdag")


def pdag_to_dag(graph):
    """A consistent DAG extension of a PDAG (Dor & Tarsi, 1992).

    The extension keeps every directed arc, orients every undirected edge, and creates no
    directed cycle and no v-structure that the PDAG does not have. For a CPDAG it is a
    member of the equivalence class.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A PDAG (an undirected edge is a pair of opposite arcs).

    Returns
    -------
    networkx.DiGraph or ndarray
        The DAG, of the same type as the input (``graph["kind"] == "dag"``).

    Raises
    ------
    ValueError
        If no consistent extension exists (e.g. the directed part has a cycle, or orientation
        conflicts left an edge that every orientation turns into a new v-structure).

    References
    ----------
    D. Dor and M. Tarsi, "A simple algorithm to construct a consistent extension of a
    partially oriented graph", Technical Report R-185, UCLA, 1992.

    Examples
    --------
    >>> import networkx as nx
    >>> dag = pdag_to_dag(nx.DiGraph([("a", "b"), ("b", "a"), ("c", "b")]))
    >>> sorted(dag.edges())  # a -> b would add the v-structure a -> b <- c
    [('b', 'a'), ('c', 'b')]
    """
    A, nodes = as_adjacency(graph)
    D = pdag_to_dag_array(A)
    if D is None:
        raise NoExtensionError(
            "The PDAG has no consistent DAG extension: every way of orienting its undirected "
            "edges creates a directed cycle or a v-structure it does not have."
        )
    return _same_kind_out(graph, D, nodes, "dag")


def to_dag(graph):
    """Return a DAG for any learner output: a DAG as is, a CPDAG/PDAG through Dor-Tarsi.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    networkx.DiGraph or ndarray
        Same type as the input.

    Raises
    ------
    ValueError
        If the graph is a PDAG without a consistent extension.

    Examples
    --------
    >>> import networkx as nx
    >>> to_dag(nx.DiGraph([("a", "b"), ("b", "a")])).graph["kind"]
    'dag'
    """
    return pdag_to_dag(graph)


def to_cpdag(graph):
    """The CPDAG of a DAG, or of a PDAG's consistent extension.

    Used by the metrics to compare graphs at the level of equivalence classes.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The graph (an array's nodes are its positions).

    Returns
    -------
    networkx.DiGraph or ndarray
        Of the same type as ``graph``.

    Examples
    --------
    >>> import networkx as nx
    >>> to_cpdag(nx.DiGraph([("a", "b")])).graph["kind"]
    'cpdag'
    """
    A, nodes = as_adjacency(graph)
    C = _cpdag_array(A)
    return _same_kind_out(graph, C, nodes, "cpdag")


def _cpdag_array(A: np.ndarray) -> np.ndarray:
    if np.any(A & A.T):
        D = pdag_to_dag_array(A)
        if D is None:
            raise NoExtensionError("The PDAG has no consistent DAG extension, so it has no CPDAG.")
        A = D
    return dag_to_cpdag_array(A)


def meek_orient(graph):
    """Orient as many undirected edges of a PDAG as Meek's rules R1-R4 imply.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A PDAG, typically a skeleton with its v-structures oriented.

    Returns
    -------
    networkx.DiGraph or ndarray
        The maximally oriented PDAG, same type as the input.

    References
    ----------
    C. Meek, "Causal inference and causal explanation with background knowledge", UAI 1995.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])  # a -> b - c
    >>> sorted(meek_orient(g).edges())  # R1 orients b -> c
    [('a', 'b'), ('b', 'c')]
    """
    A, nodes = as_adjacency(graph)
    M = meek_orient_array(A)
    kind = "pdag"
    if not np.any(M & M.T):
        kind = "dag"
    return _same_kind_out(graph, M, nodes, kind)


def is_cpdag(graph) -> bool:
    """Tell whether ``graph`` is the CPDAG of some DAG.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The graph (an array's nodes are its positions).

    Returns
    -------
    bool

    Examples
    --------
    >>> import networkx as nx
    >>> is_cpdag(nx.DiGraph([("a", "b")]))  # a lone arc is reversible
    False
    >>> is_cpdag(nx.DiGraph([("a", "b"), ("b", "a")]))
    True
    """
    A, _ = as_adjacency(graph)
    D = pdag_to_dag_array(A)
    if D is None:
        return False
    return bool(np.array_equal(dag_to_cpdag_array(D), A))
