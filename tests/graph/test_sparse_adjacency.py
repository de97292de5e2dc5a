# SPDX-License-Identifier: BSD-3-Clause
"""The graph algorithms and the metrics give the same answers on sparse and dense matrices.

Large searches hand their results around as scipy CSR matrices; every function that takes
them must agree with its dense path, which the rest of the suite checks against hand-worked
graphs and networkx.
"""

import networkx as nx
import numpy as np
import pytest
from scipy import sparse

from skbn.datasets import make_erdos_renyi_dag
from skbn.graph._array import (
    arcs_of,
    dag_to_cpdag_array,
    directed_part,
    parents_csr,
    pdag_to_dag_array,
    topological_sort_array,
    undirected_part,
)
from skbn.graph._convert import as_adjacency, from_adjacency, to_adjacency
from skbn.metrics import shd, structure_report

SEEDS = range(6)


def _random_dag(seed, p=30, edges=50):
    g = make_erdos_renyi_dag(p, edges, random_state=seed)
    return to_adjacency(g, sorted(g.nodes, key=lambda s: int(s[1:])))


def _csr(A):
    return sparse.csr_array(A)


@pytest.mark.parametrize("seed", SEEDS)
def test_dag_functions_agree_on_sparse_and_dense(seed):
    A = _random_dag(seed)
    S = _csr(A)
    np.testing.assert_array_equal(topological_sort_array(S), topological_sort_array(A))
    C = dag_to_cpdag_array(A)
    CS = dag_to_cpdag_array(S)
    assert sparse.issparse(CS)
    np.testing.assert_array_equal(CS.toarray(), C)
    for f in (directed_part, undirected_part):
        np.testing.assert_array_equal(f(_csr(C)).toarray(), f(C))
    D = pdag_to_dag_array(C)
    DS = pdag_to_dag_array(_csr(C))
    np.testing.assert_array_equal(DS.toarray(), D)
    for a, b in zip(parents_csr(S), parents_csr(A)):
        np.testing.assert_array_equal(a, b)


def test_a_cycle_and_an_undirected_edge_are_seen_in_sparse_form():
    cycle = _csr(np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=np.int8))
    assert topological_sort_array(cycle) is None
    with pytest.raises(ValueError, match="cycle"):
        dag_to_cpdag_array(cycle)
    # a chordless 4-cycle of undirected edges has no consistent extension
    square = np.zeros((4, 4), dtype=np.int8)
    for u, v in [(0, 1), (1, 2), (2, 3), (3, 0)]:
        square[u, v] = square[v, u] = 1
    assert pdag_to_dag_array(square) is None
    assert pdag_to_dag_array(_csr(square)) is None


def test_conversion_round_trips_through_sparse():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])
    S, nodes = as_adjacency(g, sparse=True)
    assert sparse.issparse(S) and nodes == ["a", "b", "c"]
    np.testing.assert_array_equal(S.toarray(), to_adjacency(g))
    back = from_adjacency(S, nodes)
    assert set(back.edges()) == set(g.edges()) and back.graph["kind"] == "pdag"
    dense, _ = as_adjacency(S)  # a sparse matrix in, a dense array out when not asked
    np.testing.assert_array_equal(dense, to_adjacency(g))
    with pytest.raises(ValueError, match="Self-loops"):
        as_adjacency(_csr(np.eye(2, dtype=np.int8)))
    with pytest.raises(ValueError, match="missing from the graph"):
        as_adjacency(g, ["a", "b", "c", "d"], sparse=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_metrics_agree_on_every_input_form(seed):
    T = _random_dag(seed)
    L = _random_dag(seed + 100)
    L[:, :5] |= L[:5, :].T  # a few undirected edges, so L is compared as a PDAG as given
    names = [f"x{j}" for j in range(T.shape[0])]
    truth_graph = from_adjacency(T, names)
    learned_graph = from_adjacency(L, names)
    reports = [
        structure_report(T, L),
        structure_report(_csr(T), _csr(L)),
        structure_report(truth_graph, learned_graph),
    ]
    assert reports[0] == reports[1] == reports[2]
    assert shd(T, L) == shd(_csr(T), L)


def test_arcs_come_in_row_major_order_from_either_form():
    A = np.array([[0, 1, 1], [1, 0, 0], [0, 1, 0]], dtype=np.int8)
    S = sparse.csc_array(A)  # column-major storage on purpose
    for a, b in zip(arcs_of(S), arcs_of(A)):
        np.testing.assert_array_equal(a, b)
