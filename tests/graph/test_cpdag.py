# SPDX-License-Identifier: BSD-3-Clause
"""Markov equivalence: CPDAGs checked against brute-force enumeration and Meek's theorem."""

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skbn.graph import (
    NoExtensionError,
    dag_to_cpdag,
    from_adjacency,
    is_cpdag,
    is_dag,
    meek_orient,
    pdag_to_dag,
    skeleton,
    to_cpdag,
    to_dag,
    v_structures,
)
from skbn.graph._array import pair_types, v_structures_array
from tests.conftest import random_dags


def _equivalence_class(A):
    """Every DAG with A's skeleton and v-structures (Verma & Pearl), by enumeration."""
    p = A.shape[0]
    pairs = [(i, j) for i in range(p) for j in range(i + 1, p) if A[i, j] or A[j, i]]
    target = set(v_structures_array(A))
    members = []
    for bits in itertools.product((0, 1), repeat=len(pairs)):
        B = np.zeros_like(A)
        for (i, j), b in zip(pairs, bits):
            if b:
                B[i, j] = 1
            else:
                B[j, i] = 1
        if is_dag(B) and set(v_structures_array(B)) == target:
            members.append(B)
    return members


def _covered_reversal(A, rng):
    """Reverse one covered arc (pa(y) = pa(x) + {x}), which keeps the equivalence class."""
    arcs = [
        (x, y)
        for x, y in zip(*np.nonzero(A))
        if set(np.flatnonzero(A[:, y])) == set(np.flatnonzero(A[:, x])) | {x}
    ]
    if not arcs:
        return A
    x, y = arcs[rng.randint(len(arcs))]
    B = A.copy()
    B[x, y], B[y, x] = 0, 1
    return B


@given(random_dags(max_nodes=6))
def test_cpdag_matches_brute_force_equivalence_class(A):
    members = _equivalence_class(A)
    assert any(np.array_equal(M, A) for M in members)
    C = dag_to_cpdag(A)
    # An arc is directed in the CPDAG exactly when every member has it.
    compelled = np.logical_and.reduce([M.astype(bool) for M in members])
    union = np.logical_or.reduce([M.astype(bool) for M in members])
    np.testing.assert_array_equal(C.astype(bool), union)
    np.testing.assert_array_equal((C & (1 - C.T)).astype(bool), compelled)


@given(random_dags(max_nodes=9))
def test_cpdag_is_idempotent_and_extension_stays_in_class(A):
    C = dag_to_cpdag(A)
    D = to_dag(C)
    assert is_dag(D)
    np.testing.assert_array_equal(dag_to_cpdag(D), C)
    np.testing.assert_array_equal(to_cpdag(C), C)
    assert is_cpdag(C)


@given(random_dags(max_nodes=9), st.integers(0, 2**31 - 1))
def test_equivalent_dags_share_cpdag_skeleton_and_v_structures(A, seed):
    rng = np.random.RandomState(seed)
    B = A
    for _ in range(5):
        B = _covered_reversal(B, rng)
    np.testing.assert_array_equal(dag_to_cpdag(A), dag_to_cpdag(B))
    assert set(v_structures_array(A)) == set(v_structures_array(B))
    np.testing.assert_array_equal(A | A.T, B | B.T)


@given(random_dags(max_nodes=9))
def test_meek_rules_on_the_pattern_give_the_cpdag(A):
    """Meek (1995): skeleton + v-structures closed under R1-R3 is the CPDAG."""
    pattern = (A | A.T).astype(np.int8)
    for a, c, b in v_structures_array(A):
        pattern[c, a] = pattern[c, b] = 0
    np.testing.assert_array_equal(meek_orient(pattern), dag_to_cpdag(A))


def test_non_equivalent_dags_have_different_cpdags(chain, collider):
    assert not np.array_equal(
        pair_types(dag_to_cpdag(nx.to_numpy_array(chain, dtype=np.int8))),
        pair_types(dag_to_cpdag(nx.to_numpy_array(collider, dtype=np.int8))),
    )


def test_networkx_in_networkx_out(collider):
    C = dag_to_cpdag(collider)
    assert isinstance(C, nx.DiGraph) and C.graph["kind"] == "cpdag"
    assert list(C.nodes) == list(collider.nodes)
    D = pdag_to_dag(C)
    assert D.graph["kind"] == "dag"
    assert v_structures(D) == [("a", "c", "b")]


def test_undirected_four_cycle_has_no_extension():
    cycle = nx.Graph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")])
    A = nx.to_numpy_array(cycle, dtype=np.int8)
    with pytest.raises(NoExtensionError, match="no consistent DAG extension"):
        pdag_to_dag(A)
    assert not is_cpdag(A)
    with pytest.raises(ValueError):
        to_cpdag(A)


def test_directed_cycle_is_not_a_dag():
    A = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
    assert not is_dag(A)
    with pytest.raises(ValueError, match="not a DAG"):
        dag_to_cpdag(A)
    with pytest.raises(ValueError, match="no consistent"):
        pdag_to_dag(A)


def test_extension_keeps_directed_arcs_and_adds_no_v_structure():
    # a -> b - c, plus d - c: the extension must orient b -> c (else a new collider at b).
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b"), ("d", "c"), ("c", "d")])
    D = pdag_to_dag(g)
    assert D.has_edge("a", "b") and D.has_edge("b", "c")
    assert v_structures(D) == []


def test_meek_rule_three_and_four():
    # R3: a - c -> b, a - d -> b, a - b, c and d non-adjacent  =>  a -> b
    A = from_adjacency(np.zeros((4, 4)), ["a", "b", "c", "d"])
    A.add_edges_from(
        [
            ("a", "c"),
            ("c", "a"),
            ("a", "d"),
            ("d", "a"),
            ("a", "b"),
            ("b", "a"),
            ("c", "b"),
            ("d", "b"),
        ]
    )
    out = meek_orient(A)
    assert out.has_edge("a", "b") and not out.has_edge("b", "a")
    # R4: a - c -> d -> b, a - b, a - d, c and b non-adjacent  =>  a -> b
    g = nx.DiGraph()
    g.add_edges_from(
        [
            ("a", "c"),
            ("c", "a"),
            ("c", "d"),
            ("d", "b"),
            ("a", "b"),
            ("b", "a"),
            ("a", "d"),
            ("d", "a"),
        ]
    )
    out = meek_orient(g)
    assert out.has_edge("a", "b") and not out.has_edge("b", "a")


def test_skeleton_of_cpdag_equals_skeleton_of_dag(collider):
    assert set(map(frozenset, skeleton(dag_to_cpdag(collider)).edges())) == set(
        map(frozenset, skeleton(collider).edges())
    )
