# SPDX-License-Identifier: BSD-3-Clause
import functools
import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network, make_linear_gaussian
from skbn.learners import ExactSearch, HillClimb
from skbn.learners._exact import exact_search_memory
from skbn.scores import (
    AIC,
    BIC,
    EBIC,
    FNML,
    K2,
    BDeu,
    BGe,
    GaussianAIC,
    GaussianBIC,
    LogLikelihood,
)


@functools.cache
def all_dags(p):
    """Every DAG on p labelled nodes, as adjacency arrays (543 for p = 4, 29281 for p = 5)."""
    return list(_dags(p))


def _dags(p):
    pairs = list(itertools.combinations(range(p), 2))
    for states in itertools.product((0, 1, 2), repeat=len(pairs)):
        A = np.zeros((p, p), dtype=np.int8)
        for (u, v), s in zip(pairs, states):
            if s == 1:
                A[u, v] = 1
            elif s == 2:
                A[v, u] = 1
        if nx.is_directed_acyclic_graph(nx.DiGraph(A)):
            yield A


def brute_force_best(bound, p, max_indegree=None):
    best = -np.inf
    for A in all_dags(p):
        if max_indegree is not None and A.sum(axis=0).max() > max_indegree:
            continue
        total = sum(bound.local_score(j, np.flatnonzero(A[:, j])) for j in range(p))
        best = max(best, total)
    return best


@pytest.fixture(scope="module")
def discrete5():
    X = load_network("asia").sample(400, random_state=3)
    return X[["smoke", "lung", "bronc", "either", "dysp"]]


@pytest.fixture(scope="module")
def gaussian5():
    dag = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "d"), ("c", "e"), ("d", "e")])
    return make_linear_gaussian(dag, random_state=0).sample(300, random_state=1)


DISCRETE_SCORES = [
    BIC(),
    AIC(),
    EBIC(),
    BDeu(iss=0.01),
    BDeu(iss=1.0),
    BDeu(iss=10.0),
    K2(),
    FNML(),
    LogLikelihood(),
]


@pytest.mark.slow
@pytest.mark.parametrize("score", DISCRETE_SCORES, ids=repr)
def test_equals_brute_force_on_five_discrete_variables(score, discrete5):
    est = ExactSearch(score).fit(discrete5)
    bound = score.bind(discrete5)
    assert est.score_ == pytest.approx(brute_force_best(bound, 5), abs=1e-8)
    assert score.score_graph(est.graph_, discrete5) == pytest.approx(est.score_, abs=1e-8)


@pytest.mark.slow
@pytest.mark.parametrize("score", [GaussianBIC(), GaussianAIC(), BGe()], ids=repr)
def test_equals_brute_force_on_five_gaussian_variables(score, gaussian5):
    est = ExactSearch(score).fit(gaussian5)
    bound = score.bind(gaussian5)
    assert est.score_ == pytest.approx(brute_force_best(bound, 5), abs=1e-8)
    assert score.score_graph(est.graph_, gaussian5) == pytest.approx(est.score_, abs=1e-8)


def test_max_indegree_equals_brute_force_with_the_same_limit(discrete5):
    est = ExactSearch(BDeu(), max_indegree=1).fit(discrete5)
    assert max(d for _, d in est.graph_.in_degree()) <= 1
    assert est.score_ == pytest.approx(
        brute_force_best(BDeu().bind(discrete5), 5, max_indegree=1), abs=1e-8
    )


def test_beats_or_ties_hill_climbing_and_order_is_topological():
    X = load_network("sachs").sample(1000, random_state=0)
    est = ExactSearch().fit(X)
    hc = HillClimb(random_state=0).fit(X)
    assert est.score_ >= BIC().score_graph(hc.graph_, X) - 1e-8
    position = {v: k for k, v in enumerate(est.order_)}
    assert all(position[u] < position[v] for u, v in est.graph_.edges)
    assert est.graph_.graph["kind"] == "dag"


def test_pruning_keeps_sets_that_beat_their_subsets(discrete5):
    est = ExactSearch(BIC()).fit(discrete5)
    unpruned = ExactSearch(BIC(), max_indegree=4).fit(discrete5)
    assert est.score_ == pytest.approx(unpruned.score_)
    assert all(1 <= k <= 16 for k in est.n_candidate_sets_.values())


def test_there_are_29281_dags_on_five_nodes():
    assert len(all_dags(4)) == 543 and len(all_dags(5)) == 29281


def test_too_many_variables_says_how_much_memory():
    X = pd.DataFrame(np.random.default_rng(0).integers(0, 2, size=(50, 30)))
    gib = exact_search_memory(30) / 2**30
    with pytest.raises(ValueError, match=rf"30 variables would hold {gib:.1f} GiB"):
        ExactSearch().fit(X)
    assert exact_search_memory(3) == 3 * 4 * 8 + 8 * 9
