# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.ci_tests import ChiSquare, FisherZ
from skbn.datasets import load_network, make_erdos_renyi_dag, make_linear_gaussian, make_problem
from skbn.graph import dag_to_cpdag, skeleton
from skbn.learners import PCStable
from skbn.metrics import shd
from skbn.utils.testing import d_separation_oracle


def _skeleton(graph):
    return {frozenset(e) for e in skeleton(graph).edges()}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["asia", "sachs", "child", "insurance", "alarm"])
def test_d_separation_oracle_recovers_the_true_cpdag(name):
    bn = load_network(name)
    X = bn.sample(50, random_state=0)  # only the column names matter to the oracle
    pc = PCStable(d_separation_oracle(bn.graph), alpha=0.5).fit(X)
    assert pc.n_conflicts_ == 0
    assert pc.graph_.graph["kind"] == "cpdag"
    assert shd(bn.graph, pc.graph_) == 0
    # every separating set really separates
    for pair, sets in pc.sepsets_.items():
        u, v = tuple(pair)
        assert all(nx.is_d_separator(bn.graph, {u}, {v}, set(sep)) for sep in sets)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_output_does_not_depend_on_the_column_order(seed):
    bn = load_network("alarm")
    X = bn.sample(3000, random_state=1)
    reference = PCStable(ChiSquare(), alpha=0.05).fit(X)
    perm = np.random.default_rng(seed).permutation(X.shape[1])
    shuffled = PCStable(ChiSquare(), alpha=0.05).fit(X.iloc[:, perm])
    assert _skeleton(shuffled.graph_) == _skeleton(reference.graph_)
    assert shuffled.sepsets_ == reference.sepsets_
    assert set(shuffled.graph_.edges()) == set(reference.graph_.edges())


def test_gaussian_output_does_not_depend_on_the_column_order():
    X, _ = make_problem(make_erdos_renyi_dag(40, 60, random_state=0), n_samples=500, random_state=0)
    reference = PCStable().fit(X)
    shuffled = PCStable().fit(X.iloc[:, np.random.default_rng(0).permutation(40)])
    assert set(shuffled.graph_.edges()) == set(reference.graph_.edges())


def test_parallel_levels_give_the_serial_result():
    X = load_network("alarm").sample(2000, random_state=0)
    serial = PCStable(ChiSquare()).fit(X)
    threaded = PCStable(ChiSquare(), n_jobs=2).fit(X)
    assert set(threaded.graph_.edges()) == set(serial.graph_.edges())
    assert threaded.sepsets_ == serial.sepsets_
    Xg, _ = make_problem(
        make_erdos_renyi_dag(60, 90, random_state=1), n_samples=400, random_state=1
    )
    assert set(PCStable(n_jobs=1).fit(Xg).graph_.edges()) == set(
        PCStable(n_jobs=2).fit(Xg).graph_.edges()
    )


@pytest.mark.parametrize("name, n", [("asia", 20000), ("alarm", 100000)])
def test_recovers_a_gaussian_skeleton_at_large_n(name, n):
    X, truth = make_problem(name, n_samples=n, random_state=0)
    pc = PCStable(FisherZ(), alpha=0.01).fit(X)
    assert _skeleton(pc.graph_) == _skeleton(truth)


def test_max_cond_size_limits_the_levels():
    X = load_network("alarm").sample(2000, random_state=0)
    pc = PCStable(max_cond_size=1).fit(X)
    assert len(pc.n_tests_levels_) <= 2
    assert all(len(s) <= 1 for sets in pc.sepsets_.values() for s in sets)


def test_background_knowledge():
    bn = load_network("asia")
    X = bn.sample(20000, random_state=0)
    oracle = d_separation_oracle(bn.graph)
    pc = PCStable(
        oracle,
        alpha=0.5,
        required_edges=[("asia", "xray")],
        forbidden_edges=[("smoke", "lung"), ("lung", "smoke"), ("bronc", "dysp")],
    ).fit(X)
    g = pc.graph_
    assert g.has_edge("asia", "xray") and not g.has_edge("xray", "asia")
    assert not g.has_edge("smoke", "lung") and not g.has_edge("lung", "smoke")
    assert g.has_edge("dysp", "bronc") is False or g.has_edge("bronc", "dysp") is False
    assert g.graph["kind"] == "pdag"
    with pytest.raises(ValueError, match="is in forbidden_edges"):
        PCStable(required_edges=[("asia", "tub")], forbidden_edges=[("asia", "tub")]).fit(X)


