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
