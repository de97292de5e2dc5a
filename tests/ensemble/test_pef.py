# SPDX-License-Identifier: BSD-3-Clause
import math

import networkx as nx
import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state

from skbn._kernels.ci import (
    fisher_z_pvalues_across_labels,
    fisher_z_pvalues_given_parents_from_data,
)
from skbn.data import GaussianData, check_data
from skbn.datasets import load_network, make_problem
from skbn.ensemble import PEFLearner, _pef, partition_variables
from skbn.ensemble._pef_sparse import (
    correlation_threshold,
    sparse_correlation_pairs,
    sparse_partition,
    standardise,
)
from skbn.graph import _array, dag_to_cpdag, is_dag
from skbn.graph._convert import as_adjacency
from skbn.learners import FGES, PCStable
from skbn.metrics import f1_adjacency, shd
from skbn.model_selection import _resampling
from skbn.network import _parameters


@pytest.fixture(scope="module")
def big():
    return make_problem("alarm", n_nodes=370, n_samples=1500, random_state=0)


@pytest.mark.parametrize("fraction", [0.05, 0.1, 0.3])
def test_partition_covers_every_variable_once_and_respects_the_size_rule(big, fraction):
    X, _ = big
    corr = np.corrcoef(X.to_numpy().T)
    clusters = partition_variables(corr, fraction)
    flat = np.concatenate(clusters)
    assert sorted(flat.tolist()) == list(range(X.shape[1]))
    assert min(len(c) for c in clusters) >= math.ceil(fraction * X.shape[1])


def _partition_by_every_cut(corr, fraction):
    """PEF's partition as its definition reads: ``fcluster`` for every number of clusters."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    p = corr.shape[0]
    D = np.clip(1.0 - np.abs(corr), 0.0, None)
    np.fill_diagonal(D, 0.0)
    D = (D + D.T) / 2
    Z = linkage(squareform(D, checks=False), method="average")
    min_size = max(2, math.ceil(fraction * p))
    best, labels = 0, np.ones(p, dtype=int)
    for t in range(1, p):
        cut = fcluster(Z, t, criterion="maxclust")
        n_large = int(np.sum(np.bincount(cut)[1:] >= min_size))
        if n_large > best:
            best, labels = n_large, cut
    members = [np.flatnonzero(labels == c) for c in np.unique(labels)]
    M = np.zeros((p, len(members)))
    for k, idx in enumerate(members):
        M[idx, k] = 1.0
    sums, sizes = M.T @ D @ M, [len(m) for m in members]
    alive = list(range(len(members)))
    while len(alive) > 1 and any(sizes[a] < min_size for a in alive):
        _, a, b = min(
            (sums[a, b] / (sizes[a] * sizes[b]), min(a, b), max(a, b))
            for a in alive
            if sizes[a] < min_size
            for b in alive
            if b != a
        )
        members[a] = np.concatenate([members[a], members[b]])
        sums[a, :] += sums[b, :]
        sums[:, a] += sums[:, b]
        sizes[a] += sizes[b]
        alive.remove(b)
    return sorted(tuple(np.sort(members[a]).tolist()) for a in alive)


@pytest.mark.parametrize("seed", range(40))
def test_partition_equals_trying_every_cut_with_fcluster(seed):
    # the partition replays the merges once instead of calling fcluster p - 1 times; on
    # correlations on a coarse grid (many equal merge heights, which fcluster cuts together)
    # and on continuous ones, the clusters are those of the definition
    rng = np.random.default_rng(seed)
    p = int(rng.integers(2, 50))
    A = rng.integers(-3, 4, size=(p, p)) / 4 if seed % 2 else rng.uniform(-1, 1, size=(p, p))
    corr = (A + A.T) / 2
    np.fill_diagonal(corr, 1.0)
    fraction = [0.05, 0.1, 0.3, 0.5][seed % 4]
    got = sorted(tuple(c.tolist()) for c in partition_variables(corr, fraction))
    assert got == _partition_by_every_cut(corr, fraction)


def test_small_problems_keep_every_cluster():
    corr = np.eye(5)
    assert sorted(np.concatenate(partition_variables(corr)).tolist()) == list(range(5))


@pytest.mark.slow
def test_fused_graph_is_a_dag_over_all_variables_and_accurate(big):
    X, truth = big
    pef = PEFLearner(n_jobs=2).fit(X)
    assert list(pef.graph_.nodes) == list(X.columns)
    assert is_dag(pef.graph_)
    assert sum(len(c) for c in pef.clusters_) == X.shape[1]
    assert len(pef.subgraphs_) == len(pef.clusters_) >= 2
    assert set(pef.fit_times_) == {"partition", "estimation", "fusion"}
    assert f1_adjacency(truth, pef.graph_) > 0.8
    # every arc inside a cluster comes from that cluster's subgraph
    cluster_of = {v: k for k, c in enumerate(pef.clusters_) for v in c}
    inner = {(u, v) for u, v in pef.graph_.edges() if cluster_of[u] == cluster_of[v]}
    sub = {e for g in pef.subgraphs_ for e in g.edges()}
    assert inner == sub
    assert pef.n_cross_arcs_ == pef.graph_.number_of_edges() - len(inner)


def test_one_cluster_gives_the_base_learners_class():
    X, _ = make_problem("asia", n_samples=5000, random_state=0)
    pef = PEFLearner(FGES(), min_cluster_fraction=1.0).fit(X)
    assert len(pef.clusters_) == 1 and pef.n_cross_arcs_ == 0
    assert shd(dag_to_cpdag(pef.graph_), FGES().fit(X).graph_) == 0


def test_deterministic_and_independent_of_n_jobs(big):
    X, _ = big
    a = PEFLearner(PCStable()).fit(X)
    b = PEFLearner(PCStable(), n_jobs=2).fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges())
    assert a.clusters_ == b.clusters_


class _RandomChain(BaseEstimator):
    """A randomised stand-in learner: a chain through the columns in a random order."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y=None):
        order = check_random_state(self.random_state).permutation(list(X.columns))
        self.graph_ = nx.DiGraph()
        self.graph_.add_nodes_from(X.columns)
        self.graph_.add_edges_from(zip(order[:-1], order[1:]))
        return self


