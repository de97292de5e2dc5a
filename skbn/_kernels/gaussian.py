# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels for Gaussian family scores from sufficient statistics.

``cov`` is the ``(p, p)`` maximum-likelihood covariance matrix (divisor ``n``) of the data;
a family's residual variance is ``S_yy - S_yP S_PP^{-1} S_Py``, obtained from a Cholesky
factorisation of the parents' block, so a local score costs ``O(k^3)`` whatever ``n`` is.
"""

import math

import numpy as np
from numba import njit

#: Relative floor on residual variances: a (near-)deterministic family keeps a finite score.
VARIANCE_FLOOR = 1e-12


@njit(cache=True)
def _block_cholesky(cov, members, ridge, floor, lower):
    """Cholesky factor of the block of ``cov`` on ``members``, written into ``lower``.

    ``ridge`` is added to the block's diagonal. Returns False when a pivot falls to
    ``floor`` or below (the block is not positive definite).
    """
    k = members.shape[0]
    for a in range(k):
        for b in range(a + 1):
            s = cov[members[a], members[b]]
            if a == b:
                s += ridge
            for c in range(b):
                s -= lower[a, c] * lower[b, c]
            if a == b:
                if s <= floor:
                    return False
                lower[a, a] = math.sqrt(s)
            else:
                lower[a, b] = s / lower[b, b]
    return True


@njit(cache=True)
def _forward_solve(cov, members, column, lower, out):
    """Solve ``lower @ out = cov[members, column]`` (``lower`` from :func:`_block_cholesky`)."""
    for a in range(members.shape[0]):
        s = cov[members[a], column]
        for c in range(a):
            s -= lower[a, c] * out[c]
        out[a] = s / lower[a, a]


@njit(cache=True)
def residual_variance(cov, child, parents):
    """MLE residual variance of ``child`` regressed on ``parents`` (with intercept).

    Parents whose block is singular (collinear or constant columns) are handled by a small
    ridge on the diagonal of their block.
    """
    k = parents.shape[0]
    syy = cov[child, child]
    floor = VARIANCE_FLOOR * max(syy, 1e-300)
    if k == 0:
        return max(syy, floor)
    scale = 0.0
    for a in range(k):
        scale = max(scale, cov[parents[a], parents[a]])
    lower = np.zeros((k, k))
    ridge = 0.0
    for _ in range(8):
        ok = _block_cholesky(cov, parents, ridge, 1e-14 * max(scale, 1e-300), lower)
        if ok:
            # forward substitution: L z = S_Py ; explained variance = |z|^2
            z = np.empty(k)
            _forward_solve(cov, parents, child, lower, z)
            explained = 0.0
            for a in range(k):
                explained += z[a] * z[a]
            return max(syy - explained, floor)
        ridge = max(ridge * 100.0, 1e-10 * max(scale, 1e-300))
    return max(syy, floor)


@njit(cache=True)
def gaussian_loglik(cov, n, child, parents):
    """Maximised Gaussian log-likelihood of a family: ``-n/2 (log(2 pi s2) + 1)``."""
    s2 = residual_variance(cov, child, parents)
    return -0.5 * n * (math.log(2.0 * math.pi * s2) + 1.0)


@njit(cache=True)
def family_logliks(cov, n, children, offsets, lengths, pool, out):
    """Write :func:`gaussian_loglik` of many families into ``out``.

    Family ``i`` is ``children[i]`` with the parents ``pool[offsets[i] : offsets[i] +
    lengths[i]]``.
    """
    for i in range(children.shape[0]):
        parents = pool[offsets[i] : offsets[i] + lengths[i]].astype(np.int64)
        out[i] = gaussian_loglik(cov, n, np.int64(children[i]), parents)


@njit(cache=True)
def centred_loglik(X, means, n, child, parents, block, members, columns):
    """:func:`gaussian_loglik` of a family from the columns ``X`` and their ``means``.

    ``X`` is in Fortran order. The family's columns are centred into ``columns`` (scratch
    of at least ``k + 1`` rows of ``n``), so the data needs no centred copy, and its
    covariance block (divisor ``n``) is formed from them alone; ``block`` and ``members``
    are scratch of at least ``k + 1`` rows and entries.
    """
    k = parents.shape[0]
    for a in range(k + 1):
        j = child if a == 0 else parents[a - 1]
        members[a] = j
        m = means[j]
        for r in range(X.shape[0]):
            columns[a, r] = X[r, j] - m
    for a in range(k + 1):
        col_a = columns[a]
        for b in range(a + 1):
            value = np.dot(col_a, columns[b]) / n
            block[a, b] = value
            block[b, a] = value
    return gaussian_loglik(block[: k + 1, : k + 1], n, 0, np.arange(1, k + 1))


@njit(cache=True)
def centred_family_logliks(X, means, n, children, offsets, lengths, pool, out):
    """Write :func:`centred_loglik` of many families into ``out`` (as :func:`family_logliks`)."""
    size = 1
    for i in range(lengths.shape[0]):
        size = max(size, lengths[i] + 1)
    block = np.empty((size, size))
    members = np.empty(size, dtype=np.int64)
    columns = np.empty((size, X.shape[0]))
    for i in range(children.shape[0]):
        parents = pool[offsets[i] : offsets[i] + lengths[i]].astype(np.int64)
        out[i] = centred_loglik(
            X, means, n, np.int64(children[i]), parents, block, members, columns
        )


@njit(cache=True)
def toggle_gaussian_loglik(cov, n, child, parents):
    """Gaussian log-likelihoods of ``(child, parents xor {x})`` for every ``x``.

    Entry ``child`` holds the family ``(child, parents)`` itself.
    """
    p = cov.shape[0]
    out = np.empty(p)
    in_parents = np.zeros(p, dtype=np.bool_)
    for a in range(parents.shape[0]):
        in_parents[parents[a]] = True
    out[child] = gaussian_loglik(cov, n, child, parents)
    k = parents.shape[0]
    extended = np.empty(k + 1, dtype=np.int64)
    extended[:k] = parents
    reduced = np.empty(max(k - 1, 0), dtype=np.int64)
    for x in range(p):
        if x == child:
            continue
        if in_parents[x]:
            m = 0
            for a in range(k):
                if parents[a] != x:
                    reduced[m] = parents[a]
                    m += 1
            out[x] = gaussian_loglik(cov, n, child, reduced)
        else:
            extended[k] = x
            out[x] = gaussian_loglik(cov, n, child, extended)
    return out


@njit(cache=True)
def log_det_block(matrix, members):
    """Log-determinant of the principal block of ``matrix`` on ``members`` (Cholesky)."""
    k = members.shape[0]
    if k == 0:
        return 0.0
    lower = np.zeros((k, k))
    total = 0.0
    for a in range(k):
        for b in range(a + 1):
            s = matrix[members[a], members[b]]
            for c in range(b):
                s -= lower[a, c] * lower[b, c]
            if a == b:
                if s <= 0.0:
                    return -np.inf
                lower[a, a] = math.sqrt(s)
                total += math.log(s)
            else:
                lower[a, b] = s / lower[b, b]
    return total


@njit(cache=True)
def addition_gaussian_loglik(cov, diag, n, child, parents):
    """Gaussian log-likelihoods of ``(child, parents + {x})`` for every ``x`` not in the family.

    The parents' block is factorised once; each candidate then costs one triangular solve,
    ``O(k^2)``, through ``s2(y | P + x) = s2(y | P) - c(y, x | P)^2 / s2(x | P)``. Entries of
    the child and of the parents are ``-inf``. A candidate nearly collinear with the parents
    (and a parents' block that is not positive definite) is scored as
    :func:`gaussian_loglik` scores it, with its ridge. ``diag`` is the diagonal of ``cov``;
    every other entry is read along rows (the matrix is symmetric).

    The triangular solves of all candidates run together, one parent at a time over a row
    of ``p`` candidates (a ``(k, p)`` scratch), so the inner loops are contiguous and use
    the vector units; each candidate's arithmetic is the same, in the same order, as
    solving for it alone.
    """
    p = cov.shape[0]
    k = parents.shape[0]
    out = np.empty(p)
    factored = _parents_factor(cov, child, parents)
    ok, lower, z, base, floor = factored
    in_family = np.zeros(p, dtype=np.bool_)
    in_family[child] = True
    for a in range(k):
        in_family[parents[a]] = True
    # s2(x | P) and c(y, x | P) for every x, built up one parent at a time
    vx = np.empty(p)
    cxy = np.empty(p)
    for x in range(p):
        vx[x] = diag[x]
        cxy[x] = cov[child, x]
    if ok:
        # row a of the solves: w[a, x] = (cov[P_a, x] - sum_c<a lower[a, c] w[c, x]) / lower[a, a]
        w = np.empty((k, p))
        for a in range(k):
            row = w[a]
            source = cov[parents[a]]
            for x in range(p):
                row[x] = source[x]
            for c in range(a):
                factor = lower[a, c]
                done = w[c]
                for x in range(p):
                    row[x] -= factor * done[x]
            pivot = lower[a, a]
            za = z[a]
            for x in range(p):
                value = row[x] / pivot
                row[x] = value
                vx[x] -= value * value
                cxy[x] -= value * za
    for x in range(p):
        if in_family[x]:
            out[x] = -np.inf
            continue
        s2 = _rank_one_variance(factored, vx[x], cxy[x], diag[x])
        out[x] = _candidate_loglik(cov, n, child, parents, x, s2)
    return out


@njit(cache=True)
def _parents_factor(cov, child, parents):
    """The parents' block factorised, and the child's residual variance given them.

    Returns ``(ok, lower, z, base, floor)``: whether the block is positive definite, its
    Cholesky factor, ``lower^-1 cov[P, child]``, ``s2(child | P)`` (the child's variance
    when not ``ok``) and the floor on residual variances.
    """
    k = parents.shape[0]
    syy = cov[child, child]
    floor = VARIANCE_FLOOR * max(syy, 1e-300)
    lower = np.zeros((k, k))
    scale = 0.0
    for a in range(k):
        scale = max(scale, cov[parents[a], parents[a]])
    ok = _block_cholesky(cov, parents, 0.0, 1e-10 * max(scale, 1e-300), lower)
    base = syy
    z = np.empty(k)
    if ok:
        _forward_solve(cov, parents, child, lower, z)
        for a in range(k):
            base -= z[a] * z[a]
    return ok, lower, z, base, floor


@njit(cache=True)
def _rank_one_variance(factor, vx, cxy, dx):
    """``s2(child | P + x)`` from ``s2(x | P)``, ``c(y, x | P)`` and x's variance ``dx``.

    ``factor`` is :func:`_parents_factor`'s result. Returns -1 for a candidate nearly
    collinear with the parents, or when their block is not positive definite.
    """
    ok, _, _, base, floor = factor
    if ok and vx > 1e-8 * max(dx, 1e-300):
        return max(base - cxy * cxy / vx, floor)
    return -1.0


@njit(cache=True)
def _candidate_loglik(cov, n, child, parents, x, s2):
    """The log-likelihood of ``(child, parents + {x})`` whose residual variance is ``s2``.

    ``s2 < 0`` (:func:`_rank_one_variance` could not update) scores the family directly,
    with :func:`residual_variance`'s ridge.
    """
    if s2 < 0.0:
        k = parents.shape[0]
        extended = np.empty(k + 1, dtype=np.int64)
        extended[:k] = parents
        extended[k] = x
        s2 = residual_variance(cov, child, extended)
    return -0.5 * n * (math.log(2.0 * math.pi * s2) + 1.0)


@njit(cache=True)
def addition_gaussian_loglik_one(cov, diag, n, child, parents, x):
    """:func:`addition_gaussian_loglik`'s entry for the one candidate ``x``.

    The same arithmetic in the same order as the whole row computes for ``x``, so the same
    number to the last bit: BOSS's trees keep which additions improve a parent set, not
    their scores, and score the one a walk first takes with this.
    """
    k = parents.shape[0]
    if x == child:
        return -np.inf
    for a in range(k):
        if parents[a] == x:
            return -np.inf
    factored = _parents_factor(cov, child, parents)
    ok, lower, z, base, floor = factored
    vx = diag[x]
    cxy = cov[child, x]
    if ok:
        w = np.empty(k)
        for a in range(k):
            value = cov[parents[a], x]
            for c in range(a):
                value -= lower[a, c] * w[c]
            value = value / lower[a, a]
            w[a] = value
            vx -= value * value
            cxy -= value * z[a]
    return _candidate_loglik(
        cov, n, child, parents, x, _rank_one_variance(factored, vx, cxy, diag[x])
    )
