# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from skbn.datasets import load_network, make_problem
from skbn.graph import dag_to_cpdag, is_dag, to_adjacency
from skbn.learners import HillClimb, TabuSearch
from skbn.metrics import shd
from skbn.scores import BIC, BDeu, GaussianBIC


@pytest.fixture(scope="module")
def asia():
    bn = load_network("asia")
    return bn, bn.sample(5000, random_state=0)


def _legal_neighbours(A, max_indegree=None):
    """Every DAG one add, delete or reverse away from A (an independent enumeration)."""
    p = A.shape[0]
    for x in range(p):
        for y in range(p):
            if x == y:
                continue
            B = A.copy()
            if A[x, y]:
                B[x, y] = 0
                yield B
                C = B.copy()
                C[y, x] = 1
                if is_dag(C) and (max_indegree is None or C[:, x].sum() <= max_indegree):
                    yield C
            elif not A[y, x]:
                B[x, y] = 1
                if is_dag(B) and (max_indegree is None or B[:, y].sum() <= max_indegree):
                    yield B


@pytest.mark.parametrize("score", [BIC(), BDeu(iss=5)])
def test_hill_climb_ends_at_a_local_optimum(asia, score):
    bn, X = asia
    hc = HillClimb(criterion=score).fit(X)
    nodes = list(X.columns)
    A = to_adjacency(hc.graph_, nodes)
    bound = score.bind(X)
    best = bound.score_graph(A)
    assert best == pytest.approx(hc.score_)
    for B in _legal_neighbours(A):
        assert bound.score_graph(B) <= best + 1e-6


def test_local_optimum_respects_max_indegree(asia):
    _, X = asia
    hc = HillClimb(max_indegree=1).fit(X)
    A = to_adjacency(hc.graph_, list(X.columns))
    assert A.sum(axis=0).max() <= 1
    bound = BIC().bind(X)
    for B in _legal_neighbours(A, max_indegree=1):
        assert bound.score_graph(B) <= hc.score_ + 1e-6


def test_recovers_a_collider_at_large_n():
    rng = np.random.default_rng(0)
    n = 20000
    a = rng.integers(0, 2, n)
    b = rng.integers(0, 2, n)
    c = np.where(rng.random(n) < 0.9, a | b, 1 - (a | b))  # noisy OR
    d = np.where(rng.random(n) < 0.85, c, 1 - c)
    X = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    truth = nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")])
    # Greedy climbing from the empty graph stops in a local optimum here (it links a-b);
    # the tabu walk escapes it and finds the true class.
    tabu = TabuSearch().fit(X)
    assert shd(truth, tabu.graph_) == 0
    assert tabu.score_ >= HillClimb().fit(X).score_


def test_gaussian_hill_climb_recovers_a_chain_class():
    X, truth = make_problem(
        nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d")]), n_samples=3000, random_state=0
    )
    hc = HillClimb().fit(X)
    assert shd(truth, hc.graph_) == 0
    assert isinstance(hc.score_, float)


def test_tabu_is_at_least_as_good_as_plain_climbing():
    bn = load_network("alarm")
    X = bn.sample(3000, random_state=1)
    plain = HillClimb().fit(X)
    tabu = TabuSearch().fit(X)
    assert tabu.score_ >= plain.score_ - 1e-6
    assert tabu.n_iter_ >= plain.n_iter_


def test_restarts_are_deterministic_and_never_worse(asia):
    _, X = asia
    base = HillClimb().fit(X)
    a = HillClimb(n_restarts=3, n_perturbations=3, random_state=7).fit(X)
    b = HillClimb(n_restarts=3, n_perturbations=3, random_state=7).fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges())
    assert a.score_ >= base.score_ - 1e-9


def test_constraints_are_respected(asia):
    _, X = asia
    forbidden = [("either", "xray"), ("xray", "either")]
    required = [("asia", "dysp")]
    hc = HillClimb(forbidden_edges=forbidden, required_edges=required).fit(X)
    assert not any(hc.graph_.has_edge(u, v) for u, v in forbidden)
    assert hc.graph_.has_edge("asia", "dysp")
    allowed = [("smoke", "lung"), ("smoke", "bronc"), ("lung", "either")]
    hc = HillClimb(allowed_edges=allowed).fit(X)
    assert set(hc.graph_.edges()) <= set(allowed)
    assert hc.graph_.number_of_edges() == 3


