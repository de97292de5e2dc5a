# SPDX-License-Identifier: BSD-3-Clause
"""A correlation screen over column blocks (the sparse Gaussian route's pairs)."""

from __future__ import annotations

import numpy as np


def thresholded_correlations(Z: np.ndarray, r_min: float, block: int = 1024, scale=None):
    """Pairs ``i < j`` of centred columns with ``|Z_i . Z_j| / n * scale_i * scale_j >= r_min``.

    With standardised columns (``scale`` None) these are the correlations. Computed
    ``block`` columns at a time, so memory grows with the pairs kept, not with ``p**2``.
    Returns ``rows, cols`` (int64) and the absolute values, capped at 1.
    """
    n, p = Z.shape
    rows, cols, weights = [], [], []
    for start in range(0, p, block):
        stop = min(start + block, p)
        C = np.abs(Z[:, start:stop].T @ Z[:, start:]) / n
        if scale is not None:
            C *= scale[start:stop, None]
            C *= scale[None, start:]
        C[np.tril_indices(stop - start, 0, m=C.shape[1])] = -1.0  # strict upper triangle
        i, j = np.nonzero(C >= r_min)
        rows.append(i.astype(np.int64) + start)
        cols.append(j.astype(np.int64) + start)
        weights.append(np.minimum(C[i, j], 1.0))
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(weights)