def test_conflicting_colliders_stay_undirected():
    # a and c independent, b and d independent, but the four-cycle a-b-c-d-a with colliders
    # at every node: the oracle of two colliders that point at each other
    g = nx.DiGraph([("a", "b"), ("c", "b"), ("c", "d"), ("e", "d")])
    X = pd.DataFrame({v: [0, 1] for v in "abcde"})
    pc = PCStable(d_separation_oracle(g), alpha=0.5).fit(X)
    assert shd(dag_to_cpdag(g), pc.graph_) == 0


def test_wrong_kind_of_test_is_refused():
    X = load_network("asia").sample(100, random_state=0)
    with pytest.raises(ValueError, match="PCStable with ci_test=FisherZ\\(\\) needs gaussian data"):
        PCStable(FisherZ()).fit(X)
    with pytest.raises(ValueError, match="alpha"):
        PCStable(alpha=1.5).fit(X)


def test_a_dense_level_with_unbounded_conditioning_sets_warns(monkeypatch):
    # one latent factor behind every column: the graph stays complete, and each level tries
    # every subset of each adjacency (over 120 s at 25 columns, with no word); here 8 columns
    # and a lowered threshold
    import warnings

    from skbn.learners import _pc

    rng = np.random.default_rng(0)
    factor = rng.normal(size=(2000, 1))
    X = pd.DataFrame(factor + 0.7 * rng.normal(size=(2000, 8)), columns=list("abcdefgh"))
    monkeypatch.setattr(_pc, "LARGE_LEVEL_TESTS", 100)
    with pytest.warns(UserWarning, match=r"level \d may run .* max_cond_size"):
        PCStable().fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PCStable(max_cond_size=2).fit(X)


def _level_by_single_tests(corr, n, table, degrees, pairs, level, z_crit):
    """One PC-Stable level with a ``fisher_z`` call per subset (the kernel's reference)."""
    from skbn._kernels.ci import _next_combination, fisher_z

    removed = np.zeros(len(pairs), dtype=bool)
    seps = np.full((len(pairs), max(level, 1)), -1, dtype=np.int64)
    for e, (x, y) in enumerate(pairs):
        pool = [v for v in table[x, : degrees[x]] if v != y]
        if len(pool) < level:
            continue
        comb = np.arange(level)
        while True:
            cond = np.array([pool[c] for c in comb], dtype=np.int64)
            if abs(fisher_z(corr, n, x, y, cond)) < z_crit:
                removed[e] = True
                seps[e, :level] = cond
                break
            if level == 0 or not _next_combination(comb, len(pool)):
                break
    return removed, seps


@pytest.mark.parametrize("seed", [0, 1])
def test_level_kernel_equals_one_fisher_z_per_subset(seed):
    # the level kernel's closed forms (levels 1 and 2) and its thresholds on rho give the
    # decisions and sets of the generic partial correlation, singular blocks included
    from skbn._kernels.ci import pc_level_fisher_z

    rng = np.random.default_rng(seed)
    dag = make_erdos_renyi_dag(25, 50, random_state=seed)
    X = (
        make_linear_gaussian(dag, random_state=seed)
        .sample(300, random_state=seed)
        .to_numpy()
        .copy()
    )
    X[:, 3] = X[:, 2]  # a duplicated column (|r| = 1)
    X[:, 7] = X[:, 5] - 2 * X[:, 6]  # an exact linear relation (a singular 3 x 3 block)
    corr = np.corrcoef(X.T)
    np.fill_diagonal(corr, 1.0)
    p = corr.shape[0]
    for level in range(5):
        adj = rng.random((p, p)) < 0.35
        adj = adj | adj.T
        adj[2, 3] = adj[3, 2] = adj[5, 7] = adj[7, 5] = adj[6, 7] = adj[7, 6] = True
        np.fill_diagonal(adj, False)
        degrees = adj.sum(axis=1).astype(np.int64)
        table = np.full((p, degrees.max()), -1, dtype=np.int64)
        for v in range(p):
            table[v, : degrees[v]] = np.flatnonzero(adj[v])
        pairs = np.argwhere(adj).astype(np.int64)
        got = pc_level_fisher_z(corr, 300, table, degrees, pairs, level, 2.5758)
        want = _level_by_single_tests(corr, 300, table, degrees, pairs, level, 2.5758)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1][got[0], :level], want[1][want[0], :level])
        assert 0 < got[0].sum() < len(pairs) or level > 2
