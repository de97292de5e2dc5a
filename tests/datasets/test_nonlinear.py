# SPDX-License-Identifier: BSD-3-Clause
"""Additive-noise simulators: the truth they claim and the noise they promise."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from scipy import stats

from skbn.datasets import make_additive_noise, make_erdos_renyi_dag


def test_graph_is_the_dag_and_samples_are_seeded():
    dag = make_erdos_renyi_dag(8, 10, random_state=0)
    model = make_additive_noise(dag, random_state=1)
    assert set(model.graph.edges) == set(dag.edges)
    a = model.sample(300, random_state=2)
    assert a.equals(model.sample(300, random_state=2))
    assert not a.equals(model.sample(300, random_state=3))
    assert np.allclose(a.std(ddof=0), 1.0) and np.allclose(a.mean(), 0.0, atol=1e-12)


@pytest.mark.parametrize(
    "noise, kurtosis",
    [("gaussian", 0.0), ("uniform", -1.2), ("laplace", 3.0), ("mixture", -1.31)],
)
def test_root_noise_has_the_named_shape(noise, kurtosis):
    model = make_additive_noise(nx.DiGraph([("a", "b")]), noise=noise, random_state=0)
    root = model.sample(20_000, random_state=0)["a"]
    assert stats.kurtosis(root) == pytest.approx(kurtosis, abs=0.15)


def test_exponential_noise_is_skewed():
    model = make_additive_noise(nx.DiGraph([("a", "b")]), noise="exponential", random_state=0)
    assert stats.skew(model.sample(20_000, random_state=0)["a"]) == pytest.approx(2.0, abs=0.2)


def test_square_mechanism_is_uncorrelated_but_dependent():
    model = make_additive_noise(nx.DiGraph([("a", "b")]), mechanism="square", random_state=0)
    X = model.sample(5000, random_state=0)
    assert abs(np.corrcoef(X["a"], X["b"])[0, 1]) < 0.1
    assert abs(np.corrcoef(X["a"] ** 2, X["b"])[0, 1]) > 0.5


def test_bad_arguments_are_named():
    dag = nx.DiGraph([("a", "b")])
    with pytest.raises(ValueError, match="mechanism"):
        make_additive_noise(dag, mechanism="cube")
    with pytest.raises(ValueError, match="noise"):
        make_additive_noise(dag, noise="cauchy")
    with pytest.raises(ValueError, match="acyclic"):
        make_additive_noise(nx.DiGraph([("a", "b"), ("b", "a")]))