def test_start_graph_is_used(asia):
    bn, X = asia
    hc = HillClimb(start_graph=bn.graph, max_iter=0).fit(X)
    assert set(hc.graph_.edges()) == set(bn.graph.edges())
    assert hc.n_iter_ == 0


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(required_edges=[("asia", "nope")]), "not columns of X"),
        (dict(required_edges=[("asia", "tub")], forbidden_edges=[("asia", "tub")]), "forbidden"),
        (dict(required_edges=[("asia", "tub"), ("tub", "asia")]), "cycle"),
        (dict(start_graph=nx.DiGraph([("asia", "tub"), ("tub", "asia")])), "nodes"),
        (dict(max_indegree=-1), "max_indegree"),
        (dict(criterion="bicc"), "Unknown score 'bicc'. Did you mean 'bic'"),
        (dict(criterion=3), "criterion"),
        (
            dict(criterion=GaussianBIC()),
            "HillClimb with criterion=GaussianBIC\\(\\) needs gaussian data.*criterion='bic'",
        ),
        (dict(tabu_length=1.5), "tabu_length"),
    ],
)
def test_bad_parameters_fail_before_work(asia, params, match):
    _, X = asia
    with pytest.raises((ValueError, TypeError), match=match):
        HillClimb(**params).fit(X)


def test_score_samples_is_the_fitted_log_likelihood(asia):
    bn, X = asia
    hc = HillClimb(start_graph=bn.graph, max_iter=0).fit(X)
    rows = hc.score_samples(X.iloc[:5])
    # independent computation from smoothed counts of the true structure
    expected = np.zeros(5)
    for v in bn.nodes:
        pa = list(bn.parents[v])
        counts = (
            X.groupby(pa + [v], observed=False).size()
            if pa
            else X.groupby(v, observed=False).size()
        )
        r = len(bn.states[v])
        q = int(np.prod([len(bn.states[u]) for u in pa])) if pa else 1
        prior = 1.0 / (q * r)
        for i in range(5):
            row = X.iloc[i]
            key = tuple(row[u] for u in pa) + (row[v],) if pa else row[v]
            cfg = counts.loc[tuple(row[u] for u in pa)] if pa else counts
            expected[i] += np.log((counts.loc[key] + prior) / (cfg.sum() + r * prior))
    np.testing.assert_allclose(rows, expected)
    assert hc.score(X) == pytest.approx(hc.score_samples(X).mean())


def test_score_samples_refuses_unseen_values_and_other_columns(asia):
    _, X = asia
    hc = HillClimb().fit(X)
    bad = X.iloc[:3].copy()
    bad["asia"] = bad["asia"].cat.add_categories("maybe")
    bad.iloc[0, 0] = "maybe"
    with pytest.raises(ValueError, match="'asia' has values not seen during fit: \\['maybe'\\]"):
        hc.score_samples(bad)
    with pytest.raises(ValueError, match="feature names should match"):
        hc.score_samples(X[X.columns[::-1]])


def test_fit_is_idempotent_and_clone_works(asia):
    _, X = asia
    hc = HillClimb(criterion=BDeu(iss=2))
    first = set(hc.fit(X).graph_.edges())
    assert set(hc.fit(X).graph_.edges()) == first
    assert clone(hc).get_params()["criterion"].iss == 2


def test_grid_search_over_nested_score_parameters(asia):
    _, X = asia
    search = GridSearchCV(HillClimb(criterion=BDeu()), {"criterion__iss": [1, 10]}, cv=3).fit(X)
    assert search.best_params_["criterion__iss"] in (1, 10)
    assert np.isfinite(search.best_score_)


def test_learned_graph_is_a_dag_over_feature_names(asia):
    _, X = asia
    hc = TabuSearch(random_state=0).fit(X)
    assert list(hc.graph_.nodes) == list(X.columns) == list(hc.feature_names_in_)
    assert is_dag(hc.graph_) and hc.graph_.graph["kind"] == "dag"
    assert dag_to_cpdag(hc.graph_).graph["kind"] == "cpdag"


def test_start_graph_as_a_list_of_arcs_equals_the_same_graph():
    X = load_network("asia").sample(2000, random_state=0)
    arcs = [("smoke", "lung"), ("lung", "either")]
    g = nx.DiGraph(arcs)
    g.add_nodes_from(X.columns)
    from_list = HillClimb(start_graph=arcs, max_iter=0).fit(X)
    from_graph = HillClimb(start_graph=g, max_iter=0).fit(X)
    # no climbing: the result is the start graph itself, read the same way from both forms
    assert set(from_list.graph_.edges) == set(arcs) == set(from_graph.graph_.edges)
    with pytest.raises(ValueError, match="start_graph names variables that are not columns"):
        HillClimb(start_graph=[("smoke", "nope")]).fit(X)


def test_scoring_zero_rows_is_an_error_not_nan():
    X = load_network("asia").sample(500, random_state=0)
    hc = HillClimb().fit(X)
    with pytest.raises(ValueError, match="X has 0 rows"):
        hc.score(X.iloc[:0])