class _Wrapped(BaseEstimator):
    """Holds a learner as a nested parameter, as pipelines and ensembles do."""

    def __init__(self, inner=None):
        self.inner = inner

    def fit(self, X, y=None):
        self.graph_ = clone(self.inner).fit(X).graph_
        return self


def _arcs(pef):
    return [sorted(g.edges()) for g in pef.subgraphs_]


def test_random_state_seeds_every_cluster_reproducibly_whatever_n_jobs(big):
    X, _ = big
    a = PEFLearner(_RandomChain(), random_state=0).fit(X)
    b = PEFLearner(_RandomChain(), random_state=0, n_jobs=2).fit(X)
    c = PEFLearner(_RandomChain(), random_state=1).fit(X)
    assert _arcs(a) == _arcs(b)
    assert _arcs(a) != _arcs(c)
    # nested random_state parameters get the same seeds
    nested = PEFLearner(_Wrapped(_RandomChain()), random_state=0).fit(X)
    assert _arcs(nested) == _arcs(a)
    # None leaves the estimator's own seed: every cluster uses random_state=7
    own = PEFLearner(_RandomChain(random_state=7)).fit(X)
    assert _arcs(own) == _arcs(PEFLearner(_RandomChain(random_state=7)).fit(X))
    for cols, g in zip(own.clusters_, own.subgraphs_):
        assert sorted(g.edges()) == sorted(_RandomChain(7).fit(X[cols]).graph_.edges())


def test_refuses_discrete_data():
    # the learner has no score or test to swap, so the message names the columns to change
    with pytest.raises(ValueError, match="PEFLearner models continuous data only.*'asia', 'tub'"):
        PEFLearner().fit(load_network("asia").sample(100, random_state=0))


