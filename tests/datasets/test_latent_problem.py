# SPDX-License-Identifier: BSD-3-Clause
"""make_latent_problem: hidden variables, measured data and the true PAG."""

import numpy as np
import pytest

from skbn.datasets import make_latent_problem, make_problem
from skbn.graph import dag_to_pag, marked_edges


def test_latents_are_hidden_common_causes_and_the_pag_is_the_truth():
    problem = make_latent_problem("alarm", n_samples=300, random_state=3)
    X, dag, latents, pag = problem
    assert len(latents) == round(0.1 * dag.number_of_nodes())
    assert all(dag.out_degree(v) >= 2 for v in latents)
    assert list(X.columns) == [v for v in dag if v not in latents]
    assert marked_edges(pag) == marked_edges(dag_to_pag(dag, latents))
    # the measured columns are those of the full problem, drawn the same way
    again = make_latent_problem("alarm", n_samples=300, random_state=3)
    assert again.latents == latents and again.X.equals(X)


def test_named_latents_and_discrete_data():
    problem = make_latent_problem(
        "asia", latents=["smoke"], n_samples=400, kind="discrete", random_state=0
    )
    assert problem.latents == ["smoke"] and "smoke" not in problem.X.columns
    assert all(str(t) == "category" for t in problem.X.dtypes)
    # smoke causes lung and bronc: hidden, it makes them adjacent (the DAG has no such arc),
    # and nothing else in asia tells a hidden cause from an arc between them
    assert not problem.dag.has_edge("lung", "bronc") and not problem.dag.has_edge("bronc", "lung")
    assert "lung o-o bronc" in marked_edges(problem.pag)


def test_mixed_data_with_hidden_nodes():
    problem = make_latent_problem("alarm", n_latent=3, kind="mixed", n_samples=500, random_state=1)
    X, dag, latents, pag = problem
    kinds = {c: str(t) for c, t in X.dtypes.items()}
    continuous = [c for c, t in kinds.items() if t == "float64"]
    assert 0 < len(continuous) < X.shape[1]
    assert all(t in ("float64", "category") for t in kinds.values())
    # standardised continuous columns; no discrete node has a continuous parent
    assert np.allclose(X[continuous].mean(), 0, atol=1e-9)
    assert np.allclose(X[continuous].std(), 1)
    assert not any(kinds.get(v) == "category" and kinds.get(u) == "float64" for u, v in dag.edges())
    assert not set(latents) & set(X.columns)
    assert marked_edges(pag) == marked_edges(dag_to_pag(dag, latents))
    with pytest.raises(ValueError, match="n_nodes is not supported"):
        make_latent_problem("alarm", kind="mixed", n_nodes=100, random_state=0)


def test_the_measured_data_are_the_full_problems_columns():
    full, _ = make_problem("child", n_samples=200, random_state=np.random.RandomState(1))
    problem = make_latent_problem("child", n_latent=2, n_samples=200, random_state=5)
    assert problem.X.shape == (200, full.shape[1] - 2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_latent": 0}, "between 1 and"),
        ({"n_latent": 7}, "between 1 and"),
        ({"n_latent": 1.5}, "must be an int"),
        ({"latents": ["nope"]}, "not nodes"),
        ({"latents": ["smoke"], "n_latent": 1}, "not both"),
    ],
)
def test_bad_latent_requests_are_refused(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make_latent_problem("asia", n_samples=50, random_state=0, **kwargs)
