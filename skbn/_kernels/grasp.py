# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of GRaSP: tucks over an order, and the depth-bounded search for improving ones.

The search reads parent sets from BOSS's grow-shrink trees (:mod:`skbn._kernels.boss`).
A look-up the trees cannot answer yet pauses it: the kernel returns with its whole state in
the arrays it was given (a stack of frames, one per tuck of the chain being explored), the
caller fills in the trees, and the next call resumes at the paused look-up. So a search
gives the same result whether its look-ups were known in advance or filled in on the way.

Random choices (the order in which positions and arcs are tried) come from a splitmix64
stream whose state is one of those arrays, so a resumed search draws what an unpaused one
would.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from skbn._kernels.boss import stretch_nodes

#: How a search call ended.
SETTLED = 0  # no chain of tucks within the depth improves the score
PAUSED = 1  # look-ups in ``missing`` must be filled in before the next call

# slots of the ``state`` array
_TOP, _PENDING, _TUCKS = 0, 1, 2

#: One run's order and its inverse, each variable's tree node and score under it, the
#: required arcs (``req_a[k] -> req_b[k]``), and scratch for a tuck (``seen``, ``stack``).
Run = namedtuple("Run", ["order", "pos", "node", "local", "req_a", "req_b", "seen", "stack"])
#: The search between calls: ``state`` (int64: the frame on top, or -1 before the first
#: pass; whether a tuck waits for its scores; tucks taken), the random stream (``rng``,
#: uint64) and one frame per tuck of the chain being explored (first axis ``depth``): the
#: positions to try (``perm``, ``ii``), the arcs into the variable there (``cand``,
#: ``ncand``, ``cc``), the tuck taken (``y_pos``, ``x_of``, ``j_of``), the window of the order
#: it changed (``win_*``, to undo it) and the arcs it turned round (``flips``, ``flip_len``;
#: ``now`` and ``in_prefix`` are scratch).
Frames = namedtuple(
    "Frames",
    [
        "state",
        "rng",
        "perm",
        "ii",
        "cand",
        "ncand",
        "cc",
        "y_pos",
        "x_of",
        "j_of",
        "win_order",
        "win_node",
        "win_local",
        "flips",
        "flip_len",
        "now",
        "in_prefix",
    ],
)