@pytest.mark.slow
def test_auto_route_switches_to_sparse_above_the_limit(monkeypatch):
    X, _ = make_problem("asia", n_samples=2000, random_state=0)
    assert PEFLearner().fit(X).route_ == "dense"
    monkeypatch.setattr(_pef, "MAX_DENSE_VARIABLES", 5)
    assert PEFLearner().fit(X).route_ == "sparse"
    assert PEFLearner(route="dense").fit(X).route_ == "dense"


@pytest.mark.parametrize("fraction", [0.05, 0.1, 0.3])
def test_sparse_partition_keeping_every_pair_equals_the_dense_partition(big, fraction):
    X, _ = big
    Z = standardise(X.to_numpy())
    corr = np.corrcoef(X.to_numpy().T)
    dense = partition_variables(corr, fraction)
    sparse = sparse_partition(Z, fraction, r_min=0.0)
    assert sorted(map(tuple, dense)) == sorted(map(tuple, sparse))


def test_sparse_pairs_are_the_large_entries_of_the_correlation_matrix(big):
    X, _ = big
    Z = standardise(X.to_numpy()[:, :60])
    rows, cols, weights = sparse_correlation_pairs(Z, 0.2, block=7)
    corr = np.abs(np.corrcoef(X.to_numpy()[:, :60].T))
    i, j = np.nonzero(np.triu(corr >= 0.2, 1))
    assert sorted(zip(rows.tolist(), cols.tolist())) == sorted(zip(i.tolist(), j.tolist()))
    np.testing.assert_allclose(weights, corr[rows, cols], atol=1e-12)


def test_correlation_threshold_keeps_about_p_over_2_pairs_of_independent_variables():
    n, p = 500, 400
    Z = standardise(np.random.default_rng(0).standard_normal((n, p)))
    rows, _, _ = sparse_correlation_pairs(Z, correlation_threshold(n, p))
    # about Poisson(199.5) pairs pass by chance
    assert 140 < rows.shape[0] < 260


@pytest.mark.slow
def test_screen_from_data_equals_the_screen_from_the_correlation_matrix(big):
    X, _ = big
    Z = standardise(X.to_numpy())
    corr = np.ascontiguousarray(Z.T @ Z / Z.shape[0])
    np.fill_diagonal(corr, 1.0)
    rng = np.random.default_rng(0)
    p = Z.shape[1]
    label = rng.integers(0, 4, p).astype(np.int64)
    parents = [np.sort(rng.choice(p, rng.integers(0, 4), replace=False)) for _ in range(p)]
    indptr = np.concatenate([[0], np.cumsum([len(pa) for pa in parents])]).astype(np.int64)
    indices = np.concatenate(parents).astype(np.int64)
    dense = fisher_z_pvalues_across_labels(corr, Z.shape[0], label, indptr, indices)
    rows, cols = np.triu_indices(p, 1)
    some = np.flatnonzero(label[rows] != label[cols])[::97]
    pairs = np.column_stack([rows[some], cols[some]]).astype(np.int64)
    from_data = fisher_z_pvalues_given_parents_from_data(Z, pairs, indptr, indices)
    np.testing.assert_allclose(from_data, dense[some], rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("p", [2, 9, 40])
def test_screen_across_clusters_equals_an_independent_partial_correlation_test(p):
    # every pair i < j of different clusters, flat in row-major order: the p-value of the
    # Fisher-z test given pa(i) + pa(j), from numpy's inverse of the correlation block and
    # scipy's normal tail; pairs in one cluster are marked 2
    from scipy import stats

    rng = np.random.default_rng(p)
    n = 60
    X = rng.normal(size=(n, p))
    X[:, 1:] += 0.6 * X[:, :-1]
    corr = np.corrcoef(X.T)
    parents = [np.sort(rng.choice(p, rng.integers(0, min(p, 4)), replace=False)) for _ in range(p)]
    parents = [pa[pa != v] for v, pa in enumerate(parents)]
    indptr = np.concatenate([[0], np.cumsum([len(pa) for pa in parents])]).astype(np.int64)
    indices = np.concatenate(parents).astype(np.int64)
    label = rng.integers(0, 3, p).astype(np.int64)
    got = fisher_z_pvalues_across_labels(corr, n, label, indptr, indices)
    rows, cols = np.triu_indices(p, 1)
    assert got.shape == rows.shape
    for e, (i, j) in enumerate(zip(rows.tolist(), cols.tolist())):
        if label[i] == label[j]:
            assert got[e] == 2.0
            continue
        cond = sorted((set(parents[i]) | set(parents[j])) - {i, j})
        P = np.linalg.inv(corr[np.ix_([i, j, *cond], [i, j, *cond])])
        rho = -P[0, 1] / np.sqrt(P[0, 0] * P[1, 1])
        z = np.sqrt(n - len(cond) - 3) * np.arctanh(rho)
        assert got[e] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-7, abs=1e-300)


