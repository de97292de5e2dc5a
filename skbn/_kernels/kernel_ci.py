# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels for kernel-based CI tests: low-rank factors of Gaussian kernel matrices.

A Gaussian kernel matrix ``K[i, j] = exp(-theta / 2 * |u_i - u_j|^2)`` of ``n`` rows is
never formed. The pivoted (incomplete) Cholesky factorisation builds ``K ~ G G^T`` one
column of ``G`` at a time, each time from the row whose residual diagonal is largest, and
stops when that residual is at most ``tol``; the residual ``K - G G^T`` is positive
semi-definite with diagonal at most ``tol``, so its trace is at most ``n tol``. A column
costs one kernel column (``O(n d)``) and one matrix-vector product with the columns before
it (``O(n m)``), so ``m`` columns cost ``O(n m (m + d))`` time and ``O(n m)`` memory. With
``tol = 0`` the factorisation runs to numerical rank and reproduces ``K`` to rounding.

Every function trusts its input: the ``skbn.ci_tests`` layer validates before calling.
"""

import math

import numpy as np
from numba import njit, prange

__all__ = ["cosine_features", "gaussian_kernel_factor", "pairwise_distance_median"]


@njit(cache=True, nogil=True)
def gaussian_kernel_factor(data, theta, tol, max_rank):
    """Pivoted Cholesky factor ``G`` (``m x n``, row ``k`` the ``k``-th column) of a kernel.

    Parameters
    ----------
    data : float64 array (n, d), C-contiguous
        The points.
    theta : float
        The kernel's inverse squared width: ``exp(-theta / 2 * distance^2)``.
    tol : float
        Stop once the largest residual diagonal is at most ``tol``.
    max_rank : int
        At most this many columns.

    Returns
    -------
    float64 array (m, n)
        ``G^T``: ``K ~ G^T.T @ G^T``.
    """
    n, d = data.shape
    max_rank = min(max_rank, n)
    residual = np.ones(n)
    factor = np.empty((max_rank, n))
    pivot_values = np.empty(max_rank)
    column = np.empty(n)
    rank = 0
    while rank < max_rank:
        pivot = 0
        largest = residual[0]
        for i in range(1, n):
            if residual[i] > largest:
                largest = residual[i]
                pivot = i
        if largest <= tol:
            break
        for i in range(n):
            dist = 0.0
            for k in range(d):
                diff = data[i, k] - data[pivot, k]
                dist += diff * diff
            column[i] = math.exp(-0.5 * theta * dist)
        if rank > 0:
            for k in range(rank):
                pivot_values[k] = factor[k, pivot]
            column -= np.dot(pivot_values[:rank], factor[:rank])
        scale = 1.0 / math.sqrt(largest)
        for i in range(n):
            value = column[i] * scale
            factor[rank, i] = value
            residual[i] -= value * value
        residual[pivot] = 0.0
        rank += 1
    return factor[:rank].copy()


@njit(cache=True, nogil=True, parallel=True)
def _pair_distances(data):
    n, d = data.shape
    out = np.empty(n * (n - 1) // 2)
    for i in prange(n):
        base = i * n - i * (i + 1) // 2
        for j in range(i + 1, n):
            dist = 0.0
            for k in range(d):
                diff = data[i, k] - data[j, k]
                dist += diff * diff
            out[base + j - i - 1] = math.sqrt(dist)
    return out


def pairwise_distance_median(data):
    """The median of the positive Euclidean distances between the rows of ``data``.

    Parameters
    ----------
    data : float64 array (n, d), C-contiguous

    Returns
    -------
    float
        0.0 where every distance is zero.
    """
    distances = _pair_distances(data)
    distances = distances[distances > 0]
    return float(np.median(distances)) if len(distances) else 0.0


@njit(cache=True, nogil=True, parallel=True)
def weighted_product_square_sum(gx, gy, width):
    """``sum((gx * gy) ** 2)`` with the columns from ``width`` on counted twice.

    Parameters
    ----------
    gx, gy : float64 arrays (b, m) of one shape
        Blocks of rows of two symmetric matrices, from their diagonal on.
    width : int
        The columns of the diagonal block (counted once).

    Returns
    -------
    float
    """
    rows, cols = gx.shape
    sums = np.zeros(rows)
    for i in prange(rows):
        inside = 0.0
        for j in range(width):
            value = gx[i, j] * gy[i, j]
            inside += value * value
        outside = 0.0
        for j in range(width, cols):
            value = gx[i, j] * gy[i, j]
            outside += value * value
        sums[i] = inside + 2.0 * outside
    return sums.sum()


@njit(cache=True, nogil=True, parallel=True)
def cosine_features(points, weights, offsets):
    """Random Fourier features ``sqrt(2) cos(points @ weights.T + offsets)``, standardised.

    The cosines run in parallel over rows; the column means and standard deviations
    (``ddof=1``) are sums in row order, the same whatever the number of threads.

    Parameters
    ----------
    points : float64 array (n, d), C-contiguous
    weights : float64 array (f, d), C-contiguous
    offsets : float64 array (f,)

    Returns
    -------
    float64 array (n, f)
        Each column centred and scaled to sample standard deviation 1 (0 if constant, or
        with a standard deviation of at most 1e-12, the rounding of a constant).
    """
    n, d = points.shape
    f = weights.shape[0]
    out = np.empty((n, f))
    root2 = math.sqrt(2.0)
    for i in prange(n):
        for j in range(f):
            arg = 0.0
            for k in range(d):
                arg += points[i, k] * weights[j, k]
            out[i, j] = root2 * math.cos(arg + offsets[j])
    means = np.zeros(f)
    for i in range(n):
        for j in range(f):
            means[j] += out[i, j]
    means /= n
    squares = np.zeros(f)
    for i in range(n):
        for j in range(f):
            centred = out[i, j] - means[j]
            out[i, j] = centred
            squares[j] += centred * centred
    scales = np.zeros(f)
    for j in range(f):
        sd = math.sqrt(squares[j] / (n - 1)) if n > 1 else 0.0
        if sd > 1e-12:  # a feature of at most sqrt(2); below this, rounding of a constant
            scales[j] = 1.0 / sd
    for i in range(n):
        for j in range(f):
            out[i, j] *= scales[j]
    return out
