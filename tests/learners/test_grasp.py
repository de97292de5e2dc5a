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


def _kept_pool(parents):
    """A tree-node pool in which node ``v`` keeps the parents ``parents[v]``."""
    from skbn._kernels.boss import Pool

    lengths = np.array([len(pa) for pa in parents], np.int64)
    first = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    kept = np.array([u for pa in parents for u in pa], np.int64)
    unused = np.zeros(0, np.int64)
    return Pool(unused, unused, unused, unused, np.zeros(0), unused, first, lengths, kept, unused)


def test_tuck_moves_the_ancestors_in_between_in_front():
    from skbn._kernels.grasp import Run, tuck

    # 0 -> 2 -> 4 <- 1; 3 has no parents. Tuck 1 -> 4 (positions 1 and 4).
    pool = _kept_pool([(), (), (0,), (), (1, 2)])
    order = np.arange(5, dtype=np.int64)
    pos = np.arange(5, dtype=np.int64)
    none = np.zeros(0, np.int64)
    run = Run(
        order=order,
        pos=pos,
        node=np.arange(5, dtype=np.int64),
        local=np.zeros(5),
        req_a=none,
        req_b=none,
        seen=np.zeros(5, bool),
        stack=np.empty(5, np.int64),
    )
    assert tuck(1, 4, run, pool)
    # 2 and 4 (ancestors of 4 between the two) go in front of 1, in their order; 3 stays after
    assert order.tolist() == [0, 2, 4, 1, 3]
    assert pos[order].tolist() == list(range(5))
    assert not run.seen.any()
    # a required arc 1 -> 4 is now backwards: the tuck says so
    order[:], pos[:] = np.arange(5), np.arange(5)
    assert not tuck(1, 4, run._replace(req_a=np.array([1]), req_b=np.array([4])), pool)


@pytest.mark.parametrize("data", ["gaussian", "discrete"])
def test_a_search_paused_for_look_ups_ends_where_an_unpaused_one_does(data):
    # the kernel pauses whenever the trees lack a look-up and resumes after they are filled
    # in: from the same order and seed, a search on empty trees (many pauses) and one on the
    # trees that search filled (none) take the same tucks to the same order
    if data == "gaussian":
        X, _ = _gaussian(40, 4, 1000, 1)
        bound = GaussianBIC().bind(X)
    else:
        X = load_network("child").sample(2000, random_state=0)
        bound = BIC().bind(X)
    forest = _Forest(bound, None, None)
    start = np.random.RandomState(3).permutation(bound.n_features).astype(np.int64)
    pauses = []
    fill = forest.fill
    forest.fill = lambda *a: (pauses.append(1), fill(*a))[1]
    first = _Tucks(forest, start, None, np.random.RandomState(7))
    before = len(pauses)
    first.search(3)
    assert len(pauses) > before + 10 and first.n_tucks > 0
    n_nodes, used = forest.n_nodes, len(pauses)
    again = _Tucks(forest, start, None, np.random.RandomState(7))
    again.search(3)
    assert len(pauses) == used and forest.n_nodes == n_nodes
    np.testing.assert_array_equal(again.order, first.order)
    assert again.n_tucks == first.n_tucks and again.total == first.total
