# SPDX-License-Identifier: BSD-3-Clause
"""Counting discrete data with bitsets: one bit per row for every state of every variable.

The rows where variable ``j`` takes state ``s`` form the bitset ``bits[offsets[j] + s]`` of
``ceil(n / 64)`` words. The count of rows in a cell of a joint table is the population count
of the AND of its bitsets, which costs ``n / 64`` word operations instead of a pass over ``n``
rows: for the small tables of hill climbing (a few parent configurations, a few states) this
is several times faster than counting row by row. The counting kernels choose between the two
per table with :func:`bits_pay`.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

#: A word AND + population count costs about 1.2 times one row of a dense count; bitsets
#: are used when ``cells * words <= _ROWS_PER_WORD_OP * n`` (measured on ALARM/HAILFINDER).
_ROWS_PER_WORD_OP = 0.75


@intrinsic
def popcount(typingctx, word):
    """Number of set bits of a uint64 (LLVM's ``ctpop``, one instruction where available)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True)
def state_bits(codes, arities):
    """Bitsets of the rows in each state of each variable.

    Parameters
    ----------
    codes : int16 array (n, p)
    arities : int64 array (p,)

    Returns
    -------
    bits : uint64 array (sum(arities), ceil(n / 64))
    offsets : int64 array (p + 1,)
        Variable ``j``'s states are the rows ``offsets[j] .. offsets[j + 1] - 1`` of ``bits``.
    """
    n, p = codes.shape
    words = (n + 63) // 64
    offsets = np.zeros(p + 1, dtype=np.int64)
    for j in range(p):
        offsets[j + 1] = offsets[j] + arities[j]
    bits = np.zeros((offsets[p], words), dtype=np.uint64)
    for j in range(p):
        for i in range(n):
            bits[offsets[j] + codes[i, j], i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return bits, offsets


@njit(cache=True)
def bits_pay(cells, words, n):
    """Whether counting ``cells`` cells by bitsets of ``words`` words beats a row pass."""
    return words > 0 and cells * words <= _ROWS_PER_WORD_OP * n


@njit(cache=True)
def and_count(a, b):
    """Population count of ``a & b`` (two bitsets of equal length)."""
    total = np.uint64(0)
    for t in range(a.shape[0]):
        total += popcount(a[t] & b[t])
    return np.int64(total)


@njit(cache=True)
def cell_bits(key, cells, words):
    """Bitsets of the rows of each non-empty cell, for row keys ``key`` in ``[0, cells)``.

    Returns
    -------
    bits : uint64 array (n_nonempty, words)
    cell : int64 array (n_nonempty,)
        The cell of each bitset, increasing.
    """
    n = key.shape[0]
    slot = np.full(cells, -1, dtype=np.int64)
    used = 0
    for i in range(n):
        if slot[key[i]] < 0:
            slot[key[i]] = 0
            used += 1
    cell = np.empty(used, dtype=np.int64)
    m = 0
    for c in range(cells):
        if slot[c] == 0:
            slot[c] = m
            cell[m] = c
            m += 1
    bits = np.zeros((used, words), dtype=np.uint64)
    for i in range(n):
        bits[slot[key[i]], i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return bits, cell
