# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels of DirectLiNGAM's causal-order search (pairwise likelihood ratios).

For standardised ``x_i``, ``x_j`` with correlation ``rho``, the residuals
``r_ij = x_i - rho x_j`` and ``r_ji = x_j - rho x_i`` (each rescaled to variance 1) give the
difference of mutual informations of Hyvarinen & Smith (2013),
``d_ij = H(x_j) + H(r_ij) - H(x_i) - H(r_ji)``, with the maximum-entropy approximation of
the differential entropy ``H(u) = (1 + log 2 pi) / 2 - k1 (E log cosh u - gamma)^2 -
k2 (E u exp(-u^2 / 2))^2``. ``d_ji = -d_ij``, so each unordered pair is evaluated once. A
variable with no remaining parent has ``d_ij >= 0`` against every other (in the limit), so
the search takes the variable with the smallest ``sum_j min(0, d_ij)^2``.

Columns are held as rows (``(k, n)``, C-contiguous) so that every pass over a variable reads
contiguous memory. Every function trusts its input: ``skbn.learners`` validates first.
"""

import math

import numpy as np
from numba import njit, prange

from skbn._kernels.fastmath import exp_neg, log1p_unit
from skbn._kernels.lars import lasso_bic_support

__all__ = ["adaptive_lasso_weights", "order_scores", "pair_differences", "regress_out"]

_K1 = 79.047
_K2 = 7.4129
_GAMMA = 0.37457
_H0 = (1.0 + math.log(2.0 * math.pi)) / 2.0
_LOG2 = math.log(2.0)


@njit(cache=True, nogil=True, inline="always", error_model="numpy", fastmath=True)
def _log_cosh(u):
    """``log(cosh(u))`` with one exponential: ``|u| + log1p(exp(-2 |u|)) - log 2``."""
    a = abs(u)
    return a + log1p_unit(exp_neg(2.0 * a)) - _LOG2


# The loops over the rows below are compiled with fastmath so that they run as SIMD code
# (skbn._kernels.fastmath); their sums are then reassociated, which moves a result by a few
# units in the last place, never a decision of the search (tests/learners/test_lingam.py
# checks the order and weights against lingam's).


@njit(cache=True, nogil=True, error_model="numpy", fastmath=True)
def _entropy(u):
    """The entropy approximation of ``u`` (standardised)."""
    n = u.shape[0]
    a = 0.0
    b = 0.0
    for t in range(n):
        v = u[t]
        a += _log_cosh(v)
        b += v * exp_neg(0.5 * v * v)
    a /= n
    b /= n
    return _H0 - _K1 * (a - _GAMMA) ** 2 - _K2 * b * b


@njit(cache=True, nogil=True)
def _standardise_rows(X):
    k, n = X.shape
    out = np.empty((k, n))
    for i in range(k):
        mean = 0.0
        for t in range(n):
            mean += X[i, t]
        mean /= n
        var = 0.0
        for t in range(n):
            d = X[i, t] - mean
            var += d * d
        sd = math.sqrt(var / n)
        for t in range(n):
            out[i, t] = (X[i, t] - mean) / sd
    return out


@njit(cache=True, nogil=True)
def _covariance(xs, ys):
    n = xs.shape[0]
    mx = 0.0
    my = 0.0
    for t in range(n):
        mx += xs[t]
        my += ys[t]
    mx /= n
    my /= n
    c = 0.0
    v = 0.0
    for t in range(n):
        c += (xs[t] - mx) * (ys[t] - my)
        v += (ys[t] - my) * (ys[t] - my)
    return c / n, v / n


@njit(cache=True, nogil=True, error_model="numpy", fastmath=True)
def _pair_difference(zi, zj, mi, mj, vi, vj, hi, hj):
    """``d_ij`` of two standardised rows (means ``m``, variances ``v``, entropies ``h``)."""
    n = zi.shape[0]
    cov = 0.0
    for t in range(n):
        cov += zi[t] * zj[t]
    cov = cov / n - mi * mj
    rho_ij = cov / vj  # x_i on x_j
    rho_ji = cov / vi  # x_j on x_i
    # the residuals' standard deviations, from the moments (no pass over the data)
    s_ij = math.sqrt(max(vi - 2.0 * rho_ij * cov + rho_ij * rho_ij * vj, 1e-300))
    s_ji = math.sqrt(max(vj - 2.0 * rho_ji * cov + rho_ji * rho_ji * vi, 1e-300))
    inv_ij = 1.0 / s_ij
    inv_ji = 1.0 / s_ji
    a_ij = 0.0
    b_ij = 0.0
    a_ji = 0.0
    b_ji = 0.0
    for t in range(n):
        u = (zi[t] - rho_ij * zj[t]) * inv_ij
        w = (zj[t] - rho_ji * zi[t]) * inv_ji
        a_ij += _log_cosh(u)
        b_ij += u * exp_neg(0.5 * u * u)
        a_ji += _log_cosh(w)
        b_ji += w * exp_neg(0.5 * w * w)
    h_ij = _H0 - _K1 * (a_ij / n - _GAMMA) ** 2 - _K2 * (b_ij / n) ** 2
    h_ji = _H0 - _K1 * (a_ji / n - _GAMMA) ** 2 - _K2 * (b_ji / n) ** 2
    return (hj + h_ij) - (hi + h_ji)


@njit(cache=True, nogil=True, parallel=True)
def _standardised_moments(X):
    """The rows of ``X`` standardised, and each one's entropy, mean and variance after that."""
    k, n = X.shape
    Z = _standardise_rows(X)
    entropy = np.empty(k)
    means = np.empty(k)
    variances = np.empty(k)
    for i in prange(k):
        entropy[i] = _entropy(Z[i])
        mean = 0.0
        for t in range(n):
            mean += Z[i, t]
        mean /= n
        var = 0.0
        for t in range(n):
            var += (Z[i, t] - mean) ** 2
        means[i] = mean
        variances[i] = var / n
    return Z, entropy, means, variances


