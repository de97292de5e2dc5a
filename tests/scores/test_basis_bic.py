# SPDX-License-Identifier: BSD-3-Clause
"""BasisFunctionBIC: Tetrad's scores (stored oracle), the embedding, and what it finds."""

import numpy as np
import pytest

from skbn.learners import BOSS, FGES, GRaSP, HillClimb
from skbn.scores import BasisFunctionBIC, GaussianBIC, get_score
from skbn.scores._basis import legendre_embedding
from tests.data import load_oracle
from tests.data.make_basis_bic_oracle import case_data


def test_equals_half_of_tetrads_basis_function_bic_score():
    oracle = load_oracle("basis_bic_oracle")
    compared = 0
    for case in oracle["cases"]:
        X = case_data(case["seed"], case["n"])
        assert X.to_numpy().sum() == pytest.approx(case["data_sum"], rel=1e-12)
        bound = BasisFunctionBIC(
            truncation=case["truncation"], penalty_discount=case["penalty_discount"]
        ).bind(X)
        for (child, parents), theirs in zip(case["families"], case["tetrad"]):
            # Tetrad reports 2 * (log-likelihood - penalty), as for its SEM BIC
            assert 2 * bound.local_score(child, parents) == pytest.approx(theirs, rel=1e-9)
            compared += 1
    assert compared == 220


def test_the_embedding_is_scaled_legendre_polynomials():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(50, 2))
    E = legendre_embedding(values, 4)
    x = -1 + 2 * (values - values.min(axis=0)) / np.ptp(values, axis=0)
    for j in range(2):
        by_numpy = np.polynomial.legendre.legvander(x[:, j], 4)[:, 1:]
        assert np.allclose(E[:, j * 4 : j * 4 + 4], by_numpy, atol=1e-12)
    assert E.min() >= -1 - 1e-12 and E.max() <= 1 + 1e-12


def test_truncation_one_is_the_linear_bic_without_intercept_and_variance_terms():
    # with P_1 only the embedding is an affine rescaling of each column, so the local
    # score is GaussianBIC's log-likelihood (up to the n - 1 covariance), less one penalty
    # per parent instead of k + 2 parameters: the gains of adding a parent agree
    X = case_data(0, 400)
    basis = BasisFunctionBIC(truncation=1).bind(X)
    linear = GaussianBIC().bind(X)
    for child, parents in [(0, [2]), (3, [0, 1]), (4, [3])]:
        gain_basis = basis.local_score(child, parents) - basis.local_score(child, [])
        gain_linear = linear.local_score(child, parents) - linear.local_score(child, [])
        assert gain_basis == pytest.approx(gain_linear, rel=0.01)


@pytest.mark.parametrize("learner", [HillClimb, BOSS, GRaSP, FGES])
def test_learners_find_the_nonlinear_edges_the_linear_score_misses(learner):
    X = case_data(5, 1000)
    truth = {frozenset(e) for e in [("z", "x"), ("z", "y"), ("x", "w"), ("y", "w"), ("w", "v")]}
    params = {} if learner is FGES else {"random_state": 0}

    def skeleton(score):
        return {frozenset(e) for e in learner(score, **params).fit(X).graph_.edges()}

    found, linear = skeleton(BasisFunctionBIC()), skeleton(GaussianBIC())
    assert truth <= found  # every true adjacency, y = z**2 and w = x * y included
    assert frozenset(("z", "y")) not in linear  # invisible to a linear score


def test_registered_and_refuses_bad_input():
    assert isinstance(get_score("basis-bic", "gaussian"), BasisFunctionBIC)
    with pytest.raises(ValueError, match="not defined for discrete data"):
        get_score("basis-bic", "discrete")
    X = case_data(0, 100).assign(c=1.0)
    with pytest.raises(ValueError, match=r"constant columns to \[-1, 1\]: \['c'\]"):
        BasisFunctionBIC().bind(X)
    with pytest.raises(ValueError, match="truncation"):
        BasisFunctionBIC(truncation=0).bind(case_data(0, 100))


def test_a_singular_parent_block_falls_back_to_the_pseudo_inverse():
    # a duplicated column makes the parents' block singular: the likelihood is that of the
    # one column (the least-squares fit is the same), only the penalty counts both
    X = case_data(0, 500)
    X["z2"] = X["z"]
    bound = BasisFunctionBIC(truncation=3).bind(X)
    z, z2, y = (list(X.columns).index(c) for c in ("z", "z2", "y"))
    one = bound._loglik(y, np.array([z]))
    both = bound._loglik(y, np.array([z, z2]))
    assert np.isfinite(both) and both == pytest.approx(one, rel=1e-8)
