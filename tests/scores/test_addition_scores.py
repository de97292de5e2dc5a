# SPDX-License-Identifier: BSD-3-Clause
"""The Gaussian score of every one-parent addition at once, against scoring each family."""

import numpy as np
import pytest

from skbn._kernels.gaussian import addition_gaussian_loglik, gaussian_loglik


def _covariance(n, p, seed, collinear=False, constant=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    X[:, 2] += 0.8 * X[:, 0] - 0.5 * X[:, 1]
    if collinear:  # column 4 is column 0 doubled, up to rounding
        X[:, 4] = 2.0 * X[:, 0] + 1e-12 * rng.standard_normal(n)
    if constant:
        X[:, 5] = 3.0
    return np.cov(X, rowvar=False, bias=True)


@pytest.mark.parametrize("k", [0, 1, 3, 7])
@pytest.mark.parametrize("collinear, constant", [(False, False), (True, False), (True, True)])
def test_each_addition_scores_as_its_own_family(k, collinear, constant):
    n, p = 40, 12
    cov = _covariance(n, p, seed=k, collinear=collinear, constant=constant)
    diag = np.ascontiguousarray(np.diag(cov))
    child = 2
    parents = np.array([0, 1, 4, 5, 6, 8, 10][:k], dtype=np.int64)
    out = addition_gaussian_loglik(cov, diag, n, child, parents)
    for x in range(p):
        if x == child or x in parents:
            assert out[x] == -np.inf
            continue
        family = np.sort(np.append(parents, x)).astype(np.int64)
        direct = gaussian_loglik(cov, n, child, family)
        # the two routes factorise different blocks (P then x, or P + x sorted): they agree
        # to rounding, and exactly where the candidate falls back to the direct formula
        assert out[x] == pytest.approx(direct, rel=1e-9, abs=1e-9)


def test_an_addition_that_explains_the_child_scores_higher():
    n, p = 200, 6
    cov = _covariance(n, p, seed=3)
    diag = np.ascontiguousarray(np.diag(cov))
    out = addition_gaussian_loglik(cov, diag, n, 2, np.array([1], dtype=np.int64))
    # column 2 was built from columns 0 and 1: given 1, adding 0 gains most
    assert np.argmax(out) == 0
    assert out[0] > gaussian_loglik(cov, n, 2, np.array([1], dtype=np.int64))
