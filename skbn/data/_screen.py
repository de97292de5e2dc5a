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
#: The same share for int8 products (their floor is set by the columns' rounding errors).
_INT8_MIN_SHARE = 0.75
#: Zero point of the int8 products' unsigned operand (7 bits: 1 to 127 around it).
_A_ZERO = 64


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


@functools.cache
def int8_product():
    """PyTorch's int8 matrix product (oneDNN, on CPUs with AVX2 or later), else None.

    Returns ``(pack, multiply)``. ``pack(w)`` takes a C-ordered ``(b, n)`` int8 array (the
    columns of a tile as rows, each in -127..127) and returns the packed operand;
    ``multiply(a, scale, packed, scales)`` takes an ``(m, n)`` uint8 array with values
    0..127 (zero point :data:`_A_ZERO`, so that no pair of byte products overflows 16 bits
    in AVX2's multiply-add) and returns the ``(m, b)`` single-precision products
    ``(a - zero) . w * scale * scales``: the integer sums are exact (32 bits), then scaled
    in single precision. PyTorch is optional: without it, or without oneDNN on a CPU with
    AVX2, the screen keeps its single-precision products.
    """
    try:
        import torch
    except ImportError:
        return None
    onednn = getattr(torch.ops, "onednn", None)
    if not torch.backends.mkldnn.is_available() or onednn is None:
        return None
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        return None

    def pack(w):
        return onednn.qlinear_prepack(torch.from_numpy(w), None)

    def multiply(a, scale, packed, scales):
        zeros = torch.zeros(scales.shape[0], dtype=torch.int64)
        out = onednn.qlinear_pointwise(
            torch.from_numpy(a),
            scale,
            _A_ZERO,
            packed,
            torch.from_numpy(scales),
            zeros,
            None,
            1.0,
            0,
            torch.float32,
            "none",
            [],
            "",
        )
        return out.numpy()

    return pack, multiply


def _single_scale(top: np.ndarray, levels: int) -> np.ndarray:
    """Single-precision steps with ``|x| / step <= levels`` for ``|x| <= top`` (1 for 0)."""
    top = np.atleast_1d(np.asarray(top, dtype=np.float64))
    step = (top / levels).astype(np.float32)
    step[top == 0] = 1.0
    low = top / step.astype(np.float64) > levels
    step[low] = np.nextafter(step[low], np.float32(np.inf))
    return step


def _int8_columns(U: np.ndarray):
    """Columns of ``U`` (``(n, b)``, double) rounded to int8 with a scale each.

    Returns the ``(b, n)`` int8 rows (-127..127), the scales (single precision, as the
    products take them), the norms of the rounding errors and the columns' norms.
    """
    scales = _single_scale(np.max(np.abs(U), axis=0, initial=0.0), 127)
    step = scales.astype(np.float64)
    q = np.clip(np.rint(U / step), -127, 127)
    errors = np.sqrt(np.sum((U - q * step) ** 2, axis=0))
    norms = np.sqrt(np.sum(U**2, axis=0))
    return np.ascontiguousarray(q.T.astype(np.int8)), scales, errors, norms


def _uint7_block(U: np.ndarray):
    """A block ``U`` (``(n, m)``, double) rounded to 7 bits with one scale.

    Returns the ``(m, n)`` uint8 rows (1..127, zero point :data:`_A_ZERO`), the scale, the
    norms of the rounding errors and of the rounded columns.
    """
    scale = float(_single_scale(np.max(np.abs(U), initial=0.0), 63)[0])
    q = np.clip(np.rint(U / scale), -63, 63)
    errors = np.sqrt(np.sum((U - q * scale) ** 2, axis=0))
    norms = np.sqrt(np.sum((q * scale) ** 2, axis=0))
    rows = np.ascontiguousarray((q + _A_ZERO).T.astype(np.uint8))
    return rows, scale, errors, norms


def int8_floor(r_min: float, a_errors, a_norms, b_errors, b_norms) -> float:
    """A floor on a tile's int8 products below which no pair reaches ``r_min`` exactly.

    With ``u = u~ + e`` and ``v = v~ + f`` (the columns and their rounded values):
    ``|u.v - u~.v~| = |e.v + u~.f| <= |e| |v| + |u~| |f|`` (Cauchy-Schwarz), at most the
    largest errors and norms of the tile's two blocks. The integer sums are exact; their
    single-precision scaling is off by a few units of roundoff, and a small term covers the
    norms' own rounding and the double-precision recheck's. Zero when not positive.
    """

    def top(x):
        return float(np.max(x, initial=0.0))

    slack = (top(a_errors) * top(b_norms) + top(a_norms) * top(b_errors)) * (1 + 1e-9) + 1e-12
    return max((r_min - slack) * (1.0 - 8 * _U32), 0.0)


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


