# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels for conditional-independence test statistics.

Discrete tests count the three-way table of ``(x, y, z)`` where ``z`` is the mixed-radix
configuration of the conditioning set (the same index as the family-score kernels), densely
when the table is small and by sorting otherwise. One pass gives Pearson's X^2, the
likelihood-ratio G^2 = 2 N MI, the James-Stein shrinkage MI statistic and two kinds of
degrees of freedom. The Fisher-z kernels work on a correlation matrix, or on blocks of one
computed from standardised data when the whole matrix is too large.

Every function trusts its input: the ``skbn.ci_tests`` layer validates before calling.
"""

import math

import numpy as np
from numba import njit, prange

from skbn._kernels.discrete import stratum_index
from skbn._kernels.sorting import sort_int64

_DENSE_LIMIT = 1 << 22


@njit(cache=True, nogil=True)
def _stratum(table, rx, ry, out):
    """Add one stratum's X^2, G^2 and adjusted df to ``out`` = [x2, g2, df_adj]."""
    n_z = 0.0
    rows = np.zeros(rx)
    cols = np.zeros(ry)
    for a in range(rx):
        for b in range(ry):
            c = table[a * ry + b]
            rows[a] += c
            cols[b] += c
            n_z += c
    if n_z == 0.0:
        return
    nonzero_rows = 0
    nonzero_cols = 0
    for a in range(rx):
        if rows[a] > 0:
            nonzero_rows += 1
    for b in range(ry):
        if cols[b] > 0:
            nonzero_cols += 1
    out[2] += max(nonzero_rows - 1, 0) * max(nonzero_cols - 1, 0)
    for a in range(rx):
        if rows[a] == 0:
            continue
        for b in range(ry):
            if cols[b] == 0:
                continue
            expected = rows[a] * cols[b] / n_z
            c = table[a * ry + b]
            out[0] += (c - expected) ** 2 / expected
            if c > 0:
                out[1] += 2.0 * c * math.log(c / expected)


@njit(cache=True, nogil=True)
def _shrink_stratum(table, rx, ry, lam, n, v, q_total, out):
    """Add one observed stratum's shrinkage conditional MI to ``out[3]``."""
    t_cell = lam / v
    n_z = 0.0
    for k in range(rx * ry):
        n_z += table[k]
    p_z = lam / q_total + (1.0 - lam) * n_z / n
    # the column margins once, so the stratum costs O(rx * ry), not O(rx**2 * ry)
    p_b = np.empty(ry)
    for b in range(ry):
        n_bz = 0.0
        for a in range(rx):
            n_bz += table[a * ry + b]
        p_b[b] = lam / (ry * q_total) + (1.0 - lam) * n_bz / n
    for a in range(rx):
        n_az = 0.0
        for b in range(ry):
            n_az += table[a * ry + b]
        p_az = lam / (rx * q_total) + (1.0 - lam) * n_az / n
        for b in range(ry):
            p_bz = p_b[b]
            p_abz = t_cell + (1.0 - lam) * table[a * ry + b] / n
            if p_abz > 0.0:
                out[3] += p_abz * math.log(p_abz * p_z / (p_az * p_bz))


@njit(cache=True, nogil=True)
def _cell_sums(table, n, v, sums):
    """Add a stratum's observed cells to the sums behind the shrinkage intensity."""
    for k in range(table.shape[0]):
        if table[k] > 0:
            p_hat = table[k] / n
            sums[0] += p_hat * p_hat
            sums[1] += (1.0 / v - p_hat) ** 2
            sums[2] += 1.0


@njit(cache=True, nogil=True)
def discrete_ci_statistics(codes, arities, x, y, cond):
    """Statistics of the test of x independent of y given ``cond``.

    Returns
    -------
    stats : float64 array of 6
        ``[X^2, G^2, df_adjusted, shrinkage statistic 2 N MI_shrink, df_classic, lambda]``.
        ``df_adjusted`` sums ``(non-empty rows - 1)(non-empty columns - 1)`` over the strata
        that occur; ``df_classic`` is ``(r_x - 1)(r_y - 1) q``.
    """
    z, q, q_total = stratum_index(codes, cond, arities, arities[x] * arities[y])
    return _statistics_in_strata(codes, arities, x, y, z, q, q_total)


