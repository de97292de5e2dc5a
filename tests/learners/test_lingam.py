# SPDX-License-Identifier: BSD-3-Clause
"""DirectLiNGAM against lingam's stored outputs, and its own properties."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import make_additive_noise, make_erdos_renyi_dag
from skbn.learners import DirectLiNGAM
from skbn.metrics import shd
from tests.data.make_lingam_oracle import case_data, case_tiers

ORACLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "lingam_oracle.json").read_text()
)["cases"]


def test_oracle_covers_background_knowledge():
    assert len(ORACLE) >= 40 and any(c["tiers"] for c in ORACLE)


@pytest.mark.parametrize("case", ORACLE, ids=lambda c: f"s{c['seed']}p{c['p']}")
def test_equals_lingam(case):
    X, dag = case_data(case["seed"], case["p"], case["n"], case["noise"])
    assert X.to_numpy().sum() == pytest.approx(case["data_sum"], rel=1e-12)
    tiers = case_tiers(dag) if case["tiers"] else None
    est = DirectLiNGAM(tiers=tiers).fit(X)
    assert est.causal_order_ == [X.columns[j] for j in case["causal_order"]]
    # lingam's adjacency_matrix_[child, parent]; skbn's [parent, child]
    np.testing.assert_allclose(
        est.adjacency_matrix_, np.array(case["adjacency"]).T, rtol=0, atol=1e-8
    )


def test_recovers_a_dag_from_non_gaussian_noise():
    dag = make_erdos_renyi_dag(12, 18, random_state=3)
    model = make_additive_noise(dag, mechanism="linear", noise="laplace", random_state=3)
    est = DirectLiNGAM().fit(model.sample(3000, random_state=4))
    assert est.graph_.graph["kind"] == "dag"
    assert shd(dag, est.graph_) <= 2


def test_column_order_changes_nothing_but_positions():
    dag = make_erdos_renyi_dag(8, 10, random_state=5)
    X = make_additive_noise(dag, mechanism="linear", noise="uniform", random_state=5).sample(
        1500, random_state=6
    )
    flipped = X[X.columns[::-1]]
    a, b = DirectLiNGAM().fit(X), DirectLiNGAM().fit(flipped)
    assert a.causal_order_ == b.causal_order_
    assert set(a.graph_.edges) == set(b.graph_.edges)


def test_required_arc_is_kept_and_ordered():
    graph = nx.DiGraph([("a", "b"), ("b", "c")])
    X = make_additive_noise(graph, mechanism="linear", noise="uniform", random_state=0).sample(
        1000, random_state=0
    )
    est = DirectLiNGAM(required_edges=[("c", "a")]).fit(X)
    assert ("c", "a") in est.graph_.edges
    assert est.causal_order_.index("c") < est.causal_order_.index("a")


def test_forbidden_arc_is_left_out():
    graph = nx.DiGraph([("a", "b"), ("b", "c")])
    X = make_additive_noise(graph, mechanism="linear", noise="uniform", random_state=0).sample(
        1000, random_state=0
    )
    assert ("a", "b") in DirectLiNGAM().fit(X).graph_.edges
    assert ("a", "b") not in DirectLiNGAM(forbidden_edges=[("a", "b")]).fit(X).graph_.edges


def test_n_jobs_does_not_change_the_result():
    dag = make_erdos_renyi_dag(10, 15, random_state=1)
    X = make_additive_noise(dag, mechanism="linear", noise="exponential", random_state=1).sample(
        800, random_state=2
    )
    one, two = DirectLiNGAM(n_jobs=1).fit(X), DirectLiNGAM(n_jobs=2).fit(X)
    assert one.causal_order_ == two.causal_order_
    np.testing.assert_array_equal(one.adjacency_matrix_, two.adjacency_matrix_)


def test_refuses_discrete_data():
    X = make_additive_noise(nx.DiGraph([("a", "b")]), random_state=0).sample(100, random_state=0)
    with pytest.raises(ValueError, match="gaussian|continuous|float"):
        DirectLiNGAM().fit(X.round().astype(int))


def test_refuses_fewer_rows_than_columns_before_any_work():
    X = pd.DataFrame(np.random.default_rng(0).uniform(size=(6, 8)), columns=list("abcdefgh"))
    with pytest.raises(ValueError, match="more rows than columns.*6 rows and 8 columns"):
        DirectLiNGAM().fit(X)


def test_an_exact_linear_relation_gives_finite_weights():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.uniform(size=(200, 3)), columns=list("abc"))
    X["d"] = X.a + X.b
    est = DirectLiNGAM().fit(X)
    assert np.isfinite(est.adjacency_matrix_).all() and len(est.causal_order_) == 4
