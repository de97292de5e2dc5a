# SPDX-License-Identifier: BSD-3-Clause
"""Ancestral and maximal: the two checks of a MAG, on its endpoint matrix.

``M[i, j]`` holds the mark at ``j`` on the edge ``i - j`` (0 none, 1 circle, 2 arrow,
3 tail); ``indptr``/``indices`` list each node's neighbours (CSR).
"""

from __future__ import annotations

import numpy as np
from numba import njit

CIRCLE = 1
ARROW = 2
TAIL = 3


@njit(cache=True)
def ancestor_matrix(M, indptr, indices):
    """``anc[u, v]``: ``u`` is an ancestor of ``v`` by ``-->`` edges (``v`` of itself)."""
    p = M.shape[0]
    anc = np.zeros((p, p), dtype=np.bool_)
    stack = np.empty(p, dtype=np.int64)
    for v in range(p):
        anc[v, v] = True
        stack[0] = v
        top = 1
        while top > 0:
            top -= 1
            t = stack[top]
            for k in range(indptr[t], indptr[t + 1]):
                u = indices[k]
                if not anc[u, v] and M[u, t] == ARROW and M[t, u] == TAIL:
                    anc[u, v] = True
                    stack[top] = u
                    top += 1
    return anc


@njit(cache=True)
def is_ancestral(M, indptr, indices):
    """No circle, no undirected edge, no arrowhead at an ancestor.

    An arrowhead at an ancestor (``b *-> a`` with ``a`` an ancestor of ``b``) closes a
    directed or an almost directed cycle.
    """
    p = M.shape[0]
    for i in range(p):
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if M[i, j] == CIRCLE or (M[i, j] == TAIL and M[j, i] == TAIL):
                return False
    anc = ancestor_matrix(M, indptr, indices)
    for b in range(p):
        for k in range(indptr[b], indptr[b + 1]):
            a = indices[k]
            if M[b, a] == ARROW and anc[a, b]:
                return False
    return True


@njit(cache=True)
def _has_inducing_path(M, indptr, indices, x, y, ancestors, seen):
    """An inducing path ``x ... y``: every inner node a collider and in ``ancestors``."""
    seen[:] = False
    stack = np.empty(M.shape[0], dtype=np.int64)
    top = 0
    for k in range(indptr[x], indptr[x + 1]):
        v = indices[k]
        if v != y and M[x, v] == ARROW and ancestors[v]:
            seen[v] = True
            stack[top] = v
            top += 1
    while top > 0:
        top -= 1
        v = stack[top]
        for k in range(indptr[v], indptr[v + 1]):
            w = indices[k]
            if M[w, v] != ARROW or w == x:
                continue
            if w == y:
                return True
            if not seen[w] and ancestors[w] and M[v, w] == ARROW:
                seen[w] = True
                stack[top] = w
                top += 1
    return False


@njit(cache=True)
def is_maximal(M, indptr, indices):
    """No inducing path between two non-adjacent nodes of an ancestral graph."""
    p = M.shape[0]
    anc = ancestor_matrix(M, indptr, indices)
    # leaves[x, t]: x *-> some ancestor of t; a pair needs it at both ends
    leaves = np.zeros((p, p), dtype=np.bool_)
    for x in range(p):
        for k in range(indptr[x], indptr[x + 1]):
            v = indices[k]
            if M[x, v] == ARROW:
                for t in range(p):
                    if anc[v, t]:
                        leaves[x, t] = True
    ancestors = np.empty(p, dtype=np.bool_)
    seen = np.empty(p, dtype=np.bool_)
    for x in range(p):
        for y in range(x + 1, p):
            if M[x, y] != 0:
                continue
            if not (leaves[x, x] or leaves[x, y]) or not (leaves[y, y] or leaves[y, x]):
                continue
            for u in range(p):
                ancestors[u] = anc[u, x] or anc[u, y]
            if _has_inducing_path(M, indptr, indices, x, y, ancestors, seen):
                return False
    return True
