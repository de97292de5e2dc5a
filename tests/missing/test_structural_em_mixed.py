# SPDX-License-Identifier: BSD-3-Clause
"""Structural EM on mixed (conditional-Gaussian) and Gaussian data with missing values."""

import math

import numpy as np
import pandas as pd
import pytest

from skbn.data import check_data
from skbn.datasets import load_network, make_conditional_gaussian, make_problem
from skbn.learners import HillClimb, StructuralEM
from skbn.learners._cg_estep import as_mixed, cg_estep
from skbn.metrics import f1_adjacency
from skbn.network._parameters import fit_parameters


def _two_nodes(n=4000, seed=0):
    """A binary g -> continuous y with y = 2 (g == b) + noise."""
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b"], size=n, p=[0.3, 0.7])
    y = 2.0 * (g == "b") + rng.standard_normal(n)
    return pd.DataFrame({"g": pd.Categorical(g), "y": y})


def test_a_missing_parent_is_imputed_by_its_posterior_given_the_child():
    X = _two_nodes()
    data = check_data(X)
    dag = np.array([[0, 1], [0, 0]], np.int8)
    params = fit_parameters(data, dag, 0.0)
    # rows with g missing and y observed at a few values; the posterior of g, by hand
    ys = np.array([-1.0, 0.8, 1.2, 3.0])
    holes = pd.DataFrame({"g": pd.Categorical([None] * 4, categories=["a", "b"]), "y": ys})
    incomplete = check_data(pd.concat([X.iloc[:10], holes], ignore_index=True), missing="allow")
    codes, values, _ = cg_estep(
        incomplete, params, np.array([0, 1]), 4000, np.random.RandomState(0)
    )
    prior = np.exp(params.log_cpts[0][0])
    reg = params.regressions[1]
    keyed = dict(zip(reg.keys.tolist(), range(len(reg.keys))))
    dens = np.array(
        [
            prior[s]
            * np.exp(-0.5 * (ys - reg.intercepts[keyed[s]]) ** 2 / reg.variances[keyed[s]])
            / math.sqrt(reg.variances[keyed[s]])
            for s in range(2)
        ]
    )
    expected = np.argmax(dens, axis=0)
    assert not np.any(np.isclose(dens[0], dens[1], rtol=0.2))  # no near-ties among the cases
    np.testing.assert_array_equal(codes[10:, 0], expected)
    # observed values stay as they were
    np.testing.assert_array_equal(codes[:10, 0], data.codes[:10, 0])
    np.testing.assert_array_equal(values[10:, 1], ys)


def test_a_missing_child_is_imputed_by_its_regression_mean():
    X = _two_nodes(seed=1)
    data = check_data(X)
    params = fit_parameters(data, np.array([[0, 1], [0, 0]], np.int8), 0.0)
    holes = pd.DataFrame({"g": pd.Categorical(["a", "b"]), "y": [np.nan, np.nan]})
    incomplete = check_data(pd.concat([X.iloc[:5], holes], ignore_index=True), missing="allow")
    _, values, _ = cg_estep(incomplete, params, np.array([0, 1]), 20000, np.random.RandomState(1))
    reg = params.regressions[1]
    means = dict(zip(reg.keys.tolist(), reg.intercepts[: len(reg.keys)]))
    sd = np.sqrt(reg.variances[: len(reg.keys)]).max()
    # the weighted mean of 20,000 draws: within 5 standard errors of the regression mean
    assert abs(values[5, 1] - means[0]) < 5 * sd / math.sqrt(20000)
    assert abs(values[6, 1] - means[1]) < 5 * sd / math.sqrt(20000)


@pytest.mark.slow
def test_structural_em_learns_a_conditional_gaussian_network_from_incomplete_data():
    cg = make_conditional_gaussian(load_network("alarm"), 0.3, random_state=0)
    X = cg.sample(2000, random_state=0)
    incomplete = X.mask(np.random.default_rng(0).random(X.shape) < 0.05)
    sem = StructuralEM(random_state=0).fit(incomplete)
    assert sem.imputed_.notna().all().all()
    # observed entries are kept as they were
    seen = incomplete.notna().to_numpy()
    for j, column in enumerate(X.columns):
        if isinstance(X[column].dtype, pd.CategoricalDtype):
            same = sem.imputed_[column].astype(str).to_numpy() == X[column].astype(str).to_numpy()
        else:
            same = np.isclose(sem.imputed_[column].to_numpy(), X[column].to_numpy())
        assert same[seen[:, j]].all()
    # the available-case climb keeps far more wrong arcs at only 5% missing (issue 54)
    hc = HillClimb().fit(incomplete)
    assert f1_adjacency(cg.graph, sem.graph_) > f1_adjacency(cg.graph, hc.graph_) + 0.05
    again = StructuralEM(random_state=0).fit(incomplete)
    assert set(again.graph_.edges) == set(sem.graph_.edges)


def test_structural_em_on_gaussian_data():
    X, truth = make_problem("asia", n_samples=3000, random_state=0)
    incomplete = X.mask(np.random.default_rng(1).random(X.shape) < 0.1)
    sem = StructuralEM(random_state=0).fit(incomplete)
    assert sem.imputed_.notna().all().all()
    assert f1_adjacency(truth, sem.graph_) >= f1_adjacency(
        truth, HillClimb().fit(incomplete).graph_
    )
    assert as_mixed(check_data(X)).discrete.sum() == 0
    with pytest.raises(ValueError, match="fit_tables='em' is for discrete data"):
        StructuralEM(fit_tables="em").fit(incomplete)


def _rare_state(n=400, seed=0):
    """Binary g -> continuous y, with a third state of g seen in a single row."""
    X = _two_nodes(n, seed)
    g = X["g"].astype(str).to_numpy()
    g[0] = "c"
    X["g"] = pd.Categorical(g, categories=["a", "b", "c"])
    return X


def test_a_start_graph_outside_the_cg_model_is_refused_naming_the_family():
    # y's regression in state "c" of g has one row: the CG score of y <- g is -inf, and a
    # climb from there would compare -inf with -inf
    X = _rare_state()
    with pytest.raises(ValueError, match=r"CGBIC scores -inf on this data: 'y' <- \['g'\]"):
        HillClimb(start_graph=[("g", "y")]).fit(X)
    # the same data without that start: the search never proposes the family
    assert HillClimb().fit(X).graph_.number_of_edges() == 0


def test_structural_em_drops_a_family_the_new_completion_cannot_score():
    # the previous iteration's DAG (g -> y) is outside the model on this completion: the
    # next climb starts without y's parents instead of from a -inf score
    X = _rare_state()
    data = check_data(X)
    dag = np.array([[0, 1], [0, 0]], np.int8)
    with np.errstate(invalid="raise"):
        fitted, new = StructuralEM(HillClimb())._maximise(HillClimb(), data, dag, data.names, True)
    assert fitted.start_graph is not None and fitted.start_graph.number_of_edges() == 0
    assert np.isfinite(fitted.score_)
    np.testing.assert_array_equal(new, np.zeros((2, 2), np.int8))


def test_random_restarts_never_climb_from_outside_the_cg_model():
    # a restart's perturbation may add g -> y; such draws are redrawn, so every climb
    # starts from a finite score
    X = _rare_state()
    with np.errstate(invalid="raise"):
        est = HillClimb(n_restarts=20, n_perturbations=1, random_state=0).fit(X)
    assert np.isfinite(est.score_)
    assert est.graph_.number_of_edges() == 0
