# SPDX-License-Identifier: BSD-3-Clause
"""Tetrad's text format and the causal-learn / Tetrad converters, against stored Tetrad text."""

import networkx as nx
import numpy as np
import pytest

from skbn.graph import (
    dag_to_cpdag,
    dag_to_pag,
    endpoint_matrix,
    from_causallearn,
    from_tetrad,
    marked_edges,
    parse_tetrad_text,
    read_graph,
    to_adjacency,
    to_causallearn,
    to_tetrad,
    to_tetrad_text,
    write_graph,
)
from skbn.graph._pag import parse_marked_edges
from tests.data import load_oracle

CASES = load_oracle("tetrad_text_oracle")


def _dag(case):
    dag = nx.DiGraph()
    dag.add_nodes_from(case["nodes"])
    dag.add_edges_from(map(tuple, case["dag"]))
    return dag


def _same_arcs(a, b, nodes):
    return np.array_equal(to_adjacency(a, nodes), to_adjacency(b, nodes))


def test_reads_what_tetrad_writes_of_dags_cpdags_and_pags():
    for case in CASES:
        dag, nodes = _dag(case), case["nodes"]
        read = parse_tetrad_text(case["dag_text"])
        assert read.graph["kind"] == "dag" and _same_arcs(read, dag, nodes)
        assert sorted(n for n, latent in read.nodes(data="latent") if latent) == case["latents"]
        cpdag = parse_tetrad_text(case["cpdag_text"])
        A = to_adjacency(cpdag, nodes)
        assert cpdag.graph["kind"] == ("cpdag" if (A & A.T).any() else "dag")
        assert _same_arcs(cpdag, dag_to_cpdag(dag), nodes), f"case {case['seed']}"
        pag = parse_tetrad_text(case["pag_text"])
        observed = [n for n in nodes if n not in case["latents"]]
        tetrad_edges = [
            line.split(". ", 1)[1] for line in case["pag_text"].splitlines() if ". " in line
        ]
        M, _ = endpoint_matrix(pag, observed)
        np.testing.assert_array_equal(M, parse_marked_edges(tetrad_edges, observed))


def test_tetrad_reads_skbn_text_as_skbn_means_it():
    for case in CASES:
        pag = dag_to_pag(_dag(case), case["latents"])
        assert to_tetrad_text(pag) == case["skbn_pag_text"]
        observed = sorted(pag)
        M, _ = endpoint_matrix(pag, observed)
        np.testing.assert_array_equal(parse_marked_edges(case["tetrad_read_skbn_pag"], observed), M)


@pytest.mark.parametrize(
    "graph",
    [
        nx.DiGraph([("a", "b"), ("b", "c")], kind="dag"),
        nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")], kind="pdag"),
        "pag",
    ],
    ids=["dag", "pdag", "pag"],
)
def test_text_file_and_causal_learn_round_trips(graph, tmp_path):
    if graph == "pag":
        case = CASES[1]
        graph = dag_to_pag(_dag(case), case["latents"])
    path = tmp_path / "g.txt"
    write_graph(graph, path)
    back = read_graph(path)
    nodes = list(graph)
    if graph.graph["kind"] == "pag":
        assert marked_edges(back, nodes) == marked_edges(graph, nodes)
        assert marked_edges(from_causallearn(to_causallearn(graph)), nodes) == marked_edges(
            graph, nodes
        )
    else:
        assert back.graph["kind"] == graph.graph["kind"] and _same_arcs(back, graph, nodes)
        assert _same_arcs(from_causallearn(to_causallearn(graph)), graph, nodes)


def test_causal_learn_graph_ends_are_skbn_marks():
    # causal-learn's own FCI result converts mark for mark: its matrix graph[i, j] is the
    # endpoint at i (-1 tail, 1 arrowhead, 2 circle)
    pytest.importorskip("causallearn")
    case = CASES[1]
    pag = dag_to_pag(_dag(case), case["latents"])
    G = to_causallearn(pag)
    names = [n.get_name() for n in G.get_nodes()]
    M, _ = endpoint_matrix(pag, names)
    code = {-1: 3, 1: 2, 2: 1, 0: 0}  # causal-learn's endpoint at i -> skbn's mark at i
    theirs = np.vectorize(code.get)(np.asarray(G.graph)).T
    np.testing.assert_array_equal(theirs, M)


def test_bad_names_and_bad_text_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="'a b' cannot be written in Tetrad's text format"):
        to_tetrad_text(nx.DiGraph([("a b", "c")]))
    with pytest.raises(ValueError, match="no 'Graph Nodes:' line"):
        parse_tetrad_text("a --> b")
    with pytest.raises(ValueError, match="names 'z', not in 'Graph Nodes:'"):
        parse_tetrad_text("Graph Nodes:\na;b\n\nGraph Edges:\n1. a --> z\n")
    with pytest.raises(ValueError, match="cannot be a dag"):
        parse_tetrad_text("Graph Nodes:\na;b\n\nGraph Edges:\n1. a o-> b\n", kind="dag")


def test_tetrad_objects_need_a_running_jvm_or_convert_both_ways():
    try:
        import jpype
    except ImportError:
        jpype = None
    if jpype is None or not jpype.isJVMStarted():
        with pytest.raises(ImportError, match="start a JVM with Tetrad's jar"):
            to_tetrad(nx.DiGraph([("a", "b")]))
        return
    case = CASES[1]
    pag = dag_to_pag(_dag(case), case["latents"])
    assert marked_edges(from_tetrad(to_tetrad(pag))) == marked_edges(pag)
