# SPDX-License-Identifier: BSD-3-Clause
"""Sorting kernels written here rather than taken from numba.

numba compiles ``ndarray.sort`` and ``np.argsort`` from closures made by one factory
(``numba.misc.quicksort.make_quicksort_impl``): a sort and an argsort of the same array type
get the same qualified name and argument types, and differ only by a per-process counter in
their mangled symbol. Two kernels cached by different processes can therefore carry a sort
and an argsort under one symbol; a process that loads both links one body for both, and a
``keys.sort()`` loaded from numba's on-disk cache returns argsort indices (numba issue
#10486, reproduced in ``tests/test_kernel_cache.py``). Module-level functions have one body
per qualified name and argument types, so a symbol clash between cached libraries is
harmless for them. Every kernel of skbn sorts with these functions; none calls numba's.

* :func:`sort_int64` sorts an integer array in place: least-significant-digit radix sort on
  the offsets from the minimum (11-bit digits, only as many passes as the range needs).
* :func:`argsort_int64` is the stable argsort of an integer array by the same passes.
* :func:`argsort_stable` is a stable merge argsort for any real dtype (floats included;
  ``-0.0`` and ``0.0`` compare equal, NaN is not expected).
"""

import numpy as np
from numba import njit

_DIGIT_BITS = 11
_BUCKETS = 1 << _DIGIT_BITS
_MASK = _BUCKETS - 1
#: Below this length an insertion sort beats the radix passes' bucket clearing.
_SMALL = 48


@njit(cache=True, nogil=True)
def _range_passes(a):
    """Minimum of ``a`` and the number of radix passes its range needs (-1 if it overflows)."""
    lo = a[0]
    hi = a[0]
    for i in range(1, a.shape[0]):
        v = a[i]
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    span = hi - lo
    if span < 0:  # the range does not fit int64 (values of both signs near the limits)
        return lo, -1
    passes = 0
    while span > 0:
        passes += 1
        span >>= _DIGIT_BITS
    return lo, passes


@njit(cache=True, nogil=True)
def _bucket_starts(digits, counts):
    """First output position of each digit's bucket, into ``counts`` (a stable pass's table)."""
    counts[:] = 0
    for i in range(digits.shape[0]):
        counts[digits[i] + 1] += 1
    for b in range(_BUCKETS):
        counts[b + 1] += counts[b]


@njit(cache=True, nogil=True)
def _insertion_argsort(keys, idx):
    """Stable insertion sort of the indices ``idx`` by ``keys[idx]``."""
    for i in range(1, idx.shape[0]):
        j = idx[i]
        k = keys[j]
        m = i - 1
        while m >= 0 and keys[idx[m]] > k:
            idx[m + 1] = idx[m]
            m -= 1
        idx[m + 1] = j


@njit(cache=True, nogil=True)
def argsort_stable(keys):
    """Indices that sort ``keys`` ascending; equal keys keep their order (merge sort).

    Parameters
    ----------
    keys : 1-D array of a real dtype

    Returns
    -------
    int64 array
    """
    n = keys.shape[0]
    idx = np.arange(n)
    if n <= _SMALL:
        _insertion_argsort(keys, idx)
        return idx
    # runs of _SMALL sorted by insertion, then bottom-up merges
    for start in range(0, n, _SMALL):
        _insertion_argsort(keys, idx[start : min(start + _SMALL, n)])
    buf = np.empty(n, dtype=np.int64)
    width = _SMALL
    src = idx
    dst = buf
    while width < n:
        for left in range(0, n, 2 * width):
            mid = min(left + width, n)
            right = min(left + 2 * width, n)
            i = left
            j = mid
            k = left
            while i < mid and j < right:
                if keys[src[j]] < keys[src[i]]:
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < right:
                dst[k] = src[j]
                j += 1
                k += 1
        src, dst = dst, src
        width *= 2
    return src


@njit(cache=True, nogil=True)
def argsort_int64(a):
    """Stable argsort of an integer array (radix passes over the range of ``a``).

    Parameters
    ----------
    a : 1-D integer array

    Returns
    -------
    int64 array
    """
    n = a.shape[0]
    if n <= _SMALL:
        return argsort_stable(a)
    lo, passes = _range_passes(a)
    if passes < 0:
        return argsort_stable(a)
    idx = np.arange(n)
    buf = np.empty(n, dtype=np.int64)
    counts = np.empty(_BUCKETS + 1, dtype=np.int64)
    shift = 0
    digits = np.empty(n, dtype=np.int64)
    for _ in range(passes):
        for i in range(n):
            digits[i] = ((a[idx[i]] - lo) >> shift) & _MASK
        _bucket_starts(digits, counts)
        for i in range(n):
            d = digits[i]
            buf[counts[d]] = idx[i]
            counts[d] += 1
        idx, buf = buf, idx
        shift += _DIGIT_BITS
    return idx


@njit(cache=True, nogil=True)
def insertion_sort(a):
    """Sort ``a`` in place by insertion: the fastest way for a few dozen entries."""
    for i in range(1, a.shape[0]):
        v = a[i]
        m = i - 1
        while m >= 0 and a[m] > v:
            a[m + 1] = a[m]
            m -= 1
        a[m + 1] = v


@njit(cache=True, nogil=True)
def sort_int64(a):
    """Sort an integer array in place, ascending (radix passes over the range of ``a``).

    Parameters
    ----------
    a : 1-D integer array, modified
    """
    n = a.shape[0]
    if n < 2:
        return
    if n <= _SMALL:
        insertion_sort(a)
        return
    lo, passes = _range_passes(a)
    if passes < 0:
        a[:] = a[argsort_stable(a)]
        return
    src = np.empty(n, dtype=np.int64)
    for i in range(n):
        src[i] = a[i] - lo
    dst = np.empty(n, dtype=np.int64)
    counts = np.empty(_BUCKETS + 1, dtype=np.int64)
    shift = 0
    digits = np.empty(n, dtype=np.int64)
    for _ in range(passes):
        for i in range(n):
            digits[i] = (src[i] >> shift) & _MASK
        _bucket_starts(digits, counts)
        for i in range(n):
            d = digits[i]
            dst[counts[d]] = src[i]
            counts[d] += 1
        src, dst = dst, src
        shift += _DIGIT_BITS
    for i in range(n):
        a[i] = src[i] + lo
