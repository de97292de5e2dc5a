# SPDX-License-Identifier: BSD-3-Clause
"""FCI's Possible-D-Sep sets on an endpoint matrix, for its Possible-D-Sep stage.

``M[i, j]`` is the mark at ``j`` on the edge ``i - j`` (0 none, 1 circle, 2 arrow, 3 tail);
``table[v, :degree[v]]`` lists the neighbours of ``v`` (any order), kept up to date by the
caller as edges are removed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skbn._kernels.ci import _next_combination, fisher_z

ARROW = 2
TAIL = 3


@njit(cache=True)
def possible_dsep(M, table, degree, x, y, max_length):
    """Possible-D-Sep(x, y) within the possible ancestors of ``x`` and ``y``, sorted.

    The nodes joined to ``x`` by a path that does not pass through ``y`` and whose every
    inner node is a collider on it or sits in a triangle with its two neighbours on it;
    breadth first over (previous, current) pairs, each visited once, paths of at most
    ``max_length`` edges (-1 for no bound). A node belongs only when it could be an
    ancestor of ``x`` or ``y`` (a potentially directed path leads from it to one of them),
    which keeps the stage sound and its sets small.
    """
    p = M.shape[0]
    width = table.shape[1]
    seen = np.zeros((p, width), dtype=np.bool_)
    found = np.zeros(p, dtype=np.bool_)
    size = max(1, int(degree.sum()))
    qa = np.empty(size, dtype=np.int64)
    qb = np.empty(size, dtype=np.int64)
    ql = np.empty(size, dtype=np.int64)
    head = 0
    tail = 0
    for k in range(degree[x]):
        b = table[x, k]
        if b == y:
            continue
        seen[x, k] = True
        found[b] = True
        qa[tail] = x
        qb[tail] = b
        ql[tail] = 1
        tail += 1
    while head < tail:
        a = qa[head]
        b = qb[head]
        length = ql[head]
        head += 1
        if max_length >= 0 and length >= max_length:
            continue
        for k in range(degree[b]):
            c = table[b, k]
            if c == a or c == x or c == y or seen[b, k]:
                continue
            if (M[a, b] == ARROW and M[c, b] == ARROW) or M[a, c] != 0:
                seen[b, k] = True
                found[c] = True
                qa[tail] = b
                qb[tail] = c
                ql[tail] = length + 1
                tail += 1
    # the possible ancestors of x and y: a potentially directed path u ... w into them
    ancestor = np.zeros(p, dtype=np.bool_)
    stack = np.empty(p, dtype=np.int64)
    ancestor[x] = True
    ancestor[y] = True
    stack[0] = x
    stack[1] = y
    top = 2
    while top > 0:
        top -= 1
        w = stack[top]
        for k in range(degree[w]):
            u = table[w, k]
            if ancestor[u]:
                continue
            m = M[u, w]
            if m != 0 and m != TAIL and M[w, u] != ARROW:
                ancestor[u] = True
                stack[top] = u
                top += 1
    return np.flatnonzero(found & ancestor)


@njit(cache=True)
def _reach_row(steps, reach, done, r):
    """Fill ``reach[r]`` (the nodes a path of one or more steps from ``r`` reaches)."""
    if done[r]:
        return
    p = steps.shape[0]
    stack = np.empty(p + 1, dtype=np.int64)
    stack[0] = r
    top = 1
    while top > 0:
        top -= 1
        u = stack[top]
        for w in range(p):
            if steps[u, w] and not reach[r, w]:
                reach[r, w] = True
                stack[top] = w
                top += 1
    done[r] = True


@njit(cache=True)
def tetrad_possible_dsep(M, x, max_length):
    """Possible-D-Sep of ``x`` as Tetrad 7.6.8's ``Paths.possibleDsep`` computes it, sorted.

    Breadth first over edges ``(a, b)`` from ``x``, up to ``max_length`` edges, going on
    through ``b`` to ``c`` when ``b`` is a collider on ``a, b, c`` or ``a`` and ``c`` are
    adjacent. The neighbours of ``x`` belong; a later ``b`` belongs when some node seen next
    to it (other than ``x``) has a semi-directed path (no arrowhead at the start of any
    step) to ``x`` or to ``b``. Each semi-directed reach is searched once per call.

    Parameters
    ----------
    M : int8 array (p, p)
        The endpoint matrix.
    x : int
    max_length : int

    Returns
    -------
    int64 array
    """
    p = M.shape[0]
    steps = np.zeros((p, p), dtype=np.bool_)
    edges = 0
    for u in range(p):
        for v in range(p):
            if M[u, v] != 0:
                edges += 1
                if M[v, u] != ARROW:
                    steps[u, v] = True
    reach = np.zeros((p, p), dtype=np.bool_)
    done = np.zeros(p, dtype=np.bool_)
    previous = np.zeros((p, p), dtype=np.bool_)  # previous[b, r]: r was seen next to b
    seen = np.zeros((p, p), dtype=np.bool_)
    found = np.zeros(p, dtype=np.bool_)
    qa = np.empty(edges + 1, dtype=np.int64)
    qb = np.empty(edges + 1, dtype=np.int64)
    ql = np.empty(edges + 1, dtype=np.int64)
    head = 0
    tail = 0
    for b in range(p):
        if M[x, b] != 0:
            qa[tail], qb[tail], ql[tail] = x, b, 1
            tail += 1
            seen[x, b] = True
            previous[b, x] = True
            found[b] = True
    while head < tail:
        a, b, length = qa[head], qb[head], ql[head]
        head += 1
        if length > max_length:
            break
        if not found[b]:
            for r in range(p):
                if previous[b, r] and r != x:
                    _reach_row(steps, reach, done, r)
                    if reach[r, x] or reach[r, b]:
                        found[b] = True
                        break
        for c in range(p):
            if M[b, c] == 0 or c == a or c == x:
                continue
            previous[c, b] = True
            if (M[a, b] == ARROW and M[c, b] == ARROW) or M[a, c] != 0:
                if not seen[b, c]:
                    seen[b, c] = True
                    qa[tail], qb[tail], ql[tail] = b, c, length + 1
                    tail += 1
    found[x] = False
    return np.flatnonzero(found)


@njit(cache=True)
def first_separating_fisher_z(corr, n, x, y, pool, adj, max_size, alpha):
    """The first subset of ``pool`` whose Fisher-z test finds ``x`` and ``y`` independent.

    Sizes 1 to ``max_size`` (-1: ``len(pool)``) in turn, subsets of one size in
    lexicographic order of ``pool``; a subset of the neighbours of ``x`` or of those of
    ``y`` (``adj``) was tested with the skeleton and is skipped. Independence is a p-value
    (``2 * Phi(-|z|)``) above ``alpha``, as :class:`skbn.ci_tests.FisherZ` reports it.

    Returns
    -------
    found : bool
    cond : int64 (size,)
        The separating subset (empty when none is found).
    """
    m = pool.shape[0]
    top = m if max_size < 0 else min(m, max_size)
    comb = np.empty(max(top, 1), dtype=np.int64)
    for size in range(1, top + 1):
        c = comb[:size]
        for j in range(size):
            c[j] = j
        cond = np.empty(size, dtype=np.int64)
        while True:
            in_x = True
            in_y = True
            for j in range(size):
                v = pool[c[j]]
                cond[j] = v
                in_x = in_x and adj[x, v]
                in_y = in_y and adj[y, v]
            if not (in_x or in_y):
                z = fisher_z(corr, n, x, y, cond)
                if math.erfc(abs(z) / math.sqrt(2.0)) > alpha:
                    return True, cond
            if not _next_combination(c, m):
                break
    return False, np.empty(0, dtype=np.int64)


@njit(cache=True)
def _drop(table, degree, u, v):
    """Swap ``v`` out of ``u``'s row of the neighbour table."""
    for k in range(degree[u]):
        if table[u, k] == v:
            table[u, k] = table[u, degree[u] - 1]
            degree[u] -= 1
            return


