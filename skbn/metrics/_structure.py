# SPDX-License-Identifier: BSD-3-Clause
"""Comparing a learned structure with a true one (or with a partial graph)."""

from __future__ import annotations

from typing import Literal, NamedTuple

import networkx as nx
import numpy as np
import pandas as pd

from skbn.graph._array import dag_to_cpdag_array, pair_types
from skbn.graph._convert import as_adjacency
from skbn.graph._partial import PartialGraph

__all__ = [
    "shd",
    "precision_recall_f1",
    "f1_adjacency",
    "f1_arrowhead",
    "adjacency_precision_recall_f1",
    "arrowhead_precision_recall_f1",
    "partial_hamming_distance",
    "structure_report",
    "StructureReport",
    "PrecisionRecallF1",
]


class PrecisionRecallF1(NamedTuple):
    """Precision, recall and their harmonic mean F1."""

    precision: float
    recall: float
    f1: float


def _align_to(nodes: list, graph, which: str) -> np.ndarray:
    """Adjacency array of ``graph`` over ``nodes``, refusing a different node set."""
    if not isinstance(graph, nx.Graph):
        A, _ = as_adjacency(graph)
        if A.shape[0] != len(nodes):
            raise ValueError(
                f"The {which} graph has {A.shape[0]} nodes but the other graph has {len(nodes)}."
            )
        return A
    if len(graph) != len(nodes) or set(graph.nodes) != set(nodes):
        extra = sorted(map(str, set(graph.nodes) - set(nodes)))[:8]
        lacking = sorted(map(str, set(nodes) - set(graph.nodes)))[:8]
        raise ValueError(
            "The two graphs have different node sets"
            + (f"; only in the {which} graph: {extra}" if extra else "")
            + (f"; missing from the {which} graph: {lacking}" if lacking else "")
            + ". Compare graphs over the same variables."
        )
    A, _ = as_adjacency(graph, nodes)
    return A


def _aligned(truth, learned) -> tuple[np.ndarray, np.ndarray, list]:
    """Adjacency arrays of both graphs over the same node order (the truth's)."""
    T, nodes = as_adjacency(truth)
    return T, _align_to(nodes, learned, "learned"), nodes


def _cpdag(A: np.ndarray, which: str, kind: str | None = None) -> np.ndarray:
    """CPDAG of a DAG; a CPDAG/PDAG (by its ``kind`` or its undirected edges) is kept as is.

    A PDAG may hold a directed cycle (PC with conflicting orientations); only a graph that
    claims to be a DAG, or says nothing, is refused for one.
    """
    if kind in ("cpdag", "pdag") or np.any(A & A.T):
        return A
    try:
        return dag_to_cpdag_array(A)
    except ValueError:
        raise ValueError(
            f"The {which} graph has a directed cycle; metrics need a DAG, CPDAG or PDAG "
            "(a PDAG's networkx graph says so with graph['kind'] = 'pdag')."
        ) from None


def _kind_of(graph) -> str | None:
    return graph.graph.get("kind") if isinstance(graph, nx.Graph) else None


def _as_cpdags(truth, learned) -> tuple[np.ndarray, np.ndarray]:
    T, L, _ = _aligned(truth, learned)
    return _cpdag(T, "true", _kind_of(truth)), _cpdag(L, "learned", _kind_of(learned))


def _prf(tp: int, n_pred: int, n_true: int) -> PrecisionRecallF1:
    # An empty prediction of an empty truth is a perfect answer.
    precision = tp / n_pred if n_pred else float(n_true == 0)
    recall = tp / n_true if n_true else float(n_pred == 0)
    denom = n_pred + n_true
    f1 = 2 * tp / denom if denom else 1.0
    return PrecisionRecallF1(float(precision), float(recall), float(f1))


