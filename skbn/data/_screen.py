# SPDX-License-Identifier: BSD-3-Clause
"""A correlation screen over column tiles (the sparse Gaussian route's pairs)."""

from __future__ import annotations

import functools

import numpy as np

from skbn._kernels.screen import centred_squares, pair_dots, tile_pairs

#: Unit roundoff of float32: the screen's products run in single precision.
_U32 = 2.0**-24
#: Unit roundoff of bfloat16 (8 significant bits), the inputs and outputs of AMX products.
_UB = 2.0**-8
#: From this many columns ``precision="auto"`` uses bfloat16 products where they run on
#: AMX tiles (below it the screen is a small part of a fit).
BF16_MIN_COLUMNS = 16_384
#: ... and only while the bfloat16 floor keeps this share of the threshold, so that the
#: candidates to recheck stay few.
_BF16_MIN_SHARE = 0.8


@functools.cache
def bfloat16_product():
    """PyTorch's bfloat16 matrix product where this CPU runs it on AMX tiles, else None.

    Returns ``(convert, multiply)``: ``convert(x)`` takes a C-ordered float32 array to
    bfloat16 (round to nearest even), ``multiply(a, b)`` returns the bits (int16) of the
    bfloat16 product of two converted arrays, accumulated in single precision. PyTorch is
    optional: without it, or without AMX, the screen keeps its single-precision products.
    """
    try:
        import torch
    except ImportError:
        return None
    amx = getattr(getattr(torch, "cpu", None), "_is_amx_tile_supported", None)
    if amx is None or not amx():
        return None

    def convert(x):
        return torch.from_numpy(x).to(torch.bfloat16)

    def multiply(a, b):
        return (a @ b).view(torch.int16).numpy()

    return convert, multiply


def product_floor(r_min: float, n: int, norm2: float, inputs: float, output: float = 0.0):
    """A floor on low-precision products below which no pair reaches ``r_min`` exactly.

    Each input is rounded with relative error at most ``inputs``, the products are summed
    in single precision (``n`` terms: off by at most ``gamma_n`` times the sum of their
    magnitudes, whatever the order), and the sum is rounded with relative error at most
    ``output``. With ``sum |x_k y_k| <= norm2`` (Cauchy-Schwarz, ``norm2`` the largest
    squared column norm), a pair at ``r_min`` or above computes to at least
    ``(r_min - ((1 + u)^2 - 1 + gamma_n (1 + u)^2) norm2 - tiny) (1 - output)`` with
    ``u = inputs``; ``tiny`` covers inputs a CPU flushes to zero. Zero when that bound is
    not positive.
    """
    u = inputs
    nu = n * _U32
    gamma = nu / (1.0 - nu) if nu < 1.0 else np.inf
    slack = ((1.0 + u) ** 2 - 1.0 + gamma * (1.0 + u) ** 2) * norm2 + 1e-30
    return max((r_min - slack) * (1.0 - output), 0.0)


def bfloat16_floor(r_min: float, n: int, norm2: float) -> float:
    """:func:`product_floor` of bfloat16 tiles.

    Inputs are rounded from double to single and then to bfloat16 precision, products of
    two bfloat16 numbers are exact in single precision, and the sum is rounded to bfloat16.
    """
    return product_floor(r_min, n, norm2, (1.0 + _U32) * (1.0 + _UB) - 1.0, _UB)


def bfloat16_bits(floor: float) -> int:
    """Bits (without the sign) of the least bfloat16 number at or above ``floor`` >= 0."""

    def value(bits: int) -> float:
        return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])

    bits = int(np.array([floor], dtype=np.float32).view(np.uint32)[0]) >> 16
    while value(bits) < floor:
        bits += 1
    while bits > 0 and value(bits - 1) >= floor:
        bits -= 1
    return bits


def _tile(Z, start: int, stop: int, factor, means, dtype) -> np.ndarray:
    """Columns ``start:stop`` of ``Z``, less ``means``, times ``factor``, as ``dtype``."""
    return ((Z[:, start:stop] - means[start:stop]) * factor[start:stop]).astype(dtype, copy=False)