@njit(cache=True, nogil=True)
def discrete_ci_statistics_batch(codes, arities, xs, y, cond):
    """:func:`discrete_ci_statistics` of each ``x`` in ``xs`` against ``y`` given ``cond``.

    The strata of ``cond`` are indexed once for all the tests, which share them; row ``k``
    of the result equals ``discrete_ci_statistics(codes, arities, xs[k], y, cond)``.
    """
    widest = 1
    for k in range(xs.shape[0]):
        widest = max(widest, arities[xs[k]])
    z, q, q_total = stratum_index(codes, cond, arities, widest * arities[y])
    out = np.empty((xs.shape[0], 6))
    for k in range(xs.shape[0]):
        out[k] = _statistics_in_strata(codes, arities, xs[k], y, z, q, q_total)
    return out


@njit(cache=True, nogil=True)
def _statistics_in_strata(codes, arities, x, y, z, q, q_total):
    """The statistics of :func:`discrete_ci_statistics`, given the rows' strata ``z``."""
    n = codes.shape[0]
    rx = arities[x]
    ry = arities[y]
    cells = rx * ry
    out = np.zeros(6)
    # first pass: per-stratum tables -> X^2, G^2, df; and the sums needed for lambda
    sums = np.zeros(3)  # sum p^2, sum (1/V - p)^2 and count over the observed cells
    v = q_total * cells
    dense = q * cells <= _DENSE_LIMIT and q * cells <= 4 * n + 1024
    if dense:
        counts = np.zeros(q * cells)
        for i in range(n):
            counts[z[i] * cells + codes[i, x] * ry + codes[i, y]] += 1.0
        for s in range(q):
            table = counts[s * cells : (s + 1) * cells]
            _stratum(table, rx, ry, out)
            _cell_sums(table, n, v, sums)
    else:
        keys = np.empty(n, dtype=np.int64)
        for i in range(n):
            keys[i] = z[i] * cells + codes[i, x] * ry + codes[i, y]
        sort_int64(keys)
        table = np.zeros(cells)
        i = 0
        while i < n:
            stratum = keys[i] // cells
            table[:] = 0.0
            while i < n and keys[i] // cells == stratum:
                table[keys[i] % cells] += 1.0
                i += 1
            _stratum(table, rx, ry, out)
            _cell_sums(table, n, v, sums)
    # James-Stein shrinkage intensity towards the uniform table (Hausser & Strimmer 2009)
    denominator = (n - 1.0) * (sums[1] + (v - sums[2]) / (v * v))
    lam = 1.0 if denominator <= 0.0 else (1.0 - sums[0]) / denominator
    lam = min(max(lam, 0.0), 1.0)
    out[5] = lam
    # second pass over the observed strata for the shrinkage MI (empty strata contribute 0)
    if dense:
        for s in range(q):
            table = counts[s * cells : (s + 1) * cells]
            if table.sum() > 0:
                _shrink_stratum(table, rx, ry, lam, n, v, q_total, out)
    else:
        i = 0
        while i < n:
            stratum = keys[i] // cells
            table[:] = 0.0
            while i < n and keys[i] // cells == stratum:
                table[keys[i] % cells] += 1.0
                i += 1
            _shrink_stratum(table, rx, ry, lam, n, v, q_total, out)
    out[3] = 2.0 * n * max(out[3], 0.0)
    out[4] = (rx - 1.0) * (ry - 1.0) * q_total
    return out


@njit(cache=True, nogil=True)
def partial_correlation(corr, x, y, cond):
    """Partial correlation of x and y given ``cond`` from a correlation matrix.

    Inverts the correlation block of ``[x, y] + cond`` (Gauss-Jordan with partial pivoting);
    ``rho = -P_xy / sqrt(P_xx P_yy)``. A singular block (collinear variables) gives 0.
    """
    k = cond.shape[0] + 2
    idx = np.empty(k, dtype=np.int64)
    idx[0] = x
    idx[1] = y
    idx[2:] = cond
    return _partial_correlation_of(corr, idx, k, np.empty((k, k + 2)))


