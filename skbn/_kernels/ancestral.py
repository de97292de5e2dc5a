# SPDX-License-Identifier: BSD-3-Clause
"""Ancestral and maximal: the two checks of a MAG, and Zhang's MAG of a PAG.

``M[i, j]`` holds the mark at ``j`` on the edge ``i - j`` (0 none, 1 circle, 2 arrow,
3 tail); ``indptr``/``indices`` list each node's neighbours (CSR). Every kernel here runs in
time linear in the edges (times the few searches it needs), never in ``p`` squared: FCIT
asks them once per edge it tries to remove, on graphs of 10,000 nodes.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

CIRCLE = 1
ARROW = 2
TAIL = 3


@njit(cache=True)
def _topological_rank(M, indptr, indices):
    """Each node's place in a topological order of the ``-->`` edges; -1 with a cycle."""
    p = M.shape[0]
    indegree = np.zeros(p, dtype=np.int64)
    for u in range(p):
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if M[u, v] == ARROW and M[v, u] == TAIL:
                indegree[v] += 1
    rank = np.full(p, -1, dtype=np.int64)
    stack = np.empty(p, dtype=np.int64)
    top = 0
    for v in range(p):
        if indegree[v] == 0:
            stack[top] = v
            top += 1
    step = 0
    while top > 0:
        top -= 1
        u = stack[top]
        rank[u] = step
        step += 1
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if M[u, v] == ARROW and M[v, u] == TAIL:
                indegree[v] -= 1
                if indegree[v] == 0:
                    stack[top] = v
                    top += 1
    if step < p:
        rank[0] = -1
        return rank, False
    return rank, True


@njit(cache=True)
def _is_ancestor(M, indptr, indices, u, v, rank, stamp, epoch):
    """Whether ``u`` is an ancestor of ``v`` by ``-->`` edges.

    Backwards from ``v`` over parents, never below ``u`` in the topological ``rank``;
    ``stamp[w] == epoch`` marks the nodes this search has seen.
    """
    if rank[u] > rank[v]:
        return False
    stack = [v]
    stamp[v] = epoch
    while len(stack) > 0:
        t = stack.pop()
        if t == u:
            return True
        for k in range(indptr[t], indptr[t + 1]):
            s = indices[k]
            if stamp[s] != epoch and rank[s] >= rank[u] and M[s, t] == ARROW and M[t, s] == TAIL:
                stamp[s] = epoch
                stack.append(s)
    return False


@njit(cache=True)
def is_ancestral(M, indptr, indices):
    """No circle, no undirected edge, no arrowhead at an ancestor.

    An arrowhead at an ancestor (``b *-> a`` with ``a`` an ancestor of ``b``) closes a
    directed cycle (``b --> a``) or an almost directed one (``b <-> a``): the first is
    found by a topological sort, the second by a search from each ``<->`` edge.
    """
    p = M.shape[0]
    for i in range(p):
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if M[i, j] == CIRCLE or (M[i, j] == TAIL and M[j, i] == TAIL):
                return False
    rank, acyclic = _topological_rank(M, indptr, indices)
    if not acyclic:
        return False
    stamp = np.zeros(p, dtype=np.int64)
    epoch = 0
    for a in range(p):
        for k in range(indptr[a], indptr[a + 1]):
            b = indices[k]
            if b < a or M[a, b] != ARROW or M[b, a] != ARROW:
                continue
            epoch += 1
            if _is_ancestor(M, indptr, indices, a, b, rank, stamp, epoch):
                return False
            epoch += 1
            if _is_ancestor(M, indptr, indices, b, a, rank, stamp, epoch):
                return False
    return True


@njit(cache=True)
def _ancestors_of_pair(M, indptr, indices, x, y, out):
    """``out[u]``: ``u`` is an ancestor of ``x`` or of ``y`` (themselves included)."""
    out[:] = False
    stack = [x, y]
    out[x] = True
    out[y] = True
    while len(stack) > 0:
        t = stack.pop()
        for k in range(indptr[t], indptr[t + 1]):
            s = indices[k]
            if not out[s] and M[s, t] == ARROW and M[t, s] == TAIL:
                out[s] = True
                stack.append(s)


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
def _bidirected_components(M, indptr, indices):
    """Each node's component of the ``<->`` edges, and the number of nodes in it."""
    p = M.shape[0]
    component = np.full(p, -1, dtype=np.int64)
    size = np.zeros(p, dtype=np.int64)
    n = 0
    for s in range(p):
        if component[s] >= 0:
            continue
        component[s] = n
        stack = [s]
        while len(stack) > 0:
            t = stack.pop()
            size[n] += 1
            for k in range(indptr[t], indptr[t + 1]):
                u = indices[k]
                if component[u] < 0 and M[t, u] == ARROW and M[u, t] == ARROW:
                    component[u] = n
                    stack.append(u)
        n += 1
    return component, size[:n]


