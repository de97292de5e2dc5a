# SPDX-License-Identifier: BSD-3-Clause
import itertools

import networkx as nx
import numpy as np
import pytest

from skbn.datasets import load_network, make_linear_gaussian, make_problem
from skbn.learners import ExactSearch, OrderMCMC
from skbn.metrics import shd
from skbn.scores import BDeu, BGe


def test_recovers_small_gaussian_network_at_large_n():
    X, dag = make_problem("asia", n_samples=20_000, random_state=0)
    est = OrderMCMC(n_iter=4000, random_state=0).fit(X)
    assert shd(dag, est.graph_) == 0
    assert est.graph_.graph["kind"] == "dag"
    # the PC skeleton bounds the candidate parents
    for v, parents in est.candidate_parents_.items():
        assert set(est.graph_.predecessors(v)) <= set(parents)


@pytest.mark.slow
def test_finds_the_exact_optimum_on_sachs():
    network = load_network("sachs")
    X = network.sample(20_000, random_state=0)
    est = OrderMCMC(BDeu(), n_iter=4000, random_state=1).fit(X)
    exact = ExactSearch(BDeu()).fit(X)
    assert est.score_ == pytest.approx(exact.score_, abs=1e-6)
    assert shd(network.graph, est.graph_) == 0
    assert BDeu().score_graph(est.graph_, X) == pytest.approx(est.score_)


def test_chain_is_reproducible():
    X, _ = make_problem("asia", n_samples=2000, random_state=0)
    a = OrderMCMC(n_iter=800, random_state=3).fit(X)
    b = OrderMCMC(n_iter=800, random_state=3).fit(X)
    c = OrderMCMC(n_iter=800, random_state=4).fit(X)
    np.testing.assert_array_equal(a.trace_, b.trace_)
    np.testing.assert_array_equal(a.edge_probabilities_, b.edge_probabilities_)
    assert not np.array_equal(a.trace_, c.trace_)
    assert 0 < a.acceptance_rate_ <= 1


def _linear_extensions(A):
    p = len(A)
    return sum(
        all(pos[u] < pos[v] for u, v in zip(*np.nonzero(A)))
        for pos in (np.argsort(perm) for perm in itertools.permutations(range(p)))
    )


def test_edge_posterior_matches_exact_order_modular_posterior():
    # order MCMC samples DAGs with weight exp(score) * (number of orders the DAG fits)
    dag = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "d")])
    X = make_linear_gaussian(dag, random_state=2).sample(30, random_state=3)
    score = BGe()
    bound = score.bind(X)
    p = 4
    weights, arcs = [], []
    pairs = list(itertools.combinations(range(p), 2))
    for states in itertools.product((0, 1, 2), repeat=len(pairs)):
        A = np.zeros((p, p), dtype=int)
        for (u, v), s in zip(pairs, states):
            if s:
                A[(u, v) if s == 1 else (v, u)] = 1
        if not nx.is_directed_acyclic_graph(nx.DiGraph(A)):
            continue
        total = sum(bound.local_score(j, np.flatnonzero(A[:, j])) for j in range(p))
        weights.append((total, _linear_extensions(A)))
        arcs.append(A)
    log_w = np.array([s + np.log(k) for s, k in weights])
    w = np.exp(log_w - log_w.max())
    w /= w.sum()
    exact = np.tensordot(w, np.array(arcs), axes=1)
    est = OrderMCMC(score, search_space=None, n_iter=60_000, thin=3, random_state=0).fit(X)
    assert np.abs(est.edge_probabilities_ - exact).max() < 0.02


def test_too_many_candidate_parents_is_refused():
    X, _ = make_problem("alarm", n_samples=200, random_state=0)
    with pytest.raises(ValueError, match="possible parents.*max_indegree"):
        OrderMCMC(search_space=None, n_iter=10).fit(X)