@njit(cache=True)
def _next(rng):
    """The next 64-bit draw of the splitmix64 stream whose state is ``rng[0]``."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _below(rng, k):
    """A draw uniform on ``0 .. k - 1``."""
    return np.int64((_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * k)


@njit(cache=True)
def _shuffle(values, m, rng):
    """Shuffle ``values[:m]`` in place (Fisher-Yates)."""
    for a in range(m - 1, 0, -1):
        b = _below(rng, a + 1)
        t = values[a]
        values[a] = values[b]
        values[b] = t


@njit(cache=True)
def _parents(v, node, pool):
    k = node[v]
    return pool.kept_pool[pool.kept_first[k] : pool.kept_first[k] + pool.kept_len[k]]


@njit(cache=True)
def tuck(j, i, run, pool):
    """Tuck the variable at position ``i`` of ``run.order`` in front of position ``j``.

    The variables of ``order[j + 1 : i + 1]`` that are ancestors of ``order[i]`` (itself
    included) under the current parent sets (kept in ``pool``, a
    :data:`skbn._kernels.boss.Pool`) move, in their order, in front of ``order[j]``; the rest
    keep their order after it. Returns False if a required arc ``req_a[k] -> req_b[k]`` now
    points backwards (the order is changed all the same; the caller restores it).
    """
    order, pos, node, seen, stack = run.order, run.pos, run.node, run.seen, run.stack
    y = order[i]
    seen[y] = True
    stack[0] = y
    top = 1
    while top > 0:
        top -= 1
        for u in _parents(stack[top], node, pool):
            if not seen[u]:
                seen[u] = True
                stack[top] = u
                top += 1
    x = order[j]
    m = 0
    for k in range(j + 1, i + 1):  # the ancestors first, into stack[0:m]
        v = order[k]
        if seen[v]:
            stack[m] = v
            m += 1
    rest = m
    stack[rest] = x
    rest += 1
    for k in range(j + 1, i + 1):
        v = order[k]
        if not seen[v]:
            stack[rest] = v
            rest += 1
    seen[:] = False
    for k in range(i - j + 1):
        order[j + k] = stack[k]
        pos[stack[k]] = j + k
    for k in range(run.req_a.shape[0]):
        if pos[run.req_a[k]] > pos[run.req_b[k]]:
            return False
    return True


@njit(cache=True)
def _save(lvl, j, i, run, frames):
    for k in range(i - j + 1):
        v = run.order[j + k]
        frames.win_order[lvl, k] = v
        frames.win_node[lvl, k] = run.node[v]
        frames.win_local[lvl, k] = run.local[v]


@njit(cache=True)
def _restore(lvl, j, i, run, frames):
    for k in range(i - j + 1):
        v = frames.win_order[lvl, k]
        run.order[j + k] = v
        run.pos[v] = j + k
        run.node[v] = frames.win_node[lvl, k]
        run.local[v] = frames.win_local[lvl, k]


@njit(cache=True)
def _xor_sorted(a, na, b, nb, out):
    """Symmetric difference of the sorted ``a[:na]`` and ``b[:nb]`` into ``out``; its size."""
    s = t = m = 0
    while s < na or t < nb:
        if t >= nb or (s < na and a[s] < b[t]):
            out[m] = a[s]
            m += 1
            s += 1
        elif s >= na or b[t] < a[s]:
            out[m] = b[t]
            m += 1
            t += 1
        else:
            s += 1
            t += 1
    return m


@njit(cache=True)
def _seen_before(now, m, flips, flip_len, top):
    """Whether the flipped-arc set ``now[:m]`` is that of a frame ``1 .. top`` of the chain."""
    for lvl in range(1, top + 1):
        if flip_len[lvl] != m:
            continue
        same = True
        for k in range(m):
            if flips[lvl, k] != now[k]:
                same = False
                break
        if same:
            return True
    return False


@njit(cache=True)
def _covered(x, y_parents, node, pool):
    """Whether ``x -> y`` is covered: ``pa(y) = pa(x) + {x}`` (``x`` is one of ``y_parents``)."""
    of_x = _parents(x, node, pool)
    if of_x.shape[0] + 1 != y_parents.shape[0]:
        return False
    for u in of_x:
        found = False
        for w in y_parents:
            if w == u:
                found = True
                break
        if not found:
            return False
    return True


@njit(cache=True)
def _open_frame(lvl, p, frames):
    for k in range(p):
        frames.perm[lvl, k] = k
    _shuffle(frames.perm[lvl], p, frames.rng)
    frames.ii[lvl] = 0
    frames.ncand[lvl] = 0
    frames.cc[lvl] = 0


@njit(cache=True)
def tuck_search(depth, rel_tol, run, frames, trees, pool, requests):
    """Take improving tuck chains until none is left within ``depth``; or pause for look-ups.

    One pass tries the positions of the order in a random order and, for the variable
    there, its parents in a random order: the tuck of each arc ``x -> y`` is scored; one that
    raises the score by more than ``rel_tol`` (relative) is kept and a new pass starts; one
    that leaves it unchanged is followed, while fewer than ``depth`` tucks deep and while the
    set of arcs the chain has turned round is new on the chain, by tucks of covered arcs
    only. Everything else is undone. ``run`` (a :data:`Run`) describes the current order and
    is updated; ``frames`` (:data:`Frames`) holds the search between calls; ``trees`` and
    ``pool`` are BOSS's grow-shrink trees (:mod:`skbn._kernels.boss`).

    Returns :data:`SETTLED`, or :data:`PAUSED` with ``count`` look-ups recorded in
    ``requests`` for the caller to fill in, and ``count``.
    """
    order, pos, node, local = run.order, run.pos, run.node, run.local
    state, rng, perm, ii = frames.state, frames.rng, frames.perm, frames.ii
    cand, ncand, cc, y_pos = frames.cand, frames.ncand, frames.cc, frames.y_pos
    x_of, j_of, flips, flip_len = frames.x_of, frames.j_of, frames.flips, frames.flip_len
    now, in_prefix, stack = frames.now, frames.in_prefix, run.stack
    p = order.shape[0]
    if state[_TOP] < 0:
        state[_TOP] = 0
        flip_len[0] = 0
        _open_frame(0, p, frames)
    while True:
        lvl = state[_TOP]
        if state[_PENDING]:
            j = j_of[lvl]
            i = y_pos[lvl]
            for k in range(p):
                in_prefix[k] = pos[k] < j
            window = order[j : i + 1].copy()
            nodes, scores, count = stretch_nodes(window, in_prefix, trees, requests)
            in_prefix[:] = False
            if count > 0:
                return PAUSED, count
            state[_PENDING] = 0
            gain = 0.0
            for k in range(window.shape[0]):
                v = window[k]
                gain += scores[k] - local[v]
                node[v] = nodes[k]
                local[v] = scores[k]
            total = local.sum()
            level = rel_tol * max(1.0, abs(total))
            if gain > level:
                state[_TUCKS] += lvl + 1  # a chain of lvl + 1 tucks, kept
                state[_TOP] = 0
                flip_len[0] = 0
                _open_frame(0, p, frames)
                continue
            if gain > -level and lvl + 1 < depth:
                x = x_of[lvl]
                turned = _parents(x, node, pool)
                m = 0
                for z in turned:
                    if pos[z] < i:
                        stack[m] = min(x, z) * p + max(x, z)
                        m += 1
                stack[:m].sort()
                m = _xor_sorted(flips[lvl], flip_len[lvl], stack, m, now)
                if m > 0 and not _seen_before(now, m, flips, flip_len, lvl):
                    top = lvl + 1
                    flips[top, :m] = now[:m]
                    flip_len[top] = m
                    state[_TOP] = top
                    _open_frame(top, p, frames)
                    continue
            _restore(lvl, j, i, run, frames)
            continue
        if cc[lvl] < ncand[lvl]:
            x = cand[lvl, cc[lvl]]
            cc[lvl] += 1
            i = y_pos[lvl]
            y = order[i]
            if lvl > 0:  # below the first tuck, covered arcs only
                y_parents = _parents(y, node, pool)
                if not _covered(x, y_parents, node, pool):
                    continue
            j = pos[x]
            x_of[lvl] = x
            j_of[lvl] = j
            _save(lvl, j, i, run, frames)
            if tuck(j, i, run, pool):
                state[_PENDING] = 1
            else:
                _restore(lvl, j, i, run, frames)
            continue
        if ii[lvl] < p:
            i = perm[lvl, ii[lvl]]
            ii[lvl] += 1
            y_pos[lvl] = i
            y_parents = _parents(order[i], node, pool)
            m = y_parents.shape[0]
            cand[lvl, :m] = y_parents
            _shuffle(cand[lvl], m, rng)
            ncand[lvl] = m
            cc[lvl] = 0
            continue
        if lvl == 0:
            state[_TOP] = -1
            return SETTLED, 0
        # the chain below this tuck found nothing: undo the tuck that opened the frame
        lvl -= 1
        state[_TOP] = lvl
        _restore(lvl, j_of[lvl], y_pos[lvl], run, frames)