def test_sparse_route_learns_a_dag_over_all_variables_deterministically(big):
    X, truth = big
    a = PEFLearner(route="sparse").fit(X)
    b = PEFLearner(route="sparse", n_jobs=2).fit(X)
    assert a.route_ == "sparse"
    assert list(a.graph_.nodes) == list(X.columns) and is_dag(a.graph_)
    assert sorted(v for c in a.clusters_ for v in c) == sorted(X.columns)
    assert min(len(c) for c in a.clusters_) >= math.ceil(0.05 * X.shape[1])
    assert f1_adjacency(truth, a.graph_) > 0.8
    assert set(a.graph_.edges()) == set(b.graph_.edges()) and a.clusters_ == b.clusters_


def test_sparse_route_keeping_every_pair_fuses_as_the_dense_route(big, monkeypatch):
    # with a threshold of 0 the sparse route screens every cross-cluster pair, from the data
    # instead of the correlation matrix, and holds the fused graph as a sparse matrix: the
    # arcs are those of the dense route
    X, _ = big
    X = X.iloc[:, :150]
    dense = PEFLearner(route="dense").fit(X)
    monkeypatch.setattr(_pef, "correlation_threshold", lambda n, p: 0.0)
    sparse_fit = PEFLearner(route="sparse").fit(X)
    assert sorted(map(sorted, sparse_fit.clusters_)) == sorted(map(sorted, dense.clusters_))
    assert sparse_fit.n_cross_arcs_ == dense.n_cross_arcs_ > 0
    assert set(sparse_fit.graph_.edges()) == set(dense.graph_.edges())


def test_gaussian_parameters_from_family_blocks_equal_those_from_the_full_covariance(
    big, monkeypatch
):
    X, _ = big
    cluster_covariance = GaussianData.covariance

    def covariance(self):  # the learners inside the clusters still use their own
        assert self.n_features < X.shape[1], "the full covariance was built"
        return cluster_covariance.func(self)

    # the sparse route never builds the full covariance, so the family blocks are used
    with monkeypatch.context() as patch:
        patch.setattr(GaussianData, "covariance", property(covariance))
        pef = PEFLearner(route="sparse").fit(X)
    local = pef.parameters_
    data = check_data(X)
    _ = data.covariance  # formed first: the parameters now come from the whole matrix
    dag = as_adjacency(pef.graph_, list(X.columns))[0]
    full = _parameters.fit_parameters(data, dag)
    np.testing.assert_allclose(local.intercepts, full.intercepts, atol=1e-10)
    np.testing.assert_allclose(local.variances, full.variances, rtol=1e-10)
    for a, b in zip(local.coefficients, full.coefficients):
        np.testing.assert_allclose(a, b, atol=1e-10)