def shd(truth, learned, *, kind: Literal["cpdag", "dag"] = "cpdag") -> int:
    """Structural Hamming distance: the number of node pairs whose edge type differs.

    Parameters
    ----------
    truth, learned : networkx.DiGraph or array-like of shape (p, p)
        Graphs on the same nodes (arrays in the same node order).
    kind : {"cpdag", "dag"}, default="cpdag"
        ``"cpdag"`` compares equivalence classes: DAG inputs are replaced by their CPDAGs
        (graphs with undirected edges are compared as given), and a pair counts once whether
        an edge is missing, extra, or differently oriented. ``"dag"`` compares the two DAGs
        as given: additions, deletions and reversals each count 1 (both must be DAGs).

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> shd(truth, nx.DiGraph([("b", "a"), ("c", "b")]))  # same equivalence class
    0
    >>> shd(truth, nx.DiGraph([("b", "a"), ("c", "b")]), kind="dag")
    2
    """
    T, L, _ = _aligned(truth, learned)
    if kind == "cpdag":
        T, L = _cpdag(T, "true", _kind_of(truth)), _cpdag(L, "learned", _kind_of(learned))
    elif kind == "dag":
        for A, which in ((T, "true"), (L, "learned")):
            if np.any(A & A.T):
                raise ValueError(
                    f"The {which} graph has undirected edges; use kind='cpdag' to compare "
                    "equivalence classes."
                )
    else:
        raise ValueError(f"kind must be 'cpdag' or 'dag', got {kind!r}.")
    diff = pair_types(T) != pair_types(L)
    return int(np.triu(diff, 1).sum())


def precision_recall_f1(truth, learned) -> PrecisionRecallF1:
    """Precision, recall and F1 of the learned edges, orientation included.

    Both graphs are compared as CPDAGs (DAG inputs converted). A learned edge is correct
    when the true CPDAG has an edge between the same nodes of the same type (the same
    direction, or both undirected). Precision divides by the learned edges, recall by the
    true edges.

    Parameters
    ----------
    truth, learned : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    PrecisionRecallF1
        A named tuple ``(precision, recall, f1)``; with no edges in either graph all are 1.

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "c"), ("b", "c")])
    >>> precision_recall_f1(truth, nx.DiGraph([("a", "c"), ("c", "b")]))
    PrecisionRecallF1(precision=0.0, recall=0.0, f1=0.0)
    """
    T, L = _as_cpdags(truth, learned)
    tt, tl = pair_types(T), pair_types(L)
    upper = np.triu(np.ones_like(T, dtype=bool), 1)
    n_true = int((upper & (tt != 0)).sum())
    n_pred = int((upper & (tl != 0)).sum())
    tp = int((upper & (tl != 0) & (tt == tl)).sum())
    return _prf(tp, n_pred, n_true)


def adjacency_precision_recall_f1(truth, learned) -> PrecisionRecallF1:
    """Precision, recall and F1 of adjacencies, ignoring orientation.

    Examples
    --------
    >>> import networkx as nx
    >>> adjacency_precision_recall_f1(nx.DiGraph([("a", "b")]), nx.DiGraph([("b", "a")]))
    PrecisionRecallF1(precision=1.0, recall=1.0, f1=1.0)
    """
    T, L, _ = _aligned(truth, learned)
    at = np.triu((T | T.T).astype(bool), 1)
    al = np.triu((L | L.T).astype(bool), 1)
    return _prf(int((at & al).sum()), int(al.sum()), int(at.sum()))


def arrowhead_precision_recall_f1(truth, learned) -> PrecisionRecallF1:
    """Precision, recall and F1 of arrowheads between the two CPDAGs.

    An arrowhead ``a -> b`` is shared when both CPDAGs have the directed edge ``a -> b``; it
    is a false positive (or a false negative) when one has ``a -> b`` and the other has
    ``a <- b``, ``a - b`` or no edge (Auto-SLE paper, section IV-A2). Undirected edges carry
    no arrowhead.

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "c"), ("b", "c")])
    >>> arrowhead_precision_recall_f1(truth, truth).f1
    1.0
    """
    T, L = _as_cpdags(truth, learned)
    dt = (T & (1 - T.T)).astype(bool)
    dl = (L & (1 - L.T)).astype(bool)
    return _prf(int((dt & dl).sum()), int(dl.sum()), int(dt.sum()))


def f1_adjacency(truth, learned) -> float:
    """F1 of adjacencies (edges regardless of orientation), 2TP / (2TP + FP + FN).

    Parameters
    ----------
    truth, learned : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    float
        1.0 when neither graph has an edge.

    References
    ----------
    S. Liu et al., "Scalable Structure Learning of Bayesian Networks by Learning Algorithm
    Ensembles", section IV-A2 (F1 Adjacent).

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> learned = nx.DiGraph([("b", "a")])
    >>> learned.add_node("c")
    >>> f1_adjacency(truth, learned)
    0.6666666666666666
    """
    return adjacency_precision_recall_f1(truth, learned).f1


