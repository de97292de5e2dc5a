# SPDX-License-Identifier: BSD-3-Clause
"""Checks every skbn structure learner must pass, beyond scikit-learn's own."""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from skbn.graph import is_cpdag, is_dag, to_adjacency

__all__ = ["check_structure_learner"]


def _edges(graph) -> set:
    return set(graph.edges())


def check_structure_learner(estimator, X) -> None:
    """Run skbn's learner checks on discrete data ``X`` (a DataFrame); raise on failure.

    - ``graph_`` is a DiGraph over ``feature_names_in_`` in column order, of the kind it
      declares (an acyclic DAG or a valid CPDAG);
    - the same ``random_state`` gives the same graph, and refitting gives the same graph;
    - ``forbidden_edges`` and ``required_edges`` are respected where the learner takes them;
    - ``score_samples`` gives one finite log-likelihood per row.
    """
    names = list(X.columns)
    est = clone(estimator).fit(X)
    graph = est.graph_
    assert list(graph.nodes) == names == list(est.feature_names_in_), "graph_ nodes"
    kind = graph.graph.get("kind")
    assert kind in ("dag", "cpdag", "pdag"), f"graph_ kind {kind!r}"
    if kind == "dag":
        assert is_dag(graph), "graph_ says dag but is not acyclic"
    if kind == "cpdag":
        assert is_cpdag(graph), "graph_ says cpdag but is not a CPDAG"
    again = clone(estimator).fit(X)
    assert _edges(again.graph_) == _edges(graph), "not deterministic under random_state"
    assert _edges(est.fit(X).graph_) == _edges(graph), "refitting changed the result"
    rows = est.score_samples(X.iloc[:10])
    assert rows.shape == (10,) and np.all(np.isfinite(rows)), "score_samples"
    params = estimator.get_params()
    if "forbidden_edges" in params and "required_edges" in params:
        A = to_adjacency(graph, names)
        arcs = list(zip(*np.nonzero(A)))
        forbidden = [(names[i], names[j]) for i, j in arcs[:2]]
        required = [(names[0], names[-1])] if not A[-1, 0] else [(names[-1], names[0])]
        required = [e for e in required if e not in forbidden]
        constrained = (
            clone(estimator).set_params(forbidden_edges=forbidden, required_edges=required).fit(X)
        )
        for u, v in forbidden:
            assert not constrained.graph_.has_edge(u, v), f"forbidden arc {u}->{v} used"
        for u, v in required:
            assert constrained.graph_.has_edge(u, v), f"required arc {u}->{v} missing"
