# SPDX-License-Identifier: BSD-3-Clause
"""LiNGAMOrientation: a learner's CPDAG oriented by pairwise likelihood ratios."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network, make_additive_noise, make_erdos_renyi_dag
from skbn.graph import to_adjacency
from skbn.graph._array import dag_to_cpdag_array, pdag_to_dag_array, undirected_part
from skbn.learners import BOSS, FCI, FGES, DirectLiNGAM, LiNGAMOrientation


def _pair(noise: str, seed: int, forward: bool) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    draw = {
        "uniform": lambda: rng.uniform(-1, 1, 3000),
        "laplace": lambda: rng.laplace(size=3000),
        "exponential": lambda: rng.exponential(size=3000),
    }[noise]
    cause = draw()
    effect = 0.8 * cause + 0.6 * draw()
    a, b = (cause, effect) if forward else (effect, cause)
    return pd.DataFrame({"a": a, "b": b})


@pytest.mark.parametrize("noise", ["uniform", "laplace", "exponential"])
@pytest.mark.parametrize("forward", [True, False])
def test_one_edge_points_from_cause_to_effect_as_directlingam_orders_the_pair(noise, forward):
    # two variables: BOSS leaves a - b undirected; the ratio orients it as DirectLiNGAM
    # (whose order equals lingam's on the stored oracle cases) orders the pair, which here is
    # the true direction
    X = _pair(noise, 3, forward)
    est = LiNGAMOrientation(BOSS(random_state=0)).fit(X)
    assert est.cpdag_.has_edge("a", "b") and est.cpdag_.has_edge("b", "a")
    expected = ("a", "b") if forward else ("b", "a")
    assert sorted(est.graph_.edges()) == [expected]
    assert DirectLiNGAM().fit(X).causal_order_ == list(expected)
    assert list(est.ratios_) == [expected] and est.ratios_[expected] > 0
    assert est.n_oriented_ == 1 and est.graph_.graph["kind"] == "dag"


def _non_gaussian(seed: int, p: int = 15, noise: str = "uniform"):
    dag = make_erdos_renyi_dag(p, 2 * p, random_state=seed)
    sem = make_additive_noise(dag, mechanism="linear", noise=noise, random_state=seed)
    return sem.sample(3000, random_state=seed), dag


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("learner", [BOSS(random_state=0), FGES()], ids=["BOSS", "FGES"])
def test_the_dag_stays_in_the_learners_equivalence_class(seed, learner):
    X, _ = _non_gaussian(seed)
    est = LiNGAMOrientation(learner).fit(X)
    names = list(X.columns)
    A = to_adjacency(est.graph_, names)
    cpdag = to_adjacency(est.cpdag_, names)
    assert nx.is_directed_acyclic_graph(est.graph_)
    assert not undirected_part(A).any()
    # same skeleton and v-structures: the CPDAG of the result is the learner's CPDAG
    np.testing.assert_array_equal(dag_to_cpdag_array(A), cpdag)
    # every edge the learner had directed keeps its direction
    directed = (cpdag == 1) & (cpdag.T == 0)
    assert (A[directed] == 1).all()
    assert est.n_oriented_ <= int(undirected_part(cpdag).sum()) // 2


def _oriented_right(est, truth) -> tuple[int, int]:
    """Among the CPDAG's undirected edges that are true adjacencies: right, and all."""
    right = total = 0
    for u, v in est.cpdag_.edges():
        if u < v and est.cpdag_.has_edge(v, u) and (truth.has_edge(u, v) or truth.has_edge(v, u)):
            total += 1
            right += truth.has_edge(u, v) == est.graph_.has_edge(u, v)
    return right, total


@pytest.mark.slow
def test_non_gaussian_noise_orients_the_undirected_edges_the_true_way():
    # five seeds of 15-variable linear models with uniform noise, n = 3,000: the ratios orient
    # the edges BOSS leaves undirected as the truth does, far above the half that any
    # orientation of the class would get on average; on Gaussian noise they cannot
    right = total = 0
    for seed in range(5):
        X, dag = _non_gaussian(seed)
        r, t = _oriented_right(LiNGAMOrientation(BOSS(random_state=0)).fit(X), dag)
        right, total = right + r, total + t
    assert total >= 20
    assert right / total >= 0.85


def test_knowledge_of_the_learner_is_kept():
    X, dag = _non_gaussian(1)
    est = LiNGAMOrientation(BOSS(random_state=0)).fit(X)
    # forbid the direction the ratios chose for the most confident pair: it turns round
    (u, v), _ = max(est.ratios_.items(), key=lambda item: item[1])
    ruled = LiNGAMOrientation(BOSS(forbidden_edges=[(u, v)], random_state=0)).fit(X)
    assert ruled.graph_.has_edge(v, u) and not ruled.graph_.has_edge(u, v)


def test_default_learner_is_seeded_and_deterministic():
    X, _ = _non_gaussian(4, p=10)
    a = LiNGAMOrientation(random_state=3).fit(X)
    b = LiNGAMOrientation(random_state=3).fit(X)
    assert sorted(a.graph_.edges()) == sorted(b.graph_.edges())
    assert type(a.estimator_).__name__ == "BOSS"


def test_a_dag_learner_leaves_nothing_to_orient():
    X, _ = _non_gaussian(2, p=10)
    inner = DirectLiNGAM().fit(X)
    est = LiNGAMOrientation(DirectLiNGAM()).fit(X)
    assert est.n_oriented_ == 0 and est.ratios_ == {}
    assert sorted(est.graph_.edges()) == sorted(inner.graph_.edges())


def test_refusals_name_what_to_do():
    X, _ = _non_gaussian(0, p=6)
    with pytest.raises(ValueError, match="FCI learns a PAG"):
        LiNGAMOrientation(FCI(ci_test="fisher_z")).fit(X)
    with pytest.raises(ValueError, match="LiNGAMOrientation models continuous data only"):
        LiNGAMOrientation().fit(load_network("asia").sample(200, random_state=0))
    with pytest.raises(ValueError, match="estimator"):
        LiNGAMOrientation(estimator="boss").fit(X)


def test_score_samples_reads_the_oriented_dag():
    X, _ = _non_gaussian(3, p=8)
    est = LiNGAMOrientation(BOSS(random_state=0)).fit(X)
    dag = to_adjacency(est.graph_, list(X.columns))
    assert pdag_to_dag_array(dag) is not None
    # Markov-equivalent DAGs fit the same Gaussian to the data (up to the one-pseudo-row
    # shrinkage of each residual variance): the learner's CPDAG and our DAG score alike
    assert est.score(X) == pytest.approx(est.estimator_.score(X), rel=1e-4)
