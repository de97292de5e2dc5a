# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pytest
from hypothesis import given

from skbn.graph import PartialGraph, dag_to_cpdag
from skbn.metrics import (
    f1_adjacency,
    f1_arrowhead,
    partial_hamming_distance,
    precision_recall_f1,
    shd,
    structure_report,
)
from tests.conftest import random_dags


def _pad(A, p):
    B = np.zeros((p, p), dtype=np.int8)
    B[: A.shape[0], : A.shape[0]] = A
    return B


@given(
    random_dags(min_nodes=5, max_nodes=5),
    random_dags(min_nodes=5, max_nodes=5),
    random_dags(min_nodes=5, max_nodes=5),
)
def test_shd_is_a_metric_on_equivalence_classes(A, B, C):
    for kind in ("cpdag", "dag"):
        assert shd(A, A, kind=kind) == 0
        assert shd(A, B, kind=kind) == shd(B, A, kind=kind)
        assert shd(A, C, kind=kind) <= shd(A, B, kind=kind) + shd(B, C, kind=kind)
    same_class = np.array_equal(dag_to_cpdag(A), dag_to_cpdag(B))
    assert (shd(A, B) == 0) == same_class


@given(random_dags(max_nodes=8))
def test_a_graph_scores_perfectly_against_itself(A):
    assert f1_adjacency(A, A) == 1.0
    assert f1_arrowhead(A, A) == 1.0
    assert precision_recall_f1(A, A) == (1.0, 1.0, 1.0)
    report = structure_report(A, A)
    assert report["shd"] == 0 and report["shd_dag"] == 0


@given(random_dags(max_nodes=8), random_dags(max_nodes=8))
def test_f1_scores_lie_in_unit_interval_and_adjacency_ignores_orientation(A, B):
    p = max(A.shape[0], B.shape[0])
    A, B = _pad(A, p), _pad(B, p)
    for f in (f1_adjacency, f1_arrowhead):
        assert 0.0 <= f(A, B) <= 1.0
        assert f(A, B) == pytest.approx(f(B, A))
    assert f1_adjacency(A, B) == f1_adjacency(A.T, B)


def test_hand_computed_metrics():
    # truth: a -> c <- b, c -> d   (CPDAG: all directed)
    truth = nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")])
    # learned: a -> c, c -> b, c -> d, a -> d   (CPDAG: every edge undirected; no collider)
    learned = nx.DiGraph([("a", "c"), ("c", "b"), ("c", "d"), ("a", "d")])
    # pair types differ on a-c, b-c, c-d (undirected vs directed) and a-d (extra): 4
    assert shd(truth, learned) == 4
    # as DAGs: c->b reversed (1), a->d extra (1): 2
    assert shd(truth, learned, kind="dag") == 2
    # adjacencies: truth {ac, bc, cd}, learned {ac, bc, cd, ad}: TP 3, FP 1, FN 0
    assert f1_adjacency(truth, learned) == pytest.approx(6 / 7)
    # arrowheads: truth has 3, learned CPDAG has none
    assert f1_arrowhead(truth, learned) == 0.0
    prf = precision_recall_f1(truth, learned)
    assert prf == (0.0, 0.0, 0.0)
    report = structure_report(truth, learned)
    assert report["n_true_edges"] == 3 and report["n_learned_edges"] == 4
    assert report["precision_adjacency"] == pytest.approx(0.75)
    assert report["recall_adjacency"] == 1.0
    frame = report.to_frame()
    assert frame.shape == (1, 14) and frame.loc[0, "shd"] == 4
    assert "f1_adjacency" in str(report)


def test_arrowhead_counts_direction_disagreements():
    truth = nx.DiGraph([("a", "c"), ("b", "c")])
    learned = nx.DiGraph([("a", "c"), ("b", "c"), ("d", "c")])
    learned.add_node("d")
    truth.add_node("d")
    # learned arrowheads a->c, b->c, d->c: TP 2, FP 1, FN 0
    assert f1_arrowhead(truth, learned) == pytest.approx(4 / 5)


def test_empty_graphs_agree_perfectly():
    empty = np.zeros((3, 3))
    assert f1_adjacency(empty, empty) == 1.0 and f1_arrowhead(empty, empty) == 1.0
    assert precision_recall_f1(empty, [[0, 1, 0], [0, 0, 0], [0, 0, 0]]).precision == 0.0


def test_partial_hamming_distance_counts_only_known_pairs():
    truth = nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")])
    learned = nx.DiGraph([("a", "c"), ("c", "b"), ("c", "d")])
    full = PartialGraph.from_graph(dag_to_cpdag(truth))
    assert partial_hamming_distance(learned, full) == shd(truth, learned)
    known = np.zeros((4, 4), dtype=bool)
    nodes = list(truth.nodes)  # a, c, b, d
    known[nodes.index("a"), nodes.index("b")] = True  # only the pair a-b, absent in both
    part = PartialGraph.from_graph(dag_to_cpdag(truth), known=known)
    assert part.n_pairs == 1 and part.relative_size == pytest.approx(1 / 6)
    assert part.n_connected_pairs == 0
    assert partial_hamming_distance(learned, part) == 0
    assert part.pairs() == [("a", "b", "none")]


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: shd(nx.DiGraph([("a", "b")]), nx.DiGraph([("a", "c")])), "different node sets"),
        (lambda: shd(np.zeros((2, 2)), np.zeros((3, 3))), "3 nodes"),
        (lambda: shd([[0, 1], [1, 0]], np.zeros((2, 2)), kind="dag"), "kind='cpdag'"),
        (lambda: shd(np.zeros((2, 2)), np.zeros((2, 2)), kind="pdag"), "kind must be"),
        (lambda: f1_arrowhead([[0, 1, 0], [0, 0, 1], [1, 0, 0]], np.zeros((3, 3))), "cycle"),
        (lambda: partial_hamming_distance(np.zeros((2, 2)), np.zeros((2, 2))), "PartialGraph"),
    ],
)
def test_metric_errors(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()
