# SPDX-License-Identifier: BSD-3-Clause
"""structure_report computes what the metric functions compute, for graphs of every kind."""

import itertools

import networkx as nx
import numpy as np
import pytest

from skbn.metrics import (
    adjacency_precision_recall_f1,
    arrowhead_precision_recall_f1,
    f1_adjacency,
    f1_arrowhead,
    precision_recall_f1,
    shd,
    structure_report,
)


def _graph(edges, kind, undirected=()):
    g = nx.DiGraph(kind=kind) if kind else nx.DiGraph()
    g.add_nodes_from("abcd")
    g.add_edges_from(edges)
    for u, v in undirected:
        g.add_edges_from([(u, v), (v, u)])
    return g


CATALOGUE = {
    "chain dag": _graph([("a", "b"), ("b", "c")], "dag"),
    "chain untagged": _graph([("a", "b"), ("b", "c")], None),
    "chain as pdag": _graph([("a", "b"), ("b", "c")], "pdag"),
    "collider dag": _graph([("a", "c"), ("b", "c")], "dag"),
    "collider cpdag": _graph([("a", "c"), ("b", "c")], "cpdag"),
    "chain cpdag": _graph([], "cpdag", undirected=[("a", "b"), ("b", "c")]),
    "mixed pdag": _graph([("c", "d")], "pdag", undirected=[("a", "b")]),
    "mixed untagged": _graph([("c", "d")], None, undirected=[("a", "b")]),
    "cyclic pdag": _graph([("a", "b"), ("b", "c"), ("c", "a")], "pdag"),
    "empty": _graph([], "dag"),
    "cyclic untagged": _graph([("a", "b"), ("b", "c"), ("c", "a")], None),
    "undirected but tagged dag": _graph([], "dag", undirected=[("a", "b")]),
}
REFUSED = {"cyclic untagged", "undirected but tagged dag"}

FUNCTIONS = {
    "shd": shd,
    "precision": lambda t, g: precision_recall_f1(t, g).precision,
    "recall": lambda t, g: precision_recall_f1(t, g).recall,
    "f1": lambda t, g: precision_recall_f1(t, g).f1,
    "f1_arrowhead": f1_arrowhead,
    "precision_arrowhead": lambda t, g: arrowhead_precision_recall_f1(t, g).precision,
    "recall_arrowhead": lambda t, g: arrowhead_precision_recall_f1(t, g).recall,
}


@pytest.mark.parametrize("truth_name, learned_name", list(itertools.product(CATALOGUE, repeat=2)))
def test_report_equals_the_functions_and_refuses_the_same_graphs(truth_name, learned_name):
    truth, learned = CATALOGUE[truth_name], CATALOGUE[learned_name]
    if truth_name in REFUSED or learned_name in REFUSED:
        for fn in [structure_report, *FUNCTIONS.values()]:
            with pytest.raises(ValueError):
                fn(truth, learned)
        # the skeleton metrics read adjacencies only and take any graph
        assert 0 <= f1_adjacency(truth, learned) <= 1
        return
    report = structure_report(truth, learned)
    for key, fn in FUNCTIONS.items():
        assert report[key] == fn(truth, learned), key
    assert report["f1_adjacency"] == f1_adjacency(truth, learned)
    assert report["precision_adjacency"] == adjacency_precision_recall_f1(truth, learned).precision
    dags = {"chain dag", "chain untagged", "collider dag", "empty"}
    if truth_name in dags and learned_name in dags:
        assert report["shd_dag"] == shd(truth, learned, kind="dag")
    else:
        assert report["shd_dag"] is None
        with pytest.raises(ValueError):
            shd(truth, learned, kind="dag")


def test_the_reported_case_a_pdag_claiming_orientations():
    # a learned PDAG that orients a whole chain claims more than the chain's class allows
    truth, learned = CATALOGUE["chain dag"], CATALOGUE["chain as pdag"]
    report = structure_report(truth, learned)
    assert report["shd"] == shd(truth, learned) == 2
    assert report["f1_arrowhead"] == f1_arrowhead(truth, learned) == 0.0
    # the same arcs as a DAG are the same equivalence class
    assert structure_report(truth, CATALOGUE["chain untagged"])["shd"] == 0


def test_metric_axioms_on_the_catalogue():
    usable = [g for name, g in CATALOGUE.items() if name not in REFUSED]
    for a, b in itertools.product(usable, repeat=2):
        assert shd(a, b) == shd(b, a)
        assert shd(a, a) == 0
    for a, b, c in itertools.product(usable[:6], repeat=3):
        assert shd(a, c) <= shd(a, b) + shd(b, c)
    assert np.isclose(f1_adjacency(usable[0], usable[1]), f1_adjacency(usable[1], usable[0]))


def test_report_text_says_when_shd_dag_is_undefined():
    import networkx as nx

    from skbn.metrics import structure_report

    cpdag = nx.DiGraph([("a", "b"), ("b", "a")], kind="cpdag")
    text = str(structure_report(nx.DiGraph([("a", "b")], kind="dag"), cpdag))
    assert "shd_dag              n/a (needs two DAGs)" in text and "None" not in text
