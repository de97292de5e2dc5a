# SPDX-License-Identifier: BSD-3-Clause
"""Recursive path blocking on a PAG (FCIT's candidate separating sets), without recursion.

The endpoint matrix ``M[i, j]`` holds the mark at ``j`` on the edge ``i - j`` (0 none,
1 circle, 2 arrow, 3 tail); ``indptr``/``indices`` list each node's neighbours (CSR). The
walk keeps an explicit stack of frames, one per node on the current path, each with the
nodes it may go on to (held in one arena, as long as the neighbour lists together).
"""

from __future__ import annotations

import numpy as np
from numba import njit

ARROW = 2
TAIL = 3

_BLOCKED = 0
_UNBLOCKABLE = 1
_INDETERMINATE = 2
_PENDING = -1

# a frame's phase: walking through a node already in z, or first without it, then with it
_THROUGH = 0
_WITHOUT = 1
_WITH = 2


@njit(cache=True)
def _mark_ancestors(M, indptr, indices, b, ancestor_of_z, stack):
    """Add ``b`` and its ancestors (by ``-->`` edges) to ``ancestor_of_z``."""
    if ancestor_of_z[b]:
        return  # its ancestors are marked already
    ancestor_of_z[b] = True
    stack[0] = b
    top = 1
    while top > 0:
        top -= 1
        t = stack[top]
        for k in range(indptr[t], indptr[t + 1]):
            u = indices[k]
            if not ancestor_of_z[u] and M[u, t] == ARROW and M[t, u] == TAIL:
                ancestor_of_z[u] = True
                stack[top] = u
                top += 1


@njit(cache=True)
def _fill_onward(M, indptr, indices, a, b, state, arena, start):
    """Write the nodes a path ``a, b`` may go on to into ``arena[start:]``; return the end.

    ``state`` stacks the masks ``not_followed``, ``z`` and ``ancestor_of_z`` (rows 0-2).
    """
    end = start
    for k in range(indptr[b], indptr[b + 1]):
        c = indices[k]
        if c == a or state[0, c]:
            continue
        if M[a, b] == ARROW and M[c, b] == ARROW:  # a collider: open if b is an ancestor of z
            open_ = state[2, b]
        else:
            open_ = not state[1, b]
        if open_:
            arena[end] = c
            end += 1
    return end


@njit(cache=True)
def block_paths(M, indptr, indices, x, y, not_followed, max_length):
    """A set meant to block every path from ``x`` to ``y`` but the edge between them.

    Returns a boolean mask over the nodes. Paths into a node of ``not_followed`` count as
    blocked there; ``max_length`` bounds the nodes on a path (-1: no bound), and a longer
    path counts as open.
    """
    p = M.shape[0]
    state = np.zeros((3, p), dtype=np.bool_)  # not_followed, z, ancestor_of_z
    state[0] = not_followed
    path = np.zeros(p, dtype=np.bool_)
    path[x] = True
    n_path = 1
    scratch = np.empty(p, dtype=np.int64)
    arena = np.empty(indices.shape[0] + 1, dtype=np.int64)
    frame_a = np.empty(p + 1, dtype=np.int64)
    frame_b = np.empty(p + 1, dtype=np.int64)
    phase = np.empty(p + 1, dtype=np.int64)
    start = np.empty(p + 1, dtype=np.int64)
    position = np.empty(p + 1, dtype=np.int64)
    end = np.empty(p + 1, dtype=np.int64)
    for k0 in range(indptr[x], indptr[x + 1]):
        first = indices[k0]
        if first == y:
            continue
        depth = 0
        top = 0  # arena in use
        a, b = x, first
        result = _PENDING
        while True:
            if a >= 0:  # enter b, coming from a
                if b == y or path[b]:
                    result = _UNBLOCKABLE
                elif state[0, b]:
                    result = _BLOCKED
                else:
                    path[b] = True
                    n_path += 1
                    if max_length != -1 and n_path > max_length:
                        result = _INDETERMINATE  # b stays on the path, as in Tetrad
                    else:
                        frame_a[depth], frame_b[depth] = a, b
                        phase[depth] = _THROUGH if state[1, b] else _WITHOUT
                        start[depth] = top
                        position[depth] = top
                        end[depth] = _fill_onward(M, indptr, indices, a, b, state, arena, top)
                        top = end[depth]
                        depth += 1
                        result = _PENDING
                a = -1
            if depth == 0:
                break
            i = depth - 1
            here = frame_b[i]
            if result != _PENDING:
                child, result = result, _PENDING
                if child != _BLOCKED:
                    if phase[i] == _WITHOUT:
                        # leaving here out of z left a path open: condition on it
                        state[1, here] = True
                        _mark_ancestors(M, indptr, indices, here, state[2], scratch)
                        phase[i] = _WITH
                        end[i] = _fill_onward(
                            M, indptr, indices, frame_a[i], here, state, arena, start[i]
                        )
                        position[i] = start[i]
                        top = end[i]
                        continue
                    if phase[i] == _WITH:
                        path[here] = False
                        n_path -= 1
                    # _THROUGH: here stays on the path, as in Tetrad
                    result = _UNBLOCKABLE
                    top = start[i]
                    depth -= 1
                    continue
            if position[i] < end[i]:
                a, b = here, arena[position[i]]
                position[i] += 1
                continue
            path[here] = False  # every way on is blocked
            n_path -= 1
            result = _BLOCKED
            top = start[i]
            depth -= 1
    return state[1].copy()
