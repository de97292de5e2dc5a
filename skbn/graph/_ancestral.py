# SPDX-License-Identifier: BSD-3-Clause
"""The truth when causes are hidden: m-separation, the MAG and the PAG of a DAG with latents.

A DAG over measured and latent variables implies, over the measured ones, a maximal ancestral
graph (MAG; Richardson & Spirtes 2002): ``a`` and ``b`` are adjacent when no set of measured
variables separates them (an inducing path joins them), with a tail at ``a`` when ``a`` is an
ancestor of ``b`` and an arrowhead otherwise. Data determine the MAG only up to Markov
equivalence; the partial ancestral graph (PAG) of its class keeps the marks that every MAG of
the class shares and puts circles elsewhere (Zhang 2008). That PAG is what FCI and its
relatives estimate, and what :func:`dag_to_pag` returns as the truth to compare them with.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np

import skbn._kernels.ancestral as _kernels
import skbn._kernels.mag as _mag_kernels
from skbn.graph._convert import as_adjacency
from skbn.graph._fci_rules import _csr, apply_rules, orient_unshielded_colliders
from skbn.graph._pag import (
    ARROW,
    CIRCLE,
    TAIL,
    endpoint_matrix,
    from_endpoint_matrix,
    is_marked,
)

__all__ = [
    "dag_to_mag",
    "dag_to_pag",
    "is_ancestral",
    "is_legal_pag",
    "is_m_separated",
    "mag_to_pag",
    "pag_to_mag",
]


def _dag_endpoints(A: np.ndarray) -> np.ndarray:
    """The endpoint matrix of a DAG's adjacency array."""
    M = np.zeros(A.shape, dtype=np.int8)
    M[A != 0] = ARROW
    M[A.T != 0] = TAIL
    return M


def _graph_endpoints(graph, what: str) -> tuple[np.ndarray, list]:
    """Endpoint matrix of a DAG or MAG (networkx or array); a PAG is refused."""
    if is_marked(graph):
        if graph.graph["kind"] == "pag":
            raise ValueError(
                f"{what} needs a DAG or a MAG; a PAG's circles leave m-separation undefined. "
                "skbn.graph.pag_to_mag gives a MAG of the PAG's class."
            )
        return endpoint_matrix(graph)
    A, nodes = as_adjacency(graph)
    if np.any((A != 0) & (A.T != 0)):
        raise ValueError(f"{what} needs a DAG or a MAG; the graph has undirected edges.")
    return _dag_endpoints(A), nodes


def _parents(M: np.ndarray) -> list[list[int]]:
    """Each node's parents (``u -> v``: an arrowhead at ``v``, a tail at ``u``)."""
    directed = (M == ARROW) & (M.T == TAIL)  # directed[u, v]: u -> v
    return [np.flatnonzero(column).tolist() for column in directed.T]


def _neighbours(M: np.ndarray) -> list[list[int]]:
    return [np.flatnonzero(row).tolist() for row in M]


def _ancestors_of(M: np.ndarray, targets: Iterable[int], parents=None) -> np.ndarray:
    """Boolean mask of the ancestors of ``targets`` (themselves included), by directed edges.

    ``parents`` is :func:`_parents` of ``M``, passed by callers that ask many times.
    """
    parents = _parents(M) if parents is None else parents
    mask = np.zeros(M.shape[0], dtype=bool)
    stack = list(targets)
    mask[stack] = True
    while stack:
        for u in parents[stack.pop()]:
            if not mask[u]:
                mask[u] = True
                stack.append(u)
    return mask


def _m_connected(M: np.ndarray, x: set, y: set, z: set, nbrs=None, parents=None) -> bool:
    """Whether some node of ``x`` and some node of ``y`` are m-connected given ``z``.

    A reachability search over (node, arrived with an arrowhead at it) states: a node on the
    way is a collider when both its edges have arrowheads at it; a collider passes when it is
    an ancestor of ``z``, a non-collider when it is not in ``z``. ``nbrs`` and ``parents``
    (:func:`_neighbours` and :func:`_parents` of ``M``) spare callers that ask many times.
    """
    in_z = np.zeros(M.shape[0], dtype=bool)
    in_z[list(z)] = True
    anc_z = _ancestors_of(M, z, parents) if z else in_z
    nbrs = _neighbours(M) if nbrs is None else nbrs
    seen = set()
    stack = []
    for s in x:
        for w in nbrs[s]:
            stack.append((w, bool(M[s, w] == ARROW)))
    while stack:
        v, arrow_in = stack.pop()
        if (v, arrow_in) in seen:
            continue
        seen.add((v, arrow_in))
        if v in y:
            return True
        if v in x:
            continue
        for w in nbrs[v]:
            collider = arrow_in and M[w, v] == ARROW
            if (collider and anc_z[v]) or (not collider and not in_z[v]):
                state = (w, bool(M[v, w] == ARROW))
                if state not in seen:
                    stack.append(state)
    return False


