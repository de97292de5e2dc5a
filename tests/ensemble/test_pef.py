# SPDX-License-Identifier: BSD-3-Clause
import math

import numpy as np
import pytest

from skbn.datasets import load_network, make_problem
from skbn.ensemble import PEFLearner, _pef, partition_variables
from skbn.graph import dag_to_cpdag, is_dag
from skbn.learners import FGES, PCStable
from skbn.metrics import f1_adjacency, shd


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


def test_small_problems_keep_every_cluster():
    corr = np.eye(5)
    assert sorted(np.concatenate(partition_variables(corr)).tolist()) == list(range(5))


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


def test_refuses_discrete_data_and_too_many_variables(monkeypatch):
    with pytest.raises(ValueError, match="PEFLearner needs gaussian data"):
        PEFLearner().fit(load_network("asia").sample(100, random_state=0))
    monkeypatch.setattr(_pef, "MAX_DENSE_VARIABLES", 5)
    X, _ = make_problem("asia", n_samples=100, random_state=0)
    with pytest.raises(ValueError, match="at most 5 variables"):
        PEFLearner().fit(X)
