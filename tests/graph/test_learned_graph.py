# SPDX-License-Identifier: BSD-3-Clause
"""Learned graphs, reports and tables that show themselves in a notebook."""

import pickle

import networkx as nx
import numpy as np
import pytest

from skbn.datasets import load_network
from skbn.graph import LearnedGraph, from_adjacency
from skbn.graph._learned import MAX_DRAWN_NODES
from skbn.learners import HillClimb, PCStable
from skbn.metrics import structure_report


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(2000, random_state=0)


def test_a_learned_graph_is_a_digraph_that_counts_its_edges(asia):
    graph = PCStable().fit(asia).graph_
    assert isinstance(graph, LearnedGraph) and isinstance(graph, nx.DiGraph)
    undirected = sum(1 for u, v in graph.edges if graph.has_edge(v, u)) // 2
    directed = graph.number_of_edges() - 2 * undirected
    assert repr(graph) == (
        f"<LearnedGraph {graph.graph['kind']}: 8 nodes, {directed + undirected} edges "
        f"({directed} directed, {undirected} undirected)>"
    )
    again = pickle.loads(pickle.dumps(graph))
    assert type(again) is LearnedGraph and set(again.edges) == set(graph.edges)
    assert type(graph.copy()) is LearnedGraph


def test_a_notebook_draws_it_as_svg(asia):
    graph = HillClimb().fit(asia).graph_
    svg = graph._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    big = from_adjacency(np.zeros((MAX_DRAWN_NODES + 1,) * 2, dtype=np.int8), kind="dag")
    assert big._repr_svg_() is None  # too large to draw inline: the text repr instead


def test_a_report_is_an_html_table(asia):
    network = load_network("asia")
    report = structure_report(network.graph, HillClimb().fit(asia).graph_)
    html = report._repr_html_()
    assert html.count("<tr>") == len(report) + 1
    assert f"<td>{report['f1']:.3f}</td>" in html and f"<td>{report['shd']}</td>" in html


def test_a_table_has_its_labels():
    network = load_network("asia")
    for node in network.nodes:
        frame = network.cpt_frame(node)
        assert list(frame.columns) == list(network.states[node])
        assert (
            list(frame.index.names)[: len(network.parents[node])] == list(network.parents[node])
            or not network.parents[node]
        )
        np.testing.assert_allclose(frame.sum(axis=1), 1.0)
        np.testing.assert_array_equal(frame.to_numpy().ravel(), np.ravel(network.cpts[node]))
    # a labelled row is the table's entry for those parent states
    frame = network.cpt_frame("either")
    lung, tub = network.parents["either"]
    i, j = network.states[lung].index("yes"), network.states[tub].index("no")
    np.testing.assert_array_equal(frame.loc[("yes", "no")], network.cpts["either"][i, j])
    with pytest.raises(KeyError, match="'nope' is not a node"):
        network.cpt_frame("nope")
