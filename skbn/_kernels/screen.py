# SPDX-License-Identifier: BSD-3-Clause
"""Kernel of the correlation screen: the entries of a product tile at or above a floor."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload


def _magnitude(c):
    """``|c|``; for an int16 entry, the bits of a bfloat16 number without its sign."""
    return np.int32(c) & 0x7FFF if isinstance(c, np.int16) else abs(c)


@overload(_magnitude)
def _magnitude_kernel(c):
    if isinstance(c, types.Integer):
        # the bits of non-negative bfloat16 numbers increase with their value
        return lambda c: np.int32(c) & 0x7FFF
    return lambda c: abs(c)


@njit(cache=True)
def _row_hits(C, i, start, floor):
    m = 0
    for j in range(start, C.shape[1]):
        if _magnitude(C[i, j]) >= floor:
            m += 1
    return m


@njit(cache=True)
def tile_pairs(C, floor, upper):
    """Rows and columns of the entries of ``C`` with ``|C[i, j]| >= floor``, row by row.

    With ``upper`` only the strict upper triangle is read (a tile of a column block with
    itself). A counting pass, then a pass that writes the few entries kept: both loops are
    plain comparisons the compiler vectorises, which matters next to the tile's product.
    A tile of bfloat16 numbers comes as their bits (int16) with ``floor`` the bits of the
    least bfloat16 number at or above the floor: compared without the sign bit.
    """
    a = C.shape[0]
    m = 0
    for i in range(a):
        m += _row_hits(C, i, i + 1 if upper else 0, floor)
    rows = np.empty(m, dtype=np.int64)
    cols = np.empty(m, dtype=np.int64)
    if m == 0:
        return rows, cols
    k = 0
    for i in range(a):
        start = i + 1 if upper else 0
        if _row_hits(C, i, start, floor) == 0:
            continue
        for j in range(start, C.shape[1]):
            if _magnitude(C[i, j]) >= floor:
                rows[k] = i
                cols[k] = j
                k += 1
    return rows, cols


@njit(cache=True, fastmath={"reassoc", "contract"})
def pair_dots(X, means, rows, cols):
    """``(X_i - m_i) . (X_j - m_j)`` for ``i, j = rows[t], cols[t]``, in double precision.

    ``X`` holds the columns (Fortran order) and ``means`` what to subtract from each (zeros
    for centred columns): the columns are centred as they are read, so no centred copy of
    the data is needed. The screen's recheck of its candidate pairs: the columns of one
    tile stay in cache, so this reads each candidate's two columns where gathering them into
    new arrays would write and read them again (most of the screen's time when chance
    correlations make the candidates many).
    """
    out = np.empty(rows.shape[0])
    n = X.shape[0]
    for t in range(rows.shape[0]):
        i = rows[t]
        j = cols[t]
        mi = means[i]
        mj = means[j]
        s = 0.0
        for k in range(n):
            s += (X[k, i] - mi) * (X[k, j] - mj)
        out[t] = s
    return out


@njit(cache=True)
def centred_squares(X, means):
    """``sum_k (X[k, j] - means[j])**2`` of every column ``j``, without a centred copy.

    ``X`` is in Fortran order (one column contiguous).
    """
    n, p = X.shape
    out = np.empty(p)
    for j in range(p):
        m = means[j]
        s = 0.0
        for k in range(n):
            d = X[k, j] - m
            s += d * d
        out[j] = s
    return out
