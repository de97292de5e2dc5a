# SPDX-License-Identifier: BSD-3-Clause
"""Kernel of the correlation screen: the entries of a product tile at or above a floor."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def tile_pairs(C, floor, upper):
    """Rows and columns of the entries of ``C`` with ``|C[i, j]| >= floor``, row by row.

    With ``upper`` only the strict upper triangle is read (a tile of a column block with
    itself). One pass over the tile, which matters next to its matrix product: the few
    entries kept are collected as they are met.
    """
    rows = np.empty(64, dtype=np.int64)
    cols = np.empty(64, dtype=np.int64)
    m = 0
    a, b = C.shape
    for i in range(a):
        start = i + 1 if upper else 0
        for j in range(start, b):
            if abs(C[i, j]) >= floor:
                if m == rows.shape[0]:
                    grown_r = np.empty(2 * m, dtype=np.int64)
                    grown_c = np.empty(2 * m, dtype=np.int64)
                    grown_r[:m] = rows
                    grown_c[:m] = cols
                    rows, cols = grown_r, grown_c
                rows[m] = i
                cols[m] = j
                m += 1
    return rows[:m], cols[:m]
