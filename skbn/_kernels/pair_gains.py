# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernel: how strongly each pair of discrete columns would pass an EBIC penalty.

For a pair ``(i, j)`` of the chosen columns, the log-likelihood gain of the edge is
``G = sum_ab N_ab log(N_ab N / (N_a N_b))`` over the rows where both are observed (code
``-1`` is missing), with ``df = (r_i - 1)(r_j - 1)`` free parameters. The edge improves a
score with the per-parameter penalty ``base(N) + gamma * log(p)`` while
``gamma < gamma* = (G / df - base(N)) / log(p)``. The kernel bins ``gamma*`` of every pair
with ``gamma* > 0``; the estimator layer turns the bins into counts of pairs passing each
``gamma``.

Every function trusts its input: the estimator layer validates before calling.
"""

import math
from collections import namedtuple

import numpy as np
from numba import njit, prange

#: How a pair's gain becomes its bin of ``gamma*``: the base penalty (BIC's if
#: ``bic_base``, else AIC's) times ``discount``, ``log p``, and the bins' width.
GammaRule = namedtuple("GammaRule", ["bic_base", "discount", "log_p", "step"])


@njit(cache=True, parallel=True)
def pair_gamma_bins(codes, arities, columns, bic_base, discount, log_p, step, n_bins):
    """Histogram of the ``gamma*`` of every pair of ``columns`` with ``gamma* > 0``.

    Parameters
    ----------
    codes : int16 array (n, p), Fortran order, ``-1`` for missing
    arities : int64 array (p,)
    columns : int64 array (m,), the columns whose pairs are counted
    bic_base : bool
        Base penalty ``discount * log(N) / 2`` (BIC) if true, else ``discount`` (AIC).
    discount : float
    log_p : float
        ``log`` of the number of variables (``> 0``).
    step : float
        Width of a bin of ``gamma*``; bin ``b`` holds ``b * step <= gamma* < (b + 1) * step``,
        the last bin everything above.
    n_bins : int

    Returns
    -------
    bins : int64 array (m, n_bins)
        Row ``a``: the pairs ``(columns[a], columns[c])`` with ``c > a``.
    """
    m = columns.shape[0]
    rmax = 1
    for a in range(m):
        rmax = max(rmax, arities[columns[a]])
    bins = np.zeros((m, n_bins), dtype=np.int64)
    rule = GammaRule(bic_base, discount, log_p, step)
    # rows a and m - 1 - a together: every task does about the same work
    for h in prange((m + 1) // 2):
        _row(codes, arities, columns, h, rule, rmax, bins)
        if m - 1 - h != h:
            _row(codes, arities, columns, m - 1 - h, rule, rmax, bins)
    return bins


@njit(cache=True)
def _row(codes, arities, columns, a, rule, rmax, bins):
    """Bin the pairs ``(columns[a], columns[c])``, ``c > a``, into ``bins[a]``."""
    bic_base, discount, log_p, step = rule
    n_bins = bins.shape[1]
    n = codes.shape[0]
    m = columns.shape[0]
    i = columns[a]
    ri = arities[i]
    table = np.zeros(ri * rmax, dtype=np.int64)
    row_i = np.zeros(ri, dtype=np.int64)
    col_j = np.zeros(rmax, dtype=np.int64)
    for c in range(a + 1, m):
        j = columns[c]
        rj = arities[j]
        df = (ri - 1) * (rj - 1)
        if df == 0:
            continue
        table[: ri * rj] = 0
        row_i[:] = 0
        col_j[:rj] = 0
        total = 0
        for t in range(n):
            u = codes[t, i]
            v = codes[t, j]
            if u < 0 or v < 0:
                continue
            table[u * rj + v] += 1
            row_i[u] += 1
            col_j[v] += 1
            total += 1
        if total < 2:
            continue
        gain = 0.0
        for u in range(ri):
            if row_i[u] == 0:
                continue
            for v in range(rj):
                k = table[u * rj + v]
                if k > 0:
                    gain += k * math.log(k * total / (row_i[u] * col_j[v]))
        base = discount * math.log(total) / 2.0 if bic_base else discount
        g = (gain / df - base) / log_p
        if g > 0.0:
            b = int(g / step)
            bins[a, min(b, n_bins - 1)] += 1
