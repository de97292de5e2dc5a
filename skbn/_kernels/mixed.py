# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels for conditional-Gaussian (CG) families: regressions within discrete strata.

A continuous variable with discrete parents ``D`` and continuous parents ``C`` has, in every
configuration (stratum) of ``D``, its own linear regression on ``C``: intercept,
coefficients and residual variance. Its maximised log-likelihood is the sum over the strata
of ``-n_s / 2 (log(2 pi s2_s) + 1)``, with ``s2_s`` the stratum's residual variance (divisor
``n_s``). The kernels take the full-width arrays of :class:`~skbn.data.MixedData` (codes and
values indexed by column position) and a dense stratum label per row.
"""

import math

import numpy as np
from numba import njit

from skbn._kernels.discrete import stratum_index
from skbn._kernels.gaussian import residual_variance


def strata_labels(codes, arities, columns):
    """Label every row with its configuration of the discrete ``columns``, numbered densely.

    Plain Python around the :func:`~skbn._kernels.discrete.stratum_index` kernel: a jitted
    wrapper returning either of two tuples read garbage labels when its callees came from a
    numba cache written by another process.

    Returns
    -------
    labels : int64 array (n,)
        ``0 .. m - 1`` in increasing order of the mixed-radix configuration index.
    m : int
        Number of configurations that occur (1 when ``columns`` is empty).
    """
    n = codes.shape[0]
    if len(columns) == 0:
        return np.zeros(n, dtype=np.int64), 1 if n > 0 else 0
    index, _, _ = stratum_index(codes, np.asarray(columns, dtype=np.int64), arities, 1)
    uniques, labels = np.unique(index, return_inverse=True)
    return labels.astype(np.int64).ravel(), len(uniques)


@njit(cache=True)
def stratified_gaussian_loglik(values, labels, m, child, regressors, floor):
    """Maximised log-likelihood of ``child`` regressed on ``regressors`` in every stratum.

    Parameters
    ----------
    values : float64 array (n, p)
    labels : int64 array (n,)
        Stratum of every row, ``0 .. m - 1`` (from :func:`strata_labels`).
    m : int
        Number of strata.
    child : int
        Column of the response.
    regressors : int64 array (k,)
        Columns of the continuous regressors (an intercept is always fitted).
    floor : float
        Smallest residual variance used (a deterministic stratum keeps a finite value).

    Returns
    -------
    loglik : float64 array (m,)
        Per stratum; NaN where the stratum has at most ``k + 1`` rows, too few to estimate
        an intercept, ``k`` coefficients and a variance.
    counts : int64 array (m,)
        Rows per stratum.
    """
    n = values.shape[0]
    k = regressors.shape[0]
    d = k + 1
    cols = np.empty(d, dtype=np.int64)
    cols[0] = child
    for a in range(k):
        cols[a + 1] = regressors[a]
    counts = np.zeros(m, dtype=np.int64)
    means = np.zeros((m, d))
    for i in range(n):
        s = labels[i]
        counts[s] += 1
        for a in range(d):
            means[s, a] += values[i, cols[a]]
    for s in range(m):
        if counts[s] > 0:
            for a in range(d):
                means[s, a] /= counts[s]
    scatter = np.zeros((m, d, d))
    dev = np.empty(d)
    for i in range(n):
        s = labels[i]
        for a in range(d):
            dev[a] = values[i, cols[a]] - means[s, a]
        for a in range(d):
            for b in range(a + 1):
                scatter[s, a, b] += dev[a] * dev[b]
    out = np.empty(m)
    inner = np.arange(1, d).astype(np.int64)
    cov = np.empty((d, d))
    for s in range(m):
        ns = counts[s]
        if ns <= d:
            out[s] = np.nan
            continue
        for a in range(d):
            for b in range(a + 1):
                cov[a, b] = scatter[s, a, b] / ns
                cov[b, a] = cov[a, b]
        s2 = max(residual_variance(cov, 0, inner), floor)
        out[s] = -0.5 * ns * (math.log(2.0 * math.pi * s2) + 1.0)
    return out, counts
