# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels on DAG adjacency matrices: reachability and the legality of search moves.

``A`` is a boolean ``(p, p)`` matrix with ``A[i, j]`` for the arc ``i -> j``; it must be
acyclic. Hill climbing asks, for every candidate move at once, whether it would close a
cycle: an added arc ``x -> y`` does when ``y`` reaches ``x``; reversing ``x -> y`` does when
``x`` reaches ``y`` along some other path, i.e. through a child ``c != y`` of ``x``.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def reachability(A):
    """``R[i, j]``: a directed path of one or more arcs leads from ``i`` to ``j``.

    Kahn's topological order, then one pass in reverse order that ORs each child's row into
    its parent's: ``O(p * (p + number of arcs))``.

    Parameters
    ----------
    A : bool array (p, p), acyclic

    Returns
    -------
    R : bool array (p, p)
    """
    p = A.shape[0]
    indegree = np.zeros(p, dtype=np.int64)
    for i in range(p):
        for j in range(p):
            if A[i, j]:
                indegree[j] += 1
    order = np.empty(p, dtype=np.int64)
    head = 0
    tail = 0
    for v in range(p):
        if indegree[v] == 0:
            order[tail] = v
            tail += 1
    while head < tail:
        v = order[head]
        head += 1
        for c in range(p):
            if A[v, c]:
                indegree[c] -= 1
                if indegree[c] == 0:
                    order[tail] = c
                    tail += 1
    R = np.zeros((p, p), dtype=np.bool_)
    for k in range(tail - 1, -1, -1):
        v = order[k]
        for c in range(p):
            if A[v, c]:
                R[v, c] = True
                for j in range(p):
                    if R[c, j]:
                        R[v, j] = True
    return R


@njit(cache=True)
def move_gains(A, R, delta, allowed, required, max_indegree, out):
    """Gains of every legal addition, deletion and reversal, ``-inf`` for illegal ones.

    ``out`` has shape ``(3, p, p)``: additions, deletions and reversals of ``x -> y`` at
    ``[move, x, y]``. ``delta[x, y]`` is the gain of toggling ``x`` in the parents of ``y``
    (a reversal gains ``delta[x, y] + delta[y, x]``). Illegal: closing a cycle (by ``R``, see
    :func:`reachability`), an arc outside ``allowed``, removing a ``required`` arc, or more
    than ``max_indegree`` parents (negative: no limit).
    """
    p = A.shape[0]
    indegree = np.zeros(p, dtype=np.int64)
    for x in range(p):
        for y in range(p):
            if A[x, y]:
                indegree[y] += 1
    for m in range(3):
        for x in range(p):
            for y in range(p):
                out[m, x, y] = -np.inf
    for x in range(p):
        for y in range(p):
            if x == y:
                continue
            room_y = max_indegree < 0 or indegree[y] < max_indegree
            if A[x, y]:
                if required[x, y]:
                    continue
                out[1, x, y] = delta[x, y]
                room_x = max_indegree < 0 or indegree[x] < max_indegree
                if allowed[y, x] and room_x:
                    cyclic = False
                    for c in range(p):
                        if c != y and A[x, c] and R[c, y]:
                            cyclic = True
                            break
                    if not cyclic:
                        out[2, x, y] = delta[x, y] + delta[y, x]
            elif not A[y, x] and allowed[x, y] and room_y and not R[y, x]:
                out[0, x, y] = delta[x, y]


@njit(cache=True)
def best_move(gains, rank, threshold, relative_tie):
    """The index (into ``gains.ravel()``) of the best move above ``threshold``, or -1.

    ``gains`` is ``(3, p, p)``: move type, ``x``, ``y``. Moves whose gains are within
    ``relative_tie * max(1, |best|)`` of the best are ties, won by the smallest key
    ``(move type, rank[x], rank[y])``.
    """
    flat = gains.ravel()
    p = rank.shape[0]
    top = -np.inf
    for k in range(flat.shape[0]):
        if flat[k] > top:
            top = flat[k]
    if not top > threshold:
        return -1
    level = top - relative_tie * max(1.0, abs(top))
    chosen = -1
    best_key = 0
    for k in range(flat.shape[0]):
        if flat[k] >= level:
            move = k // (p * p)
            rest = k - move * p * p
            key = move * p * p + rank[rest // p] * p + rank[rest % p]
            if chosen < 0 or key < best_key:
                chosen = k
                best_key = key
    return chosen
