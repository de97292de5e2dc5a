# SPDX-License-Identifier: BSD-3-Clause
"""Checks every skbn structure learner must pass, beyond scikit-learn's own."""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from skbn.constraints import CONSTRAINT_KINDS, Tiers
from skbn.graph import is_cpdag, is_dag, to_adjacency

__all__ = ["check_edge_constraints", "check_structure_learner"]


def _edges(graph) -> set:
    return set(graph.edges())


def check_structure_learner(estimator, X) -> None:
    """Run skbn's learner checks on ``X`` (a DataFrame); raise AssertionError on failure.

    - ``graph_`` is a DiGraph over ``feature_names_in_`` in column order, of the kind it
      declares (an acyclic DAG or a valid CPDAG);
    - the same ``random_state`` gives the same graph, and refitting gives the same graph;
    - ``score_samples`` gives one finite log-likelihood per row;
    - every kind of background knowledge is honoured or refused
      (:func:`check_edge_constraints`).
    """
    names = list(X.columns)
    est = clone(estimator).fit(X)
    graph = est.graph_
    assert list(graph.nodes) == names == list(est.feature_names_in_), "graph_ nodes"
    kind = graph.graph.get("kind")
    if kind == "pag":
        _check_pag_learner(estimator, X, est)
        return
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
    check_edge_constraints(estimator, X, fitted=est)


def check_edge_constraints(estimator, X, fitted=None) -> None:
    """Each kind of background knowledge is honoured if declared, refused with a clear error if not.

    The learner's ``_constraint_kinds`` says what it honours. For each of the four kinds
    (:mod:`skbn.constraints`) whose parameter the learner has, the check fits with that kind
    alone and asserts, on ``graph_`` (an undirected edge counts as both of its arcs):

    - forbidden: two arcs of the unconstrained result are forbidden and do not appear;
    - allowed: only the unconstrained result's arcs, less one, are allowed; no other appears;
    - required: an arc absent from the unconstrained result is required and appears directed;
    - tiers: the columns split into two tiers, arcs within the first forbidden; no arc points
      back from the second tier or lies within the first.

    A kind the learner does not declare must raise a ValueError naming the parameter.
    """
    params = estimator.get_params(deep=False)
    names = list(X.columns)
    p = len(names)
    if fitted is None:
        fitted = clone(estimator).fit(X)
    A = to_adjacency(fitted.graph_, names).astype(bool)
    used = [(names[i], names[j]) for i, j in zip(*np.nonzero(A))]
    absent = [(names[i], names[j]) for i, j in zip(*np.nonzero(~A & ~A.T & ~np.eye(p, dtype=bool)))]
    honours = getattr(estimator, "_constraint_kinds", frozenset())
    first, second = names[: p // 2], names[p // 2 :]
    settings = {
        "forbidden": used[:2],
        "allowed": used[1:] + absent[:2],
        "required": absent[:1],
        "tiers": Tiers([first, second], forbid_within=[0]),
    }
    for kind, parameter in CONSTRAINT_KINDS.items():
        if parameter not in params or not settings[kind]:
            continue
        value = settings[kind]
        est = clone(estimator).set_params(**{parameter: value})
        if kind not in honours:
            try:
                est.fit(X)
            except ValueError as exc:
                assert parameter in str(exc), f"refusal of {parameter} does not name it: {exc}"
                continue
            raise AssertionError(f"{parameter} is neither honoured nor refused")
        graph = est.fit(X).graph_
        arcs = set(graph.edges())
        if kind == "forbidden":
            bad = arcs & set(value)
            assert not bad, f"forbidden arcs used: {sorted(bad)}"
        elif kind == "allowed":
            bad = arcs - set(value)
            assert not bad, f"arcs outside allowed_edges used: {sorted(bad)}"
        elif kind == "required":
            for u, v in value:
                assert graph.has_edge(u, v) and not graph.has_edge(v, u), (
                    f"required arc {u}->{v} missing or undirected"
                )
        else:
            later = set(second)
            back = [(u, v) for u, v in arcs if u in later and v in set(first)]
            within = [(u, v) for u, v in arcs if u in set(first) and v in set(first)]
            assert not back, f"arcs pointing back across tiers: {sorted(back)}"
            assert not within, f"arcs within a tier that forbids them: {sorted(within)}"


def _marks(graph, names):
    from skbn.graph import endpoint_matrix

    return endpoint_matrix(graph, names)[0]


def _check_pag_learner(estimator, X, est) -> None:
    """Check a PAG learner (the PAG part of :func:`check_structure_learner`).

    ``graph_`` is a PAG (both arcs of each edge, a mark at each head), refitting gives the
    same marks, there is no likelihood (no ``score_samples``), and background knowledge is
    honoured in PAG terms: a forbidden arc ``u -> v`` leaves no edge or an arrowhead at
    ``u``; a required arc is ``u --> v``; no edge lies within a tier that forbids them, and
    an edge across tiers has an arrowhead at its later end.
    """
    names = list(X.columns)
    M = _marks(est.graph_, names)
    again = clone(estimator).fit(X)
    assert np.array_equal(_marks(again.graph_, names), M), "not deterministic"
    assert not hasattr(est, "score_samples"), "a PAG learner has no likelihood"
    pairs = np.argwhere(np.triu(M != 0, 1))
    absent = np.argwhere(np.triu((M == 0) & ~np.eye(len(names), dtype=bool), 1))
    params = estimator.get_params(deep=False)
    honours = getattr(estimator, "_constraint_kinds", frozenset())
    first = names[: len(names) // 2]
    for kind, parameter in CONSTRAINT_KINDS.items():
        if parameter not in params or kind not in honours or kind == "allowed":
            continue
        if kind == "forbidden" and len(pairs):
            value = [(names[i], names[j]) for i, j in pairs[:2].tolist()]
        elif kind == "required" and len(absent):
            value = [(names[absent[0][0]], names[absent[0][1]])]
        elif kind == "tiers":
            value = Tiers([first, names[len(names) // 2 :]], forbid_within=[0])
        else:
            continue
        got = _marks(clone(estimator).set_params(**{parameter: value}).fit(X).graph_, names)
        index = {n: k for k, n in enumerate(names)}
        if kind == "forbidden":
            for u, v in value:
                i, j = index[u], index[v]
                assert got[i, j] == 0 or got[j, i] == 2, (
                    f"forbidden {u}->{v} has no arrowhead at {u}"
                )
        elif kind == "required":
            for u, v in value:
                i, j = index[u], index[v]
                assert got[i, j] == 2 and got[j, i] == 3, (
                    f"required arc {u}->{v} is not {u} --> {v}"
                )
        else:
            early = [index[n] for n in first]
            late = [k for k in range(len(names)) if k not in early]
            assert not got[np.ix_(early, early)].any(), "an edge within a tier forbidding them"
            for i in late:
                for j in early:
                    if got[i, j]:
                        assert got[j, i] == 2, (
                            "an edge across tiers without an arrowhead at its later end"
                        )