class _Pairs:
    """The pairs kept so far, in arrays that double as they fill.

    Not one small array per tile: at a million columns there are about 120,000 tiles, and
    their small arrays, living between the tiles' large temporaries, fragmented the heap
    so that the process grew by about 300 KB a tile (glibc's allocator).
    """

    def __init__(self) -> None:
        self.size = 0
        self.rows = np.empty(1024, dtype=np.int64)
        self.cols = np.empty(1024, dtype=np.int64)
        self.values = np.empty(1024)

    def add(self, rows, cols, values) -> None:
        end = self.size + rows.shape[0]
        if end > self.rows.shape[0]:
            room = max(end, 2 * self.rows.shape[0])
            for name in ("rows", "cols", "values"):
                grown = np.empty(room, dtype=getattr(self, name).dtype)
                grown[: self.size] = getattr(self, name)[: self.size]
                setattr(self, name, grown)
        self.rows[self.size : end] = rows
        self.cols[self.size : end] = cols
        self.values[self.size : end] = values
        self.size = end

    def arrays(self):
        """The rows, columns and values kept (views: their callers copy or discard)."""
        return self.rows[: self.size], self.cols[: self.size], self.values[: self.size]


def _tile(Z, start: int, stop: int, factor, means, dtype) -> np.ndarray:
    """Columns ``start:stop`` of ``Z``, less ``means``, times ``factor``, as ``dtype``."""
    return ((Z[:, start:stop] - means[start:stop]) * factor[start:stop]).astype(dtype, copy=False)


def thresholded_correlations(
    Z: np.ndarray, r_min: float, block=None, scale=None, precision: str = "auto", means=None
):
    """Pairs ``i < j`` of centred columns with ``|Z_i . Z_j| / n * scale_i * scale_j >= r_min``.

    With standardised columns (``scale`` None) these are the correlations. Given ``means``,
    the columns are ``Z - means``, centred as they are read (no centred copy of ``Z``). The
    products run tile by tile (``block`` by ``block`` columns; None: 1,024, or 4,096 for
    bfloat16 products, whose AMX tiles pay off on larger blocks, and 2,048 for int8
    products), so memory grows with the pairs kept, not with ``p`` (the low-precision
    products hold every column once, in 1 or 2 bytes a value). Each tile is computed in
    single precision, which halves the time of the matrix products; a pair within the
    single-precision error bound of the threshold (about ``n + 2`` units of roundoff times
    the largest column norm, for any order of summation) is then recomputed in double
    precision, so the pairs kept and their values are those of a double-precision screen.
    Above about 168,000 rows, or with ``precision="double"``,
    the tiles are double precision (``"single"`` keeps them single up to 8 million rows).
    With ``precision="bfloat16"``, or ``"auto"`` from :data:`BF16_MIN_COLUMNS` columns
    where PyTorch runs bfloat16 products on AMX tiles
    (:func:`bfloat16_product`) and their error bound (:func:`bfloat16_floor`) keeps most
    of the threshold, the tiles are bfloat16 products: the same pairs and values again,
    since every pair the bound cannot rule out is recomputed in double precision. With
    ``precision="int8"``, or ``"auto"`` from :data:`BF16_MIN_COLUMNS` columns without AMX
    where PyTorch runs int8 products with oneDNN (:func:`int8_product`, AVX2 or later:
    about 1.5 times single precision's speed), each column is rounded to 8 bits with a
    scale of its own and each block of columns to 7 bits with one scale; the integer sums
    are exact, so the products of the rounded columns are off the exact ones by at most
    the rounding errors' norms times the columns' (:func:`int8_floor`), and every pair
    within that of the threshold is recomputed in double precision: the same pairs and
    values again.

    Returns ``rows, cols`` (int64, ordered by row then column) and the absolute values,
    capped at 1. :func:`screen_blocks` runs the screen one block of rows at a time.
    """
    kept = _Pairs()
    for _, _, rows, cols, values in screen_blocks(Z, r_min, block, scale, precision, means):
        kept.add(rows, cols, values)
    rows, cols, weights = kept.arrays()
    order = np.lexsort((cols, rows))  # by pair, whatever the tiles' size and order
    return rows[order], cols[order], weights[order]


