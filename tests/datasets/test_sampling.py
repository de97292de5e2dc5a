# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from skbn.data import check_data
from skbn.datasets import (
    DiscreteBayesianNetwork,
    LinearGaussianNetwork,
    load_network,
    make_erdos_renyi_dag,
    make_linear_gaussian,
    make_problem,
    make_scale_free_dag,
    make_small_world_dag,
    replicate_network,
)
from skbn.graph import is_dag


def _cpt_fit_pvalues(bn, X):
    """Chi-square goodness of fit of every node's empirical conditionals to its CPT."""
    data = check_data(X)
    index = {v: j for j, v in enumerate(data.names)}
    pvalues = {}
    for v in bn.nodes:
        table = bn.cpts[v]
        r = table.shape[-1]
        pa = [index[u] for u in bn.parents[v]]
        config = (
            np.ravel_multi_index(tuple(data.codes[:, j] for j in pa), table.shape[:-1])
            if pa
            else np.zeros(data.n_samples, dtype=int)
        )
        counts = np.zeros((table.size // r, r))
        np.add.at(counts, (config, data.codes[:, index[v]]), 1)
        rows = table.reshape(-1, r)
        stat, dof = 0.0, 0
        for c in range(len(rows)):
            n_c = counts[c].sum()
            if n_c < 200:
                continue
            nonzero = rows[c] > 0
            assert counts[c][~nonzero].sum() == 0, f"{v}: a zero-probability state was drawn"
            expected = n_c * rows[c][nonzero]
            stat += ((counts[c][nonzero] - expected) ** 2 / expected).sum()
            dof += nonzero.sum() - 1
        if dof:
            pvalues[v] = stats.chi2.sf(stat, dof)
    return pvalues


@pytest.mark.parametrize("name", ["asia", "alarm"])
def test_forward_sampling_reproduces_the_cpts(name):
    bn = load_network(name)
    X = bn.sample(200_000, random_state=1)
    pvalues = _cpt_fit_pvalues(bn, X)
    assert len(pvalues) >= len(bn.nodes) // 2
    # With one test per node at a fixed seed, a correct sampler keeps every p-value away
    # from zero; a wrong one (swapped parents, shifted rows) gives p ~ 0.
    assert min(pvalues.values()) > 1e-4, pvalues


def test_goodness_of_fit_check_detects_a_wrong_cpt():
    bn = load_network("asia")
    X = bn.sample(200_000, random_state=1)
    cpts = dict(bn.cpts)
    cpts["dysp"] = cpts["dysp"][::-1]  # swap the rows of one parent
    wrong = DiscreteBayesianNetwork(bn.states, bn.parents, cpts, name="wrong")
    assert _cpt_fit_pvalues(wrong, X)["dysp"] < 1e-10


def test_sampling_is_deterministic_and_categorical():
    bn = load_network("alarm")
    a = bn.sample(500, random_state=3)
    pd.testing.assert_frame_equal(a, bn.sample(500, random_state=3))
    assert not a.equals(bn.sample(500, random_state=4))
    assert list(a.columns) == bn.nodes
    assert all(isinstance(t, pd.CategoricalDtype) for t in a.dtypes)
    assert list(a["CVP"].cat.categories) == ["LOW", "NORMAL", "HIGH"]


@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_bad_sample_sizes(n):
    with pytest.raises((ValueError, TypeError), match="n_samples"):
        load_network("asia").sample(n)


def test_linear_gaussian_sample_covariance_matches_the_model():
    dag = make_erdos_renyi_dag(8, 12, random_state=0)
    sem = make_linear_gaussian(dag, random_state=0)
    X = sem.sample(200_000, random_state=0)
    np.testing.assert_allclose(np.cov(X.to_numpy().T), sem.covariance, atol=0.05, rtol=0.03)
    nonzero = np.abs(sem.weights.data)
    assert nonzero.min() >= 0.5 and nonzero.max() <= 1.0
    assert np.all((sem.noise_std >= 0.1) & (sem.noise_std <= 1.0))
    Z = sem.sample(1000, random_state=1, standardize=True)
    np.testing.assert_allclose(Z.std(ddof=0), 1.0)
    np.testing.assert_allclose(Z.mean(), 0.0, atol=1e-12)


def test_linear_gaussian_validation():
    with pytest.raises(ValueError, match="cycle"):
        LinearGaussianNetwork([[0, 1.0], [1.0, 0]], [1, 1])
    with pytest.raises(ValueError, match="noise_std"):
        LinearGaussianNetwork([[0, 1.0], [0, 0]], [1, -1])
    with pytest.raises(ValueError, match="weight_range"):
        make_linear_gaussian(nx.DiGraph([("a", "b")]), weight_range=((1, 0),))
    with pytest.raises(ValueError, match="acyclic"):
        make_linear_gaussian(np.array([[0, 1], [1, 0]]))


@pytest.mark.parametrize("maker", [make_erdos_renyi_dag, make_scale_free_dag, make_small_world_dag])
@pytest.mark.parametrize("p, m", [(1, 0), (10, 9), (100, 200), (300, 900)])
def test_random_dags_have_the_exact_arc_count(maker, p, m):
    g = maker(p, m, random_state=0)
    assert g.number_of_nodes() == p and g.number_of_edges() == m
    assert is_dag(g) and g.graph["kind"] == "dag"
    assert set(maker(p, m, random_state=0).edges()) == set(g.edges())


def test_random_dag_arguments_are_checked():
    with pytest.raises(ValueError, match="between 0 and 3"):
        make_erdos_renyi_dag(3, 4)
    with pytest.raises(TypeError, match="n_nodes"):
        make_scale_free_dag(3.0, 1)
    with pytest.raises(ValueError, match="rewire_prob"):
        make_small_world_dag(10, 10, rewire_prob=2)


def test_scale_free_has_hubs_and_er_does_not():
    sf = make_scale_free_dag(2000, 4000, random_state=0)
    er = make_erdos_renyi_dag(2000, 4000, random_state=0)
    assert max(d for _, d in sf.degree()) > 3 * max(d for _, d in er.degree())


def test_dense_erdos_renyi_uses_every_pair_once():
    g = make_erdos_renyi_dag(12, 66, random_state=0)  # the complete DAG
    assert nx.is_tournament(g)


def test_replicate_network_copies_and_joins_acyclically():
    base = load_network("asia").graph
    g = replicate_network(base, 20, random_state=0)
    assert g.number_of_nodes() == 24  # ceil(20 / 8) = 3 copies
    assert g.number_of_edges() == 24 + round(0.1 * 24)
    assert is_dag(g)
    for k in (1, 2, 3):
        copy = g.subgraph(f"{v}_{k}" for v in base)
        assert {(u.rsplit("_", 1)[0], v.rsplit("_", 1)[0]) for u, v in copy.edges()} == set(
            base.edges()
        )
    extra = [(u, v) for u, v in g.edges() if u.rsplit("_", 1)[1] != v.rsplit("_", 1)[1]]
    assert len(extra) == 2


def test_replicated_discrete_network_samples_with_extra_parents():
    bn = replicate_network(load_network("asia"), 30, connect_fraction=0.25, random_state=2)
    assert len(bn.nodes) == 32 and bn.n_arcs == 32 + 8
    X = bn.sample(2000, random_state=0)
    assert X.shape == (2000, 32)


def test_make_problem_kinds_and_determinism():
    X, dag = make_problem("alarm", n_samples=300, random_state=0)
    assert X.shape == (300, 37) and dag.number_of_edges() == 46
    assert all(X.dtypes == np.float64)
    np.testing.assert_allclose(X.std(ddof=0), 1.0)
    X2, _ = make_problem("alarm", n_samples=300, random_state=0)
    pd.testing.assert_frame_equal(X, X2)
    Xd, dagd = make_problem("child", n_nodes=100, n_samples=50, kind="discrete", random_state=0)
    assert Xd.shape == (50, 100) and is_dag(dagd)
    Xg, dagg = make_problem(make_erdos_renyi_dag(5, 4, random_state=0), random_state=0)
    assert Xg.shape == (1000, 5)
    with pytest.raises(ValueError, match="kind='discrete' needs"):
        make_problem(dagg, kind="discrete")
    with pytest.raises(ValueError, match="kind must be"):
        make_problem(kind="mixed")
