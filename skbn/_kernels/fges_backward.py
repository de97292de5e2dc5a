# SPDX-License-Identifier: BSD-3-Clause
"""The backward phase of GES / FGES (Delete operators) over a CPDAG held in arrays.

The CPDAG is the forward kernel's neighbour table (:mod:`skbn._kernels.fges`); after each
deletion it is restored by the same ``rebuild``. Delete(x, y, H) operators wait in a
binary heap ordered by (minus the score gain, a running count). Each pair (x, y) keeps the
configuration it was last evaluated under (NA_yx = y's neighbours adjacent to x, and y's
parents, each sorted) in an append-only pool, found through a hash table keyed by the
pair; an operator whose configuration has changed when it is popped is evaluated again.

The kernel scores families itself from a Gaussian likelihood score (the forward kernel's
:data:`~skbn._kernels.fges.Scoring`), reading a family from the forward phase's score table
when it is there: no pause and no Python per operator. The order of work is fixed: pairs
by increasing child, then parent; the nodes touched by a deletion in increasing order, each
one's neighbours in increasing order; subsets H of NA_yx by their bit mask, the first of
equal gains kept; operators of equal gain in the order they were evaluated.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from skbn._kernels.fges import (
    CENTRED_GAUSSIAN,
    DENSE_GAUSSIAN,
    PARENT,
    UNDIRECTED,
    InlineScoring,
    _drop,
    _gather,
    _is_clique,
    _kind,
    _merge,
    _mix,
    _stamp,
    _with,
    add_arc,
    operator_seeds,
    rebuild,
    score_find,
)
from skbn._kernels.gaussian import centred_loglik, gaussian_loglik

#: The search's fixed parts: the CPDAG (``Graph``), knowledge for ``rebuild``, the forward
#: phase's score table (or an empty one), the control array (stamps), a mark per variable,
#: ``rebuild``'s work lists, and the scoring.
Backward = namedtuple(
    "Backward", ["graph", "know", "scores", "ctl", "mark", "work", "gauss", "seeds"]
)
#: What grows: the pair table (``keys``, ``vals``: the configuration's offset, -1 when
#: none), the integer pool of configurations and sets H, the heap (``hkey``: minus the
#: gain; ``hint``: count, x, y, H's offset and length, the configuration's offset), the
#: counters ``bc`` and scratch.
State = namedtuple("State", ["keys", "vals", "pool", "hkey", "hint", "bc", "cfg", "sub"])

# slots of ``bc``
B_POOL, B_HEAP, B_COUNTER, B_DELETES = 0, 1, 2, 3
# columns of ``hint``
H_COUNT, H_X, H_Y, H_OFF, H_LEN, H_CFG = 0, 1, 2, 3, 4, 5
# what an evaluation needs before it can store anything
_OK, _NEED_POOL, _NEED_HEAP = 0, 1, 2


@njit(cache=True, inline="always")
def _slot(keys, key):
    """The pair table's slot of ``key``: where it is, or the empty slot it would take."""
    mask = np.uint64(keys.shape[0] - 1)
    s = _mix(np.uint64(key)) & mask
    while keys[s] != key and keys[s] != -1:
        s = (s + np.uint64(1)) & mask
    return np.int64(s)


@njit(cache=True, inline="always")
def _delete_config(graph, x, y, cfg, mark, ctl):
    """Write Delete(x, y)'s configuration into ``cfg``: [#NA, #Pa, NA, Pa]; its length."""
    nbr, knd, deg = graph
    ne = cfg[2 + nbr.shape[1] + 1 :]  # scratch beyond the configuration
    m = _gather(nbr, knd, deg, y, UNDIRECTED, ne, 0)
    s = _stamp(ctl, mark)
    for k in range(deg[x]):
        mark[nbr[x, k]] = s
    n_na = 0
    for a in range(m):
        if mark[ne[a]] == s:
            cfg[2 + n_na] = ne[a]
            n_na += 1
    n_pa = _gather(nbr, knd, deg, y, PARENT, cfg, 2 + n_na)
    cfg[0], cfg[1] = n_na, n_pa
    return 2 + n_na + n_pa


@njit(cache=True, inline="always")
def _same(pool, off, cfg, m):
    for a in range(m):
        if pool[off + a] != cfg[a]:
            return False
    return True


@njit(cache=True, inline="always")
def _score(b, y, nodes, m):
    """The family (y, nodes[:m] sorted): from the score table, or computed here."""
    table = b.scores
    e = table.slots[score_find(table, y, nodes, m)]
    if e >= 0:
        return table.value[e]
    kind, cov, X, means, n, per_param, block, members, columns = b.gauss
    parents = nodes[:m].astype(np.int64)
    if kind == DENSE_GAUSSIAN:
        ll = gaussian_loglik(cov, n, np.int64(y), parents)
    else:
        ll = centred_loglik(X, means, n, np.int64(y), parents, block, members, columns)
    return ll - per_param * (np.float64(m) + 2.0)