@njit(cache=True)
def is_maximal(M, indptr, indices):
    """No inducing path between two non-adjacent nodes of an ancestral graph.

    Every inner node of an inducing path is a collider on it, so consecutive inner nodes
    are joined by ``<->``: the inner nodes lie in one component of the ``<->`` edges, and
    the ends each have an arrowhead into that component. Only such pairs are searched; a
    component of one node cannot hold the path (its collider would be an ancestor of an
    end with an arrow from that end into it, a directed cycle).
    """
    p = M.shape[0]
    component, size = _bidirected_components(M, indptr, indices)
    n = size.shape[0]
    # the ends with an arrowhead into each component of two or more nodes
    count = np.zeros(n + 1, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    for x in range(p):
        for k in range(indptr[x], indptr[x + 1]):
            c = component[indices[k]]
            if size[c] > 1 and M[x, indices[k]] == ARROW and last[c] != x:
                last[c] = x
                count[c + 1] += 1
    start = np.cumsum(count)
    ends = np.empty(start[n], dtype=np.int64)
    fill = start[:n].copy()
    last[:] = -1
    for x in range(p):
        for k in range(indptr[x], indptr[x + 1]):
            c = component[indices[k]]
            if size[c] > 1 and M[x, indices[k]] == ARROW and last[c] != x:
                last[c] = x
                ends[fill[c]] = x
                fill[c] += 1
    ancestors = np.empty(p, dtype=np.bool_)
    seen = np.empty(p, dtype=np.bool_)
    for c in range(n):
        for i in range(start[c], start[c + 1]):
            x = ends[i]
            for j in range(i + 1, start[c + 1]):
                y = ends[j]
                if M[x, y] != 0:
                    continue
                _ancestors_of_pair(M, indptr, indices, x, y, ancestors)
                if _has_inducing_path(M, indptr, indices, x, y, ancestors, seen):
                    return False
    return True


@njit(cache=True)
def _visit(M, indptr, indices, v, step, rank, weight, heap):
    """Maximum cardinality search's step at ``v``: its rank, one more for its neighbours."""
    p = M.shape[0]
    rank[v] = step
    for k in range(indptr[v], indptr[v + 1]):
        w = indices[k]
        if rank[w] < 0 and M[v, w] == CIRCLE and M[w, v] == CIRCLE:
            weight[w] += 1
            heapq.heappush(heap, np.int64((p - weight[w]) * (p + 1) + w))
    return step + 1


@njit(cache=True)
def pag_to_mag(M, indptr, indices, first):
    """Zhang's MAG of a PAG, in place: ``o->`` made ``-->``, ``o-o`` oriented by MCS.

    ``a o-> b`` becomes ``a --> b`` (and ``a --o b``, with selection only, ``a --- b``).
    The ``o-o`` edges (a chordal component in a PAG) point from the node a maximum
    cardinality search visits first to the later one; the search takes the node with the
    most visited neighbours, the lowest-numbered on ties, and starts at ``first`` when
    ``first`` is in the component (-1 for none).
    """
    p = M.shape[0]
    in_component = np.zeros(p, dtype=np.bool_)
    for i in range(p):
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if M[i, j] == CIRCLE:
                if M[j, i] == CIRCLE:
                    in_component[i] = True
                else:
                    M[i, j] = TAIL  # a circle facing a non-circle
    # the largest weight first, the lowest node on ties: key (p - weight) * (p + 1) + node
    weight = np.zeros(p, dtype=np.int64)
    rank = np.full(p, -1, dtype=np.int64)
    heap = [np.int64(p * (p + 1) + v) for v in range(p) if in_component[v]]
    if len(heap) == 0:
        return
    heapq.heapify(heap)
    step = 0
    if first >= 0 and in_component[first]:
        step = _visit(M, indptr, indices, first, step, rank, weight, heap)
    while len(heap) > 0:
        key = heapq.heappop(heap)
        v = key % (p + 1)
        if rank[v] >= 0 or p - key // (p + 1) != weight[v]:
            continue  # visited, or its weight has grown since this entry
        step = _visit(M, indptr, indices, v, step, rank, weight, heap)
    for i in range(p):
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if i < j and M[i, j] == CIRCLE and M[j, i] == CIRCLE:
                if rank[i] < rank[j]:
                    M[i, j], M[j, i] = ARROW, TAIL
                else:
                    M[j, i], M[i, j] = ARROW, TAIL