@njit(cache=True, nogil=True)
def _partial_correlation_of(corr, idx, k, a):
    """:func:`partial_correlation` of ``idx[0]``, ``idx[1]`` given ``idx[2:k]``, in scratch ``a``.

    ``a`` has at least ``k`` rows and ``k + 2`` columns. Gauss-Jordan on ``[R | e0 e1]``, ``R``
    the correlation block: only two columns of the inverse are read, and a column's updates
    read only itself and the pivot column, so the columns left of the pivot and the other
    columns of the inverse are never touched; the two read are computed by the same operations
    as a full inversion.
    """
    for i in range(k):
        for j in range(k):
            a[i, j] = corr[idx[i], idx[j]]
        a[i, k] = 1.0 if i == 0 else 0.0
        a[i, k + 1] = 1.0 if i == 1 else 0.0
    for col in range(k):
        pivot = col
        for r in range(col + 1, k):
            if abs(a[r, col]) > abs(a[pivot, col]):
                pivot = r
        if abs(a[pivot, col]) < 1e-12:
            return 0.0
        if pivot != col:
            for j in range(col, k + 2):
                tmp = a[col, j]
                a[col, j] = a[pivot, j]
                a[pivot, j] = tmp
        inv = 1.0 / a[col, col]
        for j in range(col + 1, k + 2):
            a[col, j] *= inv
        for r in range(k):
            if r != col and a[r, col] != 0.0:
                f = a[r, col]
                for j in range(col + 1, k + 2):
                    a[r, j] -= f * a[col, j]
    pxx = a[0, k]
    pyy = a[1, k + 1]
    pxy = a[0, k + 1]
    if pxx <= 0.0 or pyy <= 0.0:
        return 0.0
    rho = -pxy / math.sqrt(pxx * pyy)
    return min(max(rho, -1.0 + 1e-15), 1.0 - 1e-15)


@njit(cache=True, nogil=True)
def fisher_z(corr, n, x, y, cond):
    """Fisher's z statistic ``sqrt(n - |cond| - 3) * atanh(rho)`` (0 if n is too small)."""
    dof = n - cond.shape[0] - 3
    if dof <= 0:
        return 0.0
    return math.sqrt(dof) * math.atanh(partial_correlation(corr, x, y, cond))