def _as_set(nodes, index: dict, what: str) -> set:
    if isinstance(nodes, (str, int)) or not isinstance(nodes, Iterable):
        nodes = [nodes]
    out = set()
    for n in nodes:
        if n not in index:
            raise ValueError(f"{what} names {n!r}, which is not a node of the graph.")
        out.add(index[n])
    return out


def is_m_separated(graph, x, y, z=()) -> bool:
    """Whether ``x`` and ``y`` are m-separated given ``z`` (d-separated, in a DAG).

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, or a MAG (``kind="mag"``, marks on its arcs).
    x, y : node or iterable of nodes
        Disjoint node sets.
    z : node or iterable of nodes, default=()
        The conditioning set, disjoint from ``x`` and ``y``.

    Returns
    -------
    bool
        True when every path between ``x`` and ``y`` is blocked by ``z``: it has a
        non-collider in ``z`` or a collider that is not an ancestor of ``z``.

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")])
    >>> is_m_separated(dag, "a", "b"), is_m_separated(dag, "a", "b", "d")
    (True, False)
    """
    M, nodes = _graph_endpoints(graph, "is_m_separated")
    index = {n: i for i, n in enumerate(nodes)}
    xs, ys, zs = (_as_set(v, index, w) for v, w in ((x, "x"), (y, "y"), (z, "z")))
    if xs & ys or xs & zs or ys & zs:
        raise ValueError("x, y and z must be disjoint node sets.")
    return not _m_connected(M, xs, ys, zs)