def screen_blocks(
    Z: np.ndarray,
    r_min: float,
    block=None,
    scale=None,
    precision: str = "auto",
    means=None,
    start: int = 0,
):
    """:func:`thresholded_correlations` one block of rows at a time, from column ``start``.

    Yields ``(a0, a1, rows, cols, values)`` for each block of ``block`` columns
    ``a0:a1`` from ``start`` on (a multiple of ``block``): the pairs ``i < j`` with ``i``
    in the block, in no set order. A long screen can so be saved as it goes and resumed
    where it stopped (``start``), with ``block`` and ``precision`` given: the blocks, and
    so the pairs each yields, follow from them ("auto" could choose other products for
    the columns from ``start`` than for all). The arguments are checked when the first
    block is asked for.
    """
    if precision not in ("auto", "single", "double", "bfloat16", "int8"):
        raise ValueError(
            f"precision must be 'auto', 'single', 'double', 'bfloat16' or 'int8', got {precision!r}"
        )
    if block is not None and (
        isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < 1
    ):
        raise ValueError(f"block must be a positive integer (columns a tile), got {block!r}")
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
    squares = centred_squares(Z, means) * factor**2
    if not np.isfinite(squares).all():
        # one NaN would make every tile's floor NaN and drop every pair, related or not
        column = int(np.flatnonzero(~np.isfinite(squares))[0])
        raise ValueError(
            f"Column {column} holds NaN or infinite values: the correlation screen needs "
            "complete, finite columns. Drop or impute the missing cells first (skbn's "
            "learners screen data with missing values on the pairs each column observes)."
        )
    norm2 = float(np.max(squares, initial=0.0))
    # single-precision tiles: inputs rounded to single, their sums in single precision
    floor = product_floor(r_min, n, norm2, _U32) if single else r_min
    low = precision == "auto" and p >= BF16_MIN_COLUMNS
    bf16 = None
    if precision == "bfloat16" or low:
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
            low = False
    int8 = None
    if precision == "int8" or low:
        int8 = int8_product()
        if int8 is None and precision == "int8":
            raise ValueError(
                "precision='int8' needs PyTorch (pip install torch) with oneDNN on a CPU "
                "with AVX2; use precision='auto' to fall back to single precision"
            )
    chosen = block is not None
    if block is None:
        block = 4096 if bf16 is not None else 2048 if int8 is not None else 1024
    if start % block or not 0 <= start:
        raise ValueError(f"start must be a non-negative multiple of block={block}, got {start}")
    starts = range(0, p, block)
    if int8 is not None:
        # every column once in int8 (one byte a value, packed for the products)
        pack, multiply8 = int8
        packed, b_scales, b_errors, b_norms = [], [], [], []
        for b0 in starts:
            if b0 < start:  # never read: every tile from here on has b0 >= a0 >= start
                packed.append(None)
                b_scales.append(None)
                b_errors.append(np.zeros(0))
                b_norms.append(np.zeros(0))
                continue
            w, scales, errors, norms = _int8_columns(
                _tile(Z, b0, min(b0 + block, p), factor, means, np.float64)
            )
            packed.append(pack(w))
            b_scales.append(scales)
            b_errors.append(errors)
            b_norms.append(norms)
        if precision == "auto":
            # the first block's floor against every column: the tiles' floors are alike
            # (standardised columns), and a low one would send too many pairs to recheck
            _, _, errors, norms = _uint7_block(_tile(Z, 0, block, factor, means, np.float64))
            every = np.concatenate(b_errors), np.concatenate(b_norms)
            guess = int8_floor(r_min, errors, norms, *every)
            if guess < _INT8_MIN_SHARE * r_min:
                int8 = packed = None
                if not chosen and start == 0:
                    block = 1024
                    starts = range(0, p, block)
    if bf16 is not None:
        # every column once in bfloat16 (2 bytes a value), rows of a block contiguous
        halves = [
            convert(
                np.ascontiguousarray(_tile(Z, b0, min(b0 + block, p), factor, means, np.float32).T)
            )
            if b0 >= start
            else None
            for b0 in starts
        ]
    for a0 in range(start, p, block):
        kept = _Pairs()
        a1 = min(a0 + block, p)
        if int8 is not None:
            a_rows, a_scale, a_errors, a_norms = _uint7_block(
                _tile(Z, a0, a1, factor, means, np.float64)
            )
        elif bf16 is None:
            A = _tile(Z, a0, a1, factor, means, dtype)
        for b0 in range(a0, p, block):
            b1 = min(b0 + block, p)
            if int8 is not None:
                k = b0 // block
                C = multiply8(a_rows, a_scale, packed[k], b_scales[k])
                low = int8_floor(r_min, a_errors, a_norms, b_errors[k], b_norms[k])
                i, j = tile_pairs(C, low, b0 == a0)
            elif bf16 is not None:
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
            kept.add(i[keep], j[keep], np.minimum(exact[keep], 1.0))
        yield (a0, a1, *kept.arrays())