def f1_arrowhead(truth, learned) -> float:
    """F1 of arrowheads between the CPDAGs of the two graphs.

    See :func:`arrowhead_precision_recall_f1` for what counts as a shared arrowhead.

    Returns
    -------
    float
        1.0 when neither CPDAG has a directed edge.

    References
    ----------
    S. Liu et al., "Scalable Structure Learning of Bayesian Networks by Learning Algorithm
    Ensembles", section IV-A2 (F1 Arrowhead).

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "c"), ("b", "c")])
    >>> learned = nx.DiGraph([("a", "c")])
    >>> learned.add_node("b")
    >>> f1_arrowhead(truth, learned)  # a lone arc is reversible: no arrowhead in its CPDAG
    0.0
    """
    return arrowhead_precision_recall_f1(truth, learned).f1


def partial_hamming_distance(graph, partial: PartialGraph) -> int:
    """Number of the partial graph's known pairs whose type differs in ``graph``'s CPDAG.

    This is Intersection-Validation's PHD: ``graph`` (a DAG is first replaced by its CPDAG;
    a CPDAG/PDAG is used as given) is projected onto the pairs of ``partial`` and compared
    pair by pair.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        For an array, the node order must be ``partial.nodes``.
    partial : PartialGraph

    Returns
    -------
    int

    References
    ----------
    J. Viinikka, R. Eggeling and M. Koivisto, "Intersection-Validation: A Method for
    Evaluating Structure Learning without Ground Truth", AISTATS 2018.

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.graph import PartialGraph
    >>> partial = PartialGraph.from_graph(nx.DiGraph([("a", "c"), ("b", "c")]))
    >>> partial_hamming_distance(nx.DiGraph([("a", "c"), ("c", "b")]), partial)
    2
    """
    if not isinstance(partial, PartialGraph):
        raise TypeError(f"partial must be a PartialGraph, got {type(partial).__name__}.")
    L = _cpdag(_align_to(partial.nodes, graph, "given"), "given", _kind_of(graph))
    diff = (pair_types(L) != partial.types) & partial.known
    return int(np.triu(diff, 1).sum())


class StructureReport(dict):
    """All structure metrics of a learned graph against the truth, as a dict.

    ``to_frame()`` gives the same numbers as a one-row DataFrame; ``str()`` a short table.
    """

    def to_frame(self) -> pd.DataFrame:
        """The report as a one-row DataFrame."""
        return pd.DataFrame([dict(self)])

    def __str__(self) -> str:
        width = max(map(len, self))
        lines = []
        for key, value in self.items():
            text = f"{value:.3f}" if isinstance(value, float) else str(value)
            lines.append(f"{key:<{width}}  {text}")
        return "\n".join(lines)


def structure_report(truth, learned) -> StructureReport:
    """Every structure metric of ``learned`` against ``truth``.

    Parameters
    ----------
    truth, learned : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    StructureReport
        A dict with the edge counts, ``shd`` (CPDAGs), ``shd_dag`` (when both are DAGs, else
        ``None``), edge precision/recall/F1 (orientation included, on CPDAGs), adjacency
        precision/recall/F1 and arrowhead precision/recall/F1; ``.to_frame()`` returns it as a
        one-row DataFrame.

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> learned = nx.DiGraph([("a", "b")])
    >>> learned.add_node("c")
    >>> report = structure_report(truth, learned)
    >>> report["shd"], report["f1_adjacency"]
    (1, 0.6666666666666666)
    >>> report.to_frame().shape
    (1, 14)
    """
    T, L, _ = _aligned(truth, learned)
    both_dags = not (np.any(T & T.T) or np.any(L & L.T))
    edge = precision_recall_f1(T, L)
    adj = adjacency_precision_recall_f1(T, L)
    arrow = arrowhead_precision_recall_f1(T, L)
    return StructureReport(
        n_nodes=int(T.shape[0]),
        n_true_edges=int(np.triu(T | T.T, 1).sum()),
        n_learned_edges=int(np.triu(L | L.T, 1).sum()),
        shd=shd(T, L),
        shd_dag=shd(T, L, kind="dag") if both_dags else None,
        precision=edge.precision,
        recall=edge.recall,
        f1=edge.f1,
        precision_adjacency=adj.precision,
        recall_adjacency=adj.recall,
        f1_adjacency=adj.f1,
        precision_arrowhead=arrow.precision,
        recall_arrowhead=arrow.recall,
        f1_arrowhead=arrow.f1,
    )
