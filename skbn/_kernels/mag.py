# SPDX-License-Identifier: BSD-3-Clause
"""The MAG over the measured nodes of a DAG with latents, pair by candidate pair.

Two measured nodes are adjacent in the MAG when no measured set separates them; Richardson
and Spirtes (2002) show that one set decides it, the measured ancestors of the pair, and
that the pair is then joined by an inducing path (every inner node a collider or latent,
every collider an ancestor of an end). Testing every pair costs ``p`` squared searches; here
a first search from each node ``a`` lists the only nodes an inducing path can reach (inner
measured nodes entered and left by arrowheads, latents passed freely), and each of those
alone is tested by d-separation given the measured ancestors of the pair.

The DAG comes as a :data:`Dag`: two CSR lists, ``pptr``/``pars`` each node's parents and
``cptr``/``chs`` its children.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

Dag = namedtuple("Dag", ["pptr", "pars", "cptr", "chs"])


@njit(cache=True)
def _mark_ancestors(pptr, pars, v, mark, epoch, out):
    """``mark[u] = epoch`` for the ancestors of ``v`` (itself included); their count.

    The ancestors are written to ``out`` from its start.
    """
    mark[v] = epoch
    out[0] = v
    n = 1
    head = 0
    while head < n:
        t = out[head]
        head += 1
        for k in range(pptr[t], pptr[t + 1]):
            s = pars[k]
            if mark[s] != epoch:
                mark[s] = epoch
                out[n] = s
                n += 1
    return n


@njit(cache=True)
def _candidates(dag, is_obs, a, seen, stack):
    """Measured nodes ``b > a`` that an inducing path from ``a`` could reach.

    A search over (node, arrived by an arrowhead) states in which a measured inner node
    passes only as a collider (in by an arrowhead, out to a parent) and a latent passes
    either way; the ancestor condition on colliders is left to the exact test. ``seen``
    (length ``2 p``) must be all False; it is reset before returning.
    """
    pptr, pars, cptr, chs = dag
    found = []
    top = 0
    touched = []
    for k in range(cptr[a], cptr[a + 1]):
        w = chs[k]
        stack[top] = 2 * w + 1
        top += 1
    for k in range(pptr[a], pptr[a + 1]):
        w = pars[k]
        stack[top] = 2 * w
        top += 1
    while top > 0:
        top -= 1
        state = stack[top]
        if seen[state]:
            continue
        seen[state] = True
        touched.append(state)
        v = state // 2
        if v == a:
            continue
        if is_obs[v]:
            if state % 2 == 1:
                for k in range(pptr[v], pptr[v + 1]):
                    stack[top] = 2 * pars[k]
                    top += 1
            continue
        for k in range(pptr[v], pptr[v + 1]):
            stack[top] = 2 * pars[k]
            top += 1
        for k in range(cptr[v], cptr[v + 1]):
            stack[top] = 2 * chs[k] + 1
            top += 1
    for state in touched:
        v = state // 2
        if is_obs[v] and v > a and (state % 2 == 1 or not seen[2 * v + 1]):
            found.append(v)
    for state in touched:
        seen[state] = False
    return found


@njit(cache=True)
def _connected(dag, a, b, in_z, anc_z, seen, stack):
    """Whether ``a`` and ``b`` are d-connected given the set ``in_z``.

    Reachability over (node, arrived by an arrowhead) states: a non-collider passes when
    it is not in ``in_z``, a collider when ``anc_z`` (ancestors of the set) holds it.
    ``seen`` (length ``2 p``) must be all False; it is reset before returning.
    """
    pptr, pars, cptr, chs = dag
    top = 0
    touched = []
    for k in range(cptr[a], cptr[a + 1]):
        stack[top] = 2 * chs[k] + 1
        top += 1
    for k in range(pptr[a], pptr[a + 1]):
        stack[top] = 2 * pars[k]
        top += 1
    hit = False
    while top > 0:
        top -= 1
        state = stack[top]
        if seen[state]:
            continue
        seen[state] = True
        touched.append(state)
        v = state // 2
        if v == b:
            hit = True
            break
        if v == a:
            continue
        if not in_z[v]:
            # a non-collider: on to the children, and to the parents when entered by a tail
            for k in range(cptr[v], cptr[v + 1]):
                stack[top] = 2 * chs[k] + 1
                top += 1
            if state % 2 == 0:
                for k in range(pptr[v], pptr[v + 1]):
                    stack[top] = 2 * pars[k]
                    top += 1
        if state % 2 == 1 and anc_z[v]:
            for k in range(pptr[v], pptr[v + 1]):
                stack[top] = 2 * pars[k]
                top += 1
    for state in touched:
        seen[state] = False
    return hit


@njit(cache=True)
def mag_edges(dag, is_obs):
    """The MAG's edges over the measured nodes: rows ``(a, b, tail_at_a, tail_at_b)``.

    ``a < b`` are node indices of the DAG; ``tail_at_a`` says that ``a`` is an ancestor
    of ``b`` (an arrowhead at ``a`` otherwise), and likewise for ``b``.
    """
    pptr, pars, cptr, chs = dag
    p = is_obs.shape[0]
    mark_a = np.zeros(p, dtype=np.int64)
    mark_b = np.zeros(p, dtype=np.int64)
    list_a = np.empty(p, dtype=np.int64)
    list_b = np.empty(p, dtype=np.int64)
    in_z = np.zeros(p, dtype=np.bool_)
    anc_z = np.zeros(p, dtype=np.bool_)
    zlist = np.empty(p, dtype=np.int64)
    adjacent = np.zeros(p, dtype=np.int64)
    seen = np.zeros(2 * p, dtype=np.bool_)
    stack = np.empty(2 * (pptr[p] + cptr[p]) + 2 * p + 2, dtype=np.int64)
    rows = []
    epoch = 0
    epoch_b = 0
    for a in range(p):
        if not is_obs[a]:
            continue
        epoch += 1
        n_a = _mark_ancestors(pptr, pars, a, mark_a, epoch, list_a)
        for k in range(pptr[a], pptr[a + 1]):
            adjacent[pars[k]] = epoch
            if is_obs[pars[k]] and pars[k] > a:
                rows.append((a, pars[k], False, True))
        for k in range(cptr[a], cptr[a + 1]):
            adjacent[chs[k]] = epoch
            if is_obs[chs[k]] and chs[k] > a:
                rows.append((a, chs[k], True, False))
        for b in _candidates(dag, is_obs, a, seen, stack):
            if adjacent[b] == epoch:
                continue
            epoch_b += 1
            n_b = _mark_ancestors(pptr, pars, b, mark_b, epoch_b, list_b)
            # Z: the measured ancestors of the pair but the pair; then the ancestors of Z
            n_z = 0
            for i in range(n_a + n_b):
                u = list_a[i] if i < n_a else list_b[i - n_a]
                if is_obs[u] and u != a and u != b and not in_z[u]:
                    in_z[u] = True
                    anc_z[u] = True
                    zlist[n_z] = u
                    n_z += 1
            n_anc = n_z
            head = 0
            while head < n_anc:
                t = zlist[head]
                head += 1
                for k in range(pptr[t], pptr[t + 1]):
                    s = pars[k]
                    if not anc_z[s]:
                        anc_z[s] = True
                        zlist[n_anc] = s
                        n_anc += 1
            if _connected(dag, a, b, in_z, anc_z, seen, stack):
                rows.append((a, b, mark_b[a] == epoch_b, mark_a[b] == epoch))
            for i in range(n_anc):
                in_z[zlist[i]] = False
                anc_z[zlist[i]] = False
    return rows