@njit(cache=True)
def _before(hkey, hint, a, c):
    return hkey[a] < hkey[c] or (hkey[a] == hkey[c] and hint[a, H_COUNT] < hint[c, H_COUNT])


@njit(cache=True)
def _swap(hkey, hint, a, c):
    hkey[a], hkey[c] = hkey[c], hkey[a]
    for j in range(hint.shape[1]):
        hint[a, j], hint[c, j] = hint[c, j], hint[a, j]


@njit(cache=True)
def _push(st, key, x, y, h_off, h_len, cfg_off):
    hkey, hint, bc = st.hkey, st.hint, st.bc
    i = bc[B_HEAP]
    bc[B_HEAP] += 1
    hkey[i] = key
    hint[i, H_COUNT] = bc[B_COUNTER]
    bc[B_COUNTER] += 1
    hint[i, H_X], hint[i, H_Y] = x, y
    hint[i, H_OFF], hint[i, H_LEN], hint[i, H_CFG] = h_off, h_len, cfg_off
    while i > 0:
        up = (i - 1) // 2
        if not _before(hkey, hint, i, up):
            break
        _swap(hkey, hint, i, up)
        i = up


@njit(cache=True)
def _pop(st):
    """Move the best operator to the end of the heap; its row."""
    hkey, hint, bc = st.hkey, st.hint, st.bc
    last = bc[B_HEAP] - 1
    _swap(hkey, hint, 0, last)
    bc[B_HEAP] = last
    i = 0
    while True:
        a, c = 2 * i + 1, 2 * i + 2
        top = i
        if a < last and _before(hkey, hint, a, top):
            top = a
        if c < last and _before(hkey, hint, c, top):
            top = c
        if top == i:
            return last
        _swap(hkey, hint, i, top)
        i = top


@njit(cache=True, inline="always")
def _calc_delete(x, y, b, st):
    """FGES's calc_delete(x, y): 0, or what must grow before it can store anything."""
    graph = b.graph
    nbr, knd, deg = graph
    kind = _kind(nbr, knd, deg, y, x)
    if kind != PARENT and kind != UNDIRECTED:
        return _OK  # x is neither a parent nor a neighbour of y
    cfg = st.cfg
    m = _delete_config(graph, x, y, cfg, b.mark, b.ctl)
    key = np.int64(x) * deg.shape[0] + y
    s = _slot(st.keys, key)
    if st.keys[s] == key and st.vals[s] >= 0 and _same(st.pool, st.vals[s], cfg, m):
        return _OK
    n_na, n_pa = cfg[0], cfg[1]
    if st.bc[B_POOL] + m + n_na > st.pool.shape[0]:
        return _NEED_POOL
    if st.bc[B_HEAP] + 1 > st.hkey.shape[0]:
        return _NEED_HEAP
    off = st.bc[B_POOL]
    st.pool[off : off + m] = cfg[:m]
    st.bc[B_POOL] += m
    st.keys[s] = key
    st.vals[s] = off
    na = cfg[2 : 2 + n_na]
    sub = st.sub
    cap = (sub.shape[0] - 1) // 3
    rest, cond, with_x = sub[:cap], sub[cap : 2 * cap], sub[2 * cap :]
    # y's parents but x: merged with each NA \ H below (both sorted)
    base = np.empty(n_pa, dtype=np.int32)
    n_base = 0
    for a in range(n_pa):
        if cfg[2 + n_na + a] != x:
            base[n_base] = cfg[2 + n_na + a]
            n_base += 1
    best = 0.0
    best_mask = np.int64(-1)
    for mask in range(np.int64(1) << n_na):
        n_rest = 0
        for a in range(n_na):
            if not mask >> a & 1:
                rest[n_rest] = na[a]
                n_rest += 1
        if not _is_clique(nbr, knd, deg, rest, n_rest):
            continue
        n_cond = _merge(rest, n_rest, base, n_base, cond)
        n_with = _with(cond, n_cond, x, with_x)
        bump = _score(b, y, cond, n_cond) - _score(b, y, with_x, n_with)
        if bump > best:
            best = bump
            best_mask = mask
    if best_mask < 0:
        return _OK
    h_off = st.bc[B_POOL]
    n_h = 0
    for a in range(n_na):
        if best_mask >> a & 1:
            st.pool[h_off + n_h] = na[a]
            n_h += 1
    st.bc[B_POOL] += n_h
    _push(st, -best, x, y, h_off, n_h, off)
    return _OK


