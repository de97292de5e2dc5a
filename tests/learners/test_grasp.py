# SPDX-License-Identifier: BSD-3-Clause
import random

import numpy as np
import pytest

from skbn.datasets import load_network, make_erdos_renyi_dag, make_linear_gaussian, make_problem
from skbn.learners import ExactSearch, GRaSP
from skbn.learners._boss import _TOL, _Forest
from skbn.learners._grasp import _Tucks
from skbn.scores import BIC, GaussianBIC


def _gaussian(p, degree, n, seed):
    dag = make_erdos_renyi_dag(p, p * degree // 2, random_state=seed)
    X = make_linear_gaussian(dag, random_state=seed).sample(n, random_state=seed)
    return (X - X.mean()) / X.std(), dag


def test_finds_the_exact_optimum_on_a_small_problem():
    X, _ = make_problem("asia", n_samples=2000, random_state=1)
    best = ExactSearch(GaussianBIC()).fit(X).score_
    scores = [GRaSP(GaussianBIC(), random_state=s).fit(X).score_ for s in range(4)]
    assert max(scores) == pytest.approx(best, rel=1e-12)
    assert all(s <= best + 1e-6 * abs(best) for s in scores)


def test_no_single_tuck_improves_the_result_and_it_is_scored_right():
    X, _ = _gaussian(30, 4, 1000, 3)
    est = GRaSP("bic", random_state=0).fit(X)
    bound = GaussianBIC().bind(X)
    names = list(X.columns)
    assert bound.score_graph(est.dag_) == pytest.approx(est.score_, rel=1e-12)
    assert bound.score_graph(est.graph_) == pytest.approx(est.score_, rel=1e-12)
    # re-run the search state on the result's order: every tuck of every arc, scored from
    # scratch by the trees, is no better than the result
    order = np.array([names.index(v) for v in est.order_])
    forest = _Forest(GaussianBIC().bind(X), None, None)
    state = _Tucks(forest, order, None, np.random.RandomState(0))
    assert state.total == pytest.approx(est.score_, rel=1e-12)
    base = state.total
    for i in range(len(order)):
        y = int(state.order[i])
        for x in state.parents(y):
            j = int(state.pos[x])
            saved = state.order.copy()
            state._tuck(j, i)
            _, total = forest.parents_under(state.order)
            assert total <= base + _TOL * abs(base)
            state.order[:] = saved
            state.pos[saved] = np.arange(len(saved))
            state._rescore(0, len(saved) - 1)


def test_same_optimum_as_causal_learns_grasp():
    pytest.importorskip("causallearn")
    from causallearn.search.PermutationBased.GRaSP import grasp

    X, _ = make_problem("asia", n_samples=3000, random_state=2)
    bound = GaussianBIC().bind(X)
    best = ExactSearch(GaussianBIC()).fit(X).score_
    ours = GRaSP("bic", random_state=0).fit(X).score_
    random.seed(0)
    M = grasp(X.to_numpy(), parameters={"lambda_value": 0.5}, verbose=False).graph
    arcs = np.zeros(M.shape, np.int8)  # causal-learn: M[j, i] == 1, M[i, j] == -1 is i -> j
    arcs[(M == -1) & (M.T != 0)] = 1
    theirs = bound.score_graph(arcs)
    # both implementations of the same search, on the same Gaussian BIC, reach the optimum
    assert ours == pytest.approx(best, rel=1e-10)
    assert theirs == pytest.approx(best, rel=1e-10)


def test_discrete_data_background_knowledge_and_determinism():
    X = load_network("insurance").sample(2000, random_state=0)
    names = list(X.columns)
    required = [(names[3], names[20])]
    forbidden = [(names[0], names[1]), (names[1], names[0])]
    kwargs = dict(required_edges=required, forbidden_edges=forbidden, random_state=5)
    est = GRaSP(n_starts=2, **kwargs).fit(X)
    assert est.dag_[3, 20] == 1 and est.dag_[0, 1] == 0 and est.dag_[1, 0] == 0
    order = list(est.order_)
    assert order.index(names[3]) < order.index(names[20])
    assert BIC().score_graph(est.dag_, X) == pytest.approx(est.score_, rel=1e-12)
    other = GRaSP(n_starts=2, n_jobs=2, **kwargs).fit(X)
    np.testing.assert_array_equal(other.dag_, est.dag_)
    assert other.score_ == est.score_
    # the first of two starts is the search a single start with the same seed makes
    single = GRaSP(**kwargs).fit(X)
    assert est.score_ >= single.score_


def test_bad_parameters_fail_before_work():
    X, _ = make_problem("asia", n_samples=200, random_state=0)
    with pytest.raises(ValueError, match="depth"):
        GRaSP(depth=0).fit(X)
    with pytest.raises(ValueError, match="n_starts"):
        GRaSP(n_starts=0).fit(X)