@njit(cache=True)
def _next_combination(comb, m):
    """Advance ``comb`` (increasing indices into range(m)) in lexicographic order."""
    k = comb.shape[0]
    i = k - 1
    while i >= 0 and comb[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    comb[i] += 1
    for j in range(i + 1, k):
        comb[j] = comb[j - 1] + 1
    return True


@njit(cache=True, nogil=True)
def _rho0(r):
    """The correlation ``r`` as the elimination of its 2 x 2 block reads it (``|r| = 1``: 0)."""
    if abs(1.0 - r * r) < 1e-12:
        return 0.0
    return min(max(r, -1.0 + 1e-15), 1.0 - 1e-15)


@njit(cache=True, nogil=True)
def _independent1(corr, x, y, idx, block, rho_crit):
    """Whether ``|rho(x, y | idx[2])| < rho_crit``, the partial correlation in closed form.

    ``rho = (r_xy - r_xz r_yz) / sqrt((1 - r_xz^2) (1 - r_yz^2))``, compared squared; a
    nearly singular block (determinant below 1e-8) goes to the elimination of
    :func:`_partial_correlation_of`, which reads a singular one as 0.
    """
    z = idx[2]
    rxy = corr[x, y]
    rxz = corr[x, z]
    ryz = corr[y, z]
    num = rxy - rxz * ryz
    den = (1.0 - rxz * rxz) * (1.0 - ryz * ryz)
    if den - num * num < 1e-8:  # the determinant of the 3 x 3 block
        return abs(_partial_correlation_of(corr, idx, 3, block)) < rho_crit
    return num * num < rho_crit * rho_crit * den


@njit(cache=True, nogil=True)
def _rho_given(corr, a, b, z):
    """``(rho(a, b | z), ok)``: closed form, ``ok`` False where the block is nearly singular."""
    rab = corr[a, b]
    raz = corr[a, z]
    rbz = corr[b, z]
    num = rab - raz * rbz
    den = (1.0 - raz * raz) * (1.0 - rbz * rbz)
    if den - num * num < 1e-8:
        return 0.0, False
    return num / math.sqrt(den), True


@njit(cache=True, nogil=True)
def _independent2(corr, x, y, idx, block, rho_crit):
    """Whether ``|rho(x, y | idx[2], idx[3])| < rho_crit``, by the recursion on one variable.

    ``rho_xy|zw = (rho_xy|z - rho_xw|z rho_yw|z) / sqrt((1 - rho_xw|z^2)(1 - rho_yw|z^2))``;
    a nearly singular block goes to the elimination, as in :func:`_independent1`.
    """
    z = idx[2]
    w = idx[3]
    a, ok_a = _rho_given(corr, x, y, z)
    b, ok_b = _rho_given(corr, x, w, z)
    c, ok_c = _rho_given(corr, y, w, z)
    num = a - b * c
    den = (1.0 - b * b) * (1.0 - c * c)
    if not (ok_a and ok_b and ok_c) or den - num * num < 1e-8:
        return abs(_partial_correlation_of(corr, idx, 4, block)) < rho_crit
    return num * num < rho_crit * rho_crit * den


@njit(cache=True, parallel=True)
def pc_level_fisher_z(corr, n, neighbours, degrees, pairs, level, z_crit):
    """One PC-Stable level with Fisher-z tests, all edges in parallel.

    Parameters
    ----------
    corr : float64 (p, p)
    n : int
    neighbours : int64 (p, max_degree)
        Frozen adjacencies of this level; row v holds v's neighbours in the order subsets
        are enumerated (by name), padded with -1.
    degrees : int64 (p,)
    pairs : int64 (m, 2)
        Ordered pairs (x, y) to test: conditioning sets come from x's neighbours minus y.
    level : int
        Size of the conditioning sets.
    z_crit : float
        Independence is accepted when |z| < z_crit (p-value above alpha).

    Returns
    -------
    removed : bool (m,)
    sepsets : int64 (m, level)
        The first separating set found (in lexicographic order of the neighbour list).
    """
    m = pairs.shape[0]
    removed = np.zeros(m, dtype=np.bool_)
    sepsets = np.full((m, max(level, 1)), -1, dtype=np.int64)
    dof = n - level - 3
    # |sqrt(dof) atanh(rho)| < z_crit  <=>  |rho| < tanh(z_crit / sqrt(dof))
    rho_crit = math.tanh(z_crit / math.sqrt(dof)) if dof > 0 else 1.0
    for e in prange(m):
        x = pairs[e, 0]
        y = pairs[e, 1]
        if level == 0:
            # dof <= 0 reads as z = 0 (independent), as in fisher_z
            removed[e] = dof <= 0 or abs(_rho0(corr[x, y])) < rho_crit
            continue
        pool = np.empty(degrees[x], dtype=np.int64)
        size = 0
        for j in range(degrees[x]):
            v = neighbours[x, j]
            if v != y:
                pool[size] = v
                size += 1
        if size < level:
            continue
        if dof <= 0:  # too few rows for any test: z = 0, independent
            removed[e] = True
            for j in range(level):
                sepsets[e, j] = pool[j]
            continue
        # one scratch block per pair: the tests of a pair allocate nothing
        comb = np.arange(level)
        k = level + 2
        idx = np.empty(k, dtype=np.int64)
        idx[0] = x
        idx[1] = y
        block = np.empty((k, k + 2))
        while True:
            for j in range(level):
                idx[2 + j] = pool[comb[j]]
            if level == 1:
                independent = _independent1(corr, x, y, idx, block, rho_crit)
            elif level == 2:
                independent = _independent2(corr, x, y, idx, block, rho_crit)
            else:
                independent = abs(_partial_correlation_of(corr, idx, k, block)) < rho_crit
            if independent:
                removed[e] = True
                for j in range(level):
                    sepsets[e, j] = idx[2 + j]
                break
            if not _next_combination(comb, size):
                break
    return removed, sepsets


@njit(cache=True, nogil=True)
def correlation_block(Z, idx):
    """Correlation matrix of the columns ``idx`` of standardised data ``Z`` (n, p).

    ``Z`` has centred columns scaled to unit mean square (constant columns all zero), so
    ``Z[:, a] @ Z[:, b] / n`` is the Pearson correlation; the diagonal is 1, as in a full
    correlation matrix. Lets the Gaussian kernels run on a small block when the whole
    ``(p, p)`` matrix would not fit in memory.
    """
    n = Z.shape[0]
    k = idx.shape[0]
    out = np.empty((k, k))
    for a in range(k):
        out[a, a] = 1.0
        ca = idx[a]
        for b in range(a):
            cb = idx[b]
            s = 0.0
            for t in range(n):
                s += Z[t, ca] * Z[t, cb]
            out[a, b] = s / n
            out[b, a] = s / n
    return out


@njit(cache=True, nogil=True)
def _pair_and_parents(i, j, indptr, indices):
    """``[i, j]`` followed by the union of their parents (CSR lists), i and j left out."""
    cap = 2 + (indptr[i + 1] - indptr[i]) + (indptr[j + 1] - indptr[j])
    buf = np.empty(cap, dtype=np.int64)
    return buf[: _pair_and_parents_into(i, j, indptr, indices, buf)]


@njit(cache=True, nogil=True)
def _pair_and_parents_into(i, j, indptr, indices, buf):
    """:func:`_pair_and_parents` written into ``buf``; returns how many it holds."""
    buf[0] = i
    buf[1] = j
    size = 2
    for v in (i, j):
        for k in range(indptr[v], indptr[v + 1]):
            u = indices[k]
            if u == i or u == j:
                continue
            seen = False
            for t in range(2, size):
                if buf[t] == u:
                    seen = True
                    break
            if not seen:
                buf[size] = u
                size += 1
    return size


@njit(cache=True, nogil=True)
def _pvalue_given_parents(corr, n, i, j, indptr, indices, idx, scratch):
    """Two-sided Fisher-z p-value of (i, j | pa(i) + pa(j)), with scratch buffers."""
    k = _pair_and_parents_into(i, j, indptr, indices, idx)
    dof = n - (k - 2) - 3
    z = 0.0
    if dof > 0:
        z = math.sqrt(dof) * math.atanh(_partial_correlation_of(corr, idx, k, scratch))
    return math.erfc(abs(z) / math.sqrt(2.0))


@njit(cache=True)
def _max_in_degree(indptr):
    best = 0
    for v in range(indptr.shape[0] - 1):
        best = max(best, indptr[v + 1] - indptr[v])
    return best


@njit(cache=True, parallel=True)
def fisher_z_pvalues_across_labels(corr, n, label, indptr, indices):
    """Fisher-z p-values of (i, j | pa(i) + pa(j)) for every pair ``i < j`` of different labels.

    ``indptr``/``indices`` hold the parent lists in CSR form (parents of v are
    ``indices[indptr[v]:indptr[v + 1]]``); i and j themselves are left out of the set. Returns
    the p-values of all ``p (p - 1) / 2`` pairs ``i < j`` flat, in row-major order
    (the order of ``numpy.triu_indices(p, 1)``), with 2.0 for pairs of equal labels, so the
    pairs are never formed as an array. Row ``t`` is done with row ``p - 1 - t`` to balance
    the threads.
    """
    p = corr.shape[0]
    out = np.empty(p * (p - 1) // 2)
    kmax = 2 + 2 * _max_in_degree(indptr)
    for t in prange((p + 1) // 2):
        idx = np.empty(kmax, dtype=np.int64)
        scratch = np.empty((kmax, kmax + 2))
        for side in range(2):
            i = np.int64(t) if side == 0 else np.int64(p - 1 - t)
            if side == 1 and i == t:
                continue
            base = i * (2 * p - i - 1) // 2 - i - 1  # flat position of (i, j) is base + j
            for j in range(i + 1, p):
                if label[i] == label[j]:
                    out[base + j] = 2.0
                else:
                    out[base + j] = _pvalue_given_parents(
                        corr, n, i, j, indptr, indices, idx, scratch
                    )
    return out


@njit(cache=True, parallel=True)
def fisher_z_pvalues_given_parents_from_data(Z, pairs, indptr, indices):
    """Fisher-z p-values given parents, correlations computed from standardised data.

    As :func:`fisher_z_pvalues_across_labels` for the given ``pairs`` (m, 2), with each test's
    correlation block computed from ``Z`` (n, p), for when the full correlation matrix is too
    large.
    """
    n = Z.shape[0]
    m = pairs.shape[0]
    out = np.empty(m)
    for e in prange(m):
        idx = _pair_and_parents(pairs[e, 0], pairs[e, 1], indptr, indices)
        block = correlation_block(Z, idx)
        z = fisher_z(block, n, 0, 1, np.arange(2, idx.shape[0]))
        out[e] = math.erfc(abs(z) / math.sqrt(2.0))
    return out


@njit(cache=True, parallel=True)
def correlation_distance(corr):
    """``1 - |r|`` made symmetric, clipped at 0, with a zero diagonal, in one pass.

    Entry (i, j) is ``(max(1 - |r_ij|, 0) + max(1 - |r_ji|, 0)) / 2``: the same numbers as
    ``numpy`` clipping, zeroing the diagonal and averaging with the transpose, without the
    four temporary ``(p, p)`` arrays.
    """
    p = corr.shape[0]
    out = np.empty((p, p))
    for i in prange(p):
        out[i, i] = 0.0
        for j in range(i + 1, p):
            d = (max(1.0 - abs(corr[i, j]), 0.0) + max(1.0 - abs(corr[j, i]), 0.0)) / 2
            out[i, j] = d
            out[j, i] = d
    return out