@njit(cache=True)
def _grown(st, need):
    """``st`` with its pool or its heap twice as large."""
    if need == _NEED_POOL:
        pool = np.empty(2 * st.pool.shape[0], dtype=np.int32)
        pool[: st.pool.shape[0]] = st.pool
        return State(st.keys, st.vals, pool, st.hkey, st.hint, st.bc, st.cfg, st.sub)
    size = 2 * st.hkey.shape[0]
    hkey = np.empty(size, dtype=np.float64)
    hkey[: st.hkey.shape[0]] = st.hkey
    hint = np.empty((size, st.hint.shape[1]), dtype=np.int64)
    hint[: st.hint.shape[0]] = st.hint
    return State(st.keys, st.vals, st.pool, hkey, hint, st.bc, st.cfg, st.sub)


@njit(cache=True, inline="always")
def _calc(x, y, b, st):
    while True:
        need = _calc_delete(x, y, b, st)
        if need == _OK:
            return st
        st = _grown(st, need)


@njit(cache=True)
def _touch(v, b, st, nb):
    """calc_delete both ways between ``v`` and each of its neighbours (in order)."""
    nbr, knd, deg = b.graph
    m = _gather(nbr, knd, deg, v, 0, nb, 0)
    for a in range(m):
        st = _calc(nb[a], v, b, st)
        st = _calc(v, nb[a], b, st)
    return st


@njit(cache=True)
def backward(b, st):
    """Delete edges from the CPDAG while a Delete operator raises the score, best first.

    Returns the state (its arrays may have been enlarged); ``st.bc[B_DELETES]`` counts the
    deletions. The CPDAG in ``b.graph`` is changed in place.
    """
    graph, seeds = b.graph, b.seeds
    nbr, knd, deg = graph
    p = deg.shape[0]
    kind, cov, X, means, n, per_param = b.gauss
    size = nbr.shape[1] + 2
    scoring = InlineScoring(
        kind,
        cov,
        X,
        means,
        n,
        per_param,
        np.empty((size, size)),
        np.empty(size, dtype=np.int64),
        np.empty((size, X.shape[0]) if kind == CENTRED_GAUSSIAN else (1, 1)),
    )
    b = Backward(graph, b.know, b.scores, b.ctl, b.mark, b.work, scoring, seeds)
    nb = np.empty(nbr.shape[1], dtype=np.int32)
    for y in range(p):
        m = 0
        for k in range(deg[y]):
            if knd[y, k] == PARENT or knd[y, k] == UNDIRECTED:
                nb[m] = nbr[y, k]
                m += 1
        nb[:m].sort()
        for a in range(m):
            st = _calc(nb[a], y, b, st)
    touched = np.empty(p + nbr.shape[1] + 2, dtype=np.int32)
    mark = b.mark
    while st.bc[B_HEAP] > 0:
        i = _pop(st)
        x, y = st.hint[i, H_X], st.hint[i, H_Y]
        h_off, n_h, cfg_off = st.hint[i, H_OFF], st.hint[i, H_LEN], st.hint[i, H_CFG]
        s = _slot(st.keys, np.int64(x) * p + y)
        if st.keys[s] >= 0:
            st.vals[s] = -1
        kind = _kind(nbr, knd, deg, y, x)
        if kind != PARENT and kind != UNDIRECTED:
            continue
        m = _delete_config(graph, x, y, st.cfg, mark, b.ctl)
        if not _same(st.pool, cfg_off, st.cfg, m):
            st = _calc(x, y, b, st)
            continue
        # NA \ H must still be a clique
        n_na = st.pool[cfg_off]
        rest = st.sub
        n_rest = 0
        for a in range(n_na):
            u = st.pool[cfg_off + 2 + a]
            inside = False
            for c in range(n_h):
                if st.pool[h_off + c] == u:
                    inside = True
                    break
            if not inside:
                rest[n_rest] = u
                n_rest += 1
        if not _is_clique(nbr, knd, deg, rest, n_rest):
            continue
        # the seeds: x, y, H and the nodes adjacent to both before the deletion
        n_seeds = operator_seeds(graph, x, y, st.pool[h_off : h_off + n_h], seeds, mark, b.ctl)
        _drop(nbr, knd, deg, x, y)
        _drop(nbr, knd, deg, y, x)
        for c in range(n_h):
            h = st.pool[h_off + c]
            if _kind(nbr, knd, deg, y, h) == UNDIRECTED:
                add_arc(nbr, knd, deg, y, h)
            if _kind(nbr, knd, deg, x, h) == UNDIRECTED:
                add_arc(nbr, knd, deg, x, h)
        st.bc[B_DELETES] += 1
        n_changed = rebuild(seeds, n_seeds, graph, b.know, mark, b.ctl, b.work)
        # the nodes to revisit: the changed ones, x, y and H, each once, in order
        n_t = 0
        for a in range(n_changed):
            touched[n_t] = b.work.process[a]
            n_t += 1
        touched[n_t], touched[n_t + 1] = x, y
        n_t += 2
        for c in range(n_h):
            touched[n_t] = st.pool[h_off + c]
            n_t += 1
        touched[:n_t].sort()
        for a in range(n_t):
            if a == 0 or touched[a] != touched[a - 1]:
                st = _touch(touched[a], b, st, nb)
    return st
