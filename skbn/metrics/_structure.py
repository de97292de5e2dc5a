# SPDX-License-Identifier: BSD-3-Clause
"""Comparing a learned structure with a true one (or with a partial graph).

How a graph enters a comparison depends on what it is, and the rule is the same for every
metric here (``structure_report`` only calls them):

============================  ===================================================
the graph                     compared as
============================  ===================================================
``kind="dag"``                its CPDAG (refused if it has an undirected edge or a
                              directed cycle)
``kind="cpdag"`` or ``"pdag"``  as given: its arcs are claims about orientation; a
                              PDAG may hold a directed cycle (orientation conflicts)
no ``kind`` (arrays too)      as given if it has an undirected edge, else as a DAG
                              (refused if cyclic; tag it ``"pdag"`` to compare it)
============================  ===================================================

Adjacency metrics read the skeleton only, so any graph is accepted there. ``shd(...,
kind="dag")`` compares two DAGs as they are and refuses anything else.

Two PAGs (or MAGs: graphs tagged ``kind="pag"`` or ``"mag"``, marks on their arcs) are
compared mark by mark (:mod:`skbn.metrics._pag`): ``shd`` counts the pairs whose edge differs
in presence or in a mark, ``precision_recall_f1`` wants both marks right, the arrowhead
metrics count arrowheads at edge ends as Tetrad does, and :func:`mark_precision_recall_f1`
does the same for tails and circles. A PAG beside a DAG is refused (except by the adjacency
metrics): :func:`skbn.graph.dag_to_pag` gives the PAG to compare with.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import networkx as nx
import numpy as np
import pandas as pd

from skbn.graph._array import arcs_of, dag_to_cpdag_array, pair_types, topological_sort_array
from skbn.graph._convert import _has_undirected, as_adjacency
from skbn.graph._pag import is_marked
from skbn.graph._partial import PartialGraph
from skbn.metrics._pag import (
    aligned_marks,
    is_marked_pair,
    mark_counts,
    pair_differences,
    refuse_other_nodes,
)

__all__ = [
    "shd",
    "precision_recall_f1",
    "f1_adjacency",
    "f1_arrowhead",
    "adjacency_precision_recall_f1",
    "arrowhead_precision_recall_f1",
    "mark_precision_recall_f1",
    "partial_hamming_distance",
    "structure_report",
    "StructureReport",
    "PrecisionRecallF1",
]


class PrecisionRecallF1(NamedTuple):
    """Precision, recall and their harmonic mean F1.

    Parameters
    ----------
    precision : float
        Share of the learned items that are in the truth.
    recall : float
        Share of the true items that were learned.
    f1 : float
        Their harmonic mean.

    Examples
    --------
    >>> PrecisionRecallF1(0.5, 1.0, 2 / 3).f1 == 2 * 0.5 * 1.0 / 1.5
    True
    """

    precision: float
    recall: float
    f1: float


def _align_to(nodes: list, graph, which: str, *, sparse: bool = False):
    """Adjacency matrix of ``graph`` over ``nodes``, refusing a different node set."""
    if not isinstance(graph, nx.Graph):
        A, _ = as_adjacency(graph, sparse=sparse)
        if A.shape[0] != len(nodes):
            raise ValueError(
                f"The {which} graph has {A.shape[0]} nodes but the other graph has {len(nodes)}."
            )
        return A
    refuse_other_nodes(nodes, graph, which)
    A, _ = as_adjacency(graph, nodes, sparse=sparse)
    return A


def _aligned(truth, learned):
    """Sparse adjacency matrices of both graphs over the same node order (the truth's).

    Every metric works on the arcs alone, so memory and time grow with the edges, not with
    the square of the number of nodes.
    """
    T, nodes = as_adjacency(truth, sparse=True)
    return T, _align_to(nodes, learned, "learned", sparse=True), nodes


def _cpdag(A, which: str, kind: str | None = None):
    """The graph as the metrics compare it (see the module docstring's table)."""
    if kind in ("cpdag", "pdag"):
        return A
    if _has_undirected(A):
        if kind == "dag":
            raise ValueError(
                f"The {which} graph says kind='dag' but has undirected edges; tag it 'cpdag' "
                "or 'pdag' to compare it as an equivalence class or partial graph."
            )
        return A
    try:
        return dag_to_cpdag_array(A)
    except ValueError:
        raise ValueError(
            f"The {which} graph has a directed cycle; metrics need a DAG, CPDAG or PDAG "
            "(a PDAG's networkx graph says so with graph['kind'] = 'pdag')."
        ) from None


def _is_dag(A, kind: str | None) -> bool:
    """Whether ``shd(..., kind="dag")`` takes the graph: a DAG by its tag or its shape."""
    if kind in ("cpdag", "pdag") or _has_undirected(A):
        return False
    return topological_sort_array(A) is not None


def _pairs(A) -> tuple[np.ndarray, np.ndarray]:
    """The adjacent pairs of ``A`` and their types, without a ``p x p`` array.

    Returns the sorted codes ``i * p + j`` of the pairs ``i < j`` with an edge, and each
    pair's type as in :func:`~skbn.graph._array.pair_types`: 1 (``i -> j``), 2 (``j -> i``)
    or 3 (undirected).
    """
    p = A.shape[0]
    rows, cols = arcs_of(A)
    codes = np.minimum(rows, cols) * p + np.maximum(rows, cols)
    pairs, inverse = np.unique(codes, return_inverse=True)
    types = np.bincount(inverse, weights=np.where(rows < cols, 1, 2), minlength=len(pairs))
    return pairs, types.astype(np.int64)


def _matched(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Types of the pairs adjacent in both graphs (``a`` and ``b`` as ``_pairs`` gives them)."""
    _, ia, ib = np.intersect1d(a[0], b[0], assume_unique=True, return_indices=True)
    return a[1][ia], b[1][ib]


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

    Two PAGs: the pairs whose edge differs in presence or in either mark.

    >>> from skbn.graph import dag_to_pag
    >>> dag = nx.DiGraph([("L", "b"), ("L", "c"), ("a", "b"), ("d", "c")])
    >>> shd(dag_to_pag(dag, "L"), dag_to_pag(nx.DiGraph([("a", "b"), ("c", "b"), ("d", "c")])))
    2
    """
    if is_marked_pair(truth, learned):
        if kind != "cpdag":
            raise ValueError("kind='dag' compares two DAGs; two PAGs are compared as given.")
        T, L, _ = aligned_marks(truth, learned)
        return pair_differences(T, L)
    T, L, _ = _aligned(truth, learned)
    if kind == "cpdag":
        T, L = _cpdag(T, "true", _kind_of(truth)), _cpdag(L, "learned", _kind_of(learned))
    elif kind == "dag":
        for A, which, graph in ((T, "true", truth), (L, "learned", learned)):
            if not _is_dag(A, _kind_of(graph)):
                raise ValueError(
                    f"The {which} graph is not a DAG (it is tagged {_kind_of(graph)!r}, has "
                    "undirected edges or a cycle); use kind='cpdag' to compare it as it is."
                )
    else:
        raise ValueError(f"kind must be 'cpdag' or 'dag', got {kind!r}.")
    pt, pl = _pairs(T), _pairs(L)
    tt, tl = _matched(pt, pl)
    # pairs adjacent in one graph only, plus shared pairs of different types
    return int(len(pt[0]) + len(pl[0]) - 2 * len(tt) + (tt != tl).sum())


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
    if is_marked_pair(truth, learned):
        T, L, _ = aligned_marks(truth, learned)
        upper = np.triu(T != 0, 1)
        learned_pairs = np.triu(L != 0, 1)
        same = upper & learned_pairs & (T == L) & (T.T == L.T)
        return _prf(int(same.sum()), int(learned_pairs.sum()), int(upper.sum()))
    T, L = _as_cpdags(truth, learned)
    pt, pl = _pairs(T), _pairs(L)
    tt, tl = _matched(pt, pl)
    return _prf(int((tt == tl).sum()), len(pl[0]), len(pt[0]))


def adjacency_precision_recall_f1(truth, learned) -> PrecisionRecallF1:
    """Precision, recall and F1 of adjacencies, ignoring orientation.

    Parameters
    ----------
    truth : networkx.DiGraph or array-like of shape (p, p)
        The reference graph.
    learned : networkx.DiGraph or array-like of shape (p, p)
        The graph to evaluate, over the same nodes.

    Returns
    -------
    PrecisionRecallF1

    Examples
    --------
    >>> import networkx as nx
    >>> adjacency_precision_recall_f1(nx.DiGraph([("a", "b")]), nx.DiGraph([("b", "a")]))
    PrecisionRecallF1(precision=1.0, recall=1.0, f1=1.0)
    """
    if is_marked(truth) or is_marked(learned):
        truth, learned = _skeleton_of(truth, learned)
    T, L, _ = _aligned(truth, learned)
    pt, pl = _pairs(T), _pairs(L)
    return _prf(len(_matched(pt, pl)[0]), len(pl[0]), len(pt[0]))


def arrowhead_precision_recall_f1(truth, learned) -> PrecisionRecallF1:
    """Precision, recall and F1 of arrowheads between the two CPDAGs.

    An arrowhead ``a -> b`` is shared when both CPDAGs have the directed edge ``a -> b``; it
    is a false positive (or a false negative) when one has ``a -> b`` and the other has
    ``a <- b``, ``a - b`` or no edge (Auto-SLE paper, section IV-A2). Undirected edges carry
    no arrowhead.

    Parameters
    ----------
    truth : networkx.DiGraph or array-like of shape (p, p)
        The reference graph.
    learned : networkx.DiGraph or array-like of shape (p, p)
        The graph to evaluate, over the same nodes.

    Returns
    -------
    PrecisionRecallF1

    Examples
    --------
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "c"), ("b", "c")])
    >>> arrowhead_precision_recall_f1(truth, truth).f1
    1.0
    """
    if is_marked_pair(truth, learned):
        return mark_precision_recall_f1(truth, learned, "arrow")
    T, L = _as_cpdags(truth, learned)
    pt, pl = _pairs(T), _pairs(L)
    tt, tl = _matched(pt, pl)
    shared = int(((tt == tl) & (tt != 3)).sum())  # type 3 (undirected) has no arrowhead
    return _prf(shared, int((pl[1] != 3).sum()), int((pt[1] != 3).sum()))


def _skeleton_of(truth, learned):
    """The two graphs as undirected skeletons (what adjacency metrics read), PAGs included."""
    out = []
    for graph in (truth, learned):
        if is_marked(graph):
            skeleton = nx.Graph()
            skeleton.add_nodes_from(graph)
            skeleton.add_edges_from(graph.edges())
            graph = skeleton
        out.append(graph)
    return out


def mark_precision_recall_f1(truth, learned, mark: str = "arrow") -> PrecisionRecallF1:
    """Precision, recall and F1 of one kind of edge mark between two PAGs (or MAGs).

    Marks are counted at edge ends. A learned mark is a true positive when the true graph
    has the same two nodes adjacent with the same mark at the same end; precision divides by
    the learned graph's marks of that kind, recall by the true graph's. For ``"arrow"`` and
    ``"tail"`` these are Tetrad's arrowhead and tail precision and recall.

    Parameters
    ----------
    truth : networkx.DiGraph or array-like of shape (p, p)
        The reference PAG (``kind="pag"`` or ``"mag"``), or its endpoint matrix.
    learned : networkx.DiGraph or array-like of shape (p, p)
        The PAG to evaluate, over the same nodes.
    mark : {"arrow", "tail", "circle"}, default="arrow"

    Returns
    -------
    PrecisionRecallF1
        All 1.0 when neither graph has a mark of that kind.

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.graph import dag_to_pag
    >>> truth = dag_to_pag(nx.DiGraph([("L", "b"), ("L", "c"), ("a", "b"), ("d", "c")]), "L")
    >>> learned = dag_to_pag(nx.DiGraph([("a", "b"), ("c", "b"), ("d", "c")]))
    >>> mark_precision_recall_f1(truth, learned, "arrow")
    PrecisionRecallF1(precision=1.0, recall=0.5, f1=0.6666666666666666)
    """
    if not is_marked_pair(truth, learned) and isinstance(truth, nx.Graph):
        raise ValueError(
            "mark_precision_recall_f1 compares two PAGs (graph['kind'] 'pag' or 'mag'); "
            "skbn.graph.dag_to_pag gives the PAG of a DAG."
        )
    T, L, _ = aligned_marks(truth, learned)
    return _prf(*mark_counts(T, L, mark))


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

    Parameters
    ----------
    truth : networkx.DiGraph or array-like of shape (p, p)
        The reference graph.
    learned : networkx.DiGraph or array-like of shape (p, p)
        The graph to evaluate, over the same nodes.

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

    ``to_frame()`` gives the same numbers as a one-row DataFrame; ``str()`` a short table,
    which IPython also prints; a notebook shows an HTML table.

    Examples
    --------
    >>> import networkx as nx
    >>> report = structure_report(nx.DiGraph([("a", "b")]), nx.DiGraph([("a", "b")]))
    >>> report["shd"], report.to_frame().shape[0]
    (0, 1)
    """

    def to_frame(self) -> pd.DataFrame:
        """Return the report as a one-row DataFrame.

        Returns
        -------
        DataFrame
        """
        return pd.DataFrame([dict(self)])

    def _repr_html_(self) -> str:
        """An HTML table of the metrics, for Jupyter."""
        rows = "".join(
            f"<tr><th style='text-align:left'>{key}</th><td>{self._text(value)}</td></tr>"
            for key, value in self.items()
        )
        return f"<table><thead><tr><th>metric</th><th>value</th></tr></thead>{rows}</table>"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))

    @staticmethod
    def _text(value) -> str:
        if value is None:  # shd_dag: defined only between two DAGs
            return "n/a (needs two DAGs)"
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    def __str__(self) -> str:
        width = max(map(len, self))
        return "\n".join(f"{key:<{width}}  {self._text(value)}" for key, value in self.items())


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

    Two PAGs get the mark metrics instead of the CPDAG ones: ``shd`` counts pairs whose
    edge differs in presence or in a mark, and ``precision_arrowhead``, ``recall_tail``,
    ``f1_circle`` and so on count marks at edge ends (see :func:`mark_precision_recall_f1`).
    """
    # every number comes from the metric functions on the graphs as given (kinds included)
    if is_marked_pair(truth, learned):
        return _pag_report(truth, learned)
    T, L, _ = _aligned(truth, learned)
    both_dags = _is_dag(T, _kind_of(truth)) and _is_dag(L, _kind_of(learned))
    edge = precision_recall_f1(truth, learned)
    adj = adjacency_precision_recall_f1(truth, learned)
    arrow = arrowhead_precision_recall_f1(truth, learned)
    return StructureReport(
        n_nodes=int(T.shape[0]),
        n_true_edges=len(_pairs(T)[0]),
        n_learned_edges=len(_pairs(L)[0]),
        shd=shd(truth, learned),
        shd_dag=shd(truth, learned, kind="dag") if both_dags else None,
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


def _pag_report(truth, learned) -> StructureReport:
    T, L, _ = aligned_marks(truth, learned)
    report = StructureReport(
        n_nodes=int(T.shape[0]),
        n_true_edges=int(np.triu(T != 0, 1).sum()),
        n_learned_edges=int(np.triu(L != 0, 1).sum()),
        shd=shd(truth, learned),
    )
    edge = precision_recall_f1(truth, learned)
    report.update(precision=edge.precision, recall=edge.recall, f1=edge.f1)
    adj = adjacency_precision_recall_f1(truth, learned)
    report.update(
        precision_adjacency=adj.precision, recall_adjacency=adj.recall, f1_adjacency=adj.f1
    )
    for mark, name in (("arrow", "arrowhead"), ("tail", "tail"), ("circle", "circle")):
        prf = mark_precision_recall_f1(truth, learned, mark)
        report.update(
            {f"precision_{name}": prf.precision, f"recall_{name}": prf.recall, f"f1_{name}": prf.f1}
        )
    return report
