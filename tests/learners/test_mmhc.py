# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pytest

from skbn.ci_tests import ChiSquare, FisherZ
from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph import skeleton
from skbn.learners import MMHC
from skbn.metrics import f1_adjacency
from skbn.scores import EBIC, BDeu, GaussianBIC
from skbn.utils.testing import d_separation_oracle
from tests.data import load_oracle


def _skeleton(graph):
    return {frozenset(e) for e in skeleton(graph).edges()}


# (An oracle rates every dependence alike, so MMPC cannot add the strongest first and its
# candidate sets grow large on alarm; with data it takes a fraction of a second there.)
@pytest.mark.parametrize("name", ["asia", "sachs", "child"])
def test_mmpc_with_an_oracle_finds_the_true_skeleton(name):
    bn = load_network(name)
    X = bn.sample(5000, random_state=0)
    est = MMHC(d_separation_oracle(bn.graph), alpha=0.5).fit(X)
    assert est.skeleton_ == _skeleton(bn.graph)
    assert _skeleton(est.graph_) <= est.skeleton_


def test_search_stays_inside_the_skeleton_and_is_reproducible():
    X = load_network("alarm").sample(5000, random_state=2)
    a = MMHC(ChiSquare(), BDeu(iss=5), random_state=0).fit(X)
    assert _skeleton(a.graph_) <= a.skeleton_
    assert nx.is_directed_acyclic_graph(a.graph_)
    b = MMHC(ChiSquare(), BDeu(iss=5), random_state=0, n_jobs=2).fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges()) and a.skeleton_ == b.skeleton_
    assert a.n_tests_ > 0


def test_gaussian_mmhc_is_accurate():
    X, truth = make_problem(
        make_erdos_renyi_dag(40, 60, random_state=0), n_samples=2000, random_state=0
    )
    est = MMHC(FisherZ(), GaussianBIC()).fit(X)
    assert f1_adjacency(truth, est.graph_) > 0.9


def test_max_cond_size_zero_keeps_marginal_dependencies_only():
    bn = load_network("asia")
    X = bn.sample(3000, random_state=0)
    est = MMHC(d_separation_oracle(bn.graph), alpha=0.5, max_cond_size=0).fit(X)
    marginal = {
        frozenset((u, v))
        for u in bn.nodes
        for v in bn.nodes
        if u < v and not nx.is_d_separator(bn.graph, {u}, {v}, set())
    }
    assert est.skeleton_ == marginal


def test_test_and_score_of_different_kinds_are_refused():
    X = load_network("asia").sample(100, random_state=0)
    with pytest.raises(ValueError, match="different kinds of data"):
        MMHC(ChiSquare(), GaussianBIC()).fit(X)


def _cache_entries(location) -> list:
    """The skeletons a joblib cache directory holds (one folder per distinct call)."""
    return sorted(p.parent.name for p in location.rglob("output.pkl"))


def test_memory_runs_mmpc_once_per_data_and_level_and_changes_nothing(tmp_path):
    X = load_network("alarm").sample(1000, random_state=0)
    for gamma in (0.0, 2.0):
        cached = MMHC(criterion=EBIC(gamma=gamma), memory=str(tmp_path)).fit(X)
        plain = MMHC(criterion=EBIC(gamma=gamma)).fit(X)
        assert cached.skeleton_ == plain.skeleton_
        assert cached.n_tests_ == plain.n_tests_
        assert set(cached.graph_.edges) == set(plain.graph_.edges)
    # the two scores shared one skeleton; another level or other rows need their own
    assert len(_cache_entries(tmp_path)) == 1
    MMHC(memory=str(tmp_path), alpha=0.01).fit(X)
    assert len(_cache_entries(tmp_path)) == 2
    MMHC(memory=str(tmp_path)).fit(X.iloc[::-1])
    assert len(_cache_entries(tmp_path)) == 3


def test_memory_key_ignores_what_earlier_work_filled_in(tmp_path):
    from joblib import hash as joblib_hash

    from skbn.data import check_data
    from skbn.utils._memory import data_key

    def key(data):
        return joblib_hash(data_key(data))  # what the cache compares

    X = load_network("asia").sample(300, random_state=0)
    fresh, used = check_data(X), check_data(X)
    _ = used.observed, used.has_missing  # cached properties, filled on demand
    assert key(fresh) == key(used)
    assert key(fresh) != key(check_data(X.iloc[1:]))


def test_memory_that_is_not_a_cache_is_refused_before_any_work():
    X = load_network("asia").sample(100, random_state=0)
    with pytest.raises(ValueError, match="'memory' parameter of MMHC"):
        MMHC(memory=3).fit(X)


@pytest.mark.parametrize("case", load_oracle("bnlearn_mmhc_oracle"), ids=lambda c: c["network"])
def test_column_ties_give_bnlearns_mmpc_and_mmhc(case):
    # bnlearn 4.9 (tests/data/make_bnlearn_mmhc_oracle.py) compares p-values as doubles
    # (those that underflow tie at 0) and breaks ties by column: tie_order="columns" does the
    # same and reproduces its MMPC skeleton and MMHC graph arc for arc
    X = load_network(case["network"]).sample(case["n"], random_state=case["seed"]).astype(str)
    learner = MMHC("mi", "bic", tie_order="columns").fit(X)
    assert learner.skeleton_ == {frozenset(pair) for pair in case["mmpc"]}
    assert set(learner.graph_.edges) == {tuple(arc) for arc in case["mmhc"]}


def test_the_test_cache_is_bounded_and_gives_the_same_skeleton(monkeypatch):
    # dense data once grew the p-value cache until MemoryError (5.9 GB at 18 columns)
    from skbn.learners import _mmhc

    X = load_network("asia").sample(2000, random_state=0)
    free = MMHC().fit(X)
    kept = []
    original = _mmhc._Tests._store

    def store(self, items):
        original(self, items)
        kept.append(len(self.cache))

    monkeypatch.setattr(_mmhc, "MAX_CACHED_TESTS", 10)
    monkeypatch.setattr(_mmhc._Tests, "_store", store)
    bounded = MMHC().fit(X)
    assert max(kept) <= 10
    assert bounded.skeleton_ == free.skeleton_
    assert set(bounded.graph_.edges) == set(free.graph_.edges)
    assert bounded.n_tests_ >= free.n_tests_  # dropped tests ran again


def test_a_large_candidate_set_warns_that_subsets_grow_exponentially():
    # every pair dependent given anything (dense data with one latent factor behind all the
    # columns): the set of the target grows to all 19 others, and each step tests every
    # subset; the warning comes when it reaches 16, before the exponential part
    import math
    import warnings

    from skbn.learners._mmhc import mmpc

    class Dependent:
        def __call__(self, x, y, cond):
            return -math.inf

        def many(self, xs, y, cond):
            return [-math.inf] * len(xs)

    rank = np.arange(20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="holds 16 variables.*max_cond_size"):
            mmpc(Dependent(), 0, 20, math.log(0.05), None, rank)
        # bounded conditioning sets: no warning, and every variable is kept
        assert mmpc(Dependent(), 0, 20, math.log(0.05), 3, rank) == set(range(1, 20))
