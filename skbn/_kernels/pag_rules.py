# SPDX-License-Identifier: BSD-3-Clause
"""Zhang's rules R1-R3 and R8-R10 on an endpoint matrix (R4 asks a Python oracle).

The endpoint matrix ``M[i, j]`` holds the mark at ``j`` on the edge ``i - j`` (0 none,
1 circle, 2 arrow, 3 tail); ``indptr``/``indices`` list each node's neighbours in increasing
order (CSR). Each rule changes ``M`` in place and returns whether a mark changed; it visits
the triples in increasing node order and sees the marks its own earlier steps set, as
:func:`skbn.graph._fci_rules.apply_rules` expects.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ARROW = 2
CIRCLE = 1
TAIL = 3


@njit(cache=True)
def _potentially_directed(M, u, v):
    """No arrowhead at ``u`` and no tail at ``v`` on an edge ``u - v``."""
    m = M[u, v]
    return m != 0 and m != TAIL and M[v, u] != ARROW


@njit(cache=True)
def path_work(p):
    """Scratch for :func:`uncovered_pd_path`, made once per rule and reused by each search.

    Rows: seen and on-path stamps (with their counters in the last column), the stack,
    and the path's frames (previous node, node, position in its neighbours).
    """
    return np.zeros((6, p + 1), dtype=np.int64)


@njit(cache=True)
def _stamp_reachable(M, indptr, indices, prev, start, target, stamp, stack):
    """Stamp the nodes a potentially directed path from ``start`` reaches, not via ``prev``.

    The search stops once it stamps ``target`` (-1: none, so every reachable node is
    stamped). Returns the stamp, left on the reached nodes; ``stamp[p]`` counts the
    searches, so nothing is cleared between them.
    """
    p = M.shape[0]
    stamp[p] += 1
    epoch = stamp[p]
    stamp[prev] = epoch
    stamp[start] = epoch
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        u = stack[top]
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if stamp[v] != epoch and _potentially_directed(M, u, v):
                stamp[v] = epoch
                if v == target:
                    stamp[prev] = 0
                    return epoch
                stack[top] = v
                top += 1
    stamp[prev] = 0
    return epoch


@njit(cache=True)
def _pd_reachable(M, indptr, indices, prev, start, target, work):
    """Whether any potentially directed path leads from ``start`` to ``target``.

    Covered or not, and not through ``prev``: a linear-time necessary condition, with
    ``work[0]`` as the stamps and ``work[1]`` as the stack.
    """
    epoch = _stamp_reachable(M, indptr, indices, prev, start, target, work[0], work[1])
    return work[0][target] == epoch


@njit(cache=True)
def uncovered_pd_path(M, adjacent, indptr, indices, prev, start, target, work):
    """Whether an uncovered potentially directed path ``prev, start, ..., target`` exists.

    ``prev - start`` is known to be potentially directed; the path is simple. Depth first
    over simple paths, after the reachability check. ``work`` is :func:`path_work`'s.
    """
    if start == target:
        return True
    if not _pd_reachable(M, indptr, indices, prev, start, target, work):
        return False
    p = M.shape[0]
    on_path, before, node, position = work[2], work[3], work[4], work[5]
    on_path[p] += 1
    epoch = on_path[p]
    on_path[prev] = epoch
    on_path[start] = epoch
    before[0], node[0], position[0] = prev, start, indptr[start]
    depth = 1
    while depth > 0:
        i = depth - 1
        here = node[i]
        advanced = False
        while position[i] < indptr[here + 1]:
            nxt = indices[position[i]]
            position[i] += 1
            if on_path[nxt] == epoch or adjacent[before[i], nxt]:
                continue
            if not _potentially_directed(M, here, nxt):
                continue
            if nxt == target:
                return True
            on_path[nxt] = epoch
            before[depth], node[depth], position[depth] = here, nxt, indptr[nxt]
            depth += 1
            advanced = True
            break
        if not advanced:
            depth -= 1
            on_path[here] = 0
    return False


@njit(cache=True)
def rule9(M, adjacent, indptr, indices):
    """R9: ``a o-> c`` becomes ``a --> c`` by an uncovered potentially directed path.

    The path ``a, b, ..., c`` has ``b`` not adjacent to ``c``. Whether some ``b`` gives one
    does not depend on the order the edges are visited in: the rule turns a circle facing
    an arrowhead into a tail, which leaves every edge's being potentially directed as it
    was. So the nodes each ``b`` reaches are found once per ``a`` and shared by all its
    ``o->`` edges; only a ``c`` among them is searched for an uncovered path.
    """
    p = M.shape[0]
    changed = False
    work = path_work(p)
    stamp = np.zeros(p + 1, dtype=np.int64)
    stack = np.empty(p, dtype=np.int64)
    for a in range(p):
        lo, hi = indptr[a], indptr[a + 1]
        n_open = 0
        for k in range(lo, hi):
            c = indices[k]
            if M[a, c] == ARROW and M[c, a] == CIRCLE:
                n_open += 1
        if n_open == 0:
            continue
        for k2 in range(lo, hi):
            b = indices[k2]
            if not _potentially_directed(M, a, b):
                continue
            epoch = _stamp_reachable(M, indptr, indices, a, b, -1, stamp, stack)
            for k in range(lo, hi):
                c = indices[k]
                if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                    continue
                if b == c or adjacent[b, c] or stamp[c] != epoch:
                    continue
                if uncovered_pd_path(M, adjacent, indptr, indices, a, b, c, work):
                    M[c, a] = TAIL
                    changed = True
    return changed


@njit(cache=True)
def rule10(M, adjacent, indptr, indices):
    """R10: ``a o-> c`` becomes ``a --> c`` by two parents of ``c``.

    ``b --> c <-- d``, and uncovered potentially directed paths from ``a`` to ``b`` and to
    ``d`` leave ``a`` through distinct, non-adjacent nodes.
    """
    changed = False
    work = path_work(M.shape[0])
    for a in range(M.shape[0]):
        lo, hi = indptr[a], indptr[a + 1]
        for k in range(lo, hi):
            c = indices[k]
            if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                continue
            n_parents = 0
            parents = np.empty(indptr[c + 1] - indptr[c], dtype=np.int64)
            for k2 in range(indptr[c], indptr[c + 1]):
                b = indices[k2]
                if b != a and M[b, c] == ARROW and M[c, b] == TAIL:
                    parents[n_parents] = b
                    n_parents += 1
            if n_parents < 2:
                continue
            firsts = np.zeros((n_parents, hi - lo), dtype=np.bool_)
            for i in range(n_parents):
                for j in range(hi - lo):
                    mu = indices[lo + j]
                    if _potentially_directed(M, a, mu) and uncovered_pd_path(
                        M, adjacent, indptr, indices, a, mu, parents[i], work
                    ):
                        firsts[i, j] = True
            done = False
            for i in range(n_parents):
                for j in range(i + 1, n_parents):
                    for u in range(hi - lo):
                        if not firsts[i, u]:
                            continue
                        for w in range(hi - lo):
                            if firsts[j, w] and u != w:
                                if not adjacent[indices[lo + u], indices[lo + w]]:
                                    done = True
                                    break
                        if done:
                            break
                    if done:
                        break
                if done:
                    break
            if done:
                M[c, a] = TAIL
                changed = True
    return changed


@njit(cache=True)
def _directed(M, u, v):
    """``u --> v``."""
    return M[u, v] == ARROW and M[v, u] == TAIL


@njit(cache=True)
def rule1(M, adjacent, indptr, indices):
    """R1: ``a *-> b o-* c`` with ``a``, ``c`` not adjacent becomes ``b --> c``."""
    changed = False
    into = np.empty(indices.shape[0] + 1, dtype=np.int64)
    for b in range(M.shape[0]):
        n_into = 0
        for k in range(indptr[b], indptr[b + 1]):
            if M[indices[k], b] == ARROW:
                into[n_into] = indices[k]
                n_into += 1
        if n_into == 0:
            continue
        for k in range(indptr[b], indptr[b + 1]):
            c = indices[k]
            if M[c, b] != CIRCLE:
                continue
            for i in range(n_into):
                a = into[i]
                if a != c and not adjacent[a, c]:
                    M[c, b] = TAIL
                    M[b, c] = ARROW
                    changed = True
                    break
    return changed


@njit(cache=True)
def rule2(M, adjacent, indptr, indices):
    """R2: ``a *-o c`` becomes ``a *-> c`` through ``a --> b *-> c`` or ``a *-> b --> c``."""
    changed = False
    for a in range(M.shape[0]):
        for k in range(indptr[a], indptr[a + 1]):
            c = indices[k]
            if M[a, c] != CIRCLE:
                continue
            for k2 in range(indptr[a], indptr[a + 1]):
                b = indices[k2]
                if not adjacent[b, c]:
                    continue
                if (_directed(M, a, b) and M[b, c] == ARROW) or (
                    M[a, b] == ARROW and _directed(M, b, c)
                ):
                    M[a, c] = ARROW
                    changed = True
                    break
    return changed


@njit(cache=True)
def rule3(M, adjacent, indptr, indices):
    """R3: ``d *-o b`` becomes ``d *-> b``.

    When ``a *-> b <-* c`` and ``a *-o d o-* c`` with ``a`` and ``c`` not adjacent.
    """
    changed = False
    into = np.empty(indices.shape[0] + 1, dtype=np.int64)
    candidates = np.empty(indices.shape[0] + 1, dtype=np.int64)
    for b in range(M.shape[0]):
        n_into = 0
        for k in range(indptr[b], indptr[b + 1]):
            if M[indices[k], b] == ARROW:
                into[n_into] = indices[k]
                n_into += 1
        if n_into < 2:
            continue
        for k in range(indptr[b], indptr[b + 1]):
            d = indices[k]
            if M[d, b] != CIRCLE:
                continue
            n = 0
            for i in range(n_into):
                a = into[i]
                if a != d and adjacent[a, d] and M[a, d] == CIRCLE:
                    candidates[n] = a
                    n += 1
            found = False
            for i in range(n):
                for j in range(i + 1, n):
                    if not adjacent[candidates[i], candidates[j]]:
                        found = True
                        break
                if found:
                    break
            if found:
                M[d, b] = ARROW
                changed = True
    return changed


@njit(cache=True)
def rule8(M, adjacent, indptr, indices):
    """R8: ``a o-> c`` becomes ``a --> c`` through ``a --> b --> c`` or ``a -o b --> c``."""
    changed = False
    for a in range(M.shape[0]):
        for k in range(indptr[a], indptr[a + 1]):
            c = indices[k]
            if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                continue
            for k2 in range(indptr[a], indptr[a + 1]):
                b = indices[k2]
                if not adjacent[b, c]:
                    continue
                if (
                    _directed(M, b, c)
                    and M[b, a] == TAIL
                    and (M[a, b] == ARROW or M[a, b] == CIRCLE)
                ):
                    M[c, a] = TAIL
                    changed = True
                    break
    return changed


@njit(cache=True)
def unshielded_triples(adjacent):
    """Every unshielded triple ``a - b - c`` (``a < c`` not adjacent), as three arrays.

    Ordered by ``b``, then ``a``, then ``c``: the order in which rule R0 visits them.
    """
    p = adjacent.shape[0]
    count = 0
    for b in range(p):
        for a in range(p):
            if not adjacent[a, b]:
                continue
            for c in range(a + 1, p):
                if adjacent[c, b] and not adjacent[a, c]:
                    count += 1
    out_a = np.empty(count, dtype=np.int64)
    out_b = np.empty(count, dtype=np.int64)
    out_c = np.empty(count, dtype=np.int64)
    k = 0
    for b in range(p):
        for a in range(p):
            if not adjacent[a, b]:
                continue
            for c in range(a + 1, p):
                if adjacent[c, b] and not adjacent[a, c]:
                    out_a[k] = a
                    out_b[k] = b
                    out_c[k] = c
                    k += 1
    return out_a, out_b, out_c


@njit(cache=True)
def _discriminating_start(M, adjacent, indptr, indices, abg, max_length, work, path):
    """The first node ``theta`` of a discriminating path ``<theta, ..., alpha, beta, gamma>``.

    ``abg`` holds ``(alpha, beta, gamma)``. Breadth first from ``alpha`` backwards along
    arrowheads, so the path found is a shortest one. Returns ``theta`` (or -1) and writes
    the nodes between ``theta`` and ``beta``, in path order (``alpha`` last), to ``path``,
    returning their number too. ``work`` (int64, shape (4, p), row 0 all zero) is scratch:
    seen flags, the next node towards ``beta``, and the queue of nodes and path lengths.
    """
    alpha, beta, gamma = abg[0], abg[1], abg[2]
    seen, towards, queue, lengths = work[0], work[1], work[2], work[3]
    seen[alpha] = seen[beta] = seen[gamma] = 1
    towards[alpha] = -1
    queue[0], lengths[0] = alpha, 3
    head, tail = 0, 1
    theta, n = -1, 0
    while head < tail and theta < 0:
        e, length = queue[head], lengths[head]
        head += 1
        for k in range(indptr[e], indptr[e + 1]):
            f = indices[k]
            if seen[f] or M[f, e] != ARROW:  # e must be a collider: an arrow at e
                continue
            if max_length >= 0 and length + 1 > max_length:
                continue
            if not adjacent[f, gamma]:
                theta = f
                while e >= 0:
                    path[n] = e
                    n += 1
                    e = towards[e]
                break
            # f extends the path when it is a collider on it and a parent of gamma; only
            # a node put on the queue is closed (another e may reach it)
            if _directed(M, f, gamma) and M[e, f] == ARROW:
                seen[f] = 1
                towards[f] = e
                queue[tail], lengths[tail] = f, length + 1
                tail += 1
    for i in range(tail):
        seen[queue[i]] = 0
    seen[beta] = seen[gamma] = 0
    return theta, n


@njit(cache=True)
def rule4_next(M, adjacent, indptr, indices, cursor, max_length, work, path):
    """The next open triple of R4, from ``cursor`` on, and its discriminating path's start.

    R4 visits ``beta`` in increasing order, each neighbour ``gamma`` with a circle at
    ``beta``, then each common neighbour ``alpha`` with ``alpha <-* beta`` (an arrow at
    ``alpha``) and ``alpha --> gamma``, while the circle at ``beta`` stays. ``cursor``
    (int64, 3) holds the CSR positions ``(beta, gamma's, alpha's)``, -1 for a fresh start;
    on a find it is left at the triple (the caller steps ``cursor[2]`` past it after
    deciding) and ``(theta, n)`` is returned with the path in ``path[:n]``
    (see :func:`_discriminating_start`); ``(-1, 0)`` when no triple is left.
    """
    p = M.shape[0]
    abg = np.empty(3, dtype=np.int64)
    beta, kg, ka = cursor[0], cursor[1], cursor[2]
    while beta < p:
        if kg < indptr[beta]:
            kg = indptr[beta]
        while kg < indptr[beta + 1]:
            gamma = indices[kg]
            if M[gamma, beta] == CIRCLE:
                if ka < indptr[beta]:
                    ka = indptr[beta]
                while ka < indptr[beta + 1]:
                    if M[gamma, beta] != CIRCLE:
                        break
                    alpha = indices[ka]
                    into_alpha = M[beta, alpha] == ARROW
                    if adjacent[alpha, gamma] and into_alpha and _directed(M, alpha, gamma):
                        abg[0], abg[1], abg[2] = alpha, beta, gamma
                        theta, n = _discriminating_start(
                            M, adjacent, indptr, indices, abg, max_length, work, path
                        )
                        if theta >= 0:
                            cursor[0], cursor[1], cursor[2] = beta, kg, ka
                            return theta, n
                    ka += 1
            kg += 1
            ka = -1
        beta += 1
        kg = -1
        ka = -1
    cursor[0], cursor[1], cursor[2] = p, -1, -1
    return -1, 0