def test_the_phases_compose_to_fit(big):
    X, _ = big
    pef = PEFLearner(PCStable(), random_state=0)
    clusters = pef.partition(X)
    subgraphs = pef.estimate(X, clusters)
    fused = pef.fuse(X, clusters, subgraphs)
    fitted = PEFLearner(PCStable(), random_state=0).fit(X)
    assert clusters == fitted.clusters_
    assert [sorted(g.edges) for g in subgraphs] == [sorted(g.edges) for g in fitted.subgraphs_]
    assert sorted(fused.edges) == sorted(fitted.graph_.edges)
    # fusion only adds arcs between clusters to the clusters' own DAGs
    inside = {e for g in subgraphs for e in g.edges}
    assert inside <= set(fused.edges)
    label = {v: k for k, c in enumerate(clusters) for v in c}
    assert all(label[u] != label[v] for u, v in set(fused.edges) - inside)


def test_phases_refuse_clusters_that_do_not_partition_the_columns(big):
    X, _ = big
    pef = PEFLearner()
    names = list(X.columns)
    with pytest.raises(ValueError, match="leave out columns"):
        pef.estimate(X, [names[:3]])
    with pytest.raises(ValueError, match="more than one cluster"):
        pef.estimate(X, [names, names[:1]])
    with pytest.raises(ValueError, match="lacks"):
        pef.fuse(X, [names + ["nope"]], [None])


def test_an_ensemble_inside_runs_as_cluster_member_units_with_the_same_result():
    """Cluster x member work units give what fitting the ensemble on each cluster gives."""
    from skbn.ensemble import StructureLearningEnsemble

    X, _ = make_problem("alarm", n_nodes=111, n_samples=600, random_state=3)
    ensemble = StructureLearningEnsemble(
        [FGES("bic", penalty_discount=2.0), FGES(), PCStable(alpha=0.01)]
    )
    pef = PEFLearner(ensemble, random_state=0).fit(X)
    assert len(pef.clusters_) > 1
    seeds = check_random_state(0).randint(np.iinfo(np.int32).max, size=len(pef.clusters_))
    assert len(pef.selected_members_) == len(pef.clusters_)
    for cluster, subgraph, seed, picked in zip(
        pef.clusters_, pef.subgraphs_, seeds, pef.selected_members_
    ):
        own = _resampling.seeded_clone(ensemble, int(seed)).fit(X[cluster])
        expected = as_adjacency(own.graph_, cluster)[0]
        dag = _array.extension_or_fallback(expected)[0]
        assert np.array_equal(as_adjacency(subgraph, cluster)[0] != 0, dag != 0)
        # the member named for the cluster is the one the ensemble fitted on it keeps
        assert picked == own.member_names_[own.best_index_]
    assert PEFLearner(FGES(), random_state=0).fit(X).selected_members_ is None
    # and the same for any n_jobs
    again = PEFLearner(ensemble, random_state=0, n_jobs=2).fit(X)
    assert sorted(again.graph_.edges) == sorted(pef.graph_.edges)


@pytest.mark.parametrize("route", ["dense", "sparse"])
def test_copied_and_affine_columns_are_clustered_not_refused(route):
    # |r| of a copy rounds to just above 1, which once reached scipy's linkage as a negative
    # distance ("Linkage 'Z' contains negative distances")
    X, _ = make_problem("alarm", n_nodes=111, n_samples=500, random_state=0)
    X["copy"] = X.iloc[:, 0]
    X["affine"] = 3 * X.iloc[:, 5] + 2
    pef = PEFLearner(route=route).fit(X)
    cluster_of = {name: k for k, cluster in enumerate(pef.clusters_) for name in cluster}
    # a column and its exact copy are as correlated as two columns can be: same cluster
    assert cluster_of["copy"] == cluster_of[X.columns[0]]
    assert cluster_of["affine"] == cluster_of[X.columns[5]]
    assert pef.graph_.has_edge("copy", X.columns[0]) or pef.graph_.has_edge(X.columns[0], "copy")
