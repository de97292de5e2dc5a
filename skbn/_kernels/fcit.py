# SPDX-License-Identifier: BSD-3-Clause
"""FCIT's rebuild of a PAG from its skeleton, in time linear in the edges.

The endpoint matrix ``M[i, j]`` holds the mark at ``j`` on the edge ``i - j`` (0 none,
1 circle, 2 arrow, 3 tail); ``indptr``/``indices`` list each node's neighbours (CSR).
"""

from __future__ import annotations

from numba import njit

CIRCLE = 1
ARROW = 2
TAIL = 3


@njit(cache=True)
def sepset_colliders(M, adjacent, indptr, indices, pairs, sep_ptr, sep_nodes):
    """``x *-> v <-* y`` for each removed pair and common neighbour ``v`` outside its set.

    ``pairs[i]`` is a non-adjacent pair (adjacent ones are passed over) whose separating
    set is ``sep_nodes[sep_ptr[i]:sep_ptr[i + 1]]``. The arrowheads do not depend on the
    order the pairs come in.
    """
    for i in range(pairs.shape[0]):
        x, y = pairs[i, 0], pairs[i, 1]
        if adjacent[x, y]:
            continue
        for k in range(indptr[x], indptr[x + 1]):
            v = indices[k]
            if not adjacent[v, y]:
                continue
            inside = False
            for j in range(sep_ptr[i], sep_ptr[i + 1]):
                if sep_nodes[j] == v:
                    inside = True
                    break
            if not inside:
                M[x, v] = ARROW
                M[y, v] = ARROW


@njit(cache=True)
def _arrowhead_allowed(M, forbidden, x, y):
    """An arrowhead at ``y`` on ``x - y`` (Tetrad's ``isArrowheadAllowed``)."""
    if M[x, y] == ARROW:
        return True
    if M[x, y] == TAIL:
        return False
    if M[y, x] == TAIL and forbidden[x, y]:
        return False
    return M[x, y] == CIRCLE


@njit(cache=True)
def initial_colliders(M, adjacent, triples, forbidden):
    """``x *-> b <-* y`` for each triple of ``triples`` still unshielded, in order.

    A triple is skipped where an arrowhead is not allowed at ``b`` (see
    :func:`_arrowhead_allowed`).
    """
    for i in range(triples.shape[0]):
        x, b, y = triples[i, 0], triples[i, 1], triples[i, 2]
        if adjacent[x, b] and adjacent[b, y] and not adjacent[x, y]:
            if _arrowhead_allowed(M, forbidden, x, b) and _arrowhead_allowed(M, forbidden, y, b):
                M[x, b] = ARROW
                M[y, b] = ARROW


@njit(cache=True)
def _discriminating_end(M, route, n, x, v, y):
    """Whether ``x, route[0], ..., route[n - 1], v`` ending at ``y`` is a discriminating path.

    ``route`` runs from the node next to ``x`` to ``w`` (next to ``v``): ``x``, ``w``,
    ``v``, ``y`` distinct, ``x`` and ``y`` not adjacent, ``v`` adjacent to ``y``, and every
    node of ``route`` a collider on the path and a parent of ``y``.
    """
    w = route[n - 1]
    if x == w or x == v or x == y or w == v or w == y or v == y:
        return False
    if M[x, y] != 0 or M[v, y] == 0:
        return False
    for i in range(n):
        node = route[i]
        before = x if i == 0 else route[i - 1]
        after = v if i == n - 1 else route[i + 1]
        if not (M[before, node] == ARROW and M[after, node] == ARROW):
            return False
        if not (M[node, y] == ARROW and M[y, node] == TAIL):
            return False
    return True


@njit(cache=True)
def discriminating_middles(M, indptr, indices, a, b, max_length, work):
    """The middle nodes ``v`` of the discriminating paths between ``a`` and ``b``.

    The paths ``x *-> ... w <-* v *-* y`` with ``{x, y} = {a, b}`` whose triple at ``v``
    is still open (``y *-o v`` with ``v *-> y``): for each ``w --> y`` and ``v`` adjacent
    to both, a breadth-first walk back from ``w`` along arrowheads reaches ``x`` once, by
    its first route, which is then checked (:func:`_discriminating_end`; at most
    ``max_length`` inner nodes, -1 for no bound). Returns the number of middle nodes,
    written in ``work[5]`` in the order found. ``work``: int64, shape (6, p + 1), zero
    at first (stamps, route, queue and the answer).
    """
    p = M.shape[0]
    seen, previous, queue, route, found, out = (
        work[0],
        work[1],
        work[2],
        work[3],
        work[4],
        work[5],
    )
    found[p] += 1
    answer = found[p]
    n_out = 0
    for side in range(2):
        y = a if side == 0 else b
        other = b if side == 0 else a
        for kw in range(indptr[y], indptr[y + 1]):
            w = indices[kw]
            if not (M[w, y] == ARROW and M[y, w] == TAIL):
                continue
            for kv in range(indptr[w], indptr[w + 1]):
                v = indices[kv]
                if M[y, v] != CIRCLE or M[v, y] != ARROW or found[v] == answer:
                    continue
                seen[p] += 1
                epoch = seen[p]
                seen[w] = seen[v] = epoch
                previous[w], previous[v] = -1, w
                queue[0] = w
                head, tail = 0, 1
                while head < tail and found[v] != answer:
                    t = queue[head]
                    head += 1
                    for k in range(indptr[t], indptr[t + 1]):
                        x = indices[k]
                        if seen[x] == epoch or M[x, t] != ARROW:
                            continue
                        previous[x] = t
                        if x == other:
                            n = 0
                            d = t
                            while d >= 0:
                                route[n] = d
                                n += 1
                                d = previous[d]
                            if (max_length == -1 or n <= max_length) and _discriminating_end(
                                M, route, n, x, v, y
                            ):
                                found[v] = answer
                                out[n_out] = v
                                n_out += 1
                                break
                        seen[x] = epoch
                        queue[tail] = x
                        tail += 1
    return n_out
