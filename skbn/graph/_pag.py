# SPDX-License-Identifier: BSD-3-Clause
"""Graphs with edge marks: MAGs and PAGs, their endpoint matrices and networkx form.

A maximal ancestral graph (MAG) and a partial ancestral graph (PAG) put a mark at each end of
an edge: a tail, an arrowhead or a circle (a PAG's "either"). skbn holds them in two forms,
converted at the boundary as the adjacency arrays of DAGs are:

* the **endpoint matrix** ``M`` (int8, shape ``(p, p)``), as in pcalg's ``amat.pag``:
  ``M[i, j]`` is the mark *at* ``j`` on the edge between ``i`` and ``j``, ``0`` when they
  are not adjacent, :data:`CIRCLE` (1), :data:`ARROW` (2) or :data:`TAIL` (3). So ``i -> j``
  is ``M[i, j] == ARROW`` and ``M[j, i] == TAIL``; ``i o-> j`` is ``M[i, j] == ARROW`` and
  ``M[j, i] == CIRCLE``; ``i <-> j`` has both arrows;
* a **networkx** ``DiGraph`` with ``graph["kind"]`` ``"pag"`` or ``"mag"``: every adjacency is
  both arcs ``u -> v`` and ``v -> u``, and each arc carries ``mark``, the mark at its head
  (``"arrow"``, ``"tail"`` or ``"circle"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx
import numpy as np

from skbn.graph._learned import LearnedGraph

__all__ = [
    "ARROW",
    "CIRCLE",
    "MARK_KINDS",
    "TAIL",
    "endpoint_matrix",
    "from_endpoint_matrix",
    "is_marked",
    "marked_edges",
]

#: Endpoint codes of the endpoint matrix (pcalg's ``amat.pag`` convention).
CIRCLE, ARROW, TAIL = 1, 2, 3
#: The graph kinds whose edges carry marks.
MARK_KINDS = ("pag", "mag")

_NAME = {CIRCLE: "circle", ARROW: "arrow", TAIL: "tail"}
_CODE = {name: code for code, name in _NAME.items()}
_LEFT = {CIRCLE: "o", ARROW: "<", TAIL: "-"}
_RIGHT = {CIRCLE: "o", ARROW: ">", TAIL: "-"}


def is_marked(graph) -> bool:
    """Whether ``graph`` is a networkx graph whose edges carry marks (a PAG or a MAG).

    Parameters
    ----------
    graph : object
        Anything; only a networkx graph tagged ``kind="pag"`` or ``"mag"`` is marked.

    Returns
    -------
    bool

    Examples
    --------
    >>> import networkx as nx
    >>> is_marked(nx.DiGraph(kind="pag")), is_marked(nx.DiGraph([("a", "b")]))
    (True, False)
    """
    return isinstance(graph, nx.Graph) and graph.graph.get("kind") in MARK_KINDS


def _check_endpoints(M) -> np.ndarray:
    M = np.asarray(M)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"An endpoint matrix must be square, got shape {M.shape}.")
    bad = ~np.isin(M, (0, CIRCLE, ARROW, TAIL))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"Endpoint codes are 0 (no edge), 1 (circle), 2 (arrow) or 3 (tail); M[{i}, {j}] "
            f"is {M[i, j].item()!r}."
        )
    M = M.astype(np.int8)
    if np.any(np.diag(M)):
        raise ValueError("An endpoint matrix has no self-loops: its diagonal must be 0.")
    lone = (M != 0) != (M.T != 0)
    if lone.any():
        i, j = np.argwhere(lone)[0]
        raise ValueError(
            f"An edge has a mark at both ends: M[{i}, {j}] and M[{j}, {i}] must both be "
            "non-zero or both 0."
        )
    return M


def from_endpoint_matrix(M, nodes: Sequence | None = None, *, kind: str = "pag") -> LearnedGraph:
    """Build the networkx form of a PAG or MAG from its endpoint matrix.

    Parameters
    ----------
    M : array-like of shape (p, p)
        ``M[i, j]`` is the mark at ``j`` on the edge ``i - j``: 0 (no edge), 1 (circle),
        2 (arrow) or 3 (tail).
    nodes : sequence, optional
        Node names; defaults to ``x0, ..., x{p-1}``.
    kind : {"pag", "mag"}, default="pag"
        Stored in ``graph.graph["kind"]``.

    Returns
    -------
    LearnedGraph
        Both arcs of every adjacency, each with the ``mark`` at its head.

    Examples
    --------
    >>> g = from_endpoint_matrix([[0, 2], [1, 0]], ["a", "b"])
    >>> marked_edges(g)
    ['a o-> b']
    >>> g.edges["a", "b"]["mark"], g.edges["b", "a"]["mark"]
    ('arrow', 'circle')
    """
    if kind not in MARK_KINDS:
        raise ValueError(f"kind must be one of {MARK_KINDS}, got {kind!r}.")
    M = _check_endpoints(M)
    names = [f"x{j}" for j in range(M.shape[0])] if nodes is None else list(nodes)
    if len(names) != M.shape[0]:
        raise ValueError(f"{len(names)} node names given for a {M.shape[0]}x{M.shape[0]} matrix.")
    if len(set(names)) != len(names):
        raise ValueError("Node names must be unique.")
    g = LearnedGraph(kind=kind)
    g.add_nodes_from(names)
    rows, cols = np.nonzero(M)
    g.add_edges_from(
        (names[i], names[j], {"mark": _NAME[int(M[i, j])]})
        for i, j in zip(rows.tolist(), cols.tolist())
    )
    if kind == "mag":
        _check_mag_marks(M, names)
    return g


def _check_mag_marks(M: np.ndarray, names: list) -> None:
    circles = np.argwhere(M == CIRCLE)
    if len(circles):
        i, j = circles[0]
        raise ValueError(
            f"A MAG has no circle marks, but the edge {names[i]} - {names[j]} has one at "
            f"{names[j]}; tag the graph kind='pag'."
        )


def endpoint_matrix(graph, nodes: Sequence | None = None) -> tuple[np.ndarray, list]:
    """Return ``(M, nodes)``: the endpoint matrix of a PAG or MAG.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A graph tagged ``kind="pag"`` or ``"mag"`` whose arcs carry ``mark``; or an endpoint
        matrix (returned checked, with default node names unless ``nodes`` is given).
    nodes : sequence, optional
        The node order wanted (the same node set as the graph's).

    Returns
    -------
    M : ndarray of shape (p, p), dtype int8
    nodes : list

    Examples
    --------
    >>> g = from_endpoint_matrix([[0, 2, 0], [3, 0, 2], [0, 2, 0]], ["a", "b", "c"])
    >>> marked_edges(g)
    ['a --> b', 'b <-> c']
    >>> endpoint_matrix(g, ["c", "b", "a"])[0]
    array([[0, 2, 0],
           [2, 0, 3],
           [0, 2, 0]], dtype=int8)
    """
    if not isinstance(graph, nx.Graph):
        M = _check_endpoints(graph)
        names = [f"x{j}" for j in range(M.shape[0])] if nodes is None else list(nodes)
        if len(names) != M.shape[0]:
            raise ValueError(
                f"{len(names)} node names given for a {M.shape[0]}x{M.shape[0]} matrix."
            )
        return M, names
    if not is_marked(graph):
        raise ValueError(
            f"Expected a PAG or MAG (graph['kind'] 'pag' or 'mag'), got kind "
            f"{graph.graph.get('kind')!r}; skbn.graph.dag_to_pag gives the PAG of a DAG."
        )
    order = list(graph.nodes) if nodes is None else list(nodes)
    if len(order) != len(graph) or set(order) != set(graph.nodes):
        raise ValueError("nodes must hold exactly the graph's nodes, each once.")
    index = {n: i for i, n in enumerate(order)}
    M = np.zeros((len(order), len(order)), dtype=np.int8)
    for u, v, mark in graph.edges(data="mark"):
        if mark not in _CODE:
            raise ValueError(
                f"The arc {u} -> {v} of a {graph.graph['kind'].upper()} has mark {mark!r}; "
                "each arc's 'mark' is 'arrow', 'tail' or 'circle' (the mark at its head)."
            )
        if not graph.has_edge(v, u):
            raise ValueError(
                f"In a {graph.graph['kind'].upper()} every adjacency is two arcs, each with "
                f"the mark at its head; {u} -> {v} has no {v} -> {u}."
            )
        M[index[u], index[v]] = _CODE[mark]
    if np.any(np.diag(M)):
        raise ValueError("A PAG or MAG has no self-loops.")
    if graph.graph["kind"] == "mag":
        _check_mag_marks(M, order)
    return M, order


def marked_edges(graph, nodes: Sequence | None = None) -> list[str]:
    """The edges of a PAG or MAG as text, ``"a o-> b"``, in node order.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A PAG or MAG, or its endpoint matrix.
    nodes : sequence, optional
        Node names of a matrix, or the order to list a graph's edges in.

    Returns
    -------
    list of str
        One string per adjacency, in the order of its first node: ``o`` a circle, ``<`` or
        ``>`` an arrowhead, ``-`` a tail (``a --> b``, ``a o-> b``, ``a <-> b``,
        ``a o-o b``). An edge with one arrowhead is written with it on the right.

    Examples
    --------
    >>> marked_edges([[0, 1], [1, 0]], ["a", "b"])
    ['a o-o b']
    """
    M, names = endpoint_matrix(graph, nodes)
    rows, cols = np.nonzero(np.triu(M))
    out = []
    for i, j in zip(rows.tolist(), cols.tolist()):
        if M[j, i] == ARROW and M[i, j] != ARROW:  # the lone arrowhead goes on the right
            i, j = j, i
        out.append(f"{names[i]} {_LEFT[int(M[j, i])]}-{_RIGHT[int(M[i, j])]} {names[j]}")
    return out


def parse_marked_edges(lines: Iterable[str], nodes: Sequence) -> np.ndarray:
    """The endpoint matrix of edges written as :func:`marked_edges` writes them.

    Parameters
    ----------
    lines : iterable of str
        ``"a o-> b"``, ``"a --> b"``, ``"a <-> b"``, ... (Tetrad's text form too).
    nodes : sequence
        The node names, in the matrix's order.

    Returns
    -------
    ndarray of shape (p, p), dtype int8
    """
    index = {str(n): i for i, n in enumerate(nodes)}
    left = {v: k for k, v in _LEFT.items()}
    right = {v: k for k, v in _RIGHT.items()}
    M = np.zeros((len(index), len(index)), dtype=np.int8)
    for line in lines:
        parts = line.split()
        if len(parts) != 3 or len(parts[1]) != 3 or parts[1][1] != "-":
            raise ValueError(f"Cannot read the edge {line!r}; expected e.g. 'a o-> b'.")
        u, mark, v = parts
        for name in (u, v):
            if name not in index:
                raise ValueError(f"The edge {line!r} names {name!r}, not among the nodes.")
        if mark[0] not in left or mark[2] not in right:
            raise ValueError(f"Cannot read the marks of {line!r}; use o, <, > or -.")
        M[index[v], index[u]] = left[mark[0]]
        M[index[u], index[v]] = right[mark[2]]
    return M
