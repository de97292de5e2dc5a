# SPDX-License-Identifier: BSD-3-Clause
"""The Gaussian score of every one-parent addition at once, against scoring each family
and against scoring one addition alone."""

import numpy as np
import pytest

from skbn._kernels.gaussian import (
    addition_gaussian_loglik,
    addition_gaussian_loglik_one,
    gaussian_loglik,
)


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


@pytest.mark.parametrize("k", [0, 1, 3, 7])
@pytest.mark.parametrize("collinear, constant", [(False, False), (True, False), (True, True)])
def test_one_addition_alone_gives_the_rows_bits(k, collinear, constant):
    # BOSS's trees keep which additions improve a parent set and rescore the one a walk
    # takes: its graphs stay the same only if that score is the row's to the last bit
    n, p = 40, 12
    cov = _covariance(n, p, seed=10 + k, collinear=collinear, constant=constant)
    diag = np.ascontiguousarray(np.diag(cov))
    for child in (2, 3):
        parents = np.sort(np.array([0, 1, 4, 5, 6, 8, 10][:k], dtype=np.int64))
        row = addition_gaussian_loglik(cov, diag, n, child, parents)
        alone = [addition_gaussian_loglik_one(cov, diag, n, child, parents, x) for x in range(p)]
        assert np.array_equal(row, np.array(alone))  # -inf at the child and the parents too
