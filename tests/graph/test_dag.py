# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pytest
from hypothesis import given

from skbn.graph import (
    as_adjacency,
    directed_edges,
    from_adjacency,
    is_dag,
    markov_blanket,
    to_adjacency,
    topological_order,
    undirected_edges,
    v_structures,
)
from tests.conftest import random_dags


@given(random_dags(max_nodes=12))
def test_topological_order_puts_parents_first(A):
    order = topological_order(A)
    position = {name: k for k, name in enumerate(order)}
    names = [f"x{j}" for j in range(A.shape[0])]
    for i, j in zip(*np.nonzero(A)):
        assert position[names[i]] < position[names[j]]
    assert is_dag(A)


@given(random_dags(max_nodes=9))
def test_v_structures_agree_with_networkx(A):
    g = from_adjacency(A)
    ours = {(a, c, b) for a, c, b in v_structures(g)}
    theirs = {(a, c, b) if a < b else (b, c, a) for a, c, b in nx.dag.v_structures(g)}
    # networkx orders parents by iteration; compare as unordered parent pairs
    assert {(frozenset((a, b)), c) for a, c, b in ours} == {
        (frozenset((a, b)), c) for a, c, b in theirs
    }


def test_conversion_round_trip_and_node_order():
    g = nx.DiGraph([("b", "a"), ("a", "c"), ("c", "a")])
    A = to_adjacency(g, ["a", "b", "c"])
    np.testing.assert_array_equal(A, [[0, 0, 1], [1, 0, 0], [1, 0, 0]])
    back = from_adjacency(A, ["a", "b", "c"])
    assert set(back.edges()) == set(g.edges()) and back.graph["kind"] == "pdag"
    assert directed_edges(g) == [("b", "a")]
    assert undirected_edges(g) == [("a", "c")]
    assert from_adjacency([[0, 1], [0, 0]]).graph["kind"] == "dag"
    assert from_adjacency([[0, 1], [1, 0]], kind="cpdag").graph["kind"] == "cpdag"


def test_undirected_networkx_graph_becomes_two_arcs():
    A, nodes = as_adjacency(nx.Graph([("u", "v")]))
    np.testing.assert_array_equal(A, [[0, 1], [1, 0]])
    assert nodes == ["u", "v"]


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: to_adjacency(nx.DiGraph([("a", "b")]), ["a", "c"]), "not expected.*'b'"),
        (lambda: to_adjacency(nx.DiGraph([("a", "a")])), "Self-loops"),
        (lambda: from_adjacency(np.zeros((2, 3))), "square"),
        (lambda: from_adjacency([[1, 0], [0, 0]]), "Self-loops"),
        (lambda: from_adjacency(np.zeros((2, 2)), ["a"]), "1 node names"),
        (lambda: from_adjacency(np.zeros((2, 2)), ["a", "a"]), "unique"),
        (lambda: from_adjacency(np.zeros((2, 2)), kind="tree"), "kind must be"),
        (lambda: as_adjacency("a->b"), "networkx graph"),
        (lambda: topological_order(np.array([[0, 1], [1, 0]])), "not a DAG"),
        (lambda: markov_blanket(nx.DiGraph([("a", "b")]), "z"), "'z' is not in"),
    ],
)
def test_graph_errors(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_markov_blanket_of_asia_like_graph():
    g = nx.DiGraph(
        [
            ("asia", "tub"),
            ("tub", "either"),
            ("lung", "either"),
            ("smoke", "lung"),
            ("either", "xray"),
            ("either", "dysp"),
            ("bronc", "dysp"),
            ("smoke", "bronc"),
        ]
    )
    assert markov_blanket(g, "either") == {"tub", "lung", "xray", "dysp", "bronc"}
    assert markov_blanket(g, "asia") == {"tub"}
    # cross-check against the moral graph: the blanket is the node's moral neighbourhood
    moral = nx.moral_graph(g)
    for node in g:
        assert markov_blanket(g, node) == set(moral.neighbors(node))