@njit(cache=True)
def possible_dsep_stage_fisher_z(corr, n, M, adj, keep, max_length, max_size, alpha):
    """FCI's Possible-D-Sep stage with Fisher-z tests, every pair in one kernel.

    The pairs ``x < y`` still adjacent and not in ``keep``, in that order; for each, the
    Possible-D-Sep set of ``x`` then of ``y`` (on the graph the earlier removals left) is
    searched by :func:`first_separating_fisher_z`. A separated pair loses its edge in
    ``adj`` and ``M`` (both changed in place).

    Returns
    -------
    pairs : int64 (k, 2)
        The removed pairs, in the order removed.
    offsets : int64 (k + 1,)
    members : int64 (offsets[-1],)
        The separating set of pair ``i`` is ``members[offsets[i]:offsets[i + 1]]``.
    """
    p = M.shape[0]
    degree = np.zeros(p, dtype=np.int64)
    for v in range(p):
        for u in range(p):
            if adj[v, u]:
                degree[v] += 1
    width = 1
    for v in range(p):
        width = max(width, degree[v])
    table = np.full((p, width), -1, dtype=np.int64)
    for v in range(p):
        k = 0
        for u in range(p):
            if adj[v, u]:
                table[v, k] = u
                k += 1
    pairs = np.empty((16, 2), dtype=np.int64)
    offsets = np.zeros(17, dtype=np.int64)
    members = np.empty(64, dtype=np.int64)
    count = 0
    for x in range(p):
        for y in range(x + 1, p):
            if not adj[x, y] or keep[x, y]:
                continue
            found, cond = False, np.empty(0, dtype=np.int64)
            for end in range(2):
                a, b = (x, y) if end == 0 else (y, x)
                pool = possible_dsep(M, table, degree, a, b, max_length)
                found, cond = first_separating_fisher_z(corr, n, x, y, pool, adj, max_size, alpha)
                if found:
                    break
            if not found:
                continue
            adj[x, y] = False
            adj[y, x] = False
            M[x, y] = 0
            M[y, x] = 0
            _drop(table, degree, x, y)
            _drop(table, degree, y, x)
            if count == pairs.shape[0]:
                grown = np.empty((2 * count, 2), dtype=np.int64)
                grown[:count] = pairs
                pairs = grown
                more = np.zeros(2 * count + 1, dtype=np.int64)
                more[: count + 1] = offsets[: count + 1]
                offsets = more
            start = offsets[count]
            while start + cond.shape[0] > members.shape[0]:
                grown_m = np.empty(2 * members.shape[0], dtype=np.int64)
                grown_m[: members.shape[0]] = members
                members = grown_m
            members[start : start + cond.shape[0]] = cond
            pairs[count, 0] = x
            pairs[count, 1] = y
            offsets[count + 1] = start + cond.shape[0]
            count += 1
    return pairs[:count].copy(), offsets[: count + 1].copy(), members[: offsets[count]].copy()
