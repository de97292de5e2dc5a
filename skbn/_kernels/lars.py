# SPDX-License-Identifier: BSD-3-Clause
"""The lasso's LARS path from moment matrices, and its BIC-best point (numba).

``lasso_bic_support`` follows the steps of scikit-learn's ``lars_path`` with a Gram matrix
and ``method="lasso"`` (Efron, Hastie, Johnstone & Tibshirani 2004: a variable enters when
its correlation with the residual reaches the active ones', and leaves when its coefficient
would cross zero), with its tolerances, so that ``LassoLarsIC(criterion="bic")`` and this
kernel choose the same predictors. The active set's equiangular direction is solved afresh
at each step (``|A|`` is at most a few hundred here) instead of by Cholesky updates.

Every function trusts its input: ``skbn.learners`` validates first.
"""

import math

import numpy as np
from numba import njit

__all__ = ["lasso_bic_support"]

_EPS = np.finfo(np.float64).eps
_TINY32 = float(np.finfo(np.float32).tiny)
_EQUALITY = float(np.finfo(np.float32).eps)  # the path stops when alpha is this close to 0
_MAX_ITER = 500  # scikit-learn's default


@njit(cache=True, nogil=True)
def _min_pos(values):
    """The smallest positive entry (the largest float when there is none)."""
    best = np.finfo(np.float64).max
    for v in values:
        if 0.0 < v < best:
            best = v
    return best


@njit(cache=True, nogil=True)
def _lars_lasso_path(gram, xy, n):
    """The coefficient vectors at the breakpoints of the lasso path, one per row."""
    k = xy.shape[0]
    rows = [np.zeros(k)]
    coef = np.zeros(k)
    active = np.zeros(k, dtype=np.bool_)
    sign = np.zeros(k)
    cov = xy.copy()  # X'(y - X coef) of every variable
    order = np.empty(k, dtype=np.int64)  # the active variables, in order of entry
    n_active = 0
    drop = False
    prev_alpha = np.inf
    n_iter = 0
    while True:
        best = -1
        c_max = 0.0
        for j in range(k):
            if not active[j] and abs(cov[j]) > c_max:
                c_max = abs(cov[j])
                best = j
        alpha = c_max / n
        if alpha <= _EQUALITY:
            break
        if n_iter >= _MAX_ITER or n_active >= k:
            break
        if not drop:
            # the entering variable's pivot in the Cholesky factor of the active Gram block
            pivot = gram[best, best]
            if n_active > 0:
                idx = order[:n_active]
                g = np.ascontiguousarray(gram[idx][:, idx])
                b = np.ascontiguousarray(gram[idx, best])
                pivot -= b @ np.linalg.solve(g, b)
            if max(math.sqrt(abs(pivot)), _EPS) < 1e-7:
                cov[best] = 0.0  # degenerate: scikit-learn skips the regressor
                continue
            sign[best] = 1.0 if cov[best] > 0 else -1.0
            active[best] = True
            order[n_active] = best
            n_active += 1
        if n_iter > 0 and prev_alpha < alpha:
            break  # the residues are too small for alpha to be controlled
        idx = order[:n_active]
        g = np.ascontiguousarray(gram[idx][:, idx])
        s = sign[idx]
        direction = np.linalg.solve(g, s)
        aa = 1.0 / math.sqrt(max(np.sum(direction * s), _EPS))
        direction *= aa
        # the change of each inactive variable's correlation per unit step, rounded as
        # scikit-learn rounds it (to the float's 15 decimals)
        gamma = c_max / aa
        change = np.zeros(k)
        for j in range(k):
            if active[j]:
                continue
            a = 0.0
            for q in range(n_active):
                a += gram[idx[q], j] * direction[q]
            a = np.round(a, 15)
            change[j] = a
            g1 = (c_max - cov[j]) / (aa - a + _TINY32)
            g2 = (c_max + cov[j]) / (aa + a + _TINY32)
            if 0.0 < g1 < gamma:
                gamma = g1
            if 0.0 < g2 < gamma:
                gamma = g2
        z = np.empty(n_active)
        for q in range(n_active):
            z[q] = -coef[idx[q]] / (direction[q] + _TINY32)
        z_pos = _min_pos(z)
        drop = z_pos < gamma
        if drop:
            gamma = z_pos
        n_iter += 1
        for q in range(n_active):
            coef[idx[q]] += gamma * direction[q]
        cov -= gamma * change
        if drop:
            leaving = idx[z == z_pos].copy()
            kept = 0
            for q in range(n_active):
                if z[q] != z_pos:
                    order[kept] = idx[q]
                    kept += 1
            n_active = kept
            for j in leaving:
                coef[j] = 0.0
                active[j] = False
                sign[j] = 0.0
            for j in leaving:
                cov[j] = xy[j] - gram[j] @ coef
        prev_alpha = alpha
        rows.append(coef.copy())
    path = np.empty((len(rows), k))
    for r in range(len(rows)):
        path[r] = rows[r]
    return path


@njit(cache=True, nogil=True)
def lasso_bic_support(gram, xy, yy, n, noise):
    """The predictors with a nonzero coefficient at the BIC-best point of the lasso path.

    Parameters
    ----------
    gram : float64 array (k, k)
        ``X'X`` of the (centred) predictors.
    xy : float64 array (k,)
        ``X'y``.
    yy : float
        ``y'y`` of the (centred) target.
    n : int
        The number of rows.
    noise : float
        The noise variance in the criterion (scikit-learn: that of the least-squares fit).

    Returns
    -------
    bool array (k,)
        As ``LassoLarsIC(criterion="bic", noise_variance=noise).coef_ != 0`` on those data.
    """
    path = _lars_lasso_path(gram, xy, n)
    best_value = np.inf
    best_row = 0
    constant = n * math.log(2.0 * math.pi * noise)
    for r in range(path.shape[0]):
        b = path[r]
        rss = yy - 2.0 * (b @ xy) + b @ (gram @ b)
        dof = 0
        for v in b:
            if abs(v) > _EPS:
                dof += 1
        value = constant + rss / noise + math.log(n) * dof
        if value < best_value:
            best_value = value
            best_row = r
    return path[best_row] != 0.0
