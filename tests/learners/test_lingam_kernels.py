# SPDX-License-Identifier: BSD-3-Clause
"""The kernels under DirectLiNGAM: SIMD-friendly exp/log1p and the lasso's LARS path."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numba import njit
from sklearn.linear_model import LassoLarsIC, lars_path

from skbn._kernels.fastmath import exp_neg, log1p_unit
from skbn._kernels.lars import lasso_bic_support


@njit(cache=False, error_model="numpy", fastmath=True)
def _exp_neg_all(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = exp_neg(a[i])
    return out


@njit(cache=False, error_model="numpy", fastmath=True)
def _log1p_unit_all(t):
    out = np.empty_like(t)
    for i in range(t.shape[0]):
        out[i] = log1p_unit(t[i])
    return out


def test_exp_neg_matches_numpy_to_the_last_bits():
    rng = np.random.default_rng(0)
    a = np.concatenate(
        [
            [0.0, 1e-300, 1e-12, 0.5 * np.log(2), np.log(2), 1.0, 699.9],
            rng.uniform(0, 1, 20_000),
            rng.uniform(0, 50, 20_000),
            rng.uniform(0, 700, 20_000),
            10.0 ** rng.uniform(-20, 0, 20_000),
        ]
    )
    relative = np.abs(_exp_neg_all(a) - np.exp(-a)) / np.exp(-a)
    assert relative.max() < 5e-16


def test_exp_neg_clips_far_in_the_tail():
    out = _exp_neg_all(np.array([700.0, 800.0, 1e6]))
    np.testing.assert_allclose(out, np.exp(-700.0), rtol=5e-16)


def test_log1p_unit_matches_numpy_to_the_last_bits():
    rng = np.random.default_rng(1)
    t = np.concatenate(
        [
            [0.0, 1e-300, 1e-16, 1e-8, 0.5, 1.0],
            rng.uniform(0, 1, 50_000),
            10.0 ** rng.uniform(-300, 0, 50_000),
        ]
    )
    got = _log1p_unit_all(t)
    assert got[0] == 0.0
    relative = np.abs(got[1:] - np.log1p(t[1:])) / np.log1p(t[1:])
    assert relative.max() < 5e-16


def _case(rng):
    n = int(rng.choice([30, 100, 1000]))
    k = int(rng.integers(1, 25))
    mixing = np.eye(k) + rng.uniform(0, 1.5) * rng.normal(size=(k, k))
    X = rng.normal(size=(n, k)) @ mixing
    beta = rng.normal(size=k) * (rng.uniform(size=k) < 0.4)
    y = X @ beta + rng.uniform(0.2, 3.0) * rng.normal(size=n)
    X = (X - X.mean(0)) / X.std(0)
    y = (y - y.mean()) / y.std()
    weights = np.abs(np.linalg.lstsq(X, y, rcond=None)[0])  # lingam's adaptive weights
    return X * weights, y


def _drops(X, y) -> bool:
    """Whether the lasso path of (X, y) has a variable leave the active set."""
    _, _, path = lars_path(X, y, method="lasso")
    nonzero = path != 0
    return bool((nonzero[:, :-1] & ~nonzero[:, 1:]).any())


def test_lasso_bic_support_chooses_what_lasso_lars_ic_chooses():
    rng = np.random.default_rng(2)
    cases = [c for c in (_case(rng) for _ in range(300)) if c[0].shape[0] > c[0].shape[1] + 1]
    drops = 0
    for X, y in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference = LassoLarsIC(criterion="bic").fit(X, y)
            drops += _drops(X, y)
        n = X.shape[0]
        ours = lasso_bic_support(X.T @ X, X.T @ y, float(y @ y), n, reference.noise_variance_)
        np.testing.assert_array_equal(ours, reference.coef_ != 0)
    # the path's lasso step (a variable leaving) is exercised, not only LARS's
    assert len(cases) > 250 and drops >= 10


@pytest.mark.parametrize("k", [1, 2])
def test_lasso_bic_support_on_the_smallest_problems(k):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, k))
    y = X[:, 0] + rng.normal(size=50)
    X = X - X.mean(0)
    y = y - y.mean()
    reference = LassoLarsIC(criterion="bic").fit(X, y)
    ours = lasso_bic_support(X.T @ X, X.T @ y, float(y @ y), 50, reference.noise_variance_)
    np.testing.assert_array_equal(ours, reference.coef_ != 0)
    assert ours[0]
