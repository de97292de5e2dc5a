# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of exact structure search: dynamic programming over variable subsets.

Subsets are bit masks. For variable ``v`` the candidate parent sets live in the ``p - 1``
other variables, indexed by *compressed* masks (bit ``v`` removed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

TIE_RTOL = 1e-10


@njit(cache=True)
def compress(mask, v):
    """Remove bit ``v`` from ``mask`` (higher bits shift down by one)."""
    low = mask & ((np.int64(1) << v) - 1)
    high = (mask >> (v + 1)) << v
    return high | low


@njit(cache=True)
def best_parent_scores(p, v, set_masks, set_scores, out):
    """``out[c]``: the best score of a candidate parent set of ``v`` within compressed set c.

    ``set_masks`` are full masks (without bit ``v``) of the candidate sets and ``set_scores``
    their local scores. ``out`` has length ``2 ** (p - 1)``; subsets come before supersets in
    increasing integer order, so one pass over single-bit removals suffices.
    """
    out[:] = -np.inf
    for k in range(set_masks.shape[0]):
        c = compress(set_masks[k], v)
        if set_scores[k] > out[c]:
            out[c] = set_scores[k]
    size = out.shape[0]
    for c in range(1, size):
        best = out[c]
        rest = c
        while rest:
            bit = rest & (-rest)
            rest ^= bit
            other = out[c ^ bit]
            if other > best:
                best = other
        out[c] = best


@njit(cache=True)
def best_sinks(p, bps):
    """Best network score of every variable subset, and the sink that achieves it.

    ``bps[v, c]`` comes from :func:`best_parent_scores`. Returns ``(scores, sinks)`` over all
    ``2 ** p`` subsets; ties go to the lowest-numbered sink. Values within ``TIE_RTOL``
    (relative) are ties: Markov-equivalent networks have equal scores up to rounding, and
    rounding noise must not pick among them.
    """
    size = np.int64(1) << p
    scores = np.empty(size)
    sinks = np.full(size, -1, dtype=np.int8)
    scores[0] = 0.0
    for w in range(1, size):
        best = -np.inf
        sink = -1
        rest = w
        while rest:
            bit = rest & (-rest)
            rest ^= bit
            v = 0
            while (np.int64(1) << v) != bit:
                v += 1
            without = w ^ bit
            value = scores[without] + bps[v, compress(without, v)]
            if sink < 0 or best == -np.inf:
                better = value > best
            else:
                better = value > best + TIE_RTOL * max(1.0, abs(best))
            if sink < 0 or better:
                best = value
                sink = v
        scores[w] = best
        sinks[w] = sink
    return scores, sinks
