# SPDX-License-Identifier: BSD-3-Clause
"""A correlation screen over column tiles (the sparse Gaussian route's pairs)."""

from __future__ import annotations

import numpy as np

from skbn._kernels.screen import pair_dots, tile_pairs

#: Unit roundoff of float32: the screen's products run in single precision.
_U32 = 2.0**-24


def _tile(Z: np.ndarray, start: int, stop: int, factor: np.ndarray, dtype) -> np.ndarray:
    """Columns ``start:stop`` of ``Z`` times ``factor``, as ``dtype``."""
    return (Z[:, start:stop] * factor[start:stop]).astype(dtype, copy=False)


def thresholded_correlations(
    Z: np.ndarray, r_min: float, block: int = 1024, scale=None, precision: str = "auto"
):
    """Pairs ``i < j`` of centred columns with ``|Z_i . Z_j| / n * scale_i * scale_j >= r_min``.

    With standardised columns (``scale`` None) these are the correlations. The products
    run tile by tile (``block`` by ``block`` columns), so memory grows with the pairs kept,
    not with ``p``. Each tile is computed in single precision, which halves the time of the
    matrix products; a pair within the single-precision error bound of the threshold (about
    ``n + 2`` units of roundoff times the largest column norm, for any order of summation)
    is then recomputed in double precision, so the pairs kept and their values are those
    of a double-precision screen. Above about 168,000 rows, or with ``precision="double"``,
    the tiles are double precision.

    Returns ``rows, cols`` (int64) and the absolute values, capped at 1.
    """
    n, p = Z.shape
    if not Z.flags.f_contiguous:  # the recheck reads whole columns
        Z = np.asfortranarray(Z)
    if scale is not None:
        scale = np.asarray(scale, dtype=np.float64)
    factor = (np.ones(p) if scale is None else scale) / np.sqrt(n)
    # rounding the scaled columns to single precision and summing n products of them is off
    # by at most (gamma_n + 2u + u^2) sum |x_k y_k| <= (gamma_n + 2u + u^2) |x| |y|, with
    # gamma_n = n u / (1 - n u): a pair below r_min - slack in single precision is below
    # r_min exactly
    nu = n * _U32
    # beyond about 168,000 rows the slack would let too many pairs through to recheck
    dtype = np.float32 if nu < 0.01 and precision == "auto" else np.float64
    norm2 = float(np.max(np.einsum("ij,ij->j", Z, Z) * factor**2, initial=0.0))
    slack = (nu / (1.0 - nu) + 2.0 * _U32 + _U32**2) * norm2 if dtype is np.float32 else 0.0
    floor = max(r_min - slack, 0.0) if dtype is np.float32 else r_min
    rows, cols, weights = [], [], []
    for a0 in range(0, p, block):
        a1 = min(a0 + block, p)
        A = _tile(Z, a0, a1, factor, dtype)
        for b0 in range(a0, p, block):
            b1 = min(b0 + block, p)
            C = A.T @ (A if b0 == a0 else _tile(Z, b0, b1, factor, dtype))
            # the diagonal tile's strict upper triangle; one pass over the tile
            i, j = tile_pairs(C, float(floor), b0 == a0)  # compared in double precision
            if i.size == 0:
                continue
            i += a0
            j += b0
            # the candidates again, in double precision
            exact = np.abs(pair_dots(Z, i, j)) / n
            if scale is not None:
                exact *= scale[i] * scale[j]
            keep = exact >= r_min
            rows.append(i[keep].astype(np.int64))
            cols.append(j[keep].astype(np.int64))
            weights.append(np.minimum(exact[keep], 1.0))
    if not rows:
        empty = np.zeros(0, np.int64)
        return empty, empty.copy(), np.zeros(0)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(weights)