def _mag_of(A: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """The MAG's endpoint matrix over ``observed`` of a DAG's adjacency array ``A``.

    Only the pairs an inducing path could join are tested, each by d-separation given the
    measured ancestors of the pair (Richardson & Spirtes 2002, section 4.2): see
    :mod:`skbn._kernels.mag`.
    """
    p = A.shape[0]
    arcs = A != 0
    is_obs = np.zeros(p, dtype=bool)
    is_obs[observed] = True
    rows = _mag_kernels.mag_edges(_mag_kernels.Dag(*_csr(arcs.T), *_csr(arcs)), is_obs)
    position = np.full(p, -1, dtype=np.int64)
    position[observed] = np.arange(len(observed))
    M = np.zeros((len(observed), len(observed)), dtype=np.int8)
    if rows:
        a, b, tail_a, tail_b = (np.array(column) for column in zip(*rows))
        i, j = position[a], position[b]
        M[j, i] = np.where(tail_a, TAIL, ARROW)
        M[i, j] = np.where(tail_b, TAIL, ARROW)
    return M


def _split_latents(graph, latents, what: str):
    if is_marked(graph):
        raise ValueError(f"{what} needs a DAG; the graph is a {graph.graph['kind'].upper()}.")
    A, nodes = as_adjacency(graph)
    if np.any((A != 0) & (A.T != 0)):
        raise ValueError(f"{what} needs a DAG; the graph has undirected edges.")
    from skbn.graph._array import topological_sort_array

    if topological_sort_array(A) is None:
        raise ValueError(f"{what} needs a DAG; the graph has a directed cycle.")
    index = {n: i for i, n in enumerate(nodes)}
    if isinstance(latents, str) or not isinstance(latents, Iterable):
        latents = [latents]
    hidden = _as_set(latents, index, "latents")
    observed = np.array([i for i in range(len(nodes)) if i not in hidden], dtype=np.int64)
    return A, observed, [nodes[i] for i in observed.tolist()]


def dag_to_mag(dag, latents=()) -> nx.DiGraph:
    """The MAG that a DAG with hidden variables implies over the measured ones.

    Parameters
    ----------
    dag : networkx.DiGraph or array-like of shape (p, p)
        The DAG over measured and latent variables.
    latents : node or iterable of nodes, default=()
        The hidden variables. Selection variables are not supported.

    Returns
    -------
    LearnedGraph
        ``kind="mag"`` over the measured nodes (in the DAG's order): ``a -> b`` when ``a``
        is an ancestor of ``b``, ``a <-> b`` when neither is an ancestor of the other.

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c")])
    >>> from skbn.graph import marked_edges
    >>> marked_edges(dag_to_mag(dag, latents=["L"]))
    ['a --> b', 'b <-> c']
    """
    A, observed, names = _split_latents(dag, latents, "dag_to_mag")
    return from_endpoint_matrix(_mag_of(A, observed), names, kind="mag")


def _pag_of_mag(M: np.ndarray) -> np.ndarray:
    P = np.where(M != 0, CIRCLE, 0).astype(np.int8)

    def collider3(a, b, c):
        return M[a, b] == ARROW and M[c, b] == ARROW

    orient_unshielded_colliders(P, collider3)
    apply_rules(P, lambda theta, a, b, c, path: collider3(a, b, c))
    return P


def mag_to_pag(mag) -> nx.DiGraph:
    """The PAG of a MAG's Markov equivalence class.

    The skeleton with circles; the unshielded colliders of the MAG; then Zhang's rules R1-R4
    and R8-R10, where a discriminating path's collider is read off the MAG.

    Parameters
    ----------
    mag : networkx.DiGraph or array-like of shape (p, p)
        A MAG (``kind="mag"``) or its endpoint matrix.

    Returns
    -------
    LearnedGraph
        ``kind="pag"``.

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.graph import from_endpoint_matrix, marked_edges
    >>> mag = from_endpoint_matrix([[0, 2, 0], [3, 0, 3], [0, 2, 0]], ["a", "b", "c"], kind="mag")
    >>> marked_edges(mag_to_pag(mag))
    ['a o-> b', 'c o-> b']
    """
    M, nodes = endpoint_matrix(mag)
    if (M == CIRCLE).any():
        raise ValueError("mag_to_pag needs a MAG; the graph has circle marks.")
    return from_endpoint_matrix(_pag_of_mag(M), nodes, kind="pag")


def dag_to_pag(dag, latents=()) -> nx.DiGraph:
    """The PAG over the measured variables of a DAG with hidden variables.

    This is the truth an FCI-family learner estimates from data on the measured variables:
    :func:`dag_to_mag`, then :func:`mag_to_pag`.

    Parameters
    ----------
    dag : networkx.DiGraph or array-like of shape (p, p)
        The DAG over measured and latent variables.
    latents : node or iterable of nodes, default=()
        The hidden variables. Selection variables are not supported.

    Returns
    -------
    LearnedGraph
        ``kind="pag"`` over the measured nodes, in the DAG's order.

    Examples
    --------
    A hidden common cause of ``b`` and ``c``: no DAG over ``a, b, c, d`` says what the PAG says.

    >>> import networkx as nx
    >>> from skbn.graph import marked_edges
    >>> dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    >>> marked_edges(dag_to_pag(dag, latents="L"))
    ['a o-> b', 'b <-> c', 'd o-> c']
    """
    A, observed, names = _split_latents(dag, latents, "dag_to_pag")
    return from_endpoint_matrix(_pag_of_mag(_mag_of(A, observed)), names, kind="pag")


def _is_ancestral(M: np.ndarray, csr=None) -> bool:
    """Whether an endpoint matrix is a MAG without selection variables.

    No circle, no undirected edge, and no arrowhead at an ancestor: ``b *-> a`` with ``a``
    an ancestor of ``b`` (a directed or an almost directed cycle). ``csr`` is the
    adjacency's CSR where the caller has it.
    """
    M = np.ascontiguousarray(M, dtype=np.int8)
    return bool(_kernels.is_ancestral(M, *(_csr(M != 0) if csr is None else csr)))


def is_ancestral(graph) -> bool:
    """Whether a graph with marks is ancestral: a MAG without selection variables.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A graph tagged ``kind="mag"`` (or ``"pag"``), or an endpoint matrix.

    Returns
    -------
    bool
        True when it has no circle, no undirected edge, no directed cycle and no arrowhead
        pointing at an ancestor (``a <-> b`` or ``b -> a`` with ``a`` an ancestor of ``b``).

    Examples
    --------
    >>> from skbn.graph import from_endpoint_matrix
    >>> bow = [[0, 2], [3, 0]]  # a -> b
    >>> is_ancestral(from_endpoint_matrix(bow, ["a", "b"], kind="mag"))
    True
    >>> triangle = [[0, 2, 2], [3, 0, 2], [2, 3, 0]]  # a -> b -> c and a <-> c
    >>> is_ancestral(triangle)
    False
    """
    M, _ = endpoint_matrix(graph)
    return _is_ancestral(M)


def _pag_to_mag(P: np.ndarray, first: int | None = None, csr=None) -> np.ndarray:
    """Zhang's MAG of an endpoint matrix (a copy); ``csr`` its adjacency where known.

    Every ``a o-> b`` becomes ``a --> b``; the ``o-o`` edges point from the node a maximum
    cardinality search over their component visits first to the later one (``first``
    starts the search where it is in the component).
    """
    M = np.array(P, dtype=np.int8, order="C")
    indptr, indices = _csr(M != 0) if csr is None else csr
    _kernels.pag_to_mag(M, indptr, indices, -1 if first is None else int(first))
    return M


def pag_to_mag(pag) -> nx.DiGraph:
    """A MAG in the Markov equivalence class of a PAG (Zhang's construction).

    Every ``a o-> b`` becomes ``a -> b``, and the ``o-o`` edges are oriented as a DAG
    without unshielded colliders (a maximum cardinality search over their component).

    Parameters
    ----------
    pag : networkx.DiGraph or array-like of shape (p, p)
        A PAG (``kind="pag"``) or its endpoint matrix.

    Returns
    -------
    LearnedGraph
        ``kind="mag"``.

    Raises
    ------
    ValueError
        When the result is not ancestral: the graph is not a PAG of any MAG (a learner's
        PAG can be such a graph when its tests contradict each other).

    References
    ----------
    J. Zhang, "On the completeness of orientation rules for causal discovery in the presence
    of latent confounders and selection bias", Artificial Intelligence 172 (2008), Lemma 7
    and Theorem 2.

    Examples
    --------
    >>> from skbn.graph import from_endpoint_matrix, marked_edges
    >>> pag = from_endpoint_matrix([[0, 2, 0], [1, 0, 1], [0, 2, 0]], ["a", "b", "c"])
    >>> marked_edges(pag)
    ['a o-> b', 'c o-> b']
    >>> marked_edges(pag_to_mag(pag))
    ['a --> b', 'c --> b']
    """
    P, nodes = endpoint_matrix(pag)
    M = _pag_to_mag(P)
    if not _is_ancestral(M):
        raise ValueError(
            "The graph is not the PAG of any MAG: orienting its circles as Zhang's "
            "construction does leaves a directed or almost directed cycle."
        )
    return from_endpoint_matrix(M, nodes, kind="mag")


def _is_maximal(M: np.ndarray, csr=None) -> bool:
    """Whether no inducing path joins two non-adjacent nodes of an ancestral graph."""
    M = np.ascontiguousarray(M, dtype=np.int8)
    return bool(_kernels.is_maximal(M, *(_csr(M != 0) if csr is None else csr)))


def is_legal_pag(graph) -> bool:
    """Whether a graph is the PAG of some MAG (no selection variables).

    Zhang's check: the MAG his construction builds from it (:func:`pag_to_mag`) is
    ancestral and maximal, and that MAG's PAG is the graph itself. A learner's PAG can
    fail it when its tests contradict each other, and so can an average of several PAGs.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A graph with marks (``kind="pag"``) or its endpoint matrix.

    Returns
    -------
    bool

    References
    ----------
    J. Zhang, "On the completeness of orientation rules for causal discovery in the presence
    of latent confounders and selection bias", Artificial Intelligence 172 (2008).

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.graph import dag_to_pag, from_endpoint_matrix
    >>> dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    >>> is_legal_pag(dag_to_pag(dag, latents="L"))
    True
    >>> is_legal_pag(from_endpoint_matrix([[0, 2], [2, 0]], ["a", "b"]))  # a <-> b alone
    False
    """
    P, _ = endpoint_matrix(graph)
    M = _pag_to_mag(P)
    if not _is_ancestral(M) or not _is_maximal(M):
        return False
    return bool(np.array_equal(_pag_of_mag(M), P))
