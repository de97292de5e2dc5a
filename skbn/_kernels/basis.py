# SPDX-License-Identifier: BSD-3-Clause
"""The basis-function BIC's log-likelihood of one family, from the embedded covariance."""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def basis_loglik(cov, n, child, parents, d, ridge):
    """The Gaussian log-likelihood of a child's embedded columns given its parents'.

    Summed over ``child``'s ``d`` columns, each regressed on all of ``parents``' embedded
    columns (``ridge`` added to their block's diagonal). Column ``j * d + m`` of ``cov`` is
    the ``m``-th polynomial of variable ``j``. Raises when the parents' block is singular
    (the caller falls back to a pseudo-inverse).
    """
    k = parents.shape[0] * d
    out = 0.0
    variances = np.empty(d)
    for m in range(d):
        variances[m] = cov[child * d + m, child * d + m]
    if k > 0:
        block = np.empty((k, k))
        rhs = np.empty((k, d))
        for i in range(k):
            bi = parents[i // d] * d + i % d
            for j in range(k):
                block[i, j] = cov[bi, parents[j // d] * d + j % d]
            block[i, i] += ridge
            for m in range(d):
                rhs[i, m] = cov[bi, child * d + m]
        coef = np.linalg.solve(block, rhs)
        for m in range(d):
            explained = 0.0
            for i in range(k):
                explained += rhs[i, m] * coef[i, m]
            variances[m] -= explained
    for m in range(d):
        v = max(variances[m], 1e-300)
        out += -0.5 * n * (math.log(2.0 * math.pi * v) + 1.0)
    return out
