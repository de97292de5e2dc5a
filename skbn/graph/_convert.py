# SPDX-License-Identifier: BSD-3-Clause
"""Conversion between networkx graphs and adjacency arrays."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np
from scipy import sparse as _sparse

from skbn.graph._array import adjacency_like, arcs_of, topological_sort_array
from skbn.graph._learned import LearnedGraph

__all__ = ["to_adjacency", "from_adjacency", "as_adjacency", "GRAPH_KINDS"]

GRAPH_KINDS = ("dag", "cpdag", "pdag")


def _default_names(p: int) -> list[str]:
    return [f"x{j}" for j in range(p)]


def to_adjacency(graph: nx.Graph, nodes: Sequence | None = None) -> np.ndarray:
    """Return the adjacency array of a networkx graph.

    Parameters
    ----------
    graph : networkx.DiGraph or networkx.Graph
        A directed graph (an undirected edge is a pair of opposite arcs) or an undirected
        graph (each edge becomes two opposite arcs).
    nodes : sequence, optional
        Node order of the rows and columns; defaults to the graph's own node order. It must
        hold exactly the graph's nodes.

    Returns
    -------
    ndarray of shape (p, p), dtype int8
        ``A[i, j] == 1`` if the arc ``nodes[i] -> nodes[j]`` is present.

    Examples
    --------
    >>> import networkx as nx
    >>> to_adjacency(nx.DiGraph([("a", "b"), ("b", "c")]))
    array([[0, 1, 0],
           [0, 0, 1],
           [0, 0, 0]], dtype=int8)
    """
    _refuse_marked(graph)
    order = list(graph.nodes) if nodes is None else list(nodes)
    if nodes is not None and (len(order) != len(graph) or set(order) != set(graph.nodes)):
        extra = sorted(map(str, set(graph.nodes) - set(order)))
        lacking = sorted(map(str, set(order) - set(graph.nodes)))
        raise ValueError(
            "The graph's nodes differ from the expected nodes"
            + (f"; not expected: {extra[:8]}" if extra else "")
            + (f"; missing from the graph: {lacking[:8]}" if lacking else "")
            + ("" if extra or lacking else "; a node is listed twice")
            + "."
        )
    index = {n: i for i, n in enumerate(order)}
    p = len(order)
    A = np.zeros((p, p), dtype=np.int8)
    if graph.number_of_edges():
        edges = np.array([(index[u], index[v]) for u, v in graph.edges()], dtype=np.int64)
        A[edges[:, 0], edges[:, 1]] = 1
        if not graph.is_directed():
            A[edges[:, 1], edges[:, 0]] = 1
    if np.any(np.diag(A)):
        loops = [str(order[i]) for i in np.flatnonzero(np.diag(A))]
        raise ValueError(f"Self-loops are not allowed in a Bayesian network graph: {loops[:8]}.")
    return A


def _refuse_marked(graph) -> None:
    """A PAG's or MAG's arcs are not an adjacency array: refuse it by name."""
    kind = graph.graph.get("kind") if isinstance(graph, nx.Graph) else None
    if kind in ("pag", "mag"):
        raise ValueError(
            f"This function takes DAGs, CPDAGs and PDAGs; the graph is a {kind.upper()}, "
            "whose edges carry marks (each adjacency is two arcs). Use the functions made "
            "for it: skbn.graph.endpoint_matrix, marked_edges, pag_to_mag; the metrics "
            "in skbn.metrics compare two PAGs."
        )


def _has_undirected(A) -> bool:
    from skbn.graph._array import _reciprocated

    rows, cols = arcs_of(A)
    return bool(_reciprocated(A.shape[0], rows, cols).any())


def _infer_kind(A) -> str:
    if _has_undirected(A):
        return "pdag"
    return "dag" if topological_sort_array(A) is not None else "pdag"


def from_adjacency(
    A: np.ndarray, nodes: Sequence | None = None, *, kind: str | None = None
) -> nx.DiGraph:
    """Build a networkx DiGraph from an adjacency array.

    Parameters
    ----------
    A : array-like or scipy sparse matrix of shape (p, p)
        ``A[i, j] != 0`` means an arc ``nodes[i] -> nodes[j]``; two opposite arcs form an
        undirected edge.
    nodes : sequence, optional
        Node names; defaults to ``x0, ..., x{p-1}``.
    kind : {"dag", "cpdag", "pdag"}, optional
        Stored in ``graph.graph["kind"]``. Inferred when omitted: ``"dag"`` for an acyclic
        graph without undirected edges, else ``"pdag"`` (a CPDAG is only recognised when
        stated, since checking it costs a DAG-to-CPDAG conversion).

    Returns
    -------
    LearnedGraph
        A ``networkx.DiGraph`` that shows itself in a notebook.

    Examples
    --------
    >>> g = from_adjacency([[0, 1], [1, 0]], ["a", "b"])
    >>> sorted(g.edges()), g.graph["kind"]
    ([('a', 'b'), ('b', 'a')], 'pdag')
    """
    A = _check_square(A)
    names = _default_names(A.shape[0]) if nodes is None else list(nodes)
    if len(names) != A.shape[0]:
        raise ValueError(f"{len(names)} node names given for a {A.shape[0]}x{A.shape[0]} array.")
    if len(set(names)) != len(names):
        raise ValueError("Node names must be unique.")
    if kind is None:
        kind = _infer_kind(A)
    elif kind not in GRAPH_KINDS:
        raise ValueError(f"kind must be one of {GRAPH_KINDS}, got {kind!r}.")
    g = LearnedGraph(kind=kind)
    g.add_nodes_from(names)
    rows, cols = arcs_of(A)
    g.add_edges_from((names[i], names[j]) for i, j in zip(rows.tolist(), cols.tolist()))
    return g


def _check_square(A):
    if _sparse.issparse(A):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ValueError(f"An adjacency array must be square, got shape {A.shape}.")
        rows, cols = arcs_of(A)
        if np.any(rows == cols):
            raise ValueError(
                "Self-loops (non-zero diagonal) are not allowed in an adjacency array."
            )
        return adjacency_like(A, A.shape[0], rows, cols)
    A = np.asarray(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"An adjacency array must be square, got shape {A.shape}.")
    A = (A != 0).astype(np.int8)
    if np.any(np.diag(A)):
        raise ValueError("Self-loops (non-zero diagonal) are not allowed in an adjacency array.")
    return A


def _sparse_adjacency(graph: nx.Graph, order: list):
    """CSR adjacency of a networkx graph over ``order`` (the node set already checked)."""
    index = {n: i for i, n in enumerate(order)}
    edges = list(graph.edges())
    rows = np.fromiter((index[u] for u, _ in edges), dtype=np.int64, count=len(edges))
    cols = np.fromiter((index[v] for _, v in edges), dtype=np.int64, count=len(edges))
    if not graph.is_directed():
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
    if np.any(rows == cols):
        loops = sorted({str(order[i]) for i in rows[rows == cols].tolist()})
        raise ValueError(f"Self-loops are not allowed in a Bayesian network graph: {loops[:8]}.")
    return adjacency_like(_sparse.csr_array((0, 0)), len(order), rows, cols)


def as_adjacency(graph, nodes: Sequence | None = None, *, sparse: bool = False):
    """Return ``(A, nodes)`` for a networkx graph or an adjacency array.

    This is the entry point every metric and helper uses, so all of them accept either form.

    Parameters
    ----------
    graph : networkx.Graph, networkx.DiGraph, array-like or scipy sparse matrix
        The graph; an array or matrix has shape (p, p).
    nodes : sequence, optional
        For a networkx graph: the node order wanted (must be the same node set). For an array:
        its node names (default ``x0, ..., x{p-1}``).
    sparse : bool, default=False
        Return a scipy CSR matrix instead of a dense array: memory grows with the arcs, not
        with ``p**2`` (what large graphs need).

    Returns
    -------
    A : ndarray or scipy.sparse.csr_array of shape (p, p), dtype int8
    nodes : list

    Examples
    --------
    >>> A, nodes = as_adjacency([[0, 1], [0, 0]])
    >>> nodes
    ['x0', 'x1']
    >>> as_adjacency([[0, 1], [0, 0]], sparse=True)[0].nnz
    1
    """
    if isinstance(graph, nx.Graph):
        _refuse_marked(graph)
        order = list(graph.nodes) if nodes is None else list(nodes)
        if sparse:
            if len(order) != len(graph) or set(order) != set(graph.nodes):
                to_adjacency(graph, order)  # raises with the node differences named
            return _sparse_adjacency(graph, order), order
        return to_adjacency(graph, order), order
    if isinstance(graph, (str, bytes, dict)):
        raise TypeError(
            f"Expected a networkx graph or a square adjacency array, got {type(graph).__name__}."
        )
    A = _check_square(graph)
    if sparse and not _sparse.issparse(A):
        A = adjacency_like(_sparse.csr_array((0, 0)), A.shape[0], *arcs_of(A))
    elif not sparse and _sparse.issparse(A):
        A = A.toarray()
    names = _default_names(A.shape[0]) if nodes is None else list(nodes)
    if len(names) != A.shape[0]:
        raise ValueError(f"{len(names)} node names given for a {A.shape[0]}x{A.shape[0]} array.")
    return A, names