@njit(cache=True, nogil=True, parallel=True)
def order_scores(X, candidates):
    """``sum_j min(0, d_ij)^2`` of each candidate ``i`` over every other remaining ``j``.

    Parameters
    ----------
    X : float64 array (k, n)
        The remaining variables (their residuals so far), one per row.
    candidates : bool array (k,)
        The rows that may come next in the order (background knowledge).

    Returns
    -------
    float64 array (k,)
        The score of each candidate (``inf`` for the others). ``d_ij`` is computed once
        per pair with a candidate in it, in two passes over the rows.
    """
    k = X.shape[0]
    Z, entropy, means, variances = _standardised_moments(X)
    # pairs (i, j), i < j, in one flat range so that threads get equal shares
    D = np.zeros((k, k))
    n_pairs = k * (k - 1) // 2
    for q in prange(n_pairs):
        # invert q = i * (2k - i - 1) / 2 + (j - i - 1)
        i = int((2 * k - 1 - math.sqrt((2 * k - 1) ** 2 - 8 * q)) // 2)
        while i > 0 and i * (2 * k - i - 1) // 2 > q:
            i -= 1
        while (i + 1) * (2 * k - i - 2) // 2 <= q:
            i += 1
        j = q - i * (2 * k - i - 1) // 2 + i + 1
        if not (candidates[i] or candidates[j]):
            continue
        d = _pair_difference(
            Z[i], Z[j], means[i], means[j], variances[i], variances[j], entropy[i], entropy[j]
        )
        D[i, j] = d
        D[j, i] = -d
    out = np.full(k, np.inf)
    for i in prange(k):
        if not candidates[i]:
            continue
        total = 0.0
        for j in range(k):
            if j != i and D[i, j] < 0.0:
                total += D[i, j] * D[i, j]
        out[i] = total
    return out


@njit(cache=True, nogil=True, parallel=True)
def regress_out(X, m):
    """Replace every row but ``m`` by its residual of the regression on row ``m``."""
    k, n = X.shape
    for i in prange(k):
        if i == m:
            continue
        cov, var = _covariance(X[i], X[m])
        beta = cov / var
        for t in range(n):
            X[i, t] -= beta * X[m, t]


@njit(cache=True, nogil=True, parallel=True)
def pair_differences(X, first, second):
    """``d_ij`` of each pair ``(first[e], second[e])`` of the rows of ``X``.

    ``d_ij > 0`` says ``x_i -> x_j`` (``x_i`` is the likelier cause), as in
    :func:`order_scores`; each variable is standardised over all of its values.

    Parameters
    ----------
    X : float64 array (k, n)
        The variables, one per row.
    first, second : int64 arrays (m,)
        The pairs.

    Returns
    -------
    float64 array (m,)
    """
    Z, entropy, means, variances = _standardised_moments(X)
    m = first.shape[0]
    out = np.empty(m)
    for e in prange(m):
        i = first[e]
        j = second[e]
        out[e] = _pair_difference(
            Z[i], Z[j], means[i], means[j], variances[i], variances[j], entropy[i], entropy[j]
        )
    return out


@njit(cache=True, nogil=True)
def _slopes(moments, predictors, target):
    """Least-squares slopes (with an intercept) of ``target`` on ``predictors``.

    From the covariance matrix: ``S_PP^{-1} S_Pt``.
    """
    block = np.ascontiguousarray(moments[predictors][:, predictors])
    return np.linalg.solve(block, np.ascontiguousarray(moments[predictors, target]))


@njit(cache=True, nogil=True)
def adaptive_lasso_weights(covariance, order, allowed, required, gamma, n):
    """Each variable's adaptive-lasso regression on those before it in ``order``.

    lingam's pruning: on the standardised columns, each predictor is scaled by
    ``|OLS slope|^gamma``, ``LassoLarsIC(criterion="bic")`` picks the predictors to keep
    (:func:`skbn._kernels.lars.lasso_bic_support`, from the moments), and the kept ones
    (with the ``required`` arcs) are refitted by least squares on the original scale.

    Parameters
    ----------
    covariance : float64 array (p, p)
        The covariance matrix of the data (divided by n).
    order : int64 array (p,)
        The causal order, causes first.
    allowed, required : bool arrays (p, p)
        ``[u, v]``: the arc ``u -> v`` may / must be in the result.
    gamma : float
        The adaptive lasso's exponent.
    n : int
        The number of rows.

    Returns
    -------
    float64 array (p, p)
        ``B[u, v]``: the coefficient of ``u`` in the regression of ``v`` (0 without an arc).
    """
    p = covariance.shape[0]
    sd = np.sqrt(np.diag(covariance))
    correlation = covariance / np.outer(sd, sd)
    B = np.zeros((p, p))
    for k in range(1, p):
        target = order[k]
        count = 0
        for j in order[:k]:
            if allowed[j, target]:
                count += 1
        if count == 0:
            continue
        predictors = np.empty(count, dtype=np.int64)
        count = 0
        for j in order[:k]:
            if allowed[j, target]:
                predictors[count] = j
                count += 1
        slopes = _slopes(correlation, predictors, target)
        scale = np.abs(slopes) ** gamma
        # the BIC's noise variance is that of the least-squares fit on the same columns
        # (scaling them leaves its fitted values alone), as LassoLarsIC estimates it; an
        # exact fit keeps it positive, so the criterion keeps what lowers the RSS
        residual = 1.0 - correlation[predictors, target] @ slopes
        residual = max(residual, np.finfo(np.float64).tiny)
        noise = n * residual / (n - count - 1)
        gram = n * correlation[predictors][:, predictors] * np.outer(scale, scale)
        xy = n * correlation[predictors, target] * scale
        kept = lasso_bic_support(gram, xy, float(n), n, noise)
        for q in range(count):
            kept[q] = (kept[q] and scale[q] > 0.0) or required[predictors[q], target]
        chosen = predictors[kept]
        if chosen.shape[0] > 0:
            B[chosen, target] = _slopes(covariance, chosen, target)
    return B