def thresholded_correlations(
    Z: np.ndarray, r_min: float, block=None, scale=None, precision: str = "auto", means=None
):
    """Pairs ``i < j`` of centred columns with ``|Z_i . Z_j| / n * scale_i * scale_j >= r_min``.

    With standardised columns (``scale`` None) these are the correlations. Given ``means``,
    the columns are ``Z - means``, centred as they are read (no centred copy of ``Z``). The products
    run tile by tile (``block`` by ``block`` columns; None: 1,024, or 4,096 for bfloat16
    products, whose AMX tiles pay off on larger blocks), so memory grows with the pairs kept,
    not with ``p``. Each tile is computed in single precision, which halves the time of the
    matrix products; a pair within the single-precision error bound of the threshold (about
    ``n + 2`` units of roundoff times the largest column norm, for any order of summation)
    is then recomputed in double precision, so the pairs kept and their values are those
    of a double-precision screen. Above about 168,000 rows, or with ``precision="double"``,
    the tiles are double precision (``"single"`` keeps them single up to 8 million rows).
    With ``precision="bfloat16"``, or ``"auto"`` from :data:`BF16_MIN_COLUMNS` columns
    where PyTorch runs bfloat16 products on AMX tiles
    (:func:`bfloat16_product`) and their error bound (:func:`bfloat16_floor`) keeps most
    of the threshold, the tiles are bfloat16 products: the same pairs and values again,
    since every pair the bound cannot rule out is recomputed in double precision.

    Returns ``rows, cols`` (int64, ordered by row then column) and the absolute values,
    capped at 1.
    """
    if precision not in ("auto", "single", "double", "bfloat16"):
        raise ValueError(
            f"precision must be 'auto', 'single', 'double' or 'bfloat16', got {precision!r}"
        )
    n, p = Z.shape
    if not Z.flags.f_contiguous:  # the recheck reads whole columns
        Z = np.asfortranarray(Z)
    if scale is not None:
        scale = np.asarray(scale, dtype=np.float64)
    means = np.zeros(p) if means is None else np.asarray(means, dtype=np.float64)
    factor = (np.ones(p) if scale is None else scale) / np.sqrt(n)
    nu = n * _U32
    # beyond about 168,000 rows the slack would let too many pairs through to recheck
    single = ((nu < 0.01 and precision == "auto") or precision == "single") and nu < 0.5
    dtype = np.float32 if single else np.float64
    norm2 = float(np.max(centred_squares(Z, means) * factor**2, initial=0.0))
    # single-precision tiles: inputs rounded to single, their sums in single precision
    floor = product_floor(r_min, n, norm2, _U32) if single else r_min
    bf16 = None
    if precision == "bfloat16" or (precision == "auto" and p >= BF16_MIN_COLUMNS):
        bf16 = bfloat16_product()
        if bf16 is None and precision == "bfloat16":
            raise ValueError(
                "precision='bfloat16' needs PyTorch (pip install torch) on a CPU with AMX "
                "tiles; use precision='auto' to fall back to single precision"
            )
        floor16 = bfloat16_floor(r_min, n, norm2)
        if precision == "auto" and floor16 < _BF16_MIN_SHARE * r_min:
            bf16 = None  # too many pairs would need the recheck
        if bf16 is not None:
            convert, multiply = bf16
            floor_bits = bfloat16_bits(floor16)
    if block is None:
        block = 1024 if bf16 is None else 4096
    rows, cols, weights = [], [], []
    if bf16 is not None:
        # every column once in bfloat16 (2 bytes a value), rows of a block contiguous
        halves = [
            convert(
                np.ascontiguousarray(_tile(Z, b0, min(b0 + block, p), factor, means, np.float32).T)
            )
            for b0 in range(0, p, block)
        ]
    for a0 in range(0, p, block):
        a1 = min(a0 + block, p)
        if bf16 is None:
            A = _tile(Z, a0, a1, factor, means, dtype)
        for b0 in range(a0, p, block):
            b1 = min(b0 + block, p)
            if bf16 is not None:
                C16 = multiply(halves[a0 // block], halves[b0 // block].T)
                i, j = tile_pairs(C16, np.int32(floor_bits), b0 == a0)
            else:
                C = A.T @ (A if b0 == a0 else _tile(Z, b0, b1, factor, means, dtype))
                # the diagonal tile's strict upper triangle; one pass over the tile
                i, j = tile_pairs(C, float(floor), b0 == a0)  # compared in double precision
            if i.size == 0:
                continue
            i += a0
            j += b0
            # the candidates again, in double precision
            exact = np.abs(pair_dots(Z, means, i, j)) / n
            if scale is not None:
                exact *= scale[i] * scale[j]
            keep = exact >= r_min
            rows.append(i[keep].astype(np.int64))
            cols.append(j[keep].astype(np.int64))
            weights.append(np.minimum(exact[keep], 1.0))
    if not rows:
        empty = np.zeros(0, np.int64)
        return empty, empty.copy(), np.zeros(0)
    rows, cols, weights = np.concatenate(rows), np.concatenate(cols), np.concatenate(weights)
    order = np.lexsort((cols, rows))  # by pair, whatever the tiles' size and order
    return rows[order], cols[order], weights[order]
